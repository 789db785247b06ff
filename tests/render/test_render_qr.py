"""Join QR codes: what the lobby shows decodes to each seat's own link, in every seat colour."""
from __future__ import annotations

import numpy as np
import pygame
import pytest
import zxingcpp

from game.render.app import Screen
from game.render.kit import qr
from game.render.kit.theme import contrast, parse_hex
from game.render.lobby import layout
from game.seating import SEAT_LOOKS
from game.session.snapshot import SeatStatus
from game.tapes import lobby_snapshot


def decode(surface: pygame.Surface) -> list[str]:
    pixels = np.ascontiguousarray(pygame.surfarray.array3d(surface).swapaxes(0, 1))
    return [r.text for r in zxingcpp.read_barcodes(pixels) if r.format == zxingcpp.BarcodeFormat.QRCode]


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", ["en", "fa"])
def test_each_qr_on_the_lobby_decodes_to_its_seats_link(size, lang, shared_ctx):
    snapshot = lobby_snapshot(12, lang, joined=2, bots=1)
    screen = Screen(ctx=shared_ctx)
    screen.sync(snapshot)
    surface = pygame.Surface(size)
    screen.draw(surface)
    lay = layout(screen.frame(size))
    free = [s for s in snapshot.seats if s.status is SeatStatus.FREE]
    assert len(free) == 9
    for seat in free:
        card = lay.cards[seat.seat].rect
        found = decode(surface.subsurface(card).copy())
        assert found == [seat.url], (seat.seat, found)


def test_every_seat_colour_gives_a_readable_code(shared_ctx):
    url = lobby_snapshot(3, joined=0, bots=0).seats[0].url
    for look in SEAT_LOOKS:
        colour = parse_hex(look.colour)
        dark, light = qr.colours(colour)
        assert contrast(dark, light) >= 7.0, look.colour_name
        code = shared_ctx.qr.surface(url, colour, 200)
        framed = pygame.Surface((260, 260))
        framed.fill((40, 40, 50))
        framed.blit(code, (30, 30))
        assert decode(framed) == [url], look.colour_name


def test_codes_are_made_once_per_link_and_cached(shared_ctx):
    url = "http://10.0.0.2:8765/j/cachetest"
    qr.matrix.cache_clear()
    a = shared_ctx.qr.surface(url, (230, 159, 0), 150)
    b = shared_ctx.qr.surface(url, (230, 159, 0), 150)
    assert a is b
    shared_ctx.qr.surface(url, (86, 180, 233), 150)
    assert qr.matrix.cache_info().misses == 1


def test_an_empty_link_is_refused():
    with pytest.raises(ValueError):
        qr.matrix("")
