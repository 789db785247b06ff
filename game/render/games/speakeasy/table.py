"""Speakeasy on the big screen: the clue in large type and its host, who has pointed (never at
whom), the simultaneous reveal with arrows, the subject and their identity, points flying to the
scores, the last secrets (S12 bonuses) and the winner with the tie-break (S13).

Base scenes follow the view's phase; timed beats play the events of one accepted action."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pygame

from game import i18n
from game.session.snapshot import TableSnapshot

from . import shapes, theme
from .collusion import draw_badge, draw_caption, draw_notices, draw_timer, ease, edge_point, span
from .scene import FinalScene, Frame, RenderContext, Scene
from .sound import Effect
from .speakeasy_model import (
    Bonus,
    Clue,
    ClueResult,
    Final,
    Identity,
    Outcome,
    Phase,
    SeatModel,
    TieBreak,
    clue_from,
    clue_language,
    event_types,
    final_from,
    phase,
    pointed,
    pointers,
    result_from,
    scores_before,
    seat_models,
    with_identities,
    with_scores,
)
from .table_art import LayerCache, TableLayout, background, draw_away_mark, table_layout
from .text import Align, TextStyle, VAlign

DOMAIN = "screen_speakeasy"
TICK_FROM_MS = 10_000
REVEAL_TIMER = "speakeasy_reveal"  # the pause after a reveal: no hurry, no ticking  # the timer turns red, pulses and ticks in its last ten seconds
INK = (30, 28, 36)  # text on the cream clue card
IDENTITY_COLOURS: dict[Identity, theme.Colour] = {Identity.INFORMANT: (196, 52, 60), Identity.CITIZEN: (52, 120, 196)}


# ------------------------------------------------------------------------------------- helpers
def say(frame: Frame, key: str, **values: Any) -> str:
    """A Speakeasy screen string in the table's language."""
    return i18n.text(frame.lang, DOMAIN, key, **values)


def seat_name(frame: Frame, seats: Sequence[SeatModel], seat: int | None) -> str:
    if seat is None or not (0 <= seat < len(seats)):
        return "?"
    return seats[seat].name or say(frame, "seat.name", n=seat + 1)


def names(frame: Frame, seats: Sequence[SeatModel], which: Sequence[int]) -> str:
    items = [seat_name(frame, seats, s) for s in which]
    if len(items) <= 1:
        return "".join(items)
    return say(frame, "list.sep").join(items[:-1]) + say(frame, "list.last") + items[-1]


def view_of(frame: Frame) -> Mapping[str, Any]:
    return frame.snapshot.public_view or {}


def host_of(view: Mapping[str, Any]) -> int | None:
    h = view.get("host")
    return h if isinstance(h, int) and not isinstance(h, bool) else None


# -------------------------------------------------------------------------------------- layout
@dataclass(frozen=True, slots=True)
class Stage:
    """The table plus the free middle of the felt: the clue's header, the card, and a footer with
    the host and the timer."""

    lay: TableLayout
    middle: pygame.Rect
    header: pygame.Rect
    card: pygame.Rect
    footer: pygame.Rect


def clear_middle(lay: TableLayout, size: tuple[int, int]) -> pygame.Rect:
    """The largest centred box (up to half the window) that no seat plate overlaps."""
    w, h = size
    box = pygame.Rect(0, 0, round(w * 0.5), round(h * 0.46))
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


@lru_cache(maxsize=32)
def stage(size: tuple[int, int], n: int) -> Stage:
    lay = table_layout(size, n)
    mid = clear_middle(lay, size)
    header = pygame.Rect(mid.x, mid.y, mid.width, round(mid.height * 0.14))
    card = pygame.Rect(mid.x, header.bottom, mid.width, round(mid.height * 0.62))
    footer = pygame.Rect(mid.x, card.bottom, mid.width, mid.bottom - card.bottom)
    return Stage(lay, mid, header, card.inflate(-round(mid.height * 0.03), -round(mid.height * 0.03)), footer)


# -------------------------------------------------------------------------------------- plates
_LAYERS = LayerCache(capacity=8)


def static_layer(frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...], host: int | None,
                 highlight: frozenset[int] = frozenset()) -> pygame.Surface:
    """Room, felt and every seat plate; rebuilt only when one of them changes."""
    key = (frame.size, frame.lang, seats, host, highlight, ctx.text.serial)
    return _LAYERS.get(key, lambda: _build_layer(frame, ctx, seats, host, highlight))


def _build_layer(frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...], host: int | None,
                 highlight: frozenset[int]) -> pygame.Surface:
    surf = background(frame, len(seats)).copy()
    lay = table_layout(frame.size, len(seats))
    for spot, seat in zip(lay.spots, seats):
        draw_plate(surf, spot.plate, seat, frame, ctx, seat.seat == host, seat.seat in highlight)
    return surf


def draw_identity_tabs(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout,
                       seats: Sequence[SeatModel]) -> None:
    """Every public identity as a tab on its plate (drawn over arrows and spotlights)."""
    for spot, seat in zip(lay.spots, seats):
        if seat.identity is not None:
            draw_identity_pill(surface, frame, ctx, identity_tab(frame, spot.plate, spot.inward), seat.identity)


