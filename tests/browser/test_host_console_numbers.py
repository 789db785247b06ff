"""The host console's number settings in the page's digits (a Persian host sees ۱۰ and may type
Persian, Arabic-Indic, Thai or Latin digits); what is not a number gets a clear error and changes
nothing. A bot's seat shows no join code (only a named join with the host's yes takes it), a free
seat does, in the lobby and mid-game. Screenshots: out/phone/<lang>_host_numbers.png, <lang>_host_seat_codes[_playing].png."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from game import i18n

from .conftest import Phones, Table, sync_api
from .phone import host_console, join

pytestmark = pytest.mark.browser

PAGE_DIGITS = {"en": "0123456789", "fa": "۰۱۲۳۴۵۶۷۸۹", "th": "0123456789"}
TYPED = {"persian": "۰۱۲۳۴۵۶۷۸۹", "arabic": "٠١٢٣٤٥٦٧٨٩", "thai": "๐๑๒๓๔๕๖๗๘๙", "latin": "0123456789"}


def in_digits(n: int, digits: str) -> str:
    return "".join(digits[int(d)] for d in str(n))


def setting(table: Table, name: str) -> Any:
    return table.call(lambda session: session.table.settings[name])


def enter(host: Any, name: str, text: str) -> str:
    """Type ``text`` into a setting's field, leave it, and return the error shown under it."""
    field = host.locator(f"[data-testid=setting-{name}]")
    field.fill(text)
    field.press("Enter")
    host.locator("h2.card-title").first.click()  # leaving the field commits it
    return host.inner_text(f"[data-testid=setting-{name}-error]").strip()


def commit(host: Any, table: Table, name: str, typed: str, shown: str) -> None:
    """Type a good number and wait for the page to draw the table's answer: ``shown``, in a new field."""
    host.evaluate(f"document.querySelector('[data-testid=setting-{name}]').dataset.stale = 'yes'")
    assert enter(host, name, typed) == "", typed
    host.wait_for_function(f"(f => f && !f.dataset.stale && f.value === '{shown}')"
                           f"(document.querySelector('[data-testid=setting-{name}]'))")


def values_sent_back(frames: list[dict[str, Any]], name: str) -> set[int]:
    """Every value of setting ``name`` in the states the table sent the host console."""
    return {int(v) for v in re.findall(rf'"{name}": (-?\d+)', "\n".join(json.dumps(f) for f in frames))}


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_host_number_settings_use_the_page_s_digits_and_refuse_what_is_not_a_number(
        lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    frames: list[dict[str, Any]] = []
    host = host_console(table, phones, lang, frames)
    score = setting(table, "target_score")
    field = host.locator("[data-testid=setting-target_score]")
    assert field.input_value() == in_digits(score, PAGE_DIGITS[lang])
    seconds = setting(table, "conspiracy_ms") // 1000
    assert host.locator("[data-testid=setting-conspiracy_ms]").input_value() == in_digits(seconds, PAGE_DIGITS[lang])

    for k, (script, digits) in enumerate(TYPED.items()):
        wanted = 11 + k
        commit(host, table, "target_score", in_digits(wanted, digits), in_digits(wanted, PAGE_DIGITS[lang]))
        assert setting(table, "target_score") == wanted, script
    commit(host, table, "conspiracy_ms", in_digits(95, TYPED["persian"]), in_digits(95, PAGE_DIGITS[lang]))
    assert setting(table, "conspiracy_ms") == 95_000

    before = setting(table, "target_score")
    frames.clear()
    for typed, error in (("ten", "whole"), ("۱۲x", "whole"), ("", "whole"), ("1.5", "whole"), ("-3", "negative"),
                         ("−۳", "negative")):
        assert enter(host, "target_score", typed) == i18n.text(lang, "web", f"host.setting_error.{error}"), typed
    assert enter(host, "conspiracy_ms", "soon") == i18n.text(lang, "web", "host.setting_error.seconds")
    commit(host, table, "target_score", "20", in_digits(20, PAGE_DIGITS[lang]))  # the socket is in order:
    assert values_sent_back(frames, "target_score") <= {before, 20}  # nothing refused reached the table before it
    assert setting(table, "conspiracy_ms") == 95_000
    assert enter(host, "conspiracy_ms", "soon") == i18n.text(lang, "web", "host.setting_error.seconds")
    # the refused text and its error stay through a redraw (a phone joining) until corrected
    join(phones.open(table.seat_url(0)), {"en": "Ali", "fa": "علی", "th": "สมชาย"}[lang])
    host.wait_for_selector(".seat-row.status-joined")
    assert host.locator("[data-testid=setting-conspiracy_ms]").input_value() == "soon"
    assert host.inner_text("[data-testid=setting-conspiracy_ms-error]").strip() == i18n.text(lang, "web", "host.setting_error.seconds")
    settings_card = host.locator("section.card", has=host.locator("[data-testid=setting-target_score]"))
    settings_card.screenshot(path=str(shots / f"{lang}_host_numbers.png"), animations="disabled")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_bot_s_seat_shows_no_join_code_but_a_free_seat_does(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    table.host("set_seats", count=4)
    table.host("set_bot", seat=1, kind="random")
    table.host("set_bot", seat=2, kind="heuristic")
    join(phones.open(table.seat_url(0)), {"en": "Mia", "fa": "نیلوفر"}[lang])
    host = host_console(table, phones, lang)
    rows = host.locator(".host .seat-list .seat-row")
    for seat in (1, 2):
        assert rows.nth(seat).locator(".seat-code").count() == 0, seat
    assert rows.nth(3).locator(".seat-code").inner_text() == table.seat_code(3)  # free: its code to type at /join
    seats_card = host.locator("section.card", has=host.locator(".seat-list"))
    seats_card.screenshot(path=str(shots / f"{lang}_host_seat_codes.png"), animations="disabled")
    table.host("set_setting", name="how_to_play", value=False)
    host.click("[data-testid=host-start]")
    host.wait_for_selector("[data-testid=host-start]", state="detached")
    bots = table.call(lambda session: [r.seat for r in session.table.seats if r.bot is not None])
    assert {1, 2} <= set(bots)
    for seat in bots:
        assert rows.nth(seat).locator(".seat-code").count() == 0, ("mid-game", seat)
    for _ in range(5):  # mid-game the page redraws at every move: take the card between two redraws
        try:
            seats_card.screenshot(path=str(shots / f"{lang}_host_seat_codes_playing.png"), animations="disabled")
            break
        except sync_api.Error:
            continue
