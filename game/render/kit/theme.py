"""Colours and sizes shared by every scene: a dark table, seat colours from :mod:`game.seating`,
and a size unit relative to the window so a scene reads the same at 720p and at 4K."""
from __future__ import annotations

from dataclasses import dataclass

from game.seating import look

Colour = tuple[int, int, int]

BACKGROUND: Colour = (18, 22, 30)
FELT: Colour = (22, 74, 58)
FELT_EDGE: Colour = (92, 64, 38)
PANEL: Colour = (34, 40, 54)
PANEL_LIGHT: Colour = (52, 60, 78)
TEXT: Colour = (238, 238, 232)
TEXT_DIM: Colour = (168, 174, 186)
GOLD: Colour = (242, 196, 64)
DANGER: Colour = (236, 84, 72)
GOOD: Colour = (110, 214, 140)
ACCENT: Colour = (120, 180, 255)
DEAD: Colour = (92, 96, 104)
CARD_BACK: Colour = (70, 46, 120)
CARD_FACE: Colour = (246, 242, 230)


def parse_hex(value: str) -> Colour:
    """``"#rrggbb"`` to an RGB tuple; a clear error for anything else."""
    text = value.strip().lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb colour: {value!r}")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def seat_colour(seat: int, hex_value: str | None = None) -> Colour:
    return parse_hex(hex_value) if hex_value else parse_hex(look(seat).colour)


def luminance(c: Colour) -> float:
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: Colour, b: Colour) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def mix(a: Colour, b: Colour, t: float) -> Colour:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


def darken_for(c: Colour, against: Colour, ratio: float) -> Colour:
    """``c`` darkened just enough to reach ``ratio`` contrast against ``against``."""
    out = c
    for step in range(1, 21):
        if contrast(out, against) >= ratio:
            return out
        out = mix(c, (0, 0, 0), step / 20)
    return out


def ink_on(c: Colour) -> Colour:
    """Black or white, whichever reads better on ``c``."""
    return (16, 16, 20) if contrast(c, (16, 16, 20)) >= contrast(c, (255, 255, 255)) else (255, 255, 255)


@dataclass(frozen=True, slots=True)
class Scale:
    """Sizes relative to the window: ``u`` is 1.0 at 1280×720, 3.0 at 3840×2160."""

    width: int
    height: int

    @property
    def u(self) -> float:
        return min(self.width / 1280, self.height / 720)

    def px(self, value: float) -> int:
        return max(1, round(value * self.u))
