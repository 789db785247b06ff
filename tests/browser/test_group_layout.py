"""Long names and long words on the phones (fa, th): a 24-character name never makes the results
wider than the phone, and no word on a button is broken in the middle ("Vermilio/n") — in the
Collusion vote grid (bots named after their seat colour) and on the final results."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join
from .test_cheating_moth_phones import wait_until
from .test_group_pad import companion
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

LONG = {"fa": "نیلوفرِ خانم‌ِ بسیار خوش‌اخلاق", "th": "สมชายผู้ยิ่งใหญ่แห่งบางกอก"}
LONG_LATIN = "Alexandria-Montgomery-XY"  # 24 characters, no space to break at

# Each word (Intl.Segmenter's words: Thai has no spaces) of each button's text whose range covers
# more than one line (broken mid-word).
BROKEN_WORDS = """() => {
  const out = [];
  const words = new Intl.Segmenter(document.documentElement.lang, { granularity: 'word' });
  for (const button of document.querySelectorAll('button')) {
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const w of words.segment(node.textContent)) {
        if (!w.isWordLike) continue;
        const m = [w.segment];
        const range = document.createRange();
        range.setStart(node, w.index);
        range.setEnd(node, w.index + w.segment.length);
        const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""
WIDER_THAN_PHONE = """() => [...document.querySelectorAll('main *')]
  .filter(e => e.getBoundingClientRect().right > innerWidth + 1 || e.getBoundingClientRect().left < -1)
  .map(e => e.className || e.tagName)"""


def check_layout(page: Any) -> None:
    assert page.evaluate(BROKEN_WORDS) == [], "a word on a button breaks mid-word"
    assert page.evaluate(WIDER_THAN_PHONE) == [], "something is wider than the phone"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_long_names_fit_the_vote_grid_and_the_results(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    pages, _ = companion("cheating_moth", lang, table, phones, (LONG[lang], LONG_LATIN, "Ali"), host=False, rounds=1)
    table.host("table_action", action={"type": "round_over", "out": 2})
    table.host("table_action", action={"type": "enter_points", "seat": 0, "points": 5})
    table.host("table_action", action={"type": "enter_points", "seat": 1, "points": 7})
    table.host("table_action", action={"type": "next_round"})
    wait_until(pages[1], lambda: table.call(lambda s: s.phase.value) == "finished", "the game's end")
    for page in pages[:2]:
        page.wait_for_selector("[data-testid=result]")
        check_layout(page)
    shoot(pages[1], shots, lang, "long_name_results")


@pytest.mark.parametrize("lang", ["fa", "th", "en"])
def test_bot_colour_names_never_break_on_the_vote_buttons(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    table.host("set_seats", count=12)
    page = phones.open(table.seat_url(0))
    join(page, LONG.get(lang, LONG_LATIN))
    table.host("fill_bots", kind="random")
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("start")
    page.wait_for_selector(".vote-grid")
    check_layout(page)
    shoot(page, shots, lang, "vote_grid_bots")
