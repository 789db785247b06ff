"""Collusion's table scenes: the conspiracy (cards going down, the timer, who must choose an
Ambush victim) and the Final Showdown stage, with the drawing the reveal beats reuse."""
from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import pygame

from game import i18n
from game.games.collusion.screen.model import Card, Choice, Death, DeathKind, Phase, Reveal, Seat, phase, reveal_from, seat_models
from game.render.kit import shapes, theme
from game.render.kit.hud import Ticker, draw_badge, draw_caption, draw_notices, draw_on_chip, draw_timer, draw_timer_face
from game.render.kit.motion import ease, edge_point, span
from game.render.kit.plates import PlateLook, draw_plate, plate_surface, plates_layer
from game.render.kit.scene import Frame, RenderContext, Scene, scratch_surface, view_of
from game.render.kit.seats import names, seat_name
from game.render.kit.sound import Effect
from game.render.kit.table import TableLayout, table_layout
from game.render.kit.text import Align, TextStyle
from game.render.kit.widgets import readable_px

TIMER_LABELS = ("conspiracy", "ambush_choice", "showdown")  # the engine's timers (screen strings timer.*)


def plate_look(frame: Frame, seat: Seat, highlight: bool = False, dim: bool = False) -> PlateLook:
    """A Collusion plate: the bar count (never values); fallen seats crossed, watchers dimmed."""
    active = seat.alive and seat.in_round and not dim
    return PlateLook(frame.s("table.bars", n=seat.bars), theme.GOLD if active else theme.TEXT_DIM, dim=not active,
                     fallen=not seat.alive and seat.in_round, bold_border=highlight,
                     ring=theme.GOLD if highlight else None, bar_icon=True)


def static_layer(frame: Frame, ctx: RenderContext, seats: tuple[Seat, ...],
                 highlight: frozenset[int] = frozenset()) -> pygame.Surface:
    """Room, felt and every plate (cached until one of them changes)."""
    return plates_layer(frame, ctx, tuple((s, plate_look(frame, s, s.seat in highlight)) for s in seats))


# ------------------------------------------------------------------------------------- helpers
def draw_middle(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, view: Mapping[str, Any],
                timer: bool = True) -> None:
    """Round and vote with the target score in the window's top corner (:func:`heading_boxes`),
    and in the middle the pot (as bar pictures, counts only), the deck and the timer. Drawn over a
    reveal's arrows: their words on dark chips."""
    u = frame.scale.u
    mid = lay.middle
    head, sub = heading_boxes(frame)
    if view.get("tie_break"):
        title = frame.s("table.tie_break_round", round=int(view.get("round", 1)), vote=int(view.get("vote", 1)))
    else:
        title = frame.s("table.round", round=int(view.get("round", 1)), vote=int(view.get("vote", 1)))
    ctx.text.draw(surface, title, frame.lang, head, TextStyle(round(26 * u), theme.GOLD, bold=True, max_lines=1, min_px=8))
    ctx.text.draw(surface, frame.s("table.target", n=int(view.get("target_score", 0))), frame.lang, sub,
                  TextStyle(round(17 * u), theme.TEXT_DIM, max_lines=1, min_px=7))
    pot = int(view.get("pot", 0))
    r = mid.height * 0.17
    timer_c = (mid.centerx, mid.y + mid.height * 0.48)
    pot_area = pygame.Rect(mid.x, mid.y + round(mid.height * 0.17), round(mid.width * 0.36), round(mid.height * 0.5))
    deck_area = pygame.Rect(mid.right - pot_area.width, pot_area.y, pot_area.width, pot_area.height)
    if frame.lang == "fa":
        pot_area, deck_area = deck_area, pot_area
    draw_pot(surface, frame, ctx, pot_area, pot, frame.s("table.pot", n=pot))
    draw_deck(surface, frame, ctx, deck_area, int(view.get("deck", 0)))
    if timer:
        draw_timer(surface, frame, ctx, timer_c, r)


def heading_boxes(frame: Frame) -> tuple[pygame.Rect, pygame.Rect]:
    """The round's title and, under it, the score to reach: in the window's top corner where
    reading starts (right in Persian), off the table, where no reveal's card or arrow goes."""
    w, h = frame.size
    head = pygame.Rect(round(w * 0.015), round(h * 0.012), round(w * 0.24), round(h * 0.065))
    sub = pygame.Rect(head.x, head.bottom, head.width, round(h * 0.045))
    if frame.lang == "fa":
        head.right = sub.right = w - head.x
    return head, sub


def label_box(area: pygame.Rect) -> pygame.Rect:
    """The words under the pot's or the deck's picture."""
    return pygame.Rect(area.x, area.bottom - round(area.height * 0.3), area.width, round(area.height * 0.3))


