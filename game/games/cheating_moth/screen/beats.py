"""Cheating Moth's timed beats over the table: an accusation and its verdict, cards flying (gives,
draws, an action card's effect), and a race's result with order, margins and sources."""
from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from game import i18n
from game.games.cheating_moth.screen.model import Accused, Kind, RaceResult, Seat, seat_models
from game.games.cheating_moth.screen.table import (
    ACCUSE_S,
    _card_back_at,
    beat_caption,
    dimmed_layer,
    draw_kind_icon,
    fan_centre,
    mirror,
    moth_layout,
    plate_of,
    row_columns,
    s,
    style,
)
from game.render.kit import shapes, theme
from game.render.kit.hud import draw_caption
from game.render.kit.motion import ease, edge_point, span
from game.render.kit.scene import Frame, RenderContext, Scene
from game.render.kit.seats import names, seat_name
from game.render.kit.sound import Effect
from game.render.kit.text import Align, TextStyle
from game.rules import race as race_rule


class AccusationBeat(Scene):
    """The guard points at a player: an arrow, then CAUGHT! or WRONG! and what follows (M10)."""

    name = "moth_accusation"
    overlay = True
    duration_s = ACCUSE_S

    def __init__(self, accusation: Accused, seats: tuple[Seat, ...]) -> None:
        super().__init__()
        self.accusation = accusation
        self.seats = seats
        self._sounded = False

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if not self._sounded and self.t >= 0.7:
            self._sounded = True
            ctx.sound.play(Effect.STING if self.accusation.caught else Effect.LOSS)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        a = self.accusation
        ml = moth_layout(frame.size, len(self.seats))
        if max(a.guard, a.target) >= len(ml.table.spots):
            return
        end_full = edge_point(plate_of(ml, a.target), plate_of(ml, a.guard).center)
        start = edge_point(plate_of(ml, a.guard), end_full)
        p = ease(span(self.t, 0.0, 0.6))
        tip = (start[0] + (end_full[0] - start[0]) * p, start[1] + (end_full[1] - start[1]) * p)
        shapes.arrow(surface, start, tip, (10, 10, 14), max(4, round(10 * u)), 26 * u)
        shapes.arrow(surface, start, tip, theme.GOLD, max(3, round(7 * u)), 22 * u)
        g, t = seat_name(frame, self.seats, a.guard), seat_name(frame, self.seats, a.target)
        if self.t < 0.7:
            beat_caption(surface, frame, ctx, ml.table.caption, s(frame, "accuse.title", guard=g, target=t), theme.GOLD,
                         theme.GOLD)
            return
        grow = ease(span(self.t, 0.7, 0.3))
        colour = theme.DANGER if a.caught else theme.ACCENT
        stamp = pygame.Rect(0, 0, round(frame.size[0] * 0.34 * (0.6 + 0.4 * grow)), round(frame.size[1] * 0.13))
        stamp.center = (round(ml.table.centre[0]), round(ml.table.middle.y + stamp.height * 0.5))
        pygame.draw.rect(surface, theme.mix(theme.BACKGROUND, colour, 0.75), stamp, border_radius=round(16 * u))
        pygame.draw.rect(surface, theme.TEXT, stamp, max(2, round(4 * u)), border_radius=round(16 * u))
        word = s(frame, "accuse.caught" if a.caught else "accuse.wrong")
        ctx.text.draw(surface, word, frame.lang, stamp.inflate(-round(20 * u), -round(10 * u)),
                      style(64, theme.TEXT, frame, bold=True))
        story = s(frame, "accuse.caught_story" if a.caught else "accuse.wrong_story", guard=g, target=t)
        beat_caption(surface, frame, ctx, ml.table.caption, story, theme.TEXT, colour)


@dataclass(frozen=True, slots=True)
class Move:
    """A card flying face down: from a seat (or the draw pile when ``src`` is None) to a seat."""

    src: int | None
    dst: int


