"""Languages on the phone: the table's language by default, switchable per phone (and remembered),
Persian right-to-left, and every script drawn with the table's own Noto fonts."""
from __future__ import annotations

from typing import Any

import pytest

from .conftest import ADMIN_PIN, Phones, Table
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

    # The TV's language changes the TV and the default for new phones only: Sara (the table's
    # language when she came) and Nok (her own choice) both keep theirs.
    table.host("set_language", language="fa")
    newcomer = phones.open(table.seat_url(2))
    join(newcomer, "Dara")
    assert newcomer.evaluate("document.documentElement.lang") == "fa"
    assert sara.evaluate("document.documentElement.lang") == "en"
    assert nok.evaluate("document.documentElement.lang") == "th"
    sara.reload()
    sara.wait_for_selector("[data-testid=waiting]")
    assert sara.evaluate("document.documentElement.lang") == "en"
    pick_language(nok, None)  # "same as the table": follows the TV from now on
    nok.wait_for_function("document.documentElement.lang === 'fa'")
    table.host("set_language", language="th")
    nok.wait_for_function("document.documentElement.lang === 'th'")
    assert sara.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize("locale, lang", [("th-TH", "th"), ("fa-IR", "fa")])
def test_a_phone_starts_in_its_browsers_language(locale: str, lang: str, table: Table, phones: Phones) -> None:
    """A Thai phone joining a Persian table is in Thai; the TV switching language moves no phone,
    nor the host page; /join, /host before its PIN follow the browser too."""
    other = "fa" if lang == "th" else "th"
    table.host("set_language", language=other)
    phone = phones.open(table.seat_url(0), locale=locale)
    join(phone, "Nok")
    assert phone.evaluate("document.documentElement.lang") == lang
    for _ in range(50):
        if table.snapshot().seats[0].language == lang:
            break
        phone.wait_for_timeout(50)
    assert table.snapshot().seats[0].language == lang  # the table keeps the seat's language
    code_form = phones.open(f"{table.url}/join", locale=locale)
    code_form.wait_for_selector("[data-testid=code-input]")
    assert code_form.evaluate("document.documentElement.lang") == lang
    pin_form = phones.open(f"{table.url}/host", locale=locale)
    pin_form.wait_for_selector("[data-testid=pin-input]")
    assert pin_form.evaluate("document.documentElement.lang") == lang
    pin_form.fill("[data-testid=pin-input]", ADMIN_PIN)
    pin_form.click("[data-testid=pin-go]")
    pin_form.wait_for_selector("[data-testid=host-start]")
    table.host("set_language", language="en")
    pin_form.wait_for_function("document.querySelector('[data-testid=host-start]') !== null")
    phone.wait_for_timeout(300)
    assert phone.evaluate("document.documentElement.lang") == lang
    assert pin_form.evaluate("document.documentElement.lang") == lang


def test_a_language_whose_strings_come_too_late_is_not_shown(table: Table, phones: Phones) -> None:
    """A phone following the table starts loading Persian's strings; before they arrive the TV
    switches to Thai. The Persian strings, arriving last, are not shown: the phone stays in the
    table's new language (on a slow network it stayed in the old one for good)."""
    frames: list[dict[str, Any]] = []
    nok = phones.open(table.seat_url(0), frames=frames)  # the table in English: Persian never loaded here
    join(nok, "Nok")
    pick_language(nok, "th")
    nok.wait_for_function("document.documentElement.lang === 'th'")
    table.host("set_language", language="fa")
    held: list[Any] = []
    nok.route("**/i18n/fa.json", lambda route: held.append(route))  # Persian's strings wait here until let through
    pick_language(nok, None)  # "same as the table": Persian, not loaded on this phone yet
    nok.wait_for_function("document.readyState === 'complete'")
    for _ in range(100):
        if held:
            break
        nok.wait_for_timeout(20)
    assert held, "the phone did not ask for Persian's strings"
    table.host("set_language", language="th")
    for _ in range(100):
        if any((f.get("lobby") or {}).get("language") == "th" for f in frames):
            break
        nok.wait_for_timeout(20)
    with nok.expect_response("**/i18n/fa.json"):
        held[0].continue_()
    nok.evaluate("new Promise(done => setTimeout(done, 100))")  # the late strings are read and set aside
    assert nok.evaluate("document.documentElement.lang") == "th"
    assert "รอโฮสต์เริ่มเกม" in nok.inner_text("[data-testid=waiting]")
