"""Seats as people call them: the host page picks a seat setting (Cheating Moth's first guard, M3) by
the seat's colour and name, the phones' lobby names it the same way, and a number shown for a seat
starts at 1. Screenshots of the host's seat picker go to out/phone/."""
from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import Phones, Table
from .phone import host_console, join
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

NAMES = {"fa": ("سارا", "علی", "نیلوفر"), "th": ("นก", "สมชาย", "มะลิ")}


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_M3_the_first_guard_is_picked_and_shown_by_name(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    table.host("set_game", game="cheating_moth")
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES[lang]):
        join(page, name)
    host = host_console(table, phones, lang)
    picker = host.locator("[data-testid=setting-first_guard-2]")
    assert NAMES[lang][2] in picker.inner_text()
    picker.click()  # the host picks Niloufar's seat: the third seat (index 2), as the TV names it
    host.wait_for_selector("[data-testid=setting-first_guard-2][aria-pressed=true]")
    assert table.call(lambda s: s.table.settings["first_guard"]) == 2
    shoot(host, shots, lang, "host_first_guard")
    picker.locator("xpath=../..").screenshot(path=str(shots / f"{lang}_host_first_guard_field.png"))
    # The phones' lobby says the name too, never "۲" / "2" (let alone "صفر" for the first seat).
    pages[0].click(".settings summary")
    assert NAMES[lang][2] in pages[0].inner_text(".settings dl")
