"""Getting going as groups met it (fa, th): Start on the host page does what Enter on the TV does —
free seats get bots where the game has bots, and the page says so; in a game without bots (companion
Cheating Moth) the page offers no bots, says exactly what is missing and Start waits; freeing a seat
mid-game there says what it does (no bot: the seat waits for a person) and does it."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Phones, Table
from .phone import host_console, join
from .test_cheating_moth_companion_phones import phone_text
from .test_cheating_moth_phones import wait_until
from .test_group_pad import NAMES
from .test_screenshots import shoot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_start_fills_free_seats_with_bots_and_says_so(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    table.host("set_seats", count=6)
    join(phones.open(table.seat_url(0)), NAMES[lang][0])
    host = host_console(table, phones, lang)
    hint = host.locator("[data-testid=start-hint]")
    assert hint.inner_text() == phone_text(lang, "host.start_bots.other", n="{n}").replace("{n}", host.evaluate(
        "n => new Intl.NumberFormat(document.documentElement.lang === 'fa' ? 'fa-IR' : 'th-TH').format(n)", 5))
    shoot(host, shots, lang, "host_start_bots")
    host.click("[data-testid=host-start]")
    wait_until(host, lambda: table.snapshot().phase.value == "playing", "the game starts with bots")
    assert sum(1 for s in table.snapshot().seats if s.bot) == 5


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_a_game_without_bots_says_what_is_missing_and_frees_a_seat_for_a_person(lang: str, table: Table, phones: Phones,
                                                                                shots: Path) -> None:
    table.host("set_language", language=lang)
    table.host("set_game", game="cheating_moth")
    table.host("set_mode", mode="companion")
    table.host("set_seats", count=4)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES[lang]):
        join(page, name)
    host = host_console(table, phones, lang)
    host.wait_for_selector("[data-testid=start-hint]")
    assert host.locator("[data-testid=host-start][disabled]").count() == 1  # Start waits, as Enter does
    assert host.locator("text=" + phone_text(lang, "host.fill_bots")).count() == 0  # never offers bots
    assert host.locator(".seat-list select").count() == 0
    assert "−" in host.inner_text("[data-testid=start-hint]")
    shoot(host, shots, lang, "host_start_people")
    host.get_by_role("button", name="−").click()  # the free seat goes: every seat is a person's
    host.wait_for_selector("[data-testid=host-start]:not([disabled])")
    host.click("[data-testid=host-start]")
    wait_until(host, lambda: table.snapshot().phase.value == "playing", "the game starts")
    # Mid-game, "Free seat" says what it does here (no bot plays on), and does it.
    dialogs: list[str] = []
    host.once("dialog", lambda d: (dialogs.append(d.message), d.accept()))
    host.click("[data-testid=kick-2]")
    wait_until(host, lambda: not table.snapshot().seats[2].name, "the seat is free")
    assert dialogs and dialogs[0] == phone_text(lang, "host.kick_confirm_people", name=NAMES[lang][2])
    seat = table.snapshot().seats[2]
    assert seat.bot is None and table.snapshot().phase.value == "playing"
    assert table.snapshot().lobby.host_error is None
    newcomer = phones.open(table.seat_url(2))
    newcomer.wait_for_selector("[data-testid=name-input]")
    newcomer.fill("[data-testid=name-input]", "Dara")
    newcomer.click("[data-testid=name-go]")
    wait_until(newcomer, lambda: table.snapshot().seats[2].name == "Dara", "a person takes the seat")
