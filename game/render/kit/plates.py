"""Seat plates: every game's seats wear the same plate (symbol in the seat's colour, the name, one
line of status), and the table's plates are drawn once into a cached full-window layer."""
from __future__ import annotations

from dataclasses import dataclass

import pygame

from . import shapes, theme
from .lru import MB, Lru, surface_bytes
from .scene import Frame, RenderContext
from .seats import SeatModel, plate_name
from .table import LayerCache, Point, background, draw_away_mark, table_layout
from .text import TextStyle, VAlign
from .widgets import readable_px


@dataclass(frozen=True, slots=True)
class PlateLook:
    """What a plate shows besides the seat's look (hashable: the caches key on it)."""

    status: str  # the second line, translated (bars, score, points)
    status_ink: theme.Colour = theme.GOLD
    dim: bool = False  # fallen, out of the round, or behind a panel
    fallen: bool = False  # a cross over the symbol
    bold_border: bool = False
    ring: theme.Colour | None = None  # a ring around the plate (highlighted, the clue's host)
    fill: theme.Colour = theme.PANEL
    bar_icon: bool = False  # a gold bar before the status


Plate = tuple[SeatModel, PlateLook]

# Read from 3 m: at 1080p (u = 1.5) the name is 39 px and the status 33 px tall at most.
NAME_PX = 26
STATUS_PX = 22

_LAYERS = LayerCache()
# every plate of a 12-seat table in each of its looks at 4K is ~6 MB: twice that, by bytes (lru.py)
_PLATES: Lru[tuple, pygame.Surface] = Lru(12 * MB, surface_bytes)


def draw_plate(surface: pygame.Surface, rect: pygame.Rect, seat: SeatModel, look: PlateLook, frame: Frame,
               ctx: RenderContext) -> None:
    u = frame.scale.u
    colour = theme.seat_colour(seat.seat, seat.colour)
    fill = theme.mix(look.fill, theme.BACKGROUND, 0.6) if look.dim else look.fill
    border = theme.mix(colour, theme.DEAD, 0.65) if look.dim else colour
    shapes.panel(surface, rect, fill, border, radius=round(10 * u), width=max(2, round((5 if look.bold_border else 3) * u)))
    if look.ring is not None:
        pygame.draw.rect(surface, look.ring, rect.inflate(round(8 * u), round(8 * u)), max(2, round(3 * u)),
                         border_radius=round(12 * u))
    rtl = frame.lang == "fa"
    pad = round(rect.height * 0.1)
    sym_r = rect.height * 0.3
    sym_c: Point = (rect.right - pad - sym_r, rect.centery) if rtl else (rect.x + pad + sym_r, rect.centery)
    shapes.symbol(surface, seat.symbol, theme.mix(colour, theme.DEAD, 0.6) if look.dim else colour, sym_c, sym_r)
    if look.fallen:
        shapes.skull_cross(surface, sym_c, sym_r * 0.8, theme.DANGER)
    if seat.bot:
        mark_r = max(4.0, sym_r * 0.42)
        shapes.bot_mark(surface, (sym_c[0] + sym_r * 0.8 * (-1 if rtl else 1), rect.y + pad + mark_r * 0.7), mark_r,
                        theme.ACCENT, theme.BACKGROUND)
    elif not seat.connected:
        draw_away_mark(surface, sym_c, sym_r, rect.y + pad + sym_r * 0.3, rtl, u)
    text_w = rect.width - round(2 * sym_r) - 3 * pad
    text_x = rect.x + pad if rtl else rect.x + 2 * pad + round(2 * sym_r)
    name_box = pygame.Rect(text_x, rect.y + pad // 2, text_w, round(rect.height * 0.5))
    name = plate_name(frame.lang, seat.name) or frame.s("seat.name", n=seat.seat + 1)
    ctx.text.draw(surface, name, frame.lang, name_box,
                  TextStyle(round(NAME_PX * u), theme.TEXT_DIM if look.dim else theme.TEXT, bold=True, max_lines=1,
                            min_px=readable_px(u), valign=VAlign.BOTTOM))  # a long name: elided at a readable size
    line = pygame.Rect(text_x, name_box.bottom, text_w, rect.bottom - name_box.bottom - pad // 2)
    if look.bar_icon:
        bar = pygame.Rect(0, 0, round(line.height * 0.75), round(line.height * 0.42))
        bar.centery = line.centery
        if rtl:
            bar.right = line.right
        else:
            bar.x = line.x
        shapes.gold_bar(surface, bar)
        line = pygame.Rect(line.x if rtl else bar.right + pad, line.y, line.width - bar.width - pad, line.height)
    ctx.text.draw(surface, look.status, frame.lang, line,
                  TextStyle(round(STATUS_PX * u), theme.TEXT_DIM if look.dim else look.status_ink, max_lines=1, min_px=7))


def plate_surface(frame: Frame, ctx: RenderContext, size: tuple[int, int], seat: SeatModel,
                  look: PlateLook) -> tuple[pygame.Surface, int]:
    """A plate on a transparent surface with room for its ring, and that margin (cached)."""
    margin = round(6 * frame.scale.u)
    key = (size, frame.lang, seat, look, margin, ctx.text.serial)
    surf = _PLATES.get(key)
    if surf is None:
        surf = pygame.Surface((size[0] + 2 * margin, size[1] + 2 * margin), pygame.SRCALPHA)
        draw_plate(surf, pygame.Rect(margin, margin, *size), seat, look, frame, ctx)
        _PLATES.put(key, surf)
    return surf, margin


def plates_layer(frame: Frame, ctx: RenderContext, plates: tuple[Plate, ...]) -> pygame.Surface:
    """Room, felt and every seat's plate in one opaque surface, rebuilt only when a plate changes."""
    key = (frame.size, frame.lang, plates, ctx.text.serial)
    return _LAYERS.get(key, lambda: _build(frame, ctx, plates))


def _build(frame: Frame, ctx: RenderContext, plates: tuple[Plate, ...]) -> pygame.Surface:
    surf = background(frame, len(plates)).copy()
    lay = table_layout(frame.size, len(plates))
    for spot, (seat, look) in zip(lay.spots, plates):
        plate, margin = plate_surface(frame, ctx, spot.plate.size, seat, look)
        surf.blit(plate, (spot.plate.x - margin, spot.plate.y - margin))
    return surf
