"""Languages on the phone: the table's language by default, switchable per phone (and remembered),
Persian right-to-left, and every script drawn with the table's own Noto fonts."""
from __future__ import annotations

from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join

pytestmark = pytest.mark.browser


def pick_language(page: Any, lang: str | None) -> None:
    page.click("[data-testid=lang-btn]")
    page.click(f".sheet-option[lang={lang}]" if lang else ".sheet-option:not([lang])")


def test_persian_is_right_to_left(table: Table, phones: Phones) -> None:
    table.host("set_language", language="fa")
    page = phones.open(table.seat_url(0))
    join(page, "سارا")
    assert page.evaluate("[document.documentElement.lang, document.documentElement.dir]") == ["fa", "rtl"]
    assert page.evaluate("getComputedStyle(document.querySelector('main')).direction") == "rtl"
    # Mirrored layout: your seat sits at the right of the top bar, the language button at the left.
    who_x, button_x = page.evaluate(
        "['.who', '[data-testid=lang-btn]'].map(s => document.querySelector(s).getBoundingClientRect().x)")
    assert who_x > button_x
    assert "منتظر شروع بازی" in page.inner_text("[data-testid=waiting]")

    table.host("fill_bots", kind="random")
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("start")
    page.wait_for_selector(".vote-grid")
    # Read both positions at once (a new state from the table redraws the cards).
    first_x, second_x = page.evaluate(
        "[...document.querySelectorAll('.vote-grid .vote-card')].slice(0, 2).map(c => c.getBoundingClientRect().x)")
    assert first_x > second_x  # the first card is on the right
    # Numbers in Persian digits: "دور ۱ · رأی‌گیری ۱".
    assert "۱" in page.inner_text(".status-where")
    # The Persian text is drawn with Noto Sans Arabic, served by the table (no tofu boxes).
    assert page.evaluate("document.fonts.check('16px \"Table Sans\"', 'رأی بدهید')")
    loaded = page.evaluate("[...document.fonts].filter(f => f.status === 'loaded').map(f => f.unicodeRange).join(' ')")
    assert "U+600-6FF" in loaded.upper()


def test_each_phone_picks_its_own_language(table: Table, phones: Phones) -> None:
    sara = phones.open(table.seat_url(0))
    nok = phones.open(table.seat_url(1))
    join(sara, "Sara")
    join(nok, "Nok")
    pick_language(nok, "th")
    nok.wait_for_function("document.documentElement.lang === 'th'")
    assert "รอโฮสต์เริ่มเกม" in nok.inner_text("[data-testid=waiting]")
    assert sara.evaluate("document.documentElement.lang") == "en"  # the other phone keeps its own
    # The table remembers the phone's language, and so does the phone across a reload.
    for _ in range(50):
        if table.snapshot().seats[1].language == "th":
            break
        nok.wait_for_timeout(50)
    assert table.snapshot().seats[1].language == "th"
    nok.reload()
    nok.wait_for_selector("[data-testid=waiting]")
    assert nok.evaluate("document.documentElement.lang") == "th"

    # A phone following the table changes with it; a phone with its own choice does not.
    table.host("set_language", language="fa")
    sara.wait_for_function("document.documentElement.lang === 'fa'")
    assert nok.evaluate("document.documentElement.lang") == "th"
    pick_language(nok, None)  # back to "same as the table"
    nok.wait_for_function("document.documentElement.lang === 'fa'")
