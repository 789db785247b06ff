"""The Collusion table: where seats sit around the oval, and the static layer (background, felt,
seat plates) drawn once per change and cached, so a frame only blits it and adds what moves."""
from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import pygame

from . import shapes, theme
from .collusion_model import SeatModel
from .scene import Frame, RenderContext
from .text import TextStyle, VAlign

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
    plate_w = round(w * (0.15 if n <= 8 else 0.13))
    plate_h = round(h * 0.105)
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


class LayerCache:
    """A few pre-drawn full-window layers, newest kept (the table's static art)."""

    def __init__(self, capacity: int = 6) -> None:
        self._layers: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._capacity = capacity

    def get(self, key: tuple, build: Callable[[], pygame.Surface]) -> pygame.Surface:
        layer = self._layers.get(key)
        if layer is None:
            layer = build()
            self._layers[key] = layer
            if len(self._layers) > self._capacity:
                self._layers.popitem(last=False)
        else:
            self._layers.move_to_end(key)
        return layer


_LAYERS = LayerCache()
_BACKGROUNDS = LayerCache(capacity=3)
_PLATES: OrderedDict[tuple, pygame.Surface] = OrderedDict()
_PLATE_CACHE_SIZE = 256


def static_layer(frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...], highlight: frozenset[int] = frozenset(),
                 dim_all: bool = False) -> pygame.Surface:
    """Background, felt and every seat plate in one opaque surface; rebuilt only when one of them
    changes, and then cheaply (the felt and each plate are cached on their own)."""
    key = (frame.size, frame.lang, seats, highlight, dim_all, ctx.text.serial)
    return _LAYERS.get(key, lambda: _build(frame, ctx, seats, highlight, dim_all))


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


def plate_surface(frame: Frame, ctx: RenderContext, size: tuple[int, int], seat: SeatModel, highlight: bool,
                  dim: bool) -> tuple[pygame.Surface, int]:
    """A seat's plate on a transparent surface with room for its highlight ring, and that margin."""
    margin = round(6 * frame.scale.u)
    key = (size, frame.lang, seat, highlight, dim, margin, ctx.text.serial)
    surf = _PLATES.get(key)
    if surf is None:
        surf = pygame.Surface((size[0] + 2 * margin, size[1] + 2 * margin), pygame.SRCALPHA)
        draw_plate(surf, pygame.Rect(margin, margin, *size), seat, frame, ctx, highlight, dim)
        _PLATES[key] = surf
        if len(_PLATES) > _PLATE_CACHE_SIZE:
            _PLATES.popitem(last=False)
    else:
        _PLATES.move_to_end(key)
    return surf, margin


def _build(frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...], highlight: frozenset[int],
           dim_all: bool) -> pygame.Surface:
    surf = background(frame, len(seats)).copy()
    lay = table_layout(frame.size, len(seats))
    for spot, seat in zip(lay.spots, seats):
        plate, margin = plate_surface(frame, ctx, spot.plate.size, seat, spot.seat in highlight, dim_all)
        surf.blit(plate, (spot.plate.x - margin, spot.plate.y - margin))
    return surf


def draw_plate(surface: pygame.Surface, plate: pygame.Rect, seat: SeatModel, frame: Frame, ctx: RenderContext,
               highlight: bool = False, dim: bool = False) -> None:
    """A seat's name plate: symbol in its colour, name, bar count (never values), alive or fallen."""
    u = frame.scale.u
    colour = theme.seat_colour(seat.seat, seat.colour)
    active = seat.alive and seat.in_round and not dim
    fill = theme.PANEL if active else theme.mix(theme.PANEL, theme.BACKGROUND, 0.6)
    border = colour if active else theme.mix(colour, theme.DEAD, 0.65)
    shapes.panel(surface, plate, fill, border, radius=round(10 * u), width=max(2, round((5 if highlight else 3) * u)))
    if highlight:
        pygame.draw.rect(surface, theme.GOLD, plate.inflate(round(8 * u), round(8 * u)), max(2, round(3 * u)),
                         border_radius=round(12 * u))
    rtl = frame.lang == "fa"
    pad = round(plate.height * 0.1)
    sym_r = plate.height * 0.3
    sym_c = (plate.right - pad - sym_r, plate.centery) if rtl else (plate.x + pad + sym_r, plate.centery)
    shapes.symbol(surface, seat.symbol, colour if active else theme.mix(colour, theme.DEAD, 0.6), sym_c, sym_r)
    if not seat.alive and seat.in_round:
        shapes.skull_cross(surface, sym_c, sym_r * 0.8, theme.DANGER)
    if not seat.connected and not seat.bot:
        draw_away_mark(surface, sym_c, sym_r, (plate.y + pad + sym_r * 0.3), rtl, u)
    text_w = plate.width - round(2 * sym_r) - 3 * pad
    text_x = plate.x + pad if rtl else plate.x + 2 * pad + round(2 * sym_r)
    name_box = pygame.Rect(text_x, plate.y + pad // 2, text_w, round(plate.height * 0.5))
    name = seat.name or frame.s("seat.name", n=seat.seat + 1)
    ink = theme.TEXT if active else theme.TEXT_DIM
    ctx.text.draw(surface, name, frame.lang, name_box, TextStyle(round(20 * u), ink, bold=True, max_lines=1, min_px=7,
                                                                 valign=VAlign.BOTTOM))
    line = pygame.Rect(text_x, name_box.bottom, text_w, plate.bottom - name_box.bottom - pad // 2)
    bar = pygame.Rect(0, 0, round(line.height * 0.75), round(line.height * 0.42))
    bar.centery = line.centery
    if rtl:
        bar.right = line.right
    else:
        bar.x = line.x
    shapes.gold_bar(surface, bar)
    status = frame.s("table.bars", n=seat.bars)  # fallen: the cross on the symbol; watching: dimmed
    rest = pygame.Rect(line.x, line.y, line.width - bar.width - pad, line.height)
    if not rtl:
        rest.x = bar.right + pad
    ctx.text.draw(surface, status, frame.lang, rest,
                  TextStyle(round(17 * u), theme.GOLD if active else theme.TEXT_DIM, max_lines=1, min_px=7))


def draw_away_mark(surface: pygame.Surface, sym_c: Point, sym_r: float, y: float, rtl: bool, u: float) -> None:
    """The player's phone is away: a slashed ring beside the seat's symbol (every game's plates)."""
    away = (sym_c[0] + sym_r * 0.8 * (-1 if rtl else 1), y)
    ring = max(3, round(sym_r * 0.32))
    pygame.draw.circle(surface, theme.BACKGROUND, away, ring + max(1, round(u)))
    pygame.draw.circle(surface, theme.DANGER, away, ring, max(1, round(2 * u)))
    pygame.draw.line(surface, theme.DANGER, (away[0] - ring * 0.7, away[1] + ring * 0.7),
                     (away[0] + ring * 0.7, away[1] - ring * 0.7), max(1, round(2 * u)))
