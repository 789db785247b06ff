"""Seat badges ("turn your card over", "pointed", "host", "ambush"…) beside the plates: on a full
table no badge covers another badge, another seat's plate or the caption (a full table's side
columns used to stack two badges in the one gap between two plates)."""
from __future__ import annotations

import pytest

from game.render.kit.hud import badge_rect
from game.render.kit.table import table_layout

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n", range(3, 13))
def test_every_seat_badged_at_once_overlaps_nothing(size: tuple[int, int], n: int) -> None:
    lay = table_layout(size, n)
    badges = [badge_rect(size, lay, seat) for seat in range(n)]
    for seat, badge in enumerate(badges):
        assert badge.collidelist([b for other, b in enumerate(badges) if other != seat]) < 0, (seat, badge)
        assert badge.collidelist([s.plate for other, s in enumerate(lay.spots) if other != seat]) < 0, (seat, badge)
        assert not badge.colliderect(lay.caption)
        assert badge.colliderect(lay.spots[seat].plate.inflate(0, 2 * badge.height))  # beside its own plate
