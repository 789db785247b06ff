"""M17 / S12 / C18: the TV never silently drops a correction the phones show: all of them when they
fit, else they take turns under a line saying which they are, so every one is read on the TV (the
pad's panel and a final screen's single line alike), and a still table redraws only when they turn."""
from __future__ import annotations

import pytest

from game.render.kit.scene import Frame
from game.render.kit.scorepad import MAX_TRACE, PAGE_MS, trace_shown
from game.tapes import lobby_snapshot

SIZE = (1920, 1080)
LINES = [f"correction {i}" for i in range(5)]


def _frames(lang: str, turns: int) -> list[Frame]:
    snap = lobby_snapshot(language=lang)
    return [Frame(snap, 1_000 + k * PAGE_MS, SIZE) for k in range(turns)]


@pytest.mark.parametrize("lang, heading", [("en", "Corrections 1–2 of 5 (they take turns)"),
                                           ("fa", "اصلاح‌های ۱ تا ۲ از ۵ (به نوبت نشان داده می‌شوند)"),
                                           ("th", "การ\u200bแก้ไข\u200bที่ 1–2 จาก 5 (แสดง\u200bสลับ\u200bกัน)")])
def test_M17_every_correction_reaches_the_tv_in_turn(lang: str, heading: str) -> None:
    frames = _frames(lang, 3)
    assert trace_shown(frames[0], LINES[:MAX_TRACE]) == LINES[:MAX_TRACE]  # they fit: all of them, still
    assert frames[0].reads.next_ms is None
    pages = [trace_shown(frame, LINES) for frame in frames]
    assert all(len(page) <= MAX_TRACE for page in pages)
    assert pages[0] == [heading, "correction 0", "correction 1"]
    assert [line for page in pages for line in page[1:]] == LINES  # each one, in order, none unsaid
    assert frames[0].reads.next_ms == PAGE_MS and not frames[0].reads.exact  # redrawn when the page turns


def test_S12_a_single_line_counts_each_correction_in_turn() -> None:
    shown = [trace_shown(frame, LINES[:3], 1) for frame in _frames("en", 3)]
    assert shown == [["Correction 1 of 3: correction 0"], ["Correction 2 of 3: correction 1"],
                     ["Correction 3 of 3: correction 2"]]
