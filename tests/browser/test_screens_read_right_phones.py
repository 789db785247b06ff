"""Phones read right with the longest names the table accepts, at 320 and 390 px, in fa, th and en:
the vote grid shows each name whole (wrapped between its words, never "Maximilia…"), the final
results are never wider than the phone (the Total column whole), and a name longer than the limit
is cut at a whole grapheme (a Thai consonant keeps its marks) with the phone saying so."""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join, play_step
from .test_collusion_phones import start_short_game
from .test_group_layout import BROKEN_WORDS
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

WIDTHS = (320, 390)
LONGEST = {  # the longest names the table takes (24 characters), in the table's language and in Latin
    "en": ("Maximiliana Worthingtons", "Alexandria-Montgomery-XY"),
    "fa": ("نیلوفر خانم بسیار مهربان", "Maximiliana Worthingtons"),
    "th": ("สมชายผู้ยิ่งใหญ่แห่งบาง", "Maximiliana Worthingtons"),
}
CUT_NAMES = """() => [...document.querySelectorAll('main bdi, main .chip-name')]
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.parentElement.className} > ${e.tagName}.${e.className}: ${e.textContent} ${e.scrollWidth}/${e.clientWidth}`)"""
FITS = "document.documentElement.scrollWidth <= innerWidth"
BROKEN_NAME_WORDS = BROKEN_WORDS.replace("querySelectorAll('button')", "querySelectorAll('button, main .chip-name')")


def _check_fits(page: Any, what: str) -> None:
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 740})
        page.wait_for_timeout(50)
        assert page.evaluate(FITS), f"{what} is wider than a {width} px phone"
        assert page.evaluate(CUT_NAMES) == [], f"a name is cut on {what} at {width} px"
        assert page.evaluate(BROKEN_NAME_WORDS) == [], f"a word of a button or a name breaks mid-word on {what} at {width} px"


@pytest.mark.parametrize("lang", ["fa", "th", "en"])
def test_longest_names_read_whole_on_the_vote_grid_and_the_results(lang: str, table: Table, phones: Phones,
                                                                   shots: Path) -> None:
    table.host("set_language", language=lang)
    names = (*LONGEST[lang], "Ali")
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, names):
        join(page, name)
    start_short_game(table)
    pages[2].wait_for_selector(".vote-grid")
    _check_fits(pages[2], "the vote grid")
    shoot(pages[2], shots, lang, "longest_names_vote_grid")
    done = [False] * 3
    for _ in range(1_500):
        done = [d or play_step(p) for d, p in zip(done, pages)]
        if all(done):
            break
        pages[0].wait_for_timeout(40)
    assert all(done), "the game did not reach its end on every phone"
    pages[0].wait_for_selector("table.scores")
    _check_fits(pages[0], "the final results")
    total = pages[0].locator("table.scores th").last
    assert total.evaluate("e => e.scrollWidth <= e.clientWidth"), "the Total heading is cut"
    shoot(pages[0], shots, lang, "longest_names_results")


@pytest.mark.parametrize("locale, typed", [
    ("th-TH", "สมชายผู้ยิ่งใหญ่แห่งบางษ์ดี"),  # its 25th character is the 24th's tone mark: "…บางษ" would cut the cluster
    ("fa-IR", "نیلوفر خانم بسیار خوش‌اخلاق تهرانیان"),
])
def test_a_long_name_is_cut_at_a_whole_grapheme_and_the_phone_says_so(locale: str, typed: str, table: Table,
                                                                       phones: Phones) -> None:
    page = phones.open(table.seat_url(0), locale=locale)
    page.wait_for_selector("[data-testid=name-input]")
    page.fill("[data-testid=name-input]", typed)
    note = page.inner_text("[data-testid=name-cut]")
    page.click("[data-testid=name-go]")
    page.wait_for_selector("[data-testid=me-card]")
    kept = table.call(lambda s: s.table.seats[0].name)
    assert 0 < len(kept) <= 24 and typed.startswith(kept)
    after = typed[len(kept)]
    assert unicodedata.category(after) not in ("Mn", "Mc"), f"cut inside a cluster before {after!r}"
    assert kept in note  # the phone said what it would keep before the name was sent



