"""Seat symbols and small drawn pictures (gold bars, cards, arrows, timer ring).

Symbols are drawn as shapes (not font glyphs) so colour-blind players can tell seats apart by
form alone, and so no font ever shows a missing-glyph box for them.
"""
from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from . import theme
from .lru import MB, Lru, surface_bytes
from .theme import Colour

Point = tuple[float, float]
OUTLINE: Colour = (12, 12, 16)


def _regular(cx: float, cy: float, r: float, n: int, start_deg: float) -> list[Point]:
    return [
        (cx + r * math.cos(math.radians(start_deg + i * 360 / n)), cy + r * math.sin(math.radians(start_deg + i * 360 / n)))
        for i in range(n)
    ]


def _star(cx: float, cy: float, r: float) -> list[Point]:
    pts: list[Point] = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + i * 36)
        pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
    return pts


def _cross(cx: float, cy: float, r: float) -> list[Point]:
    t = r * 0.36
    return [
        (cx - t, cy - r), (cx + t, cy - r), (cx + t, cy - t), (cx + r, cy - t), (cx + r, cy + t), (cx + t, cy + t),
        (cx + t, cy + r), (cx - t, cy + r), (cx - t, cy + t), (cx - r, cy + t), (cx - r, cy - t), (cx - t, cy - t),
    ]


def _heart(cx: float, cy: float, r: float) -> list[Point]:
    pts: list[Point] = []
    for i in range(40):
        t = 2 * math.pi * i / 40
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((cx + x * r / 17, cy - y * r / 17 - r * 0.05))
    return pts


def _drop(cx: float, cy: float, r: float) -> list[Point]:
    pts: list[Point] = [(cx, cy - r)]
    for i in range(25):
        a = math.radians(-30 + i * 240 / 24)
        pts.append((cx + 0.62 * r * math.cos(a), cy + 0.36 * r + 0.62 * r * math.sin(a)))
    return pts


def _bolt(cx: float, cy: float, r: float) -> list[Point]:
    rel = [(0.15, -1), (-0.6, 0.15), (-0.05, 0.15), (-0.25, 1), (0.6, -0.2), (0.05, -0.2), (0.35, -1)]
    return [(cx + x * r, cy + y * r) for x, y in rel]


def _poly(points_of: Callable[[float, float, float], list[Point]]) -> Callable[..., None]:
    def draw(surface: pygame.Surface, colour: Colour, cx: float, cy: float, r: float, width: int) -> None:
        pts = points_of(cx, cy, r)
        pygame.draw.polygon(surface, colour, pts)
        pygame.draw.polygon(surface, OUTLINE, pts, width)

    return draw


def _circle(surface: pygame.Surface, colour: Colour, cx: float, cy: float, r: float, width: int) -> None:
    pygame.draw.circle(surface, colour, (cx, cy), r * 0.78)
    pygame.draw.circle(surface, OUTLINE, (cx, cy), r * 0.78, width)


def _ring(surface: pygame.Surface, colour: Colour, cx: float, cy: float, r: float, width: int) -> None:
    pygame.draw.circle(surface, OUTLINE, (cx, cy), r * 0.92)
    pygame.draw.circle(surface, colour, (cx, cy), r * 0.92 - width)
    pygame.draw.circle(surface, OUTLINE, (cx, cy), r * 0.45 + width)
    pygame.draw.circle(surface, theme.PANEL, (cx, cy), r * 0.45)


def _moon(surface: pygame.Surface, colour: Colour, cx: float, cy: float, r: float, width: int) -> None:
    pts: list[Point] = []
    for i in range(31):  # outer arc
        a = math.radians(60 + i * 240 / 30)
        pts.append((cx + r * 0.9 * math.cos(a), cy + r * 0.9 * math.sin(a)))
    for i in range(31):  # inner arc, back
        a = math.radians(300 - i * 240 / 30)
        pts.append((cx + r * 0.35 + r * 0.62 * math.cos(a) * 0.9, cy + r * 0.9 * math.sin(a)))
    pygame.draw.polygon(surface, colour, pts)
    pygame.draw.polygon(surface, OUTLINE, pts, width)


SYMBOLS: dict[str, Callable[[pygame.Surface, Colour, float, float, float, int], None]] = {
    "circle": _circle,
    "square": _poly(lambda cx, cy, r: _regular(cx, cy, r * 1.12, 4, 45)),
    "triangle": _poly(lambda cx, cy, r: _regular(cx, cy + r * 0.15, r * 1.05, 3, -90)),
    "diamond": _poly(lambda cx, cy, r: [(cx, cy - r), (cx + r * 0.72, cy), (cx, cy + r), (cx - r * 0.72, cy)]),
    "star": _poly(_star),
    "hexagon": _poly(lambda cx, cy, r: _regular(cx, cy, r * 1.05, 6, 0)),
    "cross": _poly(_cross),
    "heart": _poly(_heart),
    "moon": _moon,
    "drop": _poly(_drop),
    "bolt": _poly(_bolt),
    "ring": _ring,
}


def symbol(surface: pygame.Surface, name: str, colour: Colour, center: Point, radius: float) -> None:
    """Draw a seat symbol in its colour with a dark outline (unknown names draw a circle)."""
    width = max(1, round(radius / 9))
    SYMBOLS.get(name, _circle)(surface, colour, center[0], center[1], radius, width)