class FlightBeat(Scene):
    """Cards flying face down (Ant draws, Spider and Mosquito gifts, a penalty card, a wrong guess)
    with a caption saying what happens."""

    name = "moth_flight"
    overlay = True
    duration_s = 2.2
    EACH_S = 0.7

    def __init__(self, moves: tuple[Move, ...], caption: str, seats: tuple[Seat, ...]) -> None:
        super().__init__()
        self.moves = moves
        self.caption = caption
        self.seats = seats
        self._played = 0

    def _stagger(self) -> float:
        return min(0.25, 1.0 / max(1, len(self.moves)))

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        due = sum(1 for k in range(len(self.moves)) if self.t >= k * self._stagger())
        if due > self._played:
            self._played = due
            ctx.sound.play(Effect.PLACE)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        ml = moth_layout(frame.size, len(self.seats))
        n = len(ml.table.spots)
        for k, move in enumerate(self.moves):
            if move.dst >= n or (move.src is not None and move.src >= n):
                continue
            p = ease(span(self.t, k * self._stagger(), self.EACH_S))
            if p <= 0 or p >= 1:
                continue
            start = mirror(ml.draw, frame, ml.table.middle.centerx).center if move.src is None else fan_centre(ml, move.src)
            end = fan_centre(ml, move.dst)
            lift = math.sin(p * math.pi) * ml.card[1] * 0.8
            pos = (start[0] + (end[0] - start[0]) * p, start[1] + (end[1] - start[1]) * p - lift)
            img = _card_back_at(ml.card, round(p * 360) % 360 // 15 * 15)
            surface.blit(img, img.get_rect(center=(round(pos[0]), round(pos[1]))))
        beat_caption(surface, frame, ctx, ml.table.caption, self.caption, theme.GOLD, theme.GOLD)


class RaceResultBeat(Scene):
    """A race's verdict (M14–M16): the order with each time and the margin to the one before, the
    source of every press, the error bound, 'too close to call', false starts and who did not press."""

    name = "moth_race_result"
    duration_s = 7.0
    ROW_S = 0.35
    told_s = 2.0  # the order is up (the rows land ROW_S apart); the rest is time to read the times

    def __init__(self, race: RaceResult, seats: tuple[Seat, ...]) -> None:
        super().__init__()
        self.race = race
        self.seats = seats
        self._sounded = False

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if not self._sounded:
            self._sounded = True
            ctx.sound.play(Effect.REVEAL)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        r = self.race
        panel = pygame.Rect(round(w * 0.14), round(h * 0.06), round(w * 0.72), round(h * 0.88))
        surface.blit(dimmed_layer(frame, ctx, seat_models(frame.snapshot)), (0, 0))
        pygame.draw.rect(surface, theme.BACKGROUND, panel, border_radius=round(18 * u))
        pygame.draw.rect(surface, theme.GOLD, panel, max(2, round(3 * u)), border_radius=round(18 * u))
        title = pygame.Rect(panel.x, panel.y + round(h * 0.015), panel.width, round(h * 0.08))
        if r.decided.kind is Kind.MOSQUITO:
            head = s(frame, "result.mosquito")
        else:
            head = s(frame, "result.beetle", n=r.number) if r.number is not None else s(frame, "result.beetle_plain")
        ctx.text.draw(surface, head, frame.lang, title, style(36, theme.GOLD, frame, bold=True))
        for side in (-1, 1):
            draw_kind_icon(surface, r.decided.kind, (title.centerx + side * panel.width * 0.4, title.centery), title.height * 0.3,
                           theme.GOLD)
        rows = pygame.Rect(panel.x + round(w * 0.03), title.bottom + round(h * 0.01), panel.width - round(w * 0.06),
                           round(h * 0.46))
        self._draw_rows(surface, frame, ctx, rows)
        notes = pygame.Rect(rows.x, rows.bottom + round(h * 0.01), rows.width, panel.bottom - rows.bottom - round(h * 0.12))
        lines = self._notes(frame)
        line_h = min(notes.height // max(1, len(lines)), round(36 * u))
        for k, (text, ink) in enumerate(lines):
            ctx.text.draw(surface, text, frame.lang, pygame.Rect(notes.x, notes.y + k * line_h, notes.width, line_h),
                          style(19, ink, frame))
        verdict = pygame.Rect(panel.x + round(w * 0.02), panel.bottom - round(h * 0.11), panel.width - round(w * 0.04),
                              round(h * 0.095))
        if self.t >= self.ROW_S * len(r.decided.order) + 0.3:
            draw_caption(surface, frame, ctx, verdict, self._verdict(frame), theme.GOLD, px=26, border=theme.GOLD)

    def _draw_rows(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect) -> None:
        u = frame.scale.u
        r = self.race
        n = max(1, len(r.decided.order))
        cell_h = min(area.height // n, round(64 * u))
        for k, seat in enumerate(r.decided.order):
            if self.t < k * self.ROW_S:
                break
            rect = pygame.Rect(area.x, area.y + k * cell_h + 2, area.width, cell_h - 4)
            key = seat == r.decided.slowest or seat == r.decided.winner
            colour = theme.seat_colour(seat, self.seats[seat].colour if seat < len(self.seats) else None)
            shapes.panel(surface, rect, theme.PANEL_LIGHT if key else theme.PANEL,
                         theme.DANGER if seat == r.decided.slowest else theme.GOLD if key else colour,
                         radius=round(8 * u), width=max(1, round((4 if key else 2) * u)))
            cols = row_columns(rect, frame, (0.08, 0.09, 0.31, 0.17, 0.17, 0.18))
            shapes.symbol(surface, self.seats[seat].symbol if seat < len(self.seats) else "circle", colour,
                          cols[1].center, rect.height * 0.3)
            time = r.decided.times_ms[k] if k < len(r.decided.times_ms) else 0
            margin = r.decided.margins_ms[k] if k < len(r.decided.margins_ms) else 0
            source = r.sources[k] if k < len(r.sources) else None
            cells = (
                (i18n.number(frame.lang, k + 1), theme.GOLD, Align.CENTER),
                (seat_name(frame, self.seats, seat), theme.TEXT, Align.START),
                (s(frame, "result.ms", n=_precise(frame, time)), theme.TEXT, Align.END),
                (s(frame, "result.margin", n=_precise(frame, margin)) if k else "", theme.DANGER if r.too_close(k) else theme.TEXT_DIM,
                 Align.END),
                (s(frame, f"source.{source.value}") if source else "", theme.ACCENT, Align.CENTER),
            )
            for box, (text, ink, align) in zip((cols[0], cols[2], cols[3], cols[4], cols[5]), cells):
                if text:
                    ctx.text.draw(surface, text, frame.lang, box.inflate(-round(8 * u), -round(8 * u)),
                                  TextStyle(round(22 * u), ink, bold=align is Align.CENTER, align=align,
                                            max_lines=2 if box is cols[5] else 1, min_px=7))  # a source may wrap

    def _notes(self, frame: Frame) -> list[tuple[str, theme.Colour]]:
        r = self.race
        out: list[tuple[str, theme.Colour]] = []
        if r.decided.order:
            out.append((s(frame, "result.error", n=_ms(frame, r.error_bound_ms)), theme.TEXT_DIM))
        if r.clamped:
            out.append((s(frame, "result.clamped", names=names(frame, self.seats, r.clamped)), theme.DANGER))
        if r.decided.within_ms > 0:  # the one rule (game/rules/race.py): say exactly what happened
            out.append((s(frame, "result.drawn", names=names(frame, self.seats, r.decided.tied), n=_ms(frame, r.decided.within_ms)),
                        theme.DANGER))
        else:
            if r.decided.close:
                out.append((s(frame, "result.close"), theme.DANGER))
            if r.decided.tie_broken_by_rng:
                out.append((s(frame, "result.by_rng"), theme.DANGER))
        if r.decided.no_press and r.decided.kind is Kind.MOSQUITO:
            out.append((s(frame, "result.no_press", names=names(frame, self.seats, r.decided.no_press)), theme.TEXT))
        if r.decided.void:
            out.append((s(frame, "result.void", names=names(frame, self.seats, r.decided.void)), theme.TEXT))
        for seat, early in r.false_starts[:2]:
            out.append((s(frame, "result.false_start", name=seat_name(frame, self.seats, seat), n=_ms(frame, early)), theme.DANGER))
        return out[:4]

    def _verdict(self, frame: Frame) -> str:
        r = self.race
        if r.decided.kind is Kind.MOSQUITO:
            return s(frame, "result.slowest", name=seat_name(frame, self.seats, r.decided.slowest))
        if r.decided.winner is None:
            return s(frame, "result.nobody")
        return s(frame, "result.winner", name=seat_name(frame, self.seats, r.decided.winner))


def _precise(frame: Frame, value: float) -> str:
    """A press time or margin as the race rule writes it (``100``, ``100.2``): a board's sub-ms order shows."""
    return i18n.digits(frame.lang, race_rule.shown_ms(value))


def _ms(frame: Frame, value: float) -> str:
    """Whole milliseconds, or one decimal under 10 ms (arcade presses are that precise); a measure,
    so a Persian zero stays the digit ("±۰ ms")."""
    return i18n.digits(frame.lang, round(value) if value >= 10 or value == round(value) else f"{value:.1f}")


