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
    everyone = range(n)
    badges = [badge_rect(size, lay, seat, everyone) for seat in everyone]
    for seat, badge in enumerate(badges):
        assert badge.collidelist([b for other, b in enumerate(badges) if other != seat]) < 0, (seat, badge)
        assert badge.collidelist([s.plate for other, s in enumerate(lay.spots) if other != seat]) < 0, (seat, badge)
        assert not badge.colliderect(lay.caption)
        assert badge.colliderect(lay.spots[seat].plate.inflate(0, 2 * badge.height))  # beside its own plate


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("n", range(3, 13))
def test_a_badge_with_no_badged_neighbour_keeps_its_place(size: tuple[int, int], n: int) -> None:
    """Under the plate, or over it low on the screen: where the games draw their own tabs (a
    Speakeasy identity tab sits under the plate) — a badge moves only for a neighbour's badge."""
    lay = table_layout(size, n)
    for seat, spot in enumerate(lay.spots):
        badge = badge_rect(size, lay, seat)
        low = spot.inward[1] < -0.2
        assert (badge.bottom <= spot.plate.top) if low else (badge.top >= spot.plate.bottom), (seat, badge, spot.plate)
