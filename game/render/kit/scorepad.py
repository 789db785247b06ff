"""A companion game's score pad on the big screen: one row per seat (symbol, name, a cell per
round, optionally the total), and under it the corrections the table must see ("Ali's round 2:
7 → 5, corrected by the host"), newest last. Reads the pad's wire form (``ScorePad.to_wire``);
the game says what its columns and trace lines are called."""
from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pygame

from game import i18n

from . import shapes, theme
from .scene import Frame, RenderContext
from .seats import SeatModel, seat_name
from .text import Align, TextStyle

MAX_COLUMNS = 8  # the latest rounds when a game has more
MAX_TRACE = 3
PAGE_MS = 6_000  # corrections too many for their place take turns this often: each is read on the TV


def trace_shown(frame: Frame, trace: Sequence[str], limit: int = MAX_TRACE) -> list[str]:
    """The correction lines for ``limit`` lines of screen: all of them when they fit; else they take
    turns (``Frame.page``), under a line saying which they are ("Corrections 3–4 of 5"), or with
    one line, each counted ("Correction 2 of 3: ..."). Every correction reaches the TV in turn."""
    lines = list(trace)
    if len(lines) <= limit:
        return lines
    per = max(1, limit - 1)
    pages = math.ceil(len(lines) / per)
    first = frame.page(pages, PAGE_MS) * per
    shown = lines[first:first + per]
    if limit <= 1:
        return [frame.s("pad.trace_one", k=first + 1, n=len(lines), line=shown[0])]
    return [frame.s("pad.trace_page", first=first + 1, last=first + len(shown), n=len(lines)), *shown]


def _xs(area: pygame.Rect, weights: Sequence[float], rtl: bool) -> list[pygame.Rect]:
    total = sum(weights) or 1.0
    out: list[pygame.Rect] = []
    x = area.right if rtl else area.x
    for wt in weights:
        width = round(area.width * wt / total)
        out.append(pygame.Rect(x - width if rtl else x, area.y, width, area.height))
        x = x - width if rtl else x + width
    return out


def draw_pad(surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect, pad: Mapping[str, Any],
             seats: Sequence[SeatModel], head: Callable[[int], str], *, total: str | None = None,
             trace: Sequence[str] = (), highlight: frozenset[int] = frozenset(),
             rows_of: Sequence[int] | None = None) -> None:
    """The pad in ``area``: ``head(r)`` names round ``r``'s column; ``total`` (if given) heads a
    column of totals; ``trace`` lines are drawn under the grid; ``rows_of``: the seats to list."""
    u = frame.scale.u
    rtl = frame.lang == "fa"
    rounds = int(pad.get("rounds", 0))
    first = max(1, rounds - MAX_COLUMNS + 1)
    columns = list(range(first, rounds + 1))
    which = list(rows_of) if rows_of is not None else list(range(len(seats)))
    trace = trace_shown(frame, trace)
    lines = len(which) + 1 + len(trace)
    row_h = min(round(58 * u), area.height // max(1, lines))
    weights = [3.2, *([1.0] * len(columns)), *([1.3] if total is not None else [])]
    shapes.panel(surface, area.inflate(round(16 * u), round(12 * u)), theme.PANEL, theme.PANEL_LIGHT,
                 radius=round(12 * u), width=max(1, round(2 * u)))
    header = pygame.Rect(area.x, area.y, area.width, row_h)
    boxes = _xs(header, weights, rtl)
    style = TextStyle(round(19 * u), theme.TEXT_DIM, bold=True, align=Align.CENTER, max_lines=1, min_px=7)
    for r, box in zip(columns, boxes[1:]):
        ctx.text.draw(surface, head(r), frame.lang, box.inflate(-4, -4), style)
    if total is not None:
        ctx.text.draw(surface, total, frame.lang, boxes[-1].inflate(-4, -4), style)
    rows = pad.get("rows", [])
    totals = pad.get("totals", [])
    for k, seat in enumerate(which):
        rect = pygame.Rect(area.x, area.y + (k + 1) * row_h, area.width, row_h)
        if seat in highlight:
            pygame.draw.rect(surface, theme.mix(theme.PANEL, theme.GOLD, 0.25), rect, border_radius=round(8 * u))
        boxes = _xs(rect, weights, rtl)
        _draw_name(surface, frame, ctx, boxes[0], seats, seat)
        cells = rows[seat] if seat < len(rows) else []
        for r, box in zip(columns, boxes[1:]):
            value = cells[r - 1] if r - 1 < len(cells) else None
            text = "–" if value is None else i18n.number(frame.lang, int(value))
            ctx.text.draw(surface, text, frame.lang, box.inflate(-4, -4),
                          TextStyle(round(26 * u), theme.TEXT if value is not None else theme.TEXT_DIM, bold=True,
                                    align=Align.CENTER, max_lines=1, min_px=7))
        if total is not None:
            value = int(totals[seat]) if seat < len(totals) else 0
            ctx.text.draw(surface, i18n.number(frame.lang, value), frame.lang, boxes[-1].inflate(-4, -4),
                          TextStyle(round(28 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=7))
    y = area.y + (len(which) + 1) * row_h
    for line in trace:
        box = pygame.Rect(area.x, y, area.width, row_h)
        dot = (box.right - round(12 * u), box.centery) if rtl else (box.x + round(12 * u), box.centery)
        pygame.draw.circle(surface, theme.ACCENT, dot, max(2, round(5 * u)))
        line_box = box.inflate(-round(30 * u), -4)
        line_box.x = box.x + (round(4 * u) if rtl else round(26 * u))
        ctx.text.draw(surface, line, frame.lang, line_box,
                      TextStyle(round(20 * u), theme.ACCENT, align=Align.START, max_lines=1, min_px=7))
        y += row_h


def _draw_name(surface: pygame.Surface, frame: Frame, ctx: RenderContext, box: pygame.Rect,
               seats: Sequence[SeatModel], seat: int) -> None:
    if not 0 <= seat < len(seats):
        return
    model = seats[seat]
    r = box.height * 0.3
    rtl = frame.lang == "fa"
    centre = (box.right - r * 1.4, box.centery) if rtl else (box.x + r * 1.4, box.centery)
    shapes.symbol(surface, model.symbol, theme.seat_colour(model.seat, model.colour), centre, r)
    text = pygame.Rect(box.x if rtl else box.x + round(r * 2.9), box.y, box.width - round(r * 2.9), box.height)
    ctx.text.draw(surface, seat_name(frame, seats, seat), frame.lang, text.inflate(-4, -4),
                  TextStyle(round(22 * frame.scale.u), theme.TEXT, bold=True, max_lines=1, min_px=7))
