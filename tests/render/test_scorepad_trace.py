"""M17 / S12 / C18: the TV never silently drops a correction the phones show: all of them when they
fit, else the latest and a line saying how many earlier ones are on the phones."""
from __future__ import annotations

import pytest

from game.render.app import Screen
from game.render.kit.scorepad import MAX_TRACE, trace_shown
from game.tapes import lobby_snapshot

SIZE = (1920, 1080)


@pytest.mark.parametrize("lang, more", [("en", "3 earlier corrections are on the phones"),
                                        ("fa", "۳ اصلاح قبلی روی گوشی‌هاست"),
                                        ("th", "การ\u200bแก้ไข\u200bก่อน\u200bหน้า\u200bอีก 3 รายการ\u200bอยู่\u200bบน\u200bโทรศัพท์")])
def test_M17_every_correction_is_shown_or_counted(lang: str, more: str, shared_ctx) -> None:
    screen = Screen(ctx=shared_ctx)
    screen.sync(lobby_snapshot(language=lang))
    frame = screen.frame(SIZE)
    lines = [f"correction {i}" for i in range(5)]
    assert trace_shown(frame, lines[:MAX_TRACE]) == lines[:MAX_TRACE]  # they fit: all of them
    shown = trace_shown(frame, lines)
    assert len(shown) == MAX_TRACE
    assert shown == [more, "correction 3", "correction 4"]  # newest last, none dropped unsaid
