"""Collusion on the big screen: the table during the conspiracy, the animated reveal with arrows
and deaths explained, the Ambush drama, the Final Showdown, the round's end and the winner.

Base scenes follow the view's phase; timed beats play the events of one accepted action."""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pygame

from game import i18n
from game.session.snapshot import TableSnapshot

from . import shapes, theme
from .collusion_model import (
    Card,
    Choice,
    Death,
    DeathKind,
    Final,
    Phase,
    Reveal,
    RoundEnd,
    SeatModel,
    ShowdownResult,
    alive_before,
    event_types,
    final_from,
    phase,
    reveal_from,
    round_end_from,
    seat_models,
    showdown_from,
    with_alive,
)
from .scene import FinalScene, Frame, RenderContext, Scene
from .sound import Effect
from .table_art import TableLayout, static_layer, table_layout
from .text import Align, TextStyle

TICK_FROM_MS = 10_000  # the timer turns red and ticks in its last ten seconds


# ------------------------------------------------------------------------------------- helpers
def ease(x: float) -> float:
    x = max(0.0, min(1.0, x))
    return 1 - (1 - x) ** 3


def span(t: float, start: float, length: float) -> float:
    """Progress 0..1 of an animation step that starts at ``start`` and lasts ``length`` seconds."""
    return max(0.0, min(1.0, (t - start) / length)) if length > 0 else float(t >= start)


def seat_name(frame: Frame, seats: Sequence[SeatModel], seat: int | None) -> str:
    if seat is None or not (0 <= seat < len(seats)):
        return "?"
    return seats[seat].name or frame.s("seat.name", n=seat + 1)


def names(frame: Frame, seats: Sequence[SeatModel], which: Sequence[int]) -> str:
    items = [seat_name(frame, seats, s) for s in which]
    if len(items) <= 1:
        return "".join(items)
    return frame.s("list.sep").join(items[:-1]) + frame.s("list.last") + items[-1]


def view_of(frame: Frame) -> Mapping[str, Any]:
    return frame.snapshot.public_view or {}


def draw_caption(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, text: str,
                 colour: theme.Colour = theme.TEXT, px: int = 26, border: theme.Colour | None = None) -> None:
    u = frame.scale.u
    surface.blit(shapes.veil(rect.size, (*theme.BACKGROUND, 215), round(12 * u)), rect.topleft)
    if border is not None:
        pygame.draw.rect(surface, border, rect, max(2, round(3 * u)), border_radius=round(12 * u))
    ctx.text.draw(surface, text, frame.lang, rect.inflate(-round(24 * u), -round(10 * u)),
                  TextStyle(round(px * u), colour, align=Align.CENTER, max_lines=3, min_px=7))


