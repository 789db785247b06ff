"""Join QR codes: one per seat, in the seat's colour, made once per link and cached as surfaces.

The module matrix (the slow part: the qrcode package tries every mask) is computed once per URL;
surfaces are cached per (URL, colour, size). Dark modules are the seat colour darkened to a safe
contrast on a light tint of it, so every code stays readable by phone cameras.
"""
from __future__ import annotations

from functools import lru_cache

import pygame
import qrcode
from qrcode.constants import ERROR_CORRECT_M

from .theme import Colour, darken_for, mix

QUIET_ZONE = 4  # modules of light border the QR standard asks for
_LIGHT: Colour = (255, 255, 255)


@lru_cache(maxsize=64)
def matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR module matrix of ``url`` including the quiet zone (True = dark)."""
    if not url:
        raise ValueError("a QR code needs a non-empty link")
    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, box_size=1, border=QUIET_ZONE)
    code.add_data(url)
    code.make(fit=True)
    return tuple(tuple(bool(v) for v in row) for row in code.get_matrix())


def colours(seat_colour: Colour) -> tuple[Colour, Colour]:
    """(dark, light) module colours for a seat: its colour at ≥ 7:1 contrast on a pale tint."""
    light = mix(_LIGHT, seat_colour, 0.10)
    return darken_for(seat_colour, light, 7.0), light


class QrCache:
    """Surfaces of QR codes at a given pixel size, cached (scaled with whole pixels per module)."""

    def __init__(self) -> None:
        self._base: dict[tuple[str, Colour], pygame.Surface] = {}
        self._scaled: dict[tuple[str, Colour, int], pygame.Surface] = {}

    def base(self, url: str, seat_colour: Colour) -> pygame.Surface:
        key = (url, seat_colour)
        surf = self._base.get(key)
        if surf is None:
            rows = matrix(url)
            dark, light = colours(seat_colour)
            surf = pygame.Surface((len(rows), len(rows)))
            surf.fill(light)
            for y, row in enumerate(rows):
                for x, on in enumerate(row):
                    if on:
                        surf.set_at((x, y), dark)
            self._base[key] = surf
        return surf

    def surface(self, url: str, seat_colour: Colour, size: int) -> pygame.Surface:
        """The code no bigger than ``size`` pixels square: whole pixels per module when that loses
        little room, else nearest-neighbour scaled to ``size`` (modules differ by at most a pixel)."""
        key = (url, seat_colour, size)
        surf = self._scaled.get(key)
        if surf is None:
            base = self.base(url, seat_colour)
            modules = base.get_width()
            whole = max(1, size // modules) * modules
            side = whole if whole >= size * 0.9 or size < modules else size
            surf = pygame.transform.scale(base, (side, side))
            if len(self._scaled) > 256:
                self._scaled.clear()
            self._scaled[key] = surf
        return surf