def identity_tab(frame: Frame, plate: pygame.Rect, inward: tuple[float, float]) -> pygame.Rect:
    """Where a public identity shows: a tab on the plate's outer side (badges take the inner side)."""
    rect = pygame.Rect(0, 0, round(plate.width * 0.62), round(frame.size[1] * 0.034))
    rect.centerx = plate.centerx
    if inward[1] < -0.2:  # low on the screen: badges go above the plate, so the tab goes below
        rect.y = plate.bottom - round(rect.height * 0.15)
    else:
        rect.bottom = plate.y + round(rect.height * 0.15)
    rect.clamp_ip(pygame.Rect((0, 0), frame.size))
    return rect


def draw_plate(surface: pygame.Surface, plate: pygame.Rect, seat: SeatModel, frame: Frame, ctx: RenderContext,
               is_host: bool, highlight: bool) -> None:
    """A seat's plate: symbol in its colour, name, score, and the identity once it is public."""
    u = frame.scale.u
    colour = theme.seat_colour(seat.seat, seat.colour)
    shapes.panel(surface, plate, theme.PANEL_LIGHT if is_host else theme.PANEL, colour, radius=round(10 * u),
                 width=max(2, round((5 if highlight else 3) * u)))
    if is_host or highlight:
        ring = theme.GOLD if is_host else theme.ACCENT
        pygame.draw.rect(surface, ring, plate.inflate(round(8 * u), round(8 * u)), max(2, round(3 * u)),
                         border_radius=round(12 * u))
    rtl = frame.lang == "fa"
    pad = round(plate.height * 0.1)
    sym_r = plate.height * 0.3
    sym_c = (plate.right - pad - sym_r, plate.centery) if rtl else (plate.x + pad + sym_r, plate.centery)
    shapes.symbol(surface, seat.symbol, colour, sym_c, sym_r)
    if not seat.connected and not seat.bot:
        draw_away_mark(surface, sym_c, sym_r, plate.y + pad + sym_r * 0.3, rtl, u)
    text_w = plate.width - round(2 * sym_r) - 3 * pad
    text_x = plate.x + pad if rtl else plate.x + 2 * pad + round(2 * sym_r)
    name_box = pygame.Rect(text_x, plate.y + pad // 2, text_w, round(plate.height * 0.5))
    ctx.text.draw(surface, seat.name or say(frame, "seat.name", n=seat.seat + 1), frame.lang, name_box,
                  TextStyle(round(20 * u), theme.TEXT, bold=True, max_lines=1, min_px=7, valign=VAlign.BOTTOM))
    line = pygame.Rect(text_x, name_box.bottom, text_w, plate.bottom - name_box.bottom - pad // 2)
    ctx.text.draw(surface, say(frame, "score", n=seat.score), frame.lang, line,
                  TextStyle(round(18 * u), theme.GOLD, max_lines=1, min_px=7))


def draw_identity_pill(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect,
                       identity: Identity) -> None:
    fill = IDENTITY_COLOURS[identity]
    pygame.draw.rect(surface, fill, rect, border_radius=rect.height // 2)
    pygame.draw.rect(surface, theme.TEXT, rect, max(1, round(1.5 * frame.scale.u)), border_radius=rect.height // 2)
    ctx.text.draw(surface, say(frame, f"identity.{identity.value}"), frame.lang, rect.inflate(-rect.height // 2, -2),
                  TextStyle(round(17 * frame.scale.u), theme.ink_on(fill), bold=True, align=Align.CENTER, max_lines=1,
                            min_px=7))


def draw_pointed_marks(surface: pygame.Surface, frame: Frame, lay: TableLayout, waiting: Sequence[int],
                       done: Mapping[int, float], t: float) -> None:
    """A tick on the plate of everyone who has pointed (popping in), a pulsing ring on who has not."""
    u = frame.scale.u
    for seat in waiting:
        if seat >= len(lay.spots):
            continue
        plate = lay.spots[seat].plate
        r = plate.height * 0.2
        c = (plate.x + r * 0.9, plate.y + r * 0.9) if frame.lang == "fa" else (plate.right - r * 0.9, plate.y + r * 0.9)
        if seat in done:
            pop = ease(span(t, done[seat], 0.3))
            if pop <= 0:
                continue
            rr = r * (0.6 + 0.4 * pop)
            pygame.draw.circle(surface, theme.GOOD, c, rr)
            pygame.draw.lines(surface, theme.BACKGROUND, False,
                              [(c[0] - rr * 0.5, c[1]), (c[0] - rr * 0.1, c[1] + rr * 0.4), (c[0] + rr * 0.5, c[1] - rr * 0.4)],
                              max(2, round(2.5 * u)))
        else:
            pulse = 0.5 + 0.5 * math.sin(t * 4 + seat)
            pygame.draw.circle(surface, theme.mix(theme.PANEL_LIGHT, theme.TEXT_DIM, pulse), c, r * 0.7, max(1, round(2 * u)))


# ------------------------------------------------------------------------------------ arrows
def loop_arrow(surface: pygame.Surface, centre: tuple[float, float], r: float, colour: theme.Colour, width: int,
               progress: float) -> None:
    """A round arrow back to its own seat (a self-point), drawn up to ``progress``."""
    if progress <= 0:
        return
    rect = pygame.Rect(0, 0, round(2 * r), round(2 * r))
    rect.center = (round(centre[0]), round(centre[1]))
    start, sweep = math.radians(110), math.radians(300) * progress
    pygame.draw.arc(surface, colour, rect, start, start + sweep, width)
    end = start + sweep
    tip = (centre[0] + r * math.cos(end), centre[1] - r * math.sin(end))
    tangent = (-math.sin(end), -math.cos(end))  # direction of travel (counter-clockwise on screen)
    head = width * 2.6
    base = (tip[0] - tangent[0] * head, tip[1] - tangent[1] * head)
    normal = (-tangent[1] * head * 0.6, tangent[0] * head * 0.6)
    pygame.draw.polygon(surface, colour, [tip, (base[0] + normal[0], base[1] + normal[1]),
                                          (base[0] - normal[0], base[1] - normal[1])])


def draw_pointing(surface: pygame.Surface, frame: Frame, lay: TableLayout, seats: Sequence[SeatModel],
                  pointing: Sequence[int | None], progress: float) -> None:
    """An arrow from each pointer to whom they pointed at, in the pointer's colour."""
    if progress <= 0:
        return
    u = frame.scale.u
    n = len(lay.spots)
    for src, dst in enumerate(pointing[:n]):
        if dst is None or not (0 <= dst < n):
            continue
        colour = theme.seat_colour(src, seats[src].colour if src < len(seats) else None)
        if dst == src:
            plate = lay.spots[src].plate
            ix, iy = lay.spots[src].inward
            r = plate.height * 0.4
            edge = edge_point(plate, lay.centre)
            c = (edge[0] + ix * r * 1.3, edge[1] + iy * r * 1.3)
            loop_arrow(surface, c, r, (10, 10, 14), max(4, round(8 * u)), progress)
            loop_arrow(surface, c, r, colour, max(3, round(5 * u)), progress)
            continue
        a, b = lay.spots[src].plate, lay.spots[dst].plate
        start, end = edge_point(a, b.center), edge_point(b, a.center)
        dx, dy = end[0] - start[0], end[1] - start[1]
        length = math.hypot(dx, dy) or 1.0
        side = 7 * u  # two seats pointing at each other: their arrows run side by side
        off = (-dy / length * side, dx / length * side)
        start, end = (start[0] + off[0], start[1] + off[1]), (end[0] + off[0], end[1] + off[1])
        tip = (start[0] + dx * progress, start[1] + dy * progress)
        shapes.arrow(surface, start, tip, (10, 10, 14), max(4, round(10 * u)), 24 * u)
        shapes.arrow(surface, start, tip, colour, max(3, round(6 * u)), 19 * u)


def draw_spotlight(surface: pygame.Surface, frame: Frame, lay: TableLayout, seat: int | None, t: float) -> None:
    if seat is None or not (0 <= seat < len(lay.spots)):
        return
    u = frame.scale.u
    glow = 0.5 + 0.5 * math.sin(t * 5)
    plate = lay.spots[seat].plate
    for k in range(2):
        pygame.draw.rect(surface, theme.mix(theme.GOLD, theme.TEXT, glow * 0.6),
                         plate.inflate(round((14 + 10 * k) * u), round((14 + 10 * k) * u)), max(2, round((4 - 2 * k) * u)),
                         border_radius=round((14 + 5 * k) * u))


def draw_point_token(surface: pygame.Surface, frame: Frame, ctx: RenderContext, at: tuple[float, float], points: int,
                     scale: float = 1.0) -> None:
    """A gold disc with ``+n``: what a seat scores, on its way to the plate."""
    r = max(4.0, 24 * frame.scale.u * scale)
    pygame.draw.circle(surface, (120, 80, 10), at, r + max(1, round(2 * frame.scale.u)))
    pygame.draw.circle(surface, theme.GOLD, at, r)
    box = pygame.Rect(0, 0, round(r * 1.7), round(r * 1.3))
    box.center = (round(at[0]), round(at[1]))
    ctx.text.draw(surface, say(frame, "points", n=points), frame.lang, box,
                  TextStyle(round(24 * frame.scale.u), INK, bold=True, align=Align.CENTER, max_lines=1, min_px=6))


# ----------------------------------------------------------------------------------- the middle
def draw_card_panel(surface: pygame.Surface, frame: Frame, rect: pygame.Rect, face: theme.Colour) -> None:
    """The big clue card: a face with a gold frame and a fine inner line."""
    u = frame.scale.u
    radius = round(16 * u)
    pygame.draw.rect(surface, face, rect, border_radius=radius)
    pygame.draw.rect(surface, theme.GOLD, rect, max(2, round(4 * u)), border_radius=radius)
    pygame.draw.rect(surface, theme.mix(face, theme.GOLD, 0.6), rect.inflate(-round(16 * u), -round(16 * u)),
                     max(1, round(1.5 * u)), border_radius=round(10 * u))


def draw_clue(surface: pygame.Surface, frame: Frame, ctx: RenderContext, st: Stage, clue: Clue | None,
              clues_left: int) -> None:
    """The clue number and the pile, and the clue itself on a card in large type (in its own language)."""
    u = frame.scale.u
    if clue is not None:
        head = say(frame, "clue.counter", number=clue.number, total=clue.total) + say(frame, "sep") + say(
            frame, "clue.left", n=clues_left)
        ctx.text.draw(surface, head, frame.lang, st.header, TextStyle(round(24 * u), theme.GOLD, bold=True,
                                                                      align=Align.CENTER, max_lines=1, min_px=8))
    draw_card_panel(surface, frame, st.card, theme.CARD_FACE)
    if clue is None:
        return
    inner = st.card.inflate(-round(st.card.height * 0.16), -round(st.card.height * 0.12))
    ctx.text.draw(surface, clue.text, clue_language(clue, frame.lang), inner,
                  TextStyle(round(46 * u), INK, bold=True, align=Align.CENTER, max_lines=4, min_px=round(14 * u)))


def draw_host_and_timer(surface: pygame.Surface, frame: Frame, ctx: RenderContext, st: Stage, seats: Sequence[SeatModel],
                        host: int | None) -> None:
    """The footer under the clue: the host (symbol, colour, name) and the running timer."""
    u = frame.scale.u
    rtl = frame.lang == "fa"
    foot = st.footer
    r = foot.height * 0.4
    if host is not None and 0 <= host < len(seats):
        chip = pygame.Rect(foot.x, foot.y + round(foot.height * 0.12), round(foot.width * 0.56), round(foot.height * 0.76))
        if rtl:
            chip.right = foot.right
        colour = theme.seat_colour(host, seats[host].colour)
        shapes.panel(surface, chip, theme.PANEL, colour, radius=chip.height // 2, width=max(2, round(3 * u)))
        sr = chip.height * 0.32
        sc = (chip.right - chip.height * 0.5, chip.centery) if rtl else (chip.x + chip.height * 0.5, chip.centery)
        shapes.symbol(surface, seats[host].symbol, colour, sc, sr)
        label = chip.inflate(-round(chip.height * 1.2), 0)
        label.x = chip.x + round(chip.height * 0.2) if rtl else chip.x + round(chip.height)
        ctx.text.draw(surface, say(frame, "host.label", name=seat_name(frame, seats, host)), frame.lang, label,
                      TextStyle(round(22 * u), theme.TEXT, bold=True, max_lines=1, min_px=8))
    timer = frame.snapshot.timer
    left = frame.timer_left_ms()
    if timer is None or left is None:
        return
    urgent = left <= TICK_FROM_MS and timer.label != REVEAL_TIMER
    pulse = 1 + (0.12 * max(0.0, math.sin((left % 1000) / 1000 * math.pi)) if urgent else 0.0)
    cx = foot.x + r * 1.2 if rtl else foot.right - r * 1.2
    if urgent:
        pygame.draw.circle(surface, theme.mix(theme.BACKGROUND, theme.DANGER, 0.45), (cx, foot.centery), r * pulse * 1.25)
    draw_timer(surface, frame, ctx, (cx, foot.centery), r * pulse)
    label = pygame.Rect(0, foot.y, round(foot.width * 0.44) - round(r * 2.6), foot.height)
    if rtl:
        label.x = round(cx + r * 1.4)
    else:
        label.right = round(cx - r * 1.4)
    key = "timer.hurry" if urgent else f"timer.{timer.label}"
    if i18n.has(frame.lang, DOMAIN, key) and label.width > 0:
        ctx.text.draw(surface, say(frame, key), frame.lang, label,
                      TextStyle(round(18 * u), theme.DANGER if urgent else theme.ACCENT, bold=urgent, max_lines=2,
                                min_px=8, align=Align.END))


def result_sentence(frame: Frame, seats: Sequence[SeatModel], r: ClueResult) -> str:
    """What the clue's reveal means, in words (S8 / S9, or a skipped clue)."""
    subject, host = seat_name(frame, seats, r.subject), seat_name(frame, seats, r.host)
    if r.outcome is Outcome.SKIPPED:
        return say(frame, "reveal.skipped", host=host)
    if r.outcome is Outcome.NOBODY:
        return say(frame, "reveal.nobody", name=subject, host=host)
    if r.outcome is Outcome.CITIZEN_FOUND:
        text = say(frame, "reveal.citizen", name=subject)
    else:
        text = say(frame, "reveal.informant" if r.newly_revealed else "reveal.informant_known", name=subject)
    return text + say(frame, "sep") + say(frame, "reveal.right", names=names(frame, seats, r.correct))


def subject_sentence(frame: Frame, seats: Sequence[SeatModel], r: ClueResult) -> str:
    key = "reveal.subject_random" if r.by_timeout else "reveal.subject"
    return say(frame, key, host=seat_name(frame, seats, r.host), name=seat_name(frame, seats, r.subject))


# --------------------------------------------------------------------------------- base scenes
class TableScene(Scene):
    """The table for one clue: the clue and its host, who has pointed, the timer; in ``reveal``
    also the arrows, the subject and what it meant, until the next clue."""

    name = "speakeasy_table"

    def __init__(self) -> None:
        super().__init__()
        self._pointed_since: dict[int, float] = {}
        self._clue: int | None = None
        self._last_tick = -1

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        first = self.t == 0.0  # pointing already done when the screen (re)starts makes no sound
        super().update(dt, frame, ctx)
        self._track_pointing(frame, ctx, first)
        self._tick(frame, ctx)

    def _track_pointing(self, frame: Frame, ctx: RenderContext, first: bool) -> None:
        view = view_of(frame)
        clue = clue_from(view)
        number = clue.number if clue else None
        if number != self._clue:
            self._clue = number
            self._pointed_since.clear()
        now = pointed(view) if phase(view) is Phase.POINTING else frozenset(self._pointed_since)
        for seat in sorted(now - self._pointed_since.keys()):
            self._pointed_since[seat] = -9.0 if first else self.t
            if not first:
                ctx.sound.play(Effect.VOTE_DOWN)
        for seat in set(self._pointed_since) - now:
            del self._pointed_since[seat]

    def _tick(self, frame: Frame, ctx: RenderContext) -> None:
        """A tick a second in the last seconds of a timer someone must beat (not the reveal's pause)."""
        timer, left = frame.snapshot.timer, frame.timer_left_ms()
        if timer is None or left is None or timer.label == REVEAL_TIMER:
            return
        if 0 < left <= TICK_FROM_MS and left // 1000 != self._last_tick:
            self._last_tick = left // 1000
            ctx.sound.play(Effect.TICK)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        ph = phase(view)
        result = result_from(view.get("reveal")) if ph is Phase.REVEAL else None
        host = host_of(view)
        surface.blit(static_layer(frame, ctx, seats, host), (0, 0))
        st = stage(frame.size, len(seats))
        draw_clue(surface, frame, ctx, st, clue_from(view), int(view.get("clues_left", 0) or 0))
        draw_host_and_timer(surface, frame, ctx, st, seats, host)
        if host is not None and host < len(st.lay.spots):
            draw_badge(surface, frame, ctx, st.lay, host, say(frame, "badge.host"), theme.GOLD)
        if result is not None:
            draw_spotlight(surface, frame, st.lay, result.subject, self.t)
            draw_pointing(surface, frame, st.lay, seats, result.pointing, 1.0)
            if result.subject is not None and result.subject < len(st.lay.spots):
                draw_badge(surface, frame, ctx, st.lay, result.subject, say(frame, "badge.subject"), theme.GOLD)
            text = result_sentence(frame, seats, result) + say(frame, "sep") + self._next(frame, seats, view)
            draw_caption(surface, frame, ctx, st.lay.caption, text, theme.TEXT, px=22)
        else:
            draw_pointed_marks(surface, frame, st.lay, pointers(view) if ph is Phase.POINTING else (),
                               self._pointed_since, self.t)
            draw_caption(surface, frame, ctx, st.lay.caption, self._status(frame, seats, view, ph), theme.TEXT, px=22)
        draw_identity_tabs(surface, frame, ctx, st.lay, seats)
        draw_notices(surface, frame, ctx)

    @staticmethod
    def _status(frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any], ph: Phase | None) -> str:
        if ph is Phase.POINTING:
            done, total = len(pointed(view)), len(pointers(view))
            return say(frame, "pointing.all") if total and done >= total else say(frame, "pointing", n=done, m=total)
        return say(frame, "choosing", name=seat_name(frame, seats, host_of(view)))

    @staticmethod
    def _next(frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> str:
        if int(view.get("clues_left", 0) or 0) <= 0:
            return say(frame, "reveal.last")
        nxt = view.get("next_host")
        nxt = nxt if isinstance(nxt, int) else None
        timed = bool((view.get("timers") or {}).get("reveal_ms", 0))
        return say(frame, "reveal.next" if timed else "reveal.continue", name=seat_name(frame, seats, nxt))


class OverScene(FinalScene):
    """The winner (S13) and how the tie was broken, then every seat: score, right guesses, identity."""

    name = "speakeasy_over"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        final = final_from(view)
        surface.fill(theme.BACKGROUND)
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.08))
        ctx.text.draw(surface, say(frame, "over.title"), frame.lang, title,
                      TextStyle(round(38 * u), theme.TEXT_DIM, bold=True, align=Align.CENTER, max_lines=1))
        winners = final.winners if final else tuple(int(x) for x in view.get("winners", []))
        self._draw_crowned(surface, frame, seats, winners, pygame.Rect(0, title.bottom, w, round(h * 0.2)))
        line = pygame.Rect(round(w * 0.08), round(h * 0.32), round(w * 0.84), round(h * 0.08))
        if winners:
            best = winners[0]
            text = (say(frame, "over.wins", name=seat_name(frame, seats, best), n=seats[best].score if best < len(seats) else 0)
                    if len(winners) == 1 else say(frame, "over.shared", names=names(frame, seats, winners)))
            ctx.text.draw(surface, text, frame.lang, line,
                          TextStyle(round(40 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=12))
        if final is not None and final.tie_break is not TieBreak.NONE:
            note = pygame.Rect(round(w * 0.08), line.bottom, round(w * 0.84), round(h * 0.06))
            ctx.text.draw(surface, say(frame, f"tie.{final.tie_break.value}"), frame.lang, note,
                          TextStyle(round(22 * u), theme.TEXT, align=Align.CENTER, max_lines=2, min_px=9))
        draw_ranking(surface, frame, ctx, seats, winners, pygame.Rect(round(w * 0.1), round(h * 0.48), round(w * 0.8),
                                                                      round(h * 0.43)))
        hint = pygame.Rect(0, round(h * 0.925), w, round(h * 0.06))
        ctx.text.draw(surface, say(frame, "over.next"), frame.lang, hint,
                      TextStyle(round(20 * u), theme.ACCENT, align=Align.CENTER, max_lines=1))

    def _draw_crowned(self, surface: pygame.Surface, frame: Frame, seats: Sequence[SeatModel], winners: Sequence[int],
                      area: pygame.Rect) -> None:
        glow = 0.5 + 0.5 * math.sin(self.t * 3)
        shown = [s for s in winners if s < len(seats)][:4]
        r = area.height * 0.3
        for k, seat in enumerate(shown):
            c = (area.centerx + (k - (len(shown) - 1) / 2) * r * 3.2, area.centery)
            pygame.draw.circle(surface, theme.mix(theme.BACKGROUND, theme.GOLD, 0.25 + 0.2 * glow), c, r * 1.4)
            shapes.symbol(surface, seats[seat].symbol, theme.seat_colour(seat, seats[seat].colour), c, r)


def draw_ranking(surface: pygame.Surface, frame: Frame, ctx: RenderContext, seats: Sequence[SeatModel],
                 winners: Sequence[int], area: pygame.Rect) -> None:
    """Every seat by score (then right guesses): symbol, name, identity, right guesses, score."""
    u = frame.scale.u
    rtl = frame.lang == "fa"
    order = sorted(seats, key=lambda s: (-s.score, -s.correct, s.seat))
    cols = 1 if len(order) <= 6 else 2
    rows = math.ceil(len(order) / cols)
    cell_h = min(area.height // max(1, rows), round(56 * u))
    cell_w = area.width // cols
    for k, seat in enumerate(order):
        col, row = divmod(k, rows)
        if rtl:
            col = cols - 1 - col
        rect = pygame.Rect(area.x + col * cell_w + 4, area.y + row * cell_h + 2, cell_w - 8, cell_h - 4)
        won = seat.seat in winners
        colour = theme.seat_colour(seat.seat, seat.colour)
        shapes.panel(surface, rect, theme.PANEL_LIGHT if won else theme.PANEL, theme.GOLD if won else colour,
                     radius=round(8 * u), width=max(1, round(2 * u)))
        parts = _row_parts(rect, rtl)
        shapes.symbol(surface, seat.symbol, colour, parts[0].center, rect.height * 0.3)
        style = TextStyle(round(20 * u), theme.GOLD if won else theme.TEXT, bold=won, max_lines=1, min_px=7)
        ctx.text.draw(surface, seat_name(frame, seats, seat.seat), frame.lang, parts[1], style)
        if seat.identity is not None:
            pill = parts[2].inflate(0, -round(rect.height * 0.3))
            pill.width = min(pill.width, round(pill.height * 3.2))
            pill.center = parts[2].center
            draw_identity_pill(surface, frame, ctx, pill, seat.identity)
        ctx.text.draw(surface, say(frame, "over.correct", n=seat.correct), frame.lang, parts[3],
                      TextStyle(round(17 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=7))
        ctx.text.draw(surface, say(frame, "score", n=seat.score), frame.lang, parts[4],
                      TextStyle(round(20 * u), theme.GOLD, bold=True, align=Align.END, max_lines=1, min_px=7))


def _row_parts(rect: pygame.Rect, rtl: bool) -> list[pygame.Rect]:
    """A ranking row's cells in reading order: symbol, name, identity, right guesses, score."""
    widths = [rect.height, 0.36, 0.2, 0.22, 0.22]
    free = rect.width - rect.height - 8
    out: list[pygame.Rect] = []
    x = rect.right if rtl else rect.x
    for wpart in widths:
        cw = round(wpart if wpart > 1 else free * wpart)
        cell = pygame.Rect(x - cw if rtl else x, rect.y, cw, rect.height)
        out.append(cell.inflate(-4, 0) if wpart <= 1 else cell)
        x = x - cw if rtl else x + cw
    return out


# ---------------------------------------------------------------------------------------- beats
class RevealBeat(Scene):
    """The simultaneous reveal: arrows fly from every pointer, the subject lights up, their identity
    card turns over (when someone pointed at them), the points fly to the scorers' plates."""

    name = "speakeasy_reveal"
    ARROWS, SUBJECT, IDENTITY, POINTS, LAND = 0.3, 1.4, 2.2, 3.3, 4.1
    FLIPPED = 0.35  # the identity card shows its face this long after it starts to turn

    def __init__(self, result: ClueResult, seats: tuple[SeatModel, ...], clue: Clue | None, host: int | None,
                 clues_left: int) -> None:
        super().__init__()
        self.result = result
        self.after = seats
        subject = result.subject
        hidden: dict[int, Identity | None] = {subject: None} if result.newly_revealed and subject is not None else {}
        self.before = with_identities(with_scores(seats, scores_before(seats, result.scores)), hidden)
        shown = dict.fromkeys(hidden, result.identity)
        self.revealed = with_identities(self.before, shown)
        self.clue = clue
        self.host = host
        self.clues_left = clues_left
        skipped = result.outcome is Outcome.SKIPPED
        self.duration_s = 3.5 if skipped else self.LAND + 1.3
        self._played: set[Effect] = set()

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if self.result.outcome is Outcome.SKIPPED:
            return
        sting = {Outcome.INFORMANT_CAUGHT: Effect.AMBUSH, Outcome.CITIZEN_FOUND: Effect.SHOWDOWN}.get(
            self.result.outcome, Effect.DEATH)
        for at, effect in ((self.ARROWS, Effect.REVEAL), (self.IDENTITY, sting), (self.LAND, Effect.VOTE_DOWN)):
            if self.t >= at and effect not in self._played:
                self._played.add(effect)
                ctx.sound.play(effect)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        r = self.result
        t = self.t
        seats = self.after if t >= self.LAND else self.revealed if t >= self.IDENTITY + self.FLIPPED else self.before
        landed = frozenset(line.seat for line in r.scores) if t >= self.LAND else frozenset()
        surface.blit(static_layer(frame, ctx, seats, self.host, landed), (0, 0))
        st = stage(frame.size, len(seats))
        draw_clue(surface, frame, ctx, st, self.clue, self.clues_left)
        if self.host is not None and self.host < len(st.lay.spots) and self.host != r.subject:
            draw_badge(surface, frame, ctx, st.lay, self.host, say(frame, "badge.host"), theme.GOLD)
        if r.outcome is Outcome.SKIPPED:
            draw_identity_tabs(surface, frame, ctx, st.lay, seats)
            draw_caption(surface, frame, ctx, st.lay.caption, result_sentence(frame, seats, r), theme.TEXT, px=24)
            return
        if t >= self.SUBJECT:
            draw_spotlight(surface, frame, st.lay, r.subject, t)
        draw_pointing(surface, frame, st.lay, seats, r.pointing, ease(span(t, self.ARROWS, 1.0)))
        if r.subject is not None and r.subject < len(st.lay.spots) and t >= self.SUBJECT:
            draw_badge(surface, frame, ctx, st.lay, r.subject, say(frame, "badge.subject"), theme.GOLD)
        draw_identity_tabs(surface, frame, ctx, st.lay, seats)
        if r.identity is not None and self.IDENTITY <= t < self.LAND + 0.6:
            self._draw_identity_card(surface, frame, ctx, st, seats, t)
        if self.POINTS <= t < self.LAND:
            self._draw_flying(surface, frame, ctx, st, ease(span(t, self.POINTS, self.LAND - self.POINTS)))
        draw_caption(surface, frame, ctx, st.lay.caption, self._caption(frame, seats, t), theme.TEXT, px=24,
                     border=IDENTITY_COLOURS.get(r.identity) if r.identity and t >= self.IDENTITY + self.FLIPPED else None)

    def _caption(self, frame: Frame, seats: Sequence[SeatModel], t: float) -> str:
        if t < self.SUBJECT:
            return say(frame, "reveal.title")
        if t < self.IDENTITY + self.FLIPPED:
            return subject_sentence(frame, seats, self.result)
        return result_sentence(frame, seats, self.result)

    def _draw_identity_card(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, st: Stage,
                            seats: Sequence[SeatModel], t: float) -> None:
        """The subject's identity card turns over above the clue, then fades into their plate."""
        identity = self.result.identity
        assert identity is not None
        flip = ease(span(t, self.IDENTITY, 0.6))
        full = pygame.Rect(0, 0, round(st.card.height * 1.15), round(st.card.height * 1.2))
        full.center = st.card.center
        w = max(2, round(full.width * abs(1 - 2 * flip)))
        rect = pygame.Rect(full.centerx - w // 2, full.y, w, full.height)
        if flip < 0.5:
            shapes.card_back(surface, rect)
            return
        fill = IDENTITY_COLOURS[identity]
        shapes.card(surface, rect, fill, theme.TEXT)
        subject = self.result.subject
        if subject is not None and subject < len(seats):
            shapes.symbol(surface, seats[subject].symbol, theme.seat_colour(subject, seats[subject].colour),
                          (rect.centerx, rect.y + rect.height * 0.36), rect.width * 0.26)
        label = rect.inflate(-round(rect.width * 0.16), 0)
        label.height, label.y = round(rect.height * 0.24), rect.y + round(rect.height * 0.64)
        if flip >= 0.99:
            ctx.text.draw(surface, say(frame, f"identity.{identity.value}"), frame.lang, label,
                          TextStyle(round(30 * frame.scale.u), theme.ink_on(fill), bold=True, align=Align.CENTER,
                                    max_lines=1, min_px=8))

    def _draw_flying(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, st: Stage, p: float) -> None:
        r = self.result
        lay = st.lay
        if r.outcome is Outcome.NOBODY or r.subject is None or r.subject >= len(lay.spots):
            origin = (float(st.card.centerx), float(st.card.centery))
        else:
            origin = (float(lay.spots[r.subject].plate.centerx), float(lay.spots[r.subject].plate.centery))
        for line in r.scores:
            if line.seat >= len(lay.spots):
                continue
            end = lay.spots[line.seat].plate.center
            arc = math.sin(p * math.pi) * frame.size[1] * 0.06
            at = (origin[0] + (end[0] - origin[0]) * p, origin[1] + (end[1] - origin[1]) * p - arc)
            draw_point_token(surface, frame, ctx, at, line.points, 1.0 + 0.3 * math.sin(p * math.pi))


class FinaleBeat(Scene):
    """The last secrets (S12): every identity still hidden turns over, one after another, and its
    bonus rises from the plate; the scores count up to the final totals."""

    name = "speakeasy_finale"
    START, STEP_MAX, HOLD = 1.2, 1.1, 2.6

    def __init__(self, final: Final, seats: tuple[SeatModel, ...], host: int | None) -> None:
        super().__init__()
        self.final = final
        self.after = seats
        self.host = host
        self.step = min(self.STEP_MAX, 6.0 / max(1, len(final.bonuses)))
        hidden = {b.seat: None for b in final.bonuses}
        self.before = with_identities(with_scores(seats, scores_before(seats, final.bonuses)), hidden)
        self.duration_s = self.START + self.step * len(final.bonuses) + self.HOLD
        self._flipped = 0

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        if self.t == 0.0:
            ctx.sound.play(Effect.SHOWDOWN)
        super().update(dt, frame, ctx)
        due = self._shown()
        if due > self._flipped:
            self._flipped = due
            bonus = self.final.bonuses[due - 1]
            ctx.sound.play(Effect.AMBUSH if bonus.identity is Identity.INFORMANT else Effect.VOTE_DOWN)

    def _shown(self) -> int:
        if self.t < self.START:
            return 0
        return min(len(self.final.bonuses), int((self.t - self.START) / self.step) + 1)

    def _seats(self, shown: int) -> tuple[SeatModel, ...]:
        done = self.final.bonuses[:shown]
        scores = [s.score for s in self.before]
        for b in done:
            if b.seat < len(scores):
                scores[b.seat] += b.points
        ids = {b.seat: b.identity for b in done}
        return with_identities(with_scores(self.before, scores), ids)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        shown = self._shown()
        seats = self._seats(shown)
        latest = frozenset({self.final.bonuses[shown - 1].seat}) if shown else frozenset()
        surface.blit(static_layer(frame, ctx, seats, None, latest), (0, 0))
        st = stage(frame.size, len(seats))
        ctx.text.draw(surface, say(frame, "final.title"), frame.lang, st.header.inflate(0, round(st.header.height * 0.6)),
                      TextStyle(round(40 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=10))
        draw_card_panel(surface, frame, st.card, theme.PANEL)
        rule = say(frame, "final.rule" if self.final.bonuses else "final.none")
        ctx.text.draw(surface, rule, frame.lang, st.card.inflate(-round(st.card.height * 0.2), -round(st.card.height * 0.16)),
                      TextStyle(round(30 * u), theme.TEXT, align=Align.CENTER, max_lines=4, min_px=round(13 * u)))
        draw_identity_tabs(surface, frame, ctx, st.lay, seats)
        for k, bonus in enumerate(self.final.bonuses[:shown]):
            if bonus.seat >= len(st.lay.spots):
                continue
            rise = span(self.t, self.START + k * self.step, 1.2)
            if rise < 1:
                plate = st.lay.spots[bonus.seat].plate
                ix, iy = st.lay.spots[bonus.seat].inward
                at = (plate.centerx + ix * plate.width * 0.5 * ease(rise), plate.centery + iy * plate.height * 1.2 * ease(rise))
                draw_point_token(surface, frame, ctx, at, bonus.points, 0.8 + 0.4 * ease(rise))
        caption = self._bonus_sentence(frame, seats, self.final.bonuses[shown - 1]) if shown else say(frame, "final.title")
        draw_caption(surface, frame, ctx, st.lay.caption, caption, theme.TEXT, px=26)


    @staticmethod
    def _bonus_sentence(frame: Frame, seats: Sequence[SeatModel], bonus: Bonus) -> str:
        identity = say(frame, f"identity.{bonus.identity.value}_a")  # in a sentence: "an Informant"
        return say(frame, "final.bonus", name=seat_name(frame, seats, bonus.seat), identity=identity, n=bonus.points)


# ---------------------------------------------------------------------------------------- rules
def choose_base(snapshot: TableSnapshot) -> Scene:
    return OverScene() if phase(snapshot.public_view) is Phase.FINISHED else TableScene()


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The beats one batch of events calls for, in order: a clue's reveal, the final secrets."""
    view = snapshot.public_view or {}
    types = event_types(snapshot.events)
    seats = seat_models(snapshot)
    out: list[Scene] = []
    result = result_from(view.get("reveal"))
    if result is not None and ("pointing_revealed" in types or "clue_skipped" in types):
        left = int(view.get("clues_left", 0) or 0)
        out.append(RevealBeat(result, seats, clue_from(view), host_of(view), left))
    final = final_from(view)
    if final is not None and "game_ended" in types:
        out.append(FinaleBeat(final, seats, host_of(view)))
    return out
