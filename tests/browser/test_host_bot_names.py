"""The host console names a bot the way the TV and the phones do: its seat's colour in the table's
language with the robot mark ("Yellow", "زرد", "เหลือง"), its level ("bot | hard"; a tests-only
kind by its word, "bot | random") only below it, in the lobby and during the game; its menu offers
the levels by name and stores the level's kind. Screenshots: out/phone/<lang>_host_bots.png."""
from __future__ import annotations

from pathlib import Path

import pytest

from game import i18n
from game.seating import bot_name

from .conftest import Phones, Table
from .phone import host_console, join

pytestmark = pytest.mark.browser

KINDS = {1: "random", 2: "heuristic", 3: "search"}
LABELS = {"random": "bot.random", "heuristic": "bot.level.easy", "search": "bot.level.hard"}


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_host_console_names_bots_by_their_seat_colour(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    for seat, kind in KINDS.items():
        table.host("set_bot", seat=seat, kind=kind)
    join(phones.open(table.seat_url(0)), "Sara")
    host = host_console(table, phones, lang)
    for phase in ("lobby", "playing"):
        for seat, kind in KINDS.items():
            name = host.locator(".host .seat-list .seat-row").nth(seat).locator(".seat-row-name")
            assert name.inner_text().strip() == bot_name(seat, lang), phase  # the TV's name for it
            assert name.locator(".bot-mark").count() == 1
            detail = host.inner_text(f"[data-testid=bot-kind-{seat}]")
            assert i18n.text(lang, "web", LABELS[kind]) in detail
            assert i18n.text(lang, "web", "lobby.bot") in detail
        assert host.locator(".host .seat-list .seat-row-name").first.inner_text().strip() == "Sara"
        if phase == "lobby":
            menu = host.locator(".host .seat-list .seat-row").nth(4).locator("select")  # a free seat's bot menu
            assert menu.locator("option").all_inner_texts() == [
                i18n.text(lang, "web", key) for key in ("host.no_bot", "bot.level.easy", "bot.level.normal", "bot.level.hard")]
            menu.select_option(label=i18n.text(lang, "web", "bot.level.normal"))
            host.wait_for_function("() => document.querySelector('[data-testid=bot-kind-4]') !== null")
            assert i18n.text(lang, "web", "bot.level.normal") in host.inner_text("[data-testid=bot-kind-4]")
            host.evaluate("window.scrollTo(0, 0)")
            host.screenshot(path=str(shots / f"{lang}_host_bots.png"), full_page=True, animations="disabled")
            table.host("set_setting", name="how_to_play", value=False)
            host.click("[data-testid=host-start]")
            host.wait_for_selector("[data-testid=host-start]", state="detached")