def draw_notices(surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
    """The session's notices (e.g. unplugged arcade buttons) in a thin band at the top."""
    notes = [frame.s(f"notice.{n}") if i18n.has(frame.lang, "screen", f"notice.{n}") else n
             for n in frame.snapshot.notices]
    if not notes:
        return
    w, h = frame.size
    band = pygame.Rect(round(w * 0.2), round(h * 0.005), round(w * 0.6), round(h * 0.05))
    ctx.text.draw(surface, frame.s("sep").join(notes), frame.lang, band,
                  TextStyle(round(17 * frame.scale.u), theme.DANGER, align=Align.CENTER, max_lines=1, min_px=7))


def draw_timer(surface: pygame.Surface, frame: Frame, ctx: RenderContext, centre: tuple[float, float], r: float) -> None:
    timer = frame.snapshot.timer
    left = frame.timer_left_ms()
    if timer is None or left is None:
        return
    u = frame.scale.u
    urgent = left <= TICK_FROM_MS
    colour = theme.DANGER if urgent else theme.ACCENT
    pygame.draw.circle(surface, theme.BACKGROUND, centre, r)
    shapes.timer_ring(surface, centre, r, left / max(1, timer.duration_ms), colour, max(3, round(r * 0.16)))
    secs = math.ceil(left / 1000)
    label = i18n.number(frame.lang, f"{secs // 60}:{secs % 60:02d}") if secs >= 60 else i18n.number(frame.lang, secs)
    box = pygame.Rect(0, 0, round(r * 1.3), round(r * 0.9))
    box.center = (round(centre[0]), round(centre[1]))
    ctx.text.draw(surface, label, frame.lang, box, TextStyle(round(r * 0.6), theme.DANGER if urgent else theme.TEXT,
                                                             bold=True, align=Align.CENTER, max_lines=1, min_px=6))
    key = f"timer.{timer.label}"
    if timer.label and i18n.has(frame.lang, "screen", key):
        under = pygame.Rect(0, 0, round(r * 3.2), round(26 * u))
        under.midtop = (round(centre[0]), round(centre[1] + r + 4 * u))
        ctx.text.draw(surface, frame.s(key), frame.lang, under,
                      TextStyle(round(17 * u), colour, align=Align.CENTER, max_lines=1, min_px=7))


def draw_middle(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, view: Mapping[str, Any],
                timer: bool = True) -> None:
    """Round and vote, the pot (as bar pictures, counts only), the deck, the target score, the timer."""
    u = frame.scale.u
    mid = lay.middle
    line_h = round(mid.height * 0.16)
    head = pygame.Rect(mid.x, mid.y, mid.width, line_h)
    if view.get("tie_break"):
        title = frame.s("table.tie_break_round", round=int(view.get("round", 1)), vote=int(view.get("vote", 1)))
    else:
        title = frame.s("table.round", round=int(view.get("round", 1)), vote=int(view.get("vote", 1)))
    ctx.text.draw(surface, title, frame.lang, head, TextStyle(round(26 * u), theme.GOLD, bold=True,
                                                               align=Align.CENTER, max_lines=1, min_px=8))
    sub = pygame.Rect(mid.x, head.bottom, mid.width, round(line_h * 0.8))
    ctx.text.draw(surface, frame.s("table.target", n=int(view.get("target_score", 0))), frame.lang, sub,
                  TextStyle(round(17 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=7))
    pot = int(view.get("pot", 0))
    r = mid.height * 0.17
    timer_c = (mid.centerx, mid.y + mid.height * 0.6)
    pot_area = pygame.Rect(mid.x, sub.bottom + round(6 * u), round(mid.width * 0.36), round(mid.height * 0.5))
    deck_area = pygame.Rect(mid.right - pot_area.width, pot_area.y, pot_area.width, pot_area.height)
    if frame.lang == "fa":
        pot_area, deck_area = deck_area, pot_area
    draw_pot(surface, frame, ctx, pot_area, pot, frame.s("table.pot", n=pot))
    draw_deck(surface, frame, ctx, deck_area, int(view.get("deck", 0)))
    if timer:
        draw_timer(surface, frame, ctx, timer_c, r)


def draw_pot(surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect, pot: int, label: str) -> None:
    u = frame.scale.u
    bw, bh = round(area.width * 0.3), round(area.height * 0.16)
    for i in range(min(pot, 8)):
        rect = pygame.Rect(0, 0, bw, bh)
        rect.center = (area.centerx + (i % 2 * 2 - 1) * bw * 0.55, area.y + area.height * 0.22 + (i // 2) * bh * 0.72)
        shapes.gold_bar(surface, rect)
    box = pygame.Rect(area.x, area.bottom - round(area.height * 0.3), area.width, round(area.height * 0.3))
    ctx.text.draw(surface, label, frame.lang, box, TextStyle(round(17 * u), theme.GOLD, align=Align.CENTER, max_lines=2, min_px=7))


def draw_deck(surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect, deck: int) -> None:
    u = frame.scale.u
    cw, ch = round(area.width * 0.34), round(area.height * 0.5)
    for k in range(3):
        rect = pygame.Rect(0, 0, cw, ch)
        rect.center = (area.centerx + k * 3 * u, area.y + area.height * 0.33 - k * 3 * u)
        shapes.card(surface, rect, (120, 90, 30), theme.GOLD)
    box = pygame.Rect(area.x, area.bottom - round(area.height * 0.3), area.width, round(area.height * 0.3))
    ctx.text.draw(surface, frame.s("table.deck", n=deck), frame.lang, box,
                  TextStyle(round(17 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=2, min_px=7))


def card_rect(lay: TableLayout, seat: int, scale: float = 1.0) -> pygame.Rect:
    w, h = lay.card_size
    rect = pygame.Rect(0, 0, max(2, round(w * scale)), max(2, round(h * scale)))
    x, y = lay.spots[seat].card
    rect.center = (round(x), round(y))
    return rect


def draw_card_face(surface: pygame.Surface, rect: pygame.Rect, card: Card, target: SeatModel | None) -> None:
    if card is Card.TARGET and target is not None:
        shapes.card(surface, rect, theme.CARD_FACE, theme.seat_colour(target.seat, target.colour))
        shapes.symbol(surface, target.symbol, theme.seat_colour(target.seat, target.colour), rect.center,
                      min(rect.width, rect.height) * 0.36)
    elif card is Card.AMBUSH:
        shapes.card(surface, rect, (120, 20, 30), (255, 120, 110))
        shapes.ambush_mark(surface, rect.center, min(rect.width, rect.height) * 0.32)
    elif card is Card.NONE:
        pygame.draw.rect(surface, theme.TEXT_DIM, rect, max(1, rect.width // 14), border_radius=max(2, rect.width // 8))


def draw_flip(surface: pygame.Surface, rect: pygame.Rect, progress: float, card: Card, target: SeatModel | None) -> None:
    """A card turning over: its back shrinks to an edge, then the face grows (progress 0..1)."""
    if card is Card.OUT:
        return
    if progress < 0.5:
        w = max(2, round(rect.width * (1 - progress * 2)))
        shapes.card_back(surface, pygame.Rect(rect.centerx - w // 2, rect.y, w, rect.height))
        return
    w = max(2, round(rect.width * (progress - 0.5) * 2))
    face = pygame.Rect(rect.centerx - w // 2, rect.y, w, rect.height)
    draw_card_face(surface, face, card, target)


def edge_point(spot_rect: pygame.Rect, towards: tuple[float, float]) -> tuple[float, float]:
    cx, cy = spot_rect.center
    dx, dy = towards[0] - cx, towards[1] - cy
    if dx == dy == 0:
        return cx, cy
    sx = spot_rect.width / 2 / abs(dx) if dx else math.inf
    sy = spot_rect.height / 2 / abs(dy) if dy else math.inf
    s = min(sx, sy)
    return cx + dx * s, cy + dy * s


def draw_arrow_between(surface: pygame.Surface, frame: Frame, lay: TableLayout, src: int, dst: int, colour: theme.Colour,
                       progress: float, width_u: float = 5.0) -> None:
    u = frame.scale.u
    start = card_rect(lay, src).center
    target_plate = lay.spots[dst].plate
    end_full = edge_point(target_plate, start)
    if progress <= 0:
        return
    end = (start[0] + (end_full[0] - start[0]) * progress, start[1] + (end_full[1] - start[1]) * progress)
    shapes.arrow(surface, start, end, (10, 10, 14), max(3, round((width_u + 3) * u)), 20 * u)
    shapes.arrow(surface, start, end, colour, max(2, round(width_u * u)), 16 * u)


def death_label_rect(lay: TableLayout, seat: int, frame: Frame) -> pygame.Rect:
    plate = lay.spots[seat].plate
    rect = pygame.Rect(0, 0, round(plate.width * 1.05), round(frame.size[1] * 0.04))
    inward_y = lay.spots[seat].inward[1]
    rect.centerx = plate.centerx
    if inward_y < -0.2:  # seats low on the screen: label above the plate
        rect.bottom = plate.y - 2
    else:
        rect.y = plate.bottom + 2
    rect.clamp_ip(pygame.Rect((0, 0), frame.size))
    return rect


def draw_death_label(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, death: Death,
                     alpha: float) -> None:
    if alpha <= 0:
        return
    rect = death_label_rect(lay, death.seat, frame)
    u = frame.scale.u
    pygame.draw.rect(surface, theme.mix(theme.BACKGROUND, theme.DANGER, 0.55 * alpha), rect, border_radius=round(6 * u))
    ctx.text.draw(surface, frame.s(f"death_short.{death.kind.value}"), frame.lang, rect.inflate(-round(8 * u), -2),
                  TextStyle(round(16 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=1, min_px=6))


def death_sentence(frame: Frame, seats: Sequence[SeatModel], death: Death) -> str:
    return frame.s(f"death.{death.kind.value}", name=seat_name(frame, seats, death.seat),
                   by=seat_name(frame, seats, death.by))


# --------------------------------------------------------------------------------- base scenes
class TableScene(Scene):
    """The conspiracy: seats, who has put a card down (face down) or locked it, the timer; in
    ``ambush_choice`` also the last reveal's arrows and who is choosing a victim."""

    name = "collusion_table"

    WARM_AFTER_S = 1.0  # let the table settle before priming the reveal's pictures

    def __init__(self) -> None:
        super().__init__()
        self._down_since: dict[int, float] = {}
        self._last_tick = -1
        self._warm_key: tuple | None = None
        self._warm: Iterator[None] | None = None

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        first = self.t == 0.0  # cards already down when the screen (re)starts make no sound
        super().update(dt, frame, ctx)
        view = view_of(frame)
        for s in view.get("seats", []):
            seat = s.get("seat")
            if s.get("card_down"):
                if seat not in self._down_since:
                    self._down_since[seat] = -9.0 if first else self.t
                    if not first:
                        ctx.sound.play(Effect.VOTE_DOWN)
            else:
                self._down_since.pop(seat, None)
        self._warm_step(frame, ctx)
        left = frame.timer_left_ms()
        if left is not None and 0 < left <= TICK_FROM_MS:
            second = left // 1000
            if second != self._last_tick:
                self._last_tick = second
                ctx.sound.play(Effect.TICK)

    def _warm_step(self, frame: Frame, ctx: RenderContext) -> None:
        seats = seat_models(frame.snapshot)
        key = (frame.size, frame.lang, seats, ctx.text.serial)
        if key != self._warm_key:
            self._warm_key, self._warm = key, reveal_warm_tasks(frame, ctx, seats)
        if self._warm is not None and self.t >= self.WARM_AFTER_S and next(self._warm, StopIteration) is StopIteration:
            self._warm = None

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        ph = phase(view)
        pending = tuple(int(s) for s in view.get("ambush_pending", []))
        surface.blit(static_layer(frame, ctx, seats, frozenset(pending)), (0, 0))
        lay = table_layout(frame.size, len(seats))
        draw_middle(surface, frame, ctx, lay, view)
        if ph is Phase.AMBUSH_CHOICE:
            self._draw_ambush_wait(surface, frame, ctx, lay, seats, view, pending)
        else:
            self._draw_cards_down(surface, frame, lay, view)
            self._draw_status(surface, frame, ctx, lay, view)
        draw_notices(surface, frame, ctx)

    def _draw_cards_down(self, surface: pygame.Surface, frame: Frame, lay: TableLayout, view: Mapping[str, Any]) -> None:
        u = frame.scale.u
        for s in view.get("seats", []):
            seat = s.get("seat")
            if not s.get("card_down") or not isinstance(seat, int) or seat >= len(lay.spots):
                continue
            slide = ease(span(self.t, self._down_since.get(seat, -9.0), 0.35))
            px, py = lay.spots[seat].centre
            cx, cy = lay.spots[seat].card
            rect = card_rect(lay, seat)
            rect.center = (round(px + (cx - px) * slide), round(py + (cy - py) * slide))
            shapes.card_back(surface, rect)
            if s.get("locked"):
                c = (rect.right - rect.width * 0.1, rect.y + rect.width * 0.1)
                pygame.draw.circle(surface, theme.GOOD, c, rect.width * 0.32)
                pygame.draw.lines(surface, theme.BACKGROUND, False,
                                  [(c[0] - rect.width * 0.15, c[1]), (c[0] - rect.width * 0.03, c[1] + rect.width * 0.12),
                                   (c[0] + rect.width * 0.17, c[1] - rect.width * 0.13)], max(2, round(2 * u)))

    @staticmethod
    def _draw_status(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, view: Mapping[str, Any]) -> None:
        seats = [s for s in view.get("seats", []) if s.get("alive") and s.get("in_round")]
        down = sum(1 for s in seats if s.get("card_down"))
        text = frame.s("table.conspire") + frame.s("sep") + frame.s("table.cards_down", n=down, m=len(seats))
        rect = lay.caption.copy()
        if view.get("small_table"):
            rect.height = round(rect.height * 0.6)
        draw_caption(surface, frame, ctx, rect, text, theme.TEXT, px=20)
        if view.get("small_table"):
            note = pygame.Rect(0, 0, rect.width, lay.caption.bottom - rect.bottom)
            note.midtop = (rect.centerx, rect.bottom)
            ctx.text.draw(surface, frame.s("table.small_table"), frame.lang, note,
                          TextStyle(round(15 * frame.scale.u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=6))

    def _draw_ambush_wait(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout,
                          seats: tuple[SeatModel, ...], view: Mapping[str, Any], pending: tuple[int, ...]) -> None:
        reveal = reveal_from(view.get("last_reveal"))
        if reveal is not None:
            draw_revealed_votes(surface, frame, lay, seats, reveal, 1.0, 1.0)
        pulse = 0.5 + 0.5 * math.sin(self.t * 5)
        u = frame.scale.u
        if reveal is not None:  # the voters at risk: they named an ambushing target
            at_risk = {s for s, v in enumerate(reveal.voted_for) if v in pending}
            for seat in sorted(at_risk):
                if seat < len(lay.spots):
                    pygame.draw.rect(surface, theme.mix(theme.BACKGROUND, theme.DANGER, 0.4 + 0.5 * pulse),
                                     lay.spots[seat].plate.inflate(round(8 * u), round(8 * u)), max(2, round(3 * u)),
                                     border_radius=round(12 * u))
        for seat in pending:
            if seat < len(lay.spots):
                draw_badge(surface, frame, ctx, lay, seat, frame.s("reveal.ambush"), theme.GOLD)
        for seat in pending:
            if seat < len(lay.spots):
                pygame.draw.rect(surface, theme.mix(theme.DANGER, theme.GOLD, pulse),
                                 lay.spots[seat].plate.inflate(round(14 * frame.scale.u), round(14 * frame.scale.u)),
                                 max(2, round(4 * frame.scale.u)), border_radius=round(14 * frame.scale.u))
        text = frame.s("table.ambush_wait", names=names(frame, seats, pending)) if pending else frame.s("reveal.ambush")
        draw_caption(surface, frame, ctx, lay.caption, text, theme.GOLD, px=24, border=theme.DANGER)


def draw_revealed_votes(surface: pygame.Surface, frame: Frame, lay: TableLayout, seats: Sequence[SeatModel],
                        reveal: Reveal, flip: float, arrows: float) -> None:
    """Every card face up (``flip`` 0..1) and an arrow from each voter to whom they named."""
    for seat, card in enumerate(reveal.cards[: len(lay.spots)]):
        target = reveal.voted_for[seat] if seat < len(reveal.voted_for) else None
        target_model = seats[target] if target is not None and target < len(seats) else None
        draw_flip(surface, card_rect(lay, seat), flip, card, target_model)
    if arrows <= 0:
        return
    for seat, target in enumerate(reveal.voted_for[: len(lay.spots)]):
        if target is not None and target < len(lay.spots):
            colour = theme.seat_colour(seat, seats[seat].colour if seat < len(seats) else None)
            draw_arrow_between(surface, frame, lay, seat, target, colour, arrows)


def draw_badge(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, seat: int, text: str,
               colour: theme.Colour) -> None:
    """A small label beside a seat's plate, on the side of the table's centre."""
    u = frame.scale.u
    plate = lay.spots[seat].plate
    rect = pygame.Rect(0, 0, round(plate.width * 0.7), round(frame.size[1] * 0.036))
    rect.centerx = plate.centerx
    if lay.spots[seat].inward[1] < -0.2:  # low on the screen: above the plate, clear of the caption
        rect.bottom = plate.y - 2
    else:
        rect.y = plate.bottom + 2
    rect.clamp_ip(pygame.Rect((0, 0), frame.size))
    pygame.draw.rect(surface, colour, rect, border_radius=round(6 * u))
    ctx.text.draw(surface, text, frame.lang, rect.inflate(-round(8 * u), -2),
                  TextStyle(round(16 * u), theme.ink_on(colour), bold=True, align=Align.CENTER, max_lines=1, min_px=6))


def draw_banner(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, text: str,
                amount: float) -> None:
    """A big word across the table (the Ambush): grows in, fades out. The word keeps one size
    (one cached picture) and is revealed by the growing band."""
    u = frame.scale.u
    w, h = frame.size
    full = pygame.Rect(0, 0, round(w * 0.7), round(h * 0.16))
    full.center = (round(lay.centre[0]), round(lay.centre[1]))
    band = pygame.Rect(0, 0, round(w * (0.3 + 0.4 * ease(amount))), full.height)
    band.center = full.center
    pygame.draw.rect(surface, theme.mix(theme.FELT, (150, 16, 28), amount), band, border_radius=round(18 * u))
    pygame.draw.rect(surface, theme.GOLD, band, max(2, round(4 * u)), border_radius=round(18 * u))
    r = band.height * 0.3
    for side in (-1, 1):
        shapes.ambush_mark(surface, (band.centerx + side * (band.width / 2 - r * 1.6), band.centery), r, theme.GOLD)
    clip = surface.get_clip()
    surface.set_clip(band.inflate(-round(band.height * 2.4), 0).clip(clip))
    ctx.text.draw(surface, text, frame.lang, full.inflate(-round(full.height * 2.4), -round(10 * u)),
                  TextStyle(round(64 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=1, min_px=8))
    surface.set_clip(clip)


def draw_tally_badge(surface: pygame.Surface, frame: Frame, ctx: RenderContext, plate: pygame.Rect, votes: int,
                     colour: theme.Colour) -> None:
    """The number of votes a seat got, in a disc on its plate's corner."""
    u = frame.scale.u
    r = round(plate.height * 0.3)
    c = (plate.right - r // 2, plate.y + r // 2) if frame.lang != "fa" else (plate.x + r // 2, plate.y + r // 2)
    pygame.draw.circle(surface, colour, c, r)
    pygame.draw.circle(surface, theme.TEXT, c, r, max(1, round(2 * u)))
    box = pygame.Rect(0, 0, r * 2, r * 2)
    box.center = c
    ctx.text.draw(surface, i18n.number(frame.lang, votes), frame.lang, box.inflate(-r // 3, -r // 3),
                  TextStyle(round(r * 1.2), theme.TEXT, bold=True, align=Align.CENTER, max_lines=1, min_px=6))


_SCRATCH: list[pygame.Surface] = []


def reveal_warm_tasks(frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...]) -> Iterator[None]:
    """Everything a reveal may need that is known before the votes are: each plate fallen and/or
    targeted, every death label, the Ambush badge and banner, tally numbers. The table does one
    task per frame during the conspiracy, so the reveal itself finds it all cached."""
    from .table_art import plate_surface

    if not _SCRATCH:
        _SCRATCH.append(pygame.Surface((1, 1)))  # drawing off-surface still fills the caches
    scratch = _SCRATCH[0]
    lay = table_layout(frame.size, len(seats))
    for spot, seat in zip(lay.spots, seats):
        for alive, highlight in ((True, True), (False, False), (False, True)):
            plate_surface(frame, ctx, spot.plate.size, dataclasses.replace(seat, alive=alive), highlight, False)
            yield
    if not lay.spots:
        return
    for kind in DeathKind:
        draw_death_label(scratch, frame, ctx, lay, Death(0, kind, "", None), 1.0)
        yield
    draw_badge(scratch, frame, ctx, lay, 0, frame.s("reveal.ambush"), theme.GOLD)
    draw_banner(scratch, frame, ctx, lay, frame.s("reveal.ambush"), 1.0)
    yield
    for votes in range(1, len(seats)):
        draw_tally_badge(scratch, frame, ctx, lay.spots[0].plate, votes, theme.DANGER)
        yield


# ---------------------------------------------------------------------------------------- beats
class RevealBeat(Scene):
    """The simultaneous reveal: cards flip, arrows fly from voter to target, the tally lands on the
    targets, an Ambush flashes, then the deaths fall, each with its cause in words.

    ``resolution_only``: an Ambush choice just resolved (cards already known): show who the
    ambushing target picked and the deaths."""

    name = "reveal"
    FLIP, ARROWS, TALLY, AMBUSH, DEATHS = 0.0, 0.9, 2.0, 2.8, 3.6

    def __init__(self, reveal: Reveal, seats: tuple[SeatModel, ...], resolution_only: bool = False) -> None:
        super().__init__()
        self.reveal = reveal
        self.resolution_only = resolution_only
        self.seats = with_alive(seats, alive_before(reveal, len(seats)))
        self.has_ambush = bool(set(reveal.ambushers) & set(reveal.targets))
        start = 0.0 if resolution_only else self.DEATHS
        self.deaths_at = (start + (1.2 if resolution_only else 0.0)) if reveal.resolved else None
        self.duration_s = (self.deaths_at or start) + (4.6 if reveal.resolved else 2.4)
        self._played: set[str] = set()

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        cues = [("reveal", 0.0 if not self.resolution_only else 99.0, Effect.REVEAL),
                ("ambush", self.AMBUSH if not self.resolution_only else 0.2, Effect.AMBUSH)]
        if self.deaths_at is not None and self.reveal.deaths:
            cues.append(("death", self.deaths_at, Effect.DEATH))
        for name, at, effect in cues:
            if name == "ambush" and not self.has_ambush:
                continue
            if self.t >= at and name not in self._played:
                self._played.add(name)
                ctx.sound.play(effect)

    def _t(self) -> float:
        return self.DEATHS + 0.5 + self.t if self.resolution_only else self.t

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        t = self._t()
        dead_now = {d.seat for d in self.reveal.deaths} if self.deaths_at is not None and self.t >= self.deaths_at else set()
        seats = tuple(s if s.seat not in dead_now else _dead(s) for s in self.seats)
        highlight = frozenset(self.reveal.targets) if t >= self.TALLY else frozenset()
        surface.blit(static_layer(frame, ctx, seats, highlight), (0, 0))
        lay = table_layout(frame.size, len(seats))
        draw_middle(surface, frame, ctx, lay, {**view_of(frame), "round": self.reveal.round, "vote": self.reveal.vote},
                    timer=False)
        draw_revealed_votes(surface, frame, lay, seats, self.reveal, ease(span(t, self.FLIP, 0.7)),
                            ease(span(t, self.ARROWS, 0.9)))
        if t >= self.TALLY:
            self._draw_tally(surface, frame, ctx, lay)
        if self.has_ambush and t >= self.AMBUSH:
            self._draw_ambush(surface, frame, ctx, lay, t)
        if dead_now:
            fade = span(self.t, self.deaths_at or 0.0, 0.5)
            for death in self.reveal.deaths:
                draw_death_label(surface, frame, ctx, lay, death, fade)
        draw_caption(surface, frame, ctx, lay.caption, self._caption(frame, t, bool(dead_now)), theme.TEXT, px=24,
                     border=theme.DANGER if self.has_ambush and t >= self.AMBUSH else None)

    def _draw_tally(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout) -> None:
        for seat, votes in enumerate(self.reveal.tally[: len(lay.spots)]):
            if votes > 0:
                colour = theme.DANGER if seat in self.reveal.targets else theme.PANEL_LIGHT
                draw_tally_badge(surface, frame, ctx, lay.spots[seat].plate, votes, colour)

    def _draw_ambush(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, t: float) -> None:
        u = frame.scale.u
        flash = 1 - span(t, self.AMBUSH, 0.6)
        if flash > 0:  # the room flashes red: a thick border round the screen, cheap at any size
            edge = round(min(frame.size) * 0.06 * flash) + 1
            pygame.draw.rect(surface, theme.mix(theme.BACKGROUND, theme.DANGER, flash), surface.get_rect(), edge)
        for by, victim, _random in self.reveal.ambush_picks:
            if victim is not None and by < len(lay.spots) and victim < len(lay.spots) and self.reveal.resolved:
                end = edge_point(lay.spots[victim].plate, lay.spots[by].plate.center)
                start = edge_point(lay.spots[by].plate, end)
                p = ease(span(t, self.AMBUSH + 0.3, 0.6))
                tip = (start[0] + (end[0] - start[0]) * p, start[1] + (end[1] - start[1]) * p)
                shapes.arrow(surface, start, tip, (10, 10, 14), max(4, round(11 * u)), 30 * u)
                shapes.arrow(surface, start, tip, theme.DANGER, max(3, round(8 * u)), 26 * u)
        for seat in self.reveal.ambushers:
            if seat in self.reveal.targets and seat < len(lay.spots):
                draw_badge(surface, frame, ctx, lay, seat, frame.s("reveal.ambush"), theme.GOLD)
        banner = span(t, self.AMBUSH, 0.25) * (1 - span(t, self.AMBUSH + 1.6, 0.5))
        if banner > 0 and not self.resolution_only:
            draw_banner(surface, frame, ctx, lay, frame.s("reveal.ambush"), banner)

    def _caption(self, frame: Frame, t: float, deaths_shown: bool) -> str:
        r = self.reveal
        if deaths_shown:
            if not r.deaths:
                return frame.s("reveal.nobody_died")
            return frame.s("sep").join(death_sentence(frame, self.seats, d) for d in r.deaths)
        if self.has_ambush and t >= self.AMBUSH:
            ambushing = [s for s in r.ambushers if s in r.targets]
            return frame.s("reveal.ambush_by", names=names(frame, self.seats, ambushing))
        if t >= self.TALLY:
            if not r.targets:
                return frame.s("reveal.no_target")
            votes = max(r.tally[s] for s in r.targets) if r.targets else 0
            return frame.s("reveal.targets", names=names(frame, self.seats, r.targets), n=votes)
        return frame.s("reveal.title")


def _dead(seat: SeatModel) -> SeatModel:
    from dataclasses import replace

    return replace(seat, alive=False)


class ShowdownScene(Scene):
    """The Final Showdown: the two survivors face each other over the pot; who has picked."""

    name = "showdown"

    def __init__(self) -> None:
        super().__init__()
        self._picked: set[int] = set()

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        first = self.t == 0.0
        super().update(dt, frame, ctx)
        sd = view_of(frame).get("showdown") or {}
        for seat, picked in zip(sd.get("seats", []), sd.get("picked", [])):
            if picked and seat not in self._picked:
                self._picked.add(seat)
                if not first:
                    ctx.sound.play(Effect.VOTE_DOWN)
            elif not picked:
                self._picked.discard(seat)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        sd = view.get("showdown") or {}
        duel = tuple(int(s) for s in sd.get("seats", []))[:2]
        picked = tuple(bool(p) for p in sd.get("picked", [False, False]))
        locked = tuple(bool(p) for p in sd.get("locked", [False, False]))
        draw_showdown_stage(surface, frame, ctx, seat_models(frame.snapshot), duel, int(sd.get("pot", 4)),
                            lambda i, rect: _pick_state(surface, frame, ctx, rect, picked, locked, i),
                            frame.s("showdown.talk"))
        draw_notices(surface, frame, ctx)


def _pick_state(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect,
                picked: tuple[bool, ...], locked: tuple[bool, ...], i: int) -> None:
    if i < len(picked) and picked[i]:
        shapes.card_back(surface, rect)
        key = "showdown.locked" if i < len(locked) and locked[i] else "showdown.picked"
    else:
        pygame.draw.rect(surface, theme.TEXT_DIM, rect, max(1, rect.width // 20), border_radius=rect.width // 8)
        key = "showdown.thinking"
    label = pygame.Rect(rect.x - rect.width // 2, rect.bottom + 4, rect.width * 2, round(rect.height * 0.22))
    ctx.text.draw(surface, frame.s(key), frame.lang, label,
                  TextStyle(round(22 * frame.scale.u), theme.TEXT, align=Align.CENTER, max_lines=1, min_px=7))


def showdown_rects(frame: Frame) -> tuple[list[pygame.Rect], list[pygame.Rect], pygame.Rect, pygame.Rect]:
    """(duellist panels, their card rects, the pot area, the caption) for the showdown stage."""
    w, h = frame.size
    panels, cards = [], []
    for side in (0, 1):
        panel = pygame.Rect(0, 0, round(w * 0.26), round(h * 0.2))
        panel.center = (round(w * (0.2 if side == 0 else 0.8)), round(h * 0.3))
        panels.append(panel)
        card = pygame.Rect(0, 0, round(h * 0.17), round(h * 0.24))
        card.center = (panel.centerx, round(h * 0.53))
        cards.append(card)
    pot = pygame.Rect(0, 0, round(w * 0.24), round(h * 0.27))
    pot.center = (w // 2, round(h * 0.45))
    caption = pygame.Rect(0, 0, round(w * 0.8), round(h * 0.12))
    caption.center = (w // 2, round(h * 0.79))
    return panels, cards, pot, caption


def draw_showdown_stage(surface: pygame.Surface, frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...],
                        duel: tuple[int, ...], pot: int, draw_card: Callable[[int, pygame.Rect], None], caption: str,
                        timer: bool = True) -> None:
    from .table_art import draw_plate

    u = frame.scale.u
    surface.fill(theme.BACKGROUND)
    w, h = frame.size
    felt = pygame.Rect(0, 0, round(w * 0.94), round(h * 0.66))
    felt.center = (w // 2, round(h * 0.45))
    pygame.draw.ellipse(surface, theme.FELT_EDGE, felt.inflate(round(20 * u), round(20 * u)))
    pygame.draw.ellipse(surface, theme.mix(theme.FELT, (60, 10, 20), 0.35), felt)
    title = pygame.Rect(0, round(h * 0.02), w, round(h * 0.09))
    ctx.text.draw(surface, frame.s("showdown.title"), frame.lang, title,
                  TextStyle(round(44 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
    panels, cards, pot_rect, caption_rect = showdown_rects(frame)
    if frame.lang == "fa":
        panels, cards = panels[::-1], cards[::-1]
    for i, seat in enumerate(duel):
        if seat < len(seats):
            draw_plate(surface, panels[i], seats[seat], frame, ctx, highlight=True)
            draw_card(i, cards[i])
    draw_pot(surface, frame, ctx, pot_rect, pot, frame.s("table.pot", n=pot))
    if timer:
        draw_timer(surface, frame, ctx, (w / 2, h * 0.2), h * 0.055)
    others = [s for s in seats if s.seat not in duel]
    strip = pygame.Rect(round(w * 0.03), round(h * 0.87), round(w * 0.94), round(h * 0.11))
    if others:
        cell_w = min(strip.width // len(others), round(w * 0.16))
        x0 = strip.centerx - cell_w * len(others) // 2
        for k, other in enumerate(others):
            col = len(others) - 1 - k if frame.lang == "fa" else k
            draw_plate(surface, pygame.Rect(x0 + col * cell_w + 3, strip.y, cell_w - 6, strip.height), other, frame, ctx,
                       dim=True)
    draw_caption(surface, frame, ctx, caption_rect, caption, theme.TEXT, px=24)


def draw_choice(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, choice: Choice) -> None:
    colours = {Choice.SPLIT: (70, 160, 110), Choice.STEAL: (190, 50, 60), Choice.TAKE_ONE: (70, 110, 190)}
    shapes.card(surface, rect, colours[choice], theme.TEXT)
    c = (rect.centerx, rect.y + rect.height * 0.4)
    bw, bh = round(rect.width * 0.34), round(rect.height * 0.11)
    if choice is Choice.SPLIT:
        for dx in (-1, 1):
            shapes.gold_bar(surface, pygame.Rect(c[0] + dx * bw * 0.6 - bw / 2, c[1] - bh / 2, bw, bh))
        pygame.draw.line(surface, theme.TEXT, (c[0], c[1] - bh * 1.5), (c[0], c[1] + bh * 1.5), max(2, rect.width // 30))
    elif choice is Choice.STEAL:
        for k in range(3):
            shapes.gold_bar(surface, pygame.Rect(c[0] - bw / 2, c[1] - bh * (1.2 - k * 0.75), bw, bh))
        shapes.arrow(surface, (c[0] - bw, c[1] + bh * 1.6), (c[0] + bw, c[1] + bh * 1.6), theme.TEXT,
                     max(2, rect.width // 25), rect.width * 0.1)
    else:
        shapes.gold_bar(surface, pygame.Rect(c[0] - bw / 2, c[1] - bh / 2, bw, bh))
        shapes.arrow(surface, (c[0], c[1] + bh), (c[0], c[1] + bh * 3), theme.TEXT, max(2, rect.width // 25),
                     rect.width * 0.1)
    label = pygame.Rect(rect.x + 4, rect.bottom - round(rect.height * 0.3), rect.width - 8, round(rect.height * 0.26))
    ctx.text.draw(surface, frame.s(f"choice.{choice.value}"), frame.lang, label,
                  TextStyle(round(20 * frame.scale.u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=2, min_px=6))


class ShowdownRevealBeat(Scene):
    """Both showdown cards flip at once; the payout in bars flies to each duellist."""

    name = "showdown_reveal"
    duration_s = 7.0

    PAYOUT = 2.2

    def __init__(self, result: ShowdownResult, seats: tuple[SeatModel, ...], before: tuple[SeatModel, ...]) -> None:
        super().__init__()
        self.result = result
        self.seats = seats
        self.before = before if len(before) == len(seats) else seats
        self._played = False

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if not self._played:
            self._played = True
            ctx.sound.play(Effect.SHOWDOWN)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        flip = ease(span(self.t, 0.8, 0.8))
        caption = self._caption(frame) if self.t >= 1.8 else frame.s("showdown.reveal")

        def card(i: int, rect: pygame.Rect) -> None:
            if flip < 0.5:
                w = max(2, round(rect.width * (1 - flip * 2)))
                shapes.card_back(surface, pygame.Rect(rect.centerx - w // 2, rect.y, w, rect.height))
            else:
                w = max(2, round(rect.width * (flip - 0.5) * 2))
                draw_choice(surface, frame, ctx, pygame.Rect(rect.centerx - w // 2, rect.y, w, rect.height),
                            self.result.choices[i])

        landed = self.t >= self.PAYOUT + 1.0
        draw_showdown_stage(surface, frame, ctx, self.seats if landed else self.before, self.result.seats,
                            4 if self.t < self.PAYOUT else self.result.pot_left, card, caption, timer=False)
        if self.t >= self.PAYOUT and not landed:
            self._draw_payout(surface, frame)

    def _draw_payout(self, surface: pygame.Surface, frame: Frame) -> None:
        panels, _, pot_rect, _ = showdown_rects(frame)
        if frame.lang == "fa":
            panels = panels[::-1]
        p = ease(span(self.t, self.PAYOUT, 1.0))
        bw, bh = round(pot_rect.width * 0.22), round(pot_rect.height * 0.08)
        for i, n in enumerate(self.result.payout):
            for k in range(n):
                sx, sy = pot_rect.centerx, pot_rect.y + pot_rect.height * 0.3
                ex, ey = panels[i].centerx + (k - (n - 1) / 2) * bw * 1.1, panels[i].centery
                rect = pygame.Rect(0, 0, bw, bh)
                rect.center = (round(sx + (ex - sx) * p), round(sy + (ey - sy) * p))
                shapes.gold_bar(surface, rect)

    def _caption(self, frame: Frame) -> str:
        r = self.result
        a, b = (seat_name(frame, self.seats, s) for s in r.seats)
        parts = [frame.s("showdown.chose", name=n, choice=frame.s(f"choice.{c.value}")) for n, c in zip((a, b), r.choices)]
        if r.choices == (Choice.STEAL, Choice.STEAL):
            parts.append(frame.s("showdown.steal_steal"))
        else:
            parts.append(frame.s("showdown.gets", name=a, n=r.payout[0]))
            parts.append(frame.s("showdown.gets", name=b, n=r.payout[1]))
        for name, late in zip((a, b), r.timed_out):
            if late:
                parts.append(frame.s("showdown.timed_out", name=name))
        if r.pot_left and r.choices != (Choice.STEAL, Choice.STEAL):
            parts.append(frame.s("showdown.pot_left", n=r.pot_left))
        return frame.s("sep").join(parts)


class RoundEndBeat(Scene):
    """The round's summary: what happened to the pot, who drew a bar, and every seat's bar count."""

    name = "round_end"
    duration_s = 6.5

    def __init__(self, end: RoundEnd, seats: tuple[SeatModel, ...], before: tuple[int, ...], tie: tuple[int, ...],
                 showdown: ShowdownResult | None = None) -> None:
        super().__init__()
        self.end = end
        self.showdown = showdown
        self.seats = seats
        self.before = before
        self.tie = tie

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        surface.fill(theme.BACKGROUND)
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.1))
        ctx.text.draw(surface, frame.s("round.title", round=self.end.round), frame.lang, title,
                      TextStyle(round(44 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        story = pygame.Rect(round(w * 0.08), title.bottom, round(w * 0.84), round(h * 0.16))
        draw_caption(surface, frame, ctx, story, self._story(frame), theme.TEXT, px=26)
        self._draw_summary(surface, frame, ctx, pygame.Rect(round(w * 0.1), story.bottom + round(h * 0.03),
                                                            round(w * 0.8), round(h * 0.64)))

    def _story(self, frame: Frame) -> str:
        e = self.end
        if e.outcome == "taken" and e.survivors:
            text = frame.s("round.taken", name=seat_name(frame, self.seats, e.survivors[0]), n=e.bars_taken)
        elif e.outcome == "showdown" and self.showdown is not None:
            sd = self.showdown
            text = frame.s("round.showdown", names=names(frame, self.seats, sd.seats))
            if sd.choices == (Choice.STEAL, Choice.STEAL):
                text += frame.s("sep") + frame.s("showdown.steal_steal")
            else:
                text += frame.s("sep") + frame.s("sep").join(frame.s("showdown.gets", name=seat_name(frame, self.seats, s), n=p)
                                               for s, p in zip(sd.seats, sd.payout))
        elif e.outcome == "showdown":
            text = frame.s("round.showdown", names=names(frame, self.seats, e.survivors))
        else:
            text = frame.s("round.stays")
        if e.draws:
            text += frame.s("sep") + frame.s("round.draws", names=names(frame, self.seats, e.draws))
        if self.tie:
            text += frame.s("sep") + frame.s("round.tie_break", names=names(frame, self.seats, self.tie))
        return text

    def _draw_summary(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect) -> None:
        u = frame.scale.u
        n = len(self.seats)
        cols = 1 if n <= 6 else 2
        rows = math.ceil(n / cols)
        cell_w = area.width // cols
        cell_h = min(area.height // max(1, rows), round(70 * u))
        area = area.move(0, (area.height - cell_h * rows) // 3)  # a short list sits higher than centre
        p = ease(span(self.t, 0.6, 1.2))
        for i, seat in enumerate(self.seats):
            col, r = divmod(i, rows)
            if frame.lang == "fa":
                col = cols - 1 - col
            rect = pygame.Rect(area.x + col * cell_w + round(6 * u), area.y + r * cell_h + round(3 * u),
                               cell_w - round(12 * u), cell_h - round(6 * u))
            gained = seat.bars - (self.before[i] if i < len(self.before) else seat.bars)
            self._draw_row(surface, frame, ctx, rect, seat, gained, p)

    @staticmethod
    def _draw_row(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, seat: SeatModel,
                  gained: int, p: float) -> None:
        u = frame.scale.u
        rtl = frame.lang == "fa"
        shapes.panel(surface, rect, theme.PANEL, theme.seat_colour(seat.seat, seat.colour), radius=round(8 * u),
                     width=max(1, round(2 * u)))
        r = rect.height * 0.32
        sym = (rect.right - rect.height * 0.5, rect.centery) if rtl else (rect.x + rect.height * 0.5, rect.centery)
        shapes.symbol(surface, seat.symbol, theme.seat_colour(seat.seat, seat.colour), sym, r)
        name_w = round(rect.width * 0.42)
        name_box = pygame.Rect(rect.x + round(rect.height), rect.y, name_w, rect.height)
        if rtl:
            name_box.right = rect.right - round(rect.height)
        ctx.text.draw(surface, seat.name or frame.s("seat.name", n=seat.seat + 1), frame.lang, name_box,
                      TextStyle(round(22 * u), theme.TEXT, bold=True, max_lines=1, min_px=7))
        bars_box = pygame.Rect(0, rect.y, round(rect.width * 0.3), rect.height)
        if rtl:
            bars_box.x = rect.x + round(12 * u)
        else:
            bars_box.right = rect.right - round(12 * u)
        shown = seat.bars - gained + round(gained * p)
        text = frame.s("table.bars", n=shown)
        if gained > 0:
            text += "  " + frame.s("round.gained", n=gained)
        ctx.text.draw(surface, text, frame.lang, bars_box,
                      TextStyle(round(22 * u), theme.GOLD if gained > 0 else theme.TEXT_DIM, align=Align.END, max_lines=1,
                                min_px=7))


class GameOverScene(FinalScene):
    """The winner, and every total revealed at last."""

    name = "game_over"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        final = final_from(view)
        surface.fill(theme.BACKGROUND)
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.09))
        ctx.text.draw(surface, frame.s("over.title"), frame.lang, title,
                      TextStyle(round(40 * u), theme.TEXT_DIM, bold=True, align=Align.CENTER, max_lines=1))
        winners = final.winners if final else tuple(int(x) for x in view.get("winners", []))
        totals = final.totals if final else ()
        self._draw_winners(surface, frame, ctx, seats, winners, totals,
                           pygame.Rect(0, title.bottom + round(h * 0.02), w, round(h * 0.3)))
        if final is not None and final.reason == "deck_empty":
            note = pygame.Rect(round(w * 0.1), round(h * 0.42), round(w * 0.8), round(h * 0.05))
            ctx.text.draw(surface, frame.s("over.deck_empty"), frame.lang, note,
                          TextStyle(round(22 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1))
        self._draw_ranking(surface, frame, ctx, seats, final, pygame.Rect(round(w * 0.12), round(h * 0.48),
                                                                          round(w * 0.76), round(h * 0.42)))
        hint = pygame.Rect(0, round(h * 0.92), w, round(h * 0.06))
        ctx.text.draw(surface, frame.s("over.next"), frame.lang, hint,
                      TextStyle(round(20 * u), theme.ACCENT, align=Align.CENTER, max_lines=1))

    def _draw_winners(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...],
                      winners: tuple[int, ...], totals: tuple[int, ...], area: pygame.Rect) -> None:
        u = frame.scale.u
        glow = 0.5 + 0.5 * math.sin(self.t * 3)
        for k, seat in enumerate(winners[:4]):
            cx = area.centerx + (k - (len(winners[:4]) - 1) / 2) * area.height * 1.2
            r = area.height * 0.24
            pygame.draw.circle(surface, theme.mix(theme.BACKGROUND, theme.GOLD, 0.25 + 0.2 * glow), (cx, area.y + r * 1.4),
                               r * 1.35)
            if seat < len(seats):
                shapes.symbol(surface, seats[seat].symbol, theme.seat_colour(seat, seats[seat].colour),
                              (cx, area.y + r * 1.4), r)
        if not winners:
            return
        line = pygame.Rect(area.x + round(area.width * 0.1), area.bottom - round(area.height * 0.25),
                           round(area.width * 0.8), round(area.height * 0.25))
        if len(winners) == 1:
            total = totals[winners[0]] if winners[0] < len(totals) else 0
            text = frame.s("over.wins", name=seat_name(frame, seats, winners[0]), n=total)
        else:
            text = frame.s("over.shared", names=names(frame, seats, winners))
        ctx.text.draw(surface, text, frame.lang, line,
                      TextStyle(round(40 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))

    @staticmethod
    def _draw_ranking(surface: pygame.Surface, frame: Frame, ctx: RenderContext, seats: tuple[SeatModel, ...],
                      final: Final | None, area: pygame.Rect) -> None:
        if final is None:
            return
        u = frame.scale.u
        order = sorted(range(len(seats)), key=lambda s: (-(final.totals[s] if s < len(final.totals) else 0), s))
        cols = 1 if len(order) <= 6 else 2
        rows = math.ceil(len(order) / cols)
        cell_h = min(area.height // max(1, rows), round(56 * u))
        cell_w = area.width // cols
        for k, s in enumerate(order):
            col, r = divmod(k, rows)
            if frame.lang == "fa":
                col = cols - 1 - col
            rect = pygame.Rect(area.x + col * cell_w + 4, area.y + r * cell_h + 2, cell_w - 8, cell_h - 4)
            seat = seats[s]
            winner = s in final.winners
            shapes.panel(surface, rect, theme.PANEL_LIGHT if winner else theme.PANEL,
                         theme.GOLD if winner else theme.seat_colour(s, seat.colour), radius=round(8 * u),
                         width=max(1, round(2 * u)))
            rad = rect.height * 0.3
            rtl = frame.lang == "fa"
            sym = (rect.right - rect.height * 0.5, rect.centery) if rtl else (rect.x + rect.height * 0.5, rect.centery)
            shapes.symbol(surface, seat.symbol, theme.seat_colour(s, seat.colour), sym, rad)
            total = final.totals[s] if s < len(final.totals) else 0
            bars = final.bars[s] if s < len(final.bars) else 0
            text_box = pygame.Rect(rect.x + rect.height, rect.y, rect.width - round(rect.height * 1.3), rect.height)
            if rtl:
                text_box.right = rect.right - rect.height
            line = frame.s("over.row", name=seat.name or frame.s("seat.name", n=s + 1), points=total, bars=bars)
            ctx.text.draw(surface, line, frame.lang, text_box,
                          TextStyle(round(21 * u), theme.GOLD if winner else theme.TEXT, bold=winner, max_lines=1, min_px=7))


# ---------------------------------------------------------------------------------------- rules
def choose_base(snapshot: TableSnapshot) -> Scene:
    ph = phase(snapshot.public_view)
    if ph is Phase.SHOWDOWN:
        return ShowdownScene()
    if ph is Phase.GAME_OVER:
        return GameOverScene()
    return TableScene()


def base_name(snapshot: TableSnapshot) -> str:
    ph = phase(snapshot.public_view)
    return {Phase.SHOWDOWN: "showdown", Phase.GAME_OVER: "game_over"}.get(ph, "collusion_table") if ph else "collusion_table"


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The beats one batch of events calls for, in order."""
    view = snapshot.public_view or {}
    types = event_types(snapshot.events)
    seats_now = seat_models(snapshot)
    prev_seats = seat_models(previous) if previous is not None and previous.public_view else seats_now
    out: list[Scene] = []
    reveal = reveal_from(view.get("last_reveal"))
    if reveal is not None and "reveal" in types:
        out.append(RevealBeat(reveal, prev_seats))
    elif reveal is not None and "ambush_resolved" in types:
        out.append(RevealBeat(reveal, prev_seats, resolution_only=True))
    showdown = showdown_from(view.get("last_showdown"))
    end = round_end_from(view.get("last_round_end"))
    tie: tuple[int, ...] = ()
    for e in snapshot.events:
        if e.get("type") == "tie_break":
            tie = tuple(int(s) for s in e.get("seats", []))
    before = tuple(s.bars for s in prev_seats)
    if showdown is not None and "showdown_reveal" in types:
        out.append(ShowdownRevealBeat(showdown, seats_now, prev_seats))
        if end is not None and end.outcome == "showdown":
            out.append(RoundEndBeat(end, seats_now, before, tie, showdown))
    elif end is not None and "round_ended" in types and end.outcome != "showdown":
        out.append(RoundEndBeat(end, seats_now, before, tie))
    return out
