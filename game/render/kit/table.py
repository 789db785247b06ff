"""The table every game sits at: where seats sit around the oval, the room and the felt (drawn once
per window size and cached), and a small cache of full-window layers."""
from __future__ import annotations

import itertools
import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from . import theme
from .scene import Frame

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Spot:
    seat: int
    centre: Point  # plate centre
    plate: pygame.Rect
    card: Point  # where the seat's vote card lies
    inward: Point  # unit vector toward the table centre


@dataclass(frozen=True, slots=True)
class TableLayout:
    centre: Point
    rx: float
    ry: float
    felt: pygame.Rect
    middle: pygame.Rect  # free space in the middle of the table for round info, pot, timer
    spots: tuple[Spot, ...]
    card_size: tuple[int, int]
    caption: pygame.Rect  # a banner across the lower middle for explanations


def table_layout(size: tuple[int, int], n: int) -> TableLayout:
    w, h = size
    cx, cy = w / 2, h * 0.455
    rx, ry = w * 0.39, h * 0.335
    plate_w = round(w * (0.16 if n <= 8 else 0.135))
    plate_h = round(h * 0.115)
    spots: list[Spot] = []
    card_w = round(min(w * 0.032, h * 0.06))
    for i in range(n):
        a = math.radians(90 + i * 360 / max(1, n))
        x, y = cx + rx * math.cos(a), cy + ry * math.sin(a)
        plate = pygame.Rect(0, 0, plate_w, plate_h)
        plate.center = (round(x), round(y))
        plate.clamp_ip(pygame.Rect(0, 0, w, h))
        card = (cx + rx * 0.66 * math.cos(a), cy + ry * 0.6 * math.sin(a))
        spots.append(Spot(i, plate.center, plate, card, (-math.cos(a), -math.sin(a))))
    felt = pygame.Rect(0, 0, round(rx * 1.72), round(ry * 1.66))
    felt.center = (round(cx), round(cy))
    middle = pygame.Rect(0, 0, round(rx * 0.95), round(ry * 0.9))
    middle.center = (round(cx), round(cy))
    caption = pygame.Rect(0, 0, round(w * 0.84), round(h * 0.115))
    caption.midbottom = (round(cx), round(h * 0.99))
    return TableLayout((cx, cy), rx, ry, felt, middle, tuple(spots), (card_w, round(card_w * 1.4)), caption)


# Full-window layers kept at once by every LayerCache together (each is 8 MB at 1080p, 33 MB at
# 4K): a scene draws at most three (the room, its plates, a dimmed copy), and every game's
# caches kept their own before, 17 layers (140 MB at 1080p) once all three games had been played.
LAYERS_KEPT = 4
_POOL: OrderedDict[tuple, pygame.Surface] = OrderedDict()  # (cache, key) -> layer, least recent first
_CACHE_IDS = itertools.count()


class LayerCache:
    """A few pre-drawn full-window layers, newest kept (the table's static art): at most
    ``capacity`` of its own, and :data:`LAYERS_KEPT` of all caches' together."""

    def __init__(self, capacity: int = 3) -> None:
        self._id = next(_CACHE_IDS)
        self._capacity = capacity

    def get(self, key: tuple, build: Callable[[], pygame.Surface]) -> pygame.Surface:
        at = (self._id, key)
        layer = _POOL.get(at)
        if layer is not None:
            _POOL.move_to_end(at)
            return layer
        layer = _POOL[at] = build()
        mine = [k for k in _POOL if k[0] == self._id]
        if len(mine) > self._capacity:
            del _POOL[mine[0]]
        while len(_POOL) > LAYERS_KEPT:
            _POOL.popitem(last=False)
        return layer

    def __len__(self) -> int:
        return sum(1 for k in _POOL if k[0] == self._id)


_BACKGROUNDS = LayerCache(capacity=3)


def background(frame: Frame, n: int) -> pygame.Surface:
    """The room and the oval table at this window size (no seats)."""
    return _BACKGROUNDS.get((frame.size, n), lambda: _build_background(frame, n))


def _build_background(frame: Frame, n: int) -> pygame.Surface:
    surf = pygame.Surface(frame.size)
    surf.fill(theme.BACKGROUND)
    lay = table_layout(frame.size, n)
    u = frame.scale.u
    pygame.draw.ellipse(surf, theme.FELT_EDGE, lay.felt.inflate(round(26 * u), round(26 * u)))
    pygame.draw.ellipse(surf, theme.FELT, lay.felt)
    pygame.draw.ellipse(surf, theme.mix(theme.FELT, (255, 255, 255), 0.08), lay.felt.inflate(-round(30 * u), -round(30 * u)),
                        max(1, round(2 * u)))
    return _display_format(surf)


def _display_format(surf: pygame.Surface) -> pygame.Surface:
    if pygame.display.get_init() and pygame.display.get_surface() is not None:
        return surf.convert()
    return surf


def draw_away_mark(surface: pygame.Surface, sym_c: Point, sym_r: float, y: float, rtl: bool, u: float) -> None:
    """The player's phone is away: a slashed ring beside the seat's symbol (every game's plates)."""
    away = (sym_c[0] + sym_r * 0.8 * (-1 if rtl else 1), y)
    ring = max(3, round(sym_r * 0.32))
    pygame.draw.circle(surface, theme.BACKGROUND, away, ring + max(1, round(u)))
    pygame.draw.circle(surface, theme.DANGER, away, ring, max(1, round(2 * u)))
    pygame.draw.line(surface, theme.DANGER, (away[0] - ring * 0.7, away[1] + ring * 0.7),
                     (away[0] + ring * 0.7, away[1] - ring * 0.7), max(1, round(2 * u)))


def clear_middle(lay: TableLayout, size: tuple[int, int], most: tuple[float, float] = (0.5, 0.46)) -> pygame.Rect:
    """The largest centred box (up to ``most`` of the window's width and height) that no seat plate overlaps."""
    w, h = size
    box = pygame.Rect(0, 0, round(w * most[0]), round(h * most[1]))
    box.center = (round(lay.centre[0]), round(lay.centre[1]))
    gap = round(min(w, h) * 0.012)
    for _ in range(60):
        hits = [s.plate.inflate(2 * gap, 2 * gap).clip(box) for s in lay.spots]
        hits = [r for r in hits if r.width > 0 and r.height > 0]
        if not hits:
            break
        over = max(hits, key=lambda r: r.width * r.height)
        centre = box.center
        if over.width * box.height <= over.height * box.width:  # the cheaper cut
            box.width = max(round(w * 0.2), box.width - 2 * over.width)
        else:
            box.height = max(round(h * 0.2), box.height - 2 * over.height)
        box.center = centre
    return box