def test_persian_race_results_show_each_name_whole_and_times_to_a_tenth(table: Table, phones: Phones,
                                                                          shots: Path) -> None:
    from game.session.api import PressSource

    from .test_race_phones import drive_to_mosquito, wait_synced

    table.host("set_language", language="fa")
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    pages = [phones.open(table.seat_url(i)) for i in range(2)]
    for page, name in zip(pages, ("سارا", "علی")):
        join(page, name)
    table.call(lambda s: s.join_seat(s.table.seats[2].token, name="نوک"))
    table.host("start")
    player, action = drive_to_mosquito(table, 1)
    slapper = 1 if player == 0 else 0
    other = next(s for s in range(3) if s not in (player, slapper))
    page = pages[slapper]
    page.set_viewport_size({"width": 320, "height": 740})
    wait_synced(table, slapper)
    table.call(lambda s: s.submit_action(player, action, None))
    race = table.call(lambda s: s.snapshot.race.current)
    table.call(lambda s: s.press(other, race.armed_at_ms + 1.23456, PressSource.KEYBOARD))
    page.locator("[data-testid=race-press]").dispatch_event("pointerdown")
    page.wait_for_selector("[data-testid=race-times]", timeout=8_000)
    assert page.evaluate(CUT_NAMES) == [], "a name is cut in the race results"
    assert page.evaluate(FITS)
    texts = " ".join(page.locator("[data-testid=race-times] li").all_inner_texts())
    for number in re.findall(r"[0-9۰-۹]+(?:[.٫][0-9۰-۹]+)?", texts):
        assert len(re.split(r"[.٫]", number)[-1]) <= 1 or not re.search(r"[.٫]", number), number  # "12.3", never "12.346"
    shoot(page, shots, "fa", "race_results_320")


@pytest.mark.parametrize("locale, lang, table_lang", [("en-US", "en", "fa"), ("th-TH", "th", "fa"), ("fa-IR", "fa", "en")])
def test_bots_are_named_in_each_phones_language(locale: str, lang: str, table_lang: str, table: Table,
                                                 phones: Phones) -> None:
    from game.seating import bot_name

    table.host("set_language", language=table_lang)
    table.host("set_bot", seat=1, kind="heuristic")
    phone = phones.open(table.seat_url(0), locale=locale)
    join(phone, "Nok")
    phone.locator("[data-testid=seat-list]", has_text=bot_name(1, lang)).wait_for()
    assert bot_name(1, table_lang) not in phone.inner_text("[data-testid=seat-list]")


def test_a_phone_freed_mid_game_is_sent_to_the_host_for_its_new_code(table: Table, phones: Phones) -> None:
    page = phones.open(table.seat_url(0))
    join(page, "Reza")
    start_short_game(table)
    page.wait_for_selector(".vote-grid")
    table.host("kick", seat=0)
    page.wait_for_selector(".full-message")
    text = page.inner_text(".full-message")
    assert "/host" in text and "big screen shows no codes" in text  # not "a new code from the big screen"


@pytest.mark.parametrize("lang, doubled", [("en", "×2 time"), ("fa", "۲ برابر زمان"), ("th", "เวลา ×2")])
def test_the_host_page_sets_extended_timers(lang: str, doubled: str, table: Table, phones: Phones, shots: Path) -> None:
    from .phone import host_console

    table.host("set_language", language=lang)
    host = host_console(table, phones, lang)
    host.get_by_role("button", name=doubled).click()
    for _ in range(50):
        if table.call(lambda s: s.table.table_settings.extended_timers.value) == "x2":
            break
        host.wait_for_timeout(50)
    assert table.call(lambda s: s.table.table_settings.extended_timers.value) == "x2"
    host.locator("button[aria-pressed=true]", has_text=doubled).wait_for()
    shoot(host, shots, lang, "host_extended_timers")