def gold_bar(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """A gold bar seen at an angle (a trapezoid with a highlight)."""
    inset = rect.width * 0.18
    top = [(rect.x + inset, rect.y), (rect.right - inset, rect.y), (rect.right, rect.bottom), (rect.x, rect.bottom)]
    pygame.draw.polygon(surface, theme.GOLD, top)
    pygame.draw.polygon(surface, (150, 110, 20), top, max(1, rect.height // 8))
    pygame.draw.line(
        surface, (255, 238, 170), (rect.x + inset * 1.4, rect.y + rect.height * 0.3),
        (rect.right - inset * 1.4, rect.y + rect.height * 0.3), max(1, rect.height // 8),
    )


def card(surface: pygame.Surface, rect: pygame.Rect, face: Colour, border: Colour, radius_frac: float = 0.12) -> None:
    r = max(2, int(min(rect.width, rect.height) * radius_frac))
    pygame.draw.rect(surface, face, rect, border_radius=r)
    pygame.draw.rect(surface, border, rect, max(1, rect.width // 16), border_radius=r)


def card_back(surface: pygame.Surface, rect: pygame.Rect) -> None:
    card(surface, rect, theme.CARD_BACK, (210, 190, 255))
    inner = rect.inflate(-rect.width * 0.4, -rect.height * 0.4)
    pygame.draw.ellipse(surface, (120, 90, 180), inner, max(1, rect.width // 14))


def ambush_mark(surface: pygame.Surface, center: Point, r: float, colour: Colour = (255, 255, 255)) -> None:
    """Two crossed blades: the Ambush card's picture."""
    cx, cy = center
    w = max(2, round(r / 5))
    for sx in (-1, 1):
        pygame.draw.line(surface, colour, (cx - sx * r, cy - r), (cx + sx * r * 0.8, cy + r * 0.8), w)
        pygame.draw.line(surface, colour, (cx + sx * r * 0.55, cy + r * 0.35), (cx + sx * r * 0.25, cy + r * 0.7), w)


def skull_cross(surface: pygame.Surface, center: Point, r: float, colour: Colour) -> None:
    """An X over a fallen seat."""
    cx, cy = center
    w = max(2, round(r / 4))
    pygame.draw.line(surface, colour, (cx - r, cy - r), (cx + r, cy + r), w)
    pygame.draw.line(surface, colour, (cx - r, cy + r), (cx + r, cy - r), w)


def arrow(surface: pygame.Surface, start: Point, end: Point, colour: Colour, width: int, head: float) -> None:
    """A straight arrow with a filled head at ``end``."""
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    base = (end[0] - ux * head, end[1] - uy * head)
    pygame.draw.line(surface, colour, start, base, width)
    left = (base[0] - uy * head * 0.55, base[1] + ux * head * 0.55)
    right = (base[0] + uy * head * 0.55, base[1] - ux * head * 0.55)
    pygame.draw.polygon(surface, colour, [end, left, right])


def timer_ring(surface: pygame.Surface, center: Point, r: float, fraction: float, colour: Colour, width: int) -> None:
    """A ring that empties clockwise as time runs out (``fraction`` = time left / duration)."""
    rect = pygame.Rect(0, 0, 2 * r, 2 * r)
    rect.center = (round(center[0]), round(center[1]))
    pygame.draw.circle(surface, theme.PANEL_LIGHT, rect.center, r, width)
    f = max(0.0, min(1.0, fraction))
    if f > 0.001:
        start = math.pi / 2
        pygame.draw.arc(surface, colour, rect, start, start + 2 * math.pi * f, width)


def panel(surface: pygame.Surface, rect: pygame.Rect, colour: Colour = theme.PANEL, border: Colour | None = None,
          radius: int = 0, width: int = 2) -> None:
    r = radius or max(4, min(rect.width, rect.height) // 8)
    pygame.draw.rect(surface, colour, rect, border_radius=r)
    if border is not None:
        pygame.draw.rect(surface, border, rect, width, border_radius=r)


_VEILS: Lru[tuple, pygame.Surface] = Lru(16 * MB, surface_bytes)  # two window-sized veils at most


def veil(size: tuple[int, int], colour: tuple[int, int, int, int], radius: int = 0) -> pygame.Surface:
    """A translucent (rounded) panel, made once per size and colour and reused every frame."""
    key = (size, colour, radius)
    surf = _VEILS.get(key)
    if surf is None:
        surf = pygame.Surface(size, pygame.SRCALPHA)
        pygame.draw.rect(surf, colour, surf.get_rect(), border_radius=radius)
        _VEILS.put(key, surf)
    return surf


def bot_mark(surface: pygame.Surface, center: Point, r: float, colour: Colour, backdrop: Colour) -> None:
    """A robot's head in a disc: the seat is played by a bot (every game's plates, the lobby)."""
    cx, cy = center
    pygame.draw.circle(surface, backdrop, center, r + max(1.0, r * 0.12))
    pygame.draw.circle(surface, colour, center, r)
    head = pygame.Rect(0, 0, round(r * 1.2), round(r * 0.9))
    head.center = (round(cx), round(cy + r * 0.12))
    pygame.draw.rect(surface, backdrop, head, border_radius=max(1, round(r * 0.22)))
    eye = max(1.0, r * 0.15)
    for side in (-1, 1):
        pygame.draw.circle(surface, colour, (cx + side * r * 0.28, head.centery - r * 0.05), eye)
    pygame.draw.line(surface, backdrop, (cx, head.y), (cx, cy - r * 0.62), max(1, round(r * 0.14)))
    pygame.draw.circle(surface, backdrop, (cx, cy - r * 0.66), max(1.0, r * 0.14))