def draw_pot(surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect, pot: int, label: str) -> None:
    u = frame.scale.u
    bw, bh = round(area.width * 0.3), round(area.height * 0.16)
    for i in range(min(pot, 8)):
        rect = pygame.Rect(0, 0, bw, bh)
        rect.center = (area.centerx + (i % 2 * 2 - 1) * bw * 0.55, area.y + area.height * 0.22 + (i // 2) * bh * 0.72)
        shapes.gold_bar(surface, rect)
    draw_on_chip(surface, frame, ctx, label, label_box(area),
                 TextStyle(round(17 * u), theme.GOLD, align=Align.CENTER, max_lines=2, min_px=7))


def draw_deck(surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect, deck: int) -> None:
    u = frame.scale.u
    cw, ch = round(area.width * 0.34), round(area.height * 0.5)
    for k in range(3):
        rect = pygame.Rect(0, 0, cw, ch)
        rect.center = (area.centerx + k * 3 * u, area.y + area.height * 0.33 - k * 3 * u)
        shapes.card(surface, rect, (120, 90, 30), theme.GOLD)
    draw_on_chip(surface, frame, ctx, frame.s("table.deck", n=deck), label_box(area),
                 TextStyle(round(17 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=2, min_px=7))


def card_rect(lay: TableLayout, seat: int, scale: float = 1.0) -> pygame.Rect:
    w, h = lay.card_size
    rect = pygame.Rect(0, 0, max(2, round(w * scale)), max(2, round(h * scale)))
    x, y = lay.spots[seat].card
    rect.center = (round(x), round(y))
    return rect


def draw_card_face(surface: pygame.Surface, rect: pygame.Rect, card: Card, target: Seat | None) -> None:
    if card is Card.TARGET and target is not None:
        shapes.card(surface, rect, theme.CARD_FACE, theme.seat_colour(target.seat, target.colour))
        shapes.symbol(surface, target.symbol, theme.seat_colour(target.seat, target.colour), rect.center,
                      min(rect.width, rect.height) * 0.36)
    elif card is Card.AMBUSH:
        shapes.card(surface, rect, (120, 20, 30), (255, 120, 110))
        shapes.ambush_mark(surface, rect.center, min(rect.width, rect.height) * 0.32)
    elif card is Card.NONE:
        pygame.draw.rect(surface, theme.TEXT_DIM, rect, max(1, rect.width // 14), border_radius=max(2, rect.width // 8))


def draw_flip(surface: pygame.Surface, rect: pygame.Rect, progress: float, card: Card, target: Seat | None) -> None:
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


def death_sentence(frame: Frame, seats: Sequence[Seat], death: Death) -> str:
    return frame.s(f"death.{death.kind.value}", name=seat_name(frame, seats, death.seat),
                   by=seat_name(frame, seats, death.by))


# --------------------------------------------------------------------------------- base scenes
class TableScene(Scene):
    """The conspiracy: seats, who has put a card down (face down) or locked it, the timer; in
    ``ambush_choice`` also the last reveal's arrows and who is choosing a victim."""

    name = "collusion_table"
    reacts_to_events = False  # cards slide down when the public view says so

    SLIDE_S = 0.35  # a card put down slides from the plate to its place

    def __init__(self, reveal_beat: Callable[..., Scene] | None = None) -> None:
        super().__init__()
        self._down_since: dict[int, float] = {}
        self._ticker = Ticker()
        # the reveal's beat class (beats.RevealBeat, handed in by the package: the beats draw with
        # this module's helpers, so this module does not import them back), rehearsed off screen
        self._reveal_beat = reveal_beat

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
                        ctx.sound.play(Effect.PLACE)
            else:
                self._down_since.pop(seat, None)
        self._ticker.update(frame, ctx)

    def warm_key(self, frame: Frame) -> tuple:
        """The plates and labels to warm are the seats'."""
        return seat_models(frame.snapshot)

    def warm_tasks(self, frame: Frame, ctx: RenderContext) -> Iterator[None]:
        """The reveal's pictures (:func:`reveal_warm_tasks`), then a rehearsal of a reveal with
        every part the real one may show and the Ambush choice after it, drawn off screen: the
        fonts, arrows and captions they use are cached before the votes are in."""
        seats = seat_models(frame.snapshot)
        yield from reveal_warm_tasks(frame, ctx, seats)
        if len(seats) < 2 or self._reveal_beat is None:
            return
        scratch = pygame.Surface(frame.size)
        beat: Any = self._reveal_beat(rehearsal(seats), seats)
        for t in (beat.FLIP, beat.ARROWS + 0.5, beat.TALLY, beat.AMBUSH + 0.5, beat.DEATHS + 0.1):
            beat.t = t
            beat.draw(scratch, frame, ctx)
            yield
        lay = table_layout(frame.size, len(seats))
        self._draw_ambush_wait(scratch, frame, ctx, lay, seats, {}, (0,))
        yield
        for label in TIMER_LABELS:  # a label too long for its box shrinks through a font per size
            draw_timer_face(scratch, frame, ctx, lay.middle.center, lay.middle.height * 0.17, 59_000, 60_000, label)
            yield

    def animating(self, frame: Frame, read_clock: bool) -> bool:
        """While a card slides down, and while the ambush choice pulses."""
        if phase(view_of(frame)) is Phase.AMBUSH_CHOICE:
            return True
        return any(self.t - since < self.SLIDE_S for since in self._down_since.values())

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        ph = phase(view)
        pending = tuple(int(s) for s in view.get("ambush_pending", []))
        surface.blit(static_layer(frame, ctx, seats, frozenset(pending)), (0, 0))
        lay = table_layout(frame.size, len(seats))
        reveal = reveal_from(view.get("last_reveal")) if ph is Phase.AMBUSH_CHOICE else None
        if reveal is not None:  # the last reveal's cards and arrows, under the middle's words
            draw_revealed_votes(surface, frame, lay, seats, reveal, 1.0, 1.0)
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
            slide = ease(span(self.t, self._down_since.get(seat, -9.0), self.SLIDE_S))
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
            px = readable_px(frame.scale.u)  # read from across the room, like the caption over it
            ctx.text.draw(surface, frame.s("table.small_table"), frame.lang, note,
                          TextStyle(px, theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=px))

    def _draw_ambush_wait(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout,
                          seats: tuple[Seat, ...], view: Mapping[str, Any], pending: tuple[int, ...]) -> None:
        reveal = reveal_from(view.get("last_reveal"))
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
                draw_badge(surface, frame, ctx, lay, seat, frame.s("reveal.ambush"), theme.GOLD, pending)
        for seat in pending:
            if seat < len(lay.spots):
                pygame.draw.rect(surface, theme.mix(theme.DANGER, theme.GOLD, pulse),
                                 lay.spots[seat].plate.inflate(round(14 * frame.scale.u), round(14 * frame.scale.u)),
                                 max(2, round(4 * frame.scale.u)), border_radius=round(14 * frame.scale.u))
        text = frame.s("table.ambush_wait", names=names(frame, seats, pending)) if pending else frame.s("reveal.ambush")
        draw_caption(surface, frame, ctx, lay.caption, text, theme.GOLD, px=24, border=theme.DANGER)


def draw_revealed_votes(surface: pygame.Surface, frame: Frame, lay: TableLayout, seats: Sequence[Seat],
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


def reveal_warm_tasks(frame: Frame, ctx: RenderContext, seats: tuple[Seat, ...]) -> Iterator[None]:
    """Everything a reveal may need that is known before the votes are: each plate fallen and/or
    targeted, every death label, the Ambush badge and banner, tally numbers. The table does one
    task per frame during the conspiracy, so the reveal itself finds it all cached."""
    scratch = scratch_surface()
    lay = table_layout(frame.size, len(seats))
    for spot, seat in zip(lay.spots, seats):
        for alive, highlight in ((True, True), (False, False), (False, True)):
            shown = dataclasses.replace(seat, alive=alive)
            plate_surface(frame, ctx, spot.plate.size, shown, plate_look(frame, shown, highlight))
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


def rehearsal(seats: tuple[Seat, ...]) -> Reveal:
    """A reveal showing every part a real one may: each seat's card and arrow, two tied targets,
    an Ambush with its pick, a death (for :meth:`TableScene.warm_tasks`)."""
    n = len(seats)
    voted = tuple(0 if i % 2 else 1 for i in range(n))
    tally = tuple(voted.count(i) for i in range(n))
    deaths = (Death(1, DeathKind.TARGETED, "", None),)  # each kind's label: reveal_warm_tasks
    return Reveal(round=1, vote=1, cards=tuple(Card.AMBUSH if i == 0 else Card.TARGET for i in range(n)),
                  voted_for=voted, tally=tally, targets=(0, 1), ambushers=(0,), ambush_picks=((0, 1, False),),
                  deaths=deaths, resolved=True)


def _dead(seat: Seat) -> Seat:
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
                    ctx.sound.play(Effect.PLACE)
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


def draw_showdown_stage(surface: pygame.Surface, frame: Frame, ctx: RenderContext, seats: tuple[Seat, ...],
                        duel: tuple[int, ...], pot: int, draw_card: Callable[[int, pygame.Rect], None], caption: str,
                        timer: bool = True) -> None:
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
            draw_plate(surface, panels[i], seats[seat], plate_look(frame, seats[seat], highlight=True), frame, ctx)
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
            draw_plate(surface, pygame.Rect(x0 + col * cell_w + 3, strip.y, cell_w - 6, strip.height), other,
                       plate_look(frame, other, dim=True), frame, ctx)
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
