"""Cheating Moth on the big screen: the discard pile and its top number, the draw pile, every
seat's fan (exact count only at 3 or fewer, M11) with the cheat tell, the Guard Bug walking to its
new guard, whose turn it is, accusations and their outcome, the action cards' effects, the races
with their order, margins, error bound and sources, the round's penalty points and the final table.

Base scenes follow the view's phase; timed beats (overlays on the table) play the events of one
accepted action. Strings: ``game/i18n/screen_cheating_moth_<lang>.json``."""
from __future__ import annotations

import dataclasses
import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game import i18n
from game.session.snapshot import TableSnapshot

from . import shapes, theme
from .cheating_moth_model import (
    GIVE_PHASES,
    OUTCOME_KEY,
    RACE_PHASES,
    Accusation,
    Kind,
    Phase,
    RaceResult,
    Rank,
    RoundScore,
    SeatModel,
    Tell,
    TopCard,
    accusation_from,
    event_types,
    events_of,
    int_at,
    kind_of,
    mapping,
    phase,
    race_from,
    ranking_from,
    round_from,
    seat_models,
    top_card,
)
from .collusion import draw_caption, draw_notices, draw_timer, ease, edge_point, span
from .scene import FinalScene, Frame, RenderContext, Scene
from .sound import Effect
from .table_art import LayerCache, TableLayout, background, table_layout
from .text import Align, TextStyle, VAlign

DOMAIN = "screen_cheating_moth"
Point = tuple[float, float]
FAN_SHOWN_WHEN_MANY = 6  # card backs drawn for a hand shown as "many"
FAN_MAX = 8
TICK_FROM_MS = 5_000
DIM = (80, 80, 90)  # multiplies the table under a full-screen panel
ACCUSE_S = 3.4  # the accusation beat; the Guard Bug walks after it
KIND_COLOUR: dict[Kind, theme.Colour] = {
    Kind.NUMBER: theme.CARD_FACE, Kind.ANT: (214, 120, 60), Kind.SPIDER: (120, 110, 200),
    Kind.MOSQUITO: (90, 170, 190), Kind.BEETLE: (110, 170, 90), Kind.MOTH: (190, 150, 210),
}


# ------------------------------------------------------------------------------------- helpers
def s(frame: Frame, key: str, **values: Any) -> str:
    return i18n.text(frame.lang, DOMAIN, key, **values)


def view_of(frame: Frame) -> Mapping[str, Any]:
    return frame.snapshot.public_view or {}


def seat_name(frame: Frame, seats: Sequence[SeatModel], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(seats):
        return "?"
    return seats[seat].name or frame.s("seat.name", n=seat + 1)


def names(frame: Frame, seats: Sequence[SeatModel], which: Sequence[int]) -> str:
    items = [seat_name(frame, seats, x) for x in which]
    if len(items) <= 1:
        return "".join(items)
    return frame.s("list.sep").join(items[:-1]) + frame.s("list.last") + items[-1]


def neighbours(number: int) -> tuple[int, int]:
    """The numbers that may go on ``number`` (M5: one up or down, wrapping 5-1)."""
    return (number - 2) % 5 + 1, number % 5 + 1


def hand_text(frame: Frame, hand: int | None) -> str:
    if hand is None:
        return s(frame, "hand.many")
    if hand == 0:
        return s(frame, "hand.none")
    return s(frame, "hand.one") if hand == 1 else s(frame, "hand.exact", n=hand)


def style(px: float, colour: theme.Colour, frame: Frame, bold: bool = False, align: Align = Align.CENTER,
          lines: int = 1) -> TextStyle:
    return TextStyle(max(6, round(px * frame.scale.u)), colour, bold=bold, align=align, max_lines=lines, min_px=7)


# --------------------------------------------------------------------------------------- layout
@dataclass(frozen=True, slots=True)
class MothLayout:
    table: TableLayout
    discard: pygame.Rect  # the top card, big
    draw: pygame.Rect  # the draw pile's top card
    timer: Point
    timer_r: float
    heading: pygame.Rect  # the round, in the window's top corner (mirrored in Persian)
    card: tuple[int, int]  # a fan card


def moth_layout(size: tuple[int, int], n: int) -> MothLayout:
    lay = table_layout(size, n)
    mid = lay.middle
    ch = round(mid.height * 0.62)
    cw = round(ch * 0.7)
    discard = pygame.Rect(0, 0, cw, ch)
    discard.center = (round(mid.centerx - mid.width * 0.05), round(mid.centery - mid.height * 0.02))
    draw = pygame.Rect(0, 0, round(cw * 0.72), round(ch * 0.72))
    draw.midleft = (discard.right + round(mid.width * 0.1), discard.centery)
    timer_r = mid.height * 0.16
    timer = (mid.x + mid.width * 0.1, mid.centery)
    heading = pygame.Rect(round(size[0] * 0.015), round(size[1] * 0.015), round(size[0] * 0.22), round(size[1] * 0.05))
    fan_w = round(min(size[0] * 0.034, size[1] * 0.064))
    return MothLayout(lay, discard, draw, timer, timer_r, heading, (fan_w, round(fan_w * 1.4)))


def mirror(rect: pygame.Rect, frame: Frame, centre_x: float) -> pygame.Rect:
    """``rect`` mirrored about ``centre_x`` in right-to-left languages."""
    if frame.lang != "fa":
        return rect
    out = rect.copy()
    out.centerx = round(2 * centre_x - rect.centerx)
    return out


def fan_centre(ml: MothLayout, seat: int) -> Point:
    return ml.table.spots[seat].card


def plate_of(ml: MothLayout, seat: int) -> pygame.Rect:
    return ml.table.spots[seat].plate


# ----------------------------------------------------------------------------------------- art
_ROTATED: OrderedDict[tuple, pygame.Surface] = OrderedDict()


def _card_back_at(size: tuple[int, int], angle: int) -> pygame.Surface:
    """A card back turned by ``angle`` degrees (cached: fans redraw every frame)."""
    key = (size, angle)
    surf = _ROTATED.get(key)
    if surf is None:
        flat = pygame.Surface(size, pygame.SRCALPHA)
        shapes.card_back(flat, flat.get_rect())
        surf = pygame.transform.rotate(flat, angle) if angle else flat
        _ROTATED[key] = surf
        if len(_ROTATED) > 256:
            _ROTATED.popitem(last=False)
    else:
        _ROTATED.move_to_end(key)
    return surf


def draw_fan(surface: pygame.Surface, centre: Point, count: int, size: tuple[int, int], shake: Point = (0.0, 0.0),
             lift: int | None = None, lift_offset: Point = (0.0, 0.0)) -> None:
    """``count`` card backs spread like a hand; card ``lift`` (the one being cheated) moves by ``lift_offset``."""
    count = max(0, min(FAN_MAX, count))
    step = size[0] * 0.3
    for k in range(count):
        off = k - (count - 1) / 2
        angle = round(-off * 9)
        img = _card_back_at(size, angle)
        x = centre[0] + off * step + shake[0]
        y = centre[1] + abs(off) * size[1] * 0.06 + shake[1]
        if k == lift:
            x, y = x + lift_offset[0], y + lift_offset[1]
        surface.blit(img, img.get_rect(center=(round(x), round(y))))


def draw_bug(surface: pygame.Surface, centre: Point, r: float, t: float, walking: bool) -> None:
    """The Guard Bug: a round gold beetle with six legs (they scuttle while it walks)."""
    cx, cy = centre
    w = max(1, round(r * 0.14))
    wiggle = math.sin(t * 30) * r * 0.18 if walking else 0.0
    for side in (-1, 1):
        for k, dy in enumerate((-0.45, 0.0, 0.45)):
            sway = wiggle if (k % 2 == 0) == (side > 0) else -wiggle
            start = (cx + side * r * 0.45, cy + dy * r)
            end = (cx + side * r * 1.15, cy + dy * r * 1.5 + sway)
            pygame.draw.line(surface, (40, 30, 10), start, end, w + 2)
            pygame.draw.line(surface, theme.GOLD, start, end, w)
    for side in (-1, 1):
        pygame.draw.line(surface, theme.GOLD, (cx + side * r * 0.2, cy - r * 0.9),
                         (cx + side * r * 0.55, cy - r * 1.45), w)
    body = pygame.Rect(0, 0, round(r * 1.3), round(r * 1.7))
    body.center = (round(cx), round(cy + r * 0.1))
    pygame.draw.ellipse(surface, (40, 30, 10), body.inflate(w * 2, w * 2))
    pygame.draw.ellipse(surface, theme.GOLD, body)
    pygame.draw.line(surface, (150, 110, 20), (cx, body.y + r * 0.25), (cx, body.bottom - r * 0.1), w)
    pygame.draw.circle(surface, (150, 110, 20), (cx, cy - r * 0.75), r * 0.42)
    for side in (-1, 1):
        pygame.draw.circle(surface, (255, 244, 200), (cx + side * r * 0.3, cy + r * 0.1), r * 0.13)


def draw_kind_icon(surface: pygame.Surface, kind: Kind, centre: Point, r: float, colour: theme.Colour) -> None:
    """A small picture of an action card's creature (numbers have none)."""
    cx, cy = centre
    w = max(1, round(r * 0.12))
    if kind is Kind.ANT:
        for k in (-1, 0, 1):  # three pairs of bent legs from the thorax
            for side in (-1, 1):
                knee = (cx + k * r * 0.35, cy + side * r * 0.45)
                pygame.draw.lines(surface, colour, False, [(cx, cy), knee, (knee[0] + k * r * 0.3, cy + side * r * 0.8)], w)
        abdomen = pygame.Rect(0, 0, round(r * 0.8), round(r * 0.6))
        abdomen.center = (round(cx - r * 0.6), round(cy))
        pygame.draw.ellipse(surface, colour, abdomen)
        pygame.draw.circle(surface, colour, (cx, cy), r * 0.2)
        pygame.draw.circle(surface, colour, (cx + r * 0.45, cy), r * 0.25)
        for side in (-1, 1):
            pygame.draw.lines(surface, colour, False, [(cx + r * 0.55, cy + side * r * 0.15),
                                                       (cx + r * 0.8, cy + side * r * 0.45), (cx + r * 1.05, cy + side * r * 0.4)], w)
    elif kind is Kind.SPIDER:
        for a in range(8):
            ang = math.radians(a * 45 + 22)
            pygame.draw.line(surface, colour, (cx, cy), (cx + math.cos(ang) * r, cy + math.sin(ang) * r * 0.8), w)
        pygame.draw.circle(surface, colour, (cx, cy), r * 0.38)
    elif kind is Kind.MOSQUITO:
        for k in (-1, 0, 1):  # long thin legs from the thorax
            hip = (cx + r * (0.2 + k * 0.12), cy + r * 0.05)
            knee = (cx + r * (0.1 + k * 0.55), cy + r * 0.45)
            pygame.draw.lines(surface, colour, False, [hip, knee, (knee[0] + k * r * 0.25, cy + r * 0.95)], w)
        for spread in (0.0, 0.22):  # two wings folded back over the body
            pygame.draw.polygon(surface, colour, [(cx + r * 0.2, cy - r * 0.1), (cx - r * (0.75 - spread), cy - r * (0.6 + spread)),
                                                  (cx - r * (0.9 - spread), cy - r * (0.35 + spread))], w)
        abdomen = pygame.Rect(0, 0, round(r * 1.1), round(r * 0.34))
        abdomen.center = (round(cx - r * 0.38), round(cy + r * 0.08))
        pygame.draw.ellipse(surface, colour, abdomen)
        pygame.draw.circle(surface, colour, (cx + r * 0.25, cy), r * 0.2)
        pygame.draw.circle(surface, colour, (cx + r * 0.52, cy - r * 0.06), r * 0.13)
        pygame.draw.line(surface, colour, (cx + r * 0.6, cy), (cx + r * 1.1, cy + r * 0.3), w)
    elif kind is Kind.BEETLE:
        draw_bug(surface, centre, r * 0.7, 0.0, False)
    elif kind is Kind.MOTH:
        for side in (-1, 1):  # broad upper wings, smaller lower ones, feathered antennae
            pygame.draw.polygon(surface, colour, [(cx, cy - r * 0.15), (cx + side * r * 0.5, cy - r * 0.75),
                                                  (cx + side * r * 1.05, cy - r * 0.6), (cx + side * r * 0.8, cy + r * 0.05)])
            pygame.draw.polygon(surface, colour, [(cx, cy), (cx + side * r * 0.7, cy + r * 0.2),
                                                  (cx + side * r * 0.55, cy + r * 0.65), (cx + side * r * 0.15, cy + r * 0.55)])
            pygame.draw.line(surface, colour, (cx, cy - r * 0.5), (cx + side * r * 0.35, cy - r * 1.0), w)
        body = pygame.Rect(0, 0, max(2, round(r * 0.26)), round(r * 1.2))
        body.center = (round(cx), round(cy))
        pygame.draw.ellipse(surface, (60, 40, 70), body)


def draw_face(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, top: TopCard,
              label: bool = True) -> None:
    """A card face up: its number huge (what counts, M5), the creature and its name for action cards and moths."""
    face = KIND_COLOUR.get(top.kind, theme.CARD_FACE)
    shapes.card(surface, rect, face, theme.GOLD if top.kind is not Kind.NUMBER else (90, 90, 90))
    ink = theme.ink_on(face)
    num_box = rect.inflate(-rect.width // 6, -rect.height // 3) if top.kind is not Kind.NUMBER else rect.inflate(
        -rect.width // 8, -rect.height // 8)
    if top.kind is not Kind.NUMBER:
        num_box.y = rect.y + rect.height // 10
        icon_r = rect.width * 0.16
        for cx in (rect.x + rect.width * 0.2, rect.right - rect.width * 0.2):
            draw_kind_icon(surface, top.kind, (cx, rect.y + rect.height * 0.12), icon_r, ink)
    ctx.text.draw(surface, i18n.number(frame.lang, top.number), frame.lang, num_box,
                  TextStyle(round(rect.height * 0.62), ink, bold=True, align=Align.CENTER, max_lines=1, min_px=6))
    if label and top.kind is not Kind.NUMBER:
        band = pygame.Rect(rect.x + rect.width // 12, rect.bottom - rect.height // 4, rect.width - rect.width // 6,
                           rect.height // 5)
        ctx.text.draw(surface, s(frame, f"kind.{top.kind.value}"), frame.lang, band,
                      TextStyle(round(rect.height * 0.12), ink, bold=True, align=Align.CENTER, max_lines=1, min_px=6))


# -------------------------------------------------------------------------------- static layer
_LAYERS = LayerCache()


@dataclass(frozen=True, slots=True)
class Plate:
    """The parts of a seat's plate that change rarely (the layer cache keys on these)."""

    seat: int
    name: str
    colour: str
    symbol: str
    total: int
    away: bool


def plates(seats: Sequence[SeatModel]) -> tuple[Plate, ...]:
    return tuple(Plate(x.seat, x.name, x.colour, x.symbol, x.total, not x.connected and not x.bot) for x in seats)


def static_layer(frame: Frame, ctx: RenderContext, seats: Sequence[SeatModel]) -> pygame.Surface:
    key = (frame.size, frame.lang, plates(seats), ctx.text.serial)
    return _LAYERS.get(key, lambda: _build_layer(frame, ctx, plates(seats)))


def dimmed_layer(frame: Frame, ctx: RenderContext, seats: Sequence[SeatModel]) -> pygame.Surface:
    """The table's static layer, darkened: the backdrop of a full-screen panel (one opaque blit)."""
    key = ("dimmed", frame.size, frame.lang, plates(seats), ctx.text.serial)

    def build() -> pygame.Surface:
        layer = static_layer(frame, ctx, seats).copy()
        layer.fill(DIM, special_flags=pygame.BLEND_RGB_MULT)
        return layer

    return _LAYERS.get(key, build)


def _build_layer(frame: Frame, ctx: RenderContext, items: tuple[Plate, ...]) -> pygame.Surface:
    surf = background(frame, len(items)).copy()
    ml = moth_layout(frame.size, len(items))
    for spot, plate in zip(ml.table.spots, items):
        draw_plate(surf, frame, ctx, spot.plate, plate)
    return surf


def draw_plate(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, plate: Plate) -> None:
    """Symbol in the seat's colour, the name and the penalty points so far."""
    u = frame.scale.u
    colour = theme.seat_colour(plate.seat, plate.colour)
    shapes.panel(surface, rect, theme.PANEL, colour, radius=round(10 * u), width=max(2, round(3 * u)))
    rtl = frame.lang == "fa"
    pad = round(rect.height * 0.1)
    r = rect.height * 0.3
    sym = (rect.right - pad - r, rect.centery) if rtl else (rect.x + pad + r, rect.centery)
    shapes.symbol(surface, plate.symbol, colour, sym, r)
    if plate.away:
        pygame.draw.line(surface, theme.DANGER, (sym[0] - r, sym[1] + r), (sym[0] + r, sym[1] - r), max(2, round(3 * u)))
    text_w = rect.width - round(2 * r) - 3 * pad
    text_x = rect.x + pad if rtl else rect.x + 2 * pad + round(2 * r)
    name_box = pygame.Rect(text_x, rect.y + pad // 2, text_w, round(rect.height * 0.5))
    ctx.text.draw(surface, plate.name or frame.s("seat.name", n=plate.seat + 1), frame.lang, name_box,
                  TextStyle(round(20 * u), theme.TEXT, bold=True, max_lines=1, min_px=7, valign=VAlign.BOTTOM))
    line = pygame.Rect(text_x, name_box.bottom, text_w, rect.bottom - name_box.bottom - pad // 2)
    ctx.text.draw(surface, s(frame, "points", n=plate.total), frame.lang, line,
                  TextStyle(round(17 * u), theme.GOLD, max_lines=1, min_px=7))


# --------------------------------------------------------------------------------- base scenes
@dataclass(frozen=True, slots=True)
class Flight:
    """A card flying across the table (a play onto the discard pile)."""

    seat: int
    top: TopCard
    since: float
    under: TopCard | None  # the top card it lands on (shown until it lands)


class TableScene(Scene):
    """A round in progress: piles, fans with the cheat tell, the Guard Bug, the turn, the races."""

    name = "moth_table"
    BUG_WALK_S = 1.4
    PLAY_S = 0.45

    def __init__(self) -> None:
        super().__init__()
        self._seq: int | None = None
        self._guard: int | None = None
        self._bug_from: int | None = None
        self._bug_since = -99.0
        self._flight: Flight | None = None
        self._top: TopCard | None = None  # the top card as last seen
        self._last_tick = -1

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        view = view_of(frame)
        guard = int_at(view, "guard")
        if self._seq is None:  # a new table shows itself as it is; only a new round's bug still walks (M18)
            self._seq, self._guard = frame.snapshot.event_seq, guard
            for e in events_of(frame.snapshot.events, "guard_passed"):
                if int_at(e, "new") == guard and int_at(e, "old") != guard:
                    self._bug_from, self._bug_since = int_at(e, "old"), self.t + 0.6
        elif frame.snapshot.event_seq != self._seq:
            self._seq = frame.snapshot.event_seq
            self._on_events(frame, ctx, guard)
        self._top = top_card(view)
        self._tick(frame, ctx)

    def _on_events(self, frame: Frame, ctx: RenderContext, guard: int | None) -> None:
        events = frame.snapshot.events
        types = event_types(events)
        for e in events_of(events, "played"):
            kind = kind_of(e.get("kind"))
            if isinstance(e.get("seat"), int) and kind is not None:
                self._flight = Flight(int(e["seat"]), TopCard(kind, int(e.get("number", 0))), self.t, self._top)
                ctx.sound.play(Effect.VOTE_DOWN)
        if "race_started" in types:
            ctx.sound.play(Effect.SHOWDOWN)
        if guard != self._guard:
            self._bug_from, self._guard = self._guard, guard
            delay = ACCUSE_S if "accused" in types else 0.0  # the bug walks after the verdict
            self._bug_since = self.t + delay

    def _tick(self, frame: Frame, ctx: RenderContext) -> None:
        left = frame.timer_left_ms()
        if left is None or not 0 < left <= TICK_FROM_MS or phase(view_of(frame)) is Phase.ROUND_OVER:
            return
        second = left // 1000
        if second != self._last_tick:
            self._last_tick = second
            ctx.sound.play(Effect.TICK)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        ml = moth_layout(frame.size, len(seats))
        surface.blit(static_layer(frame, ctx, seats), (0, 0))
        ph = phase(view)
        self._draw_turn(surface, frame, ml, view, ph)
        draw_piles(surface, frame, ctx, ml, view, self._flight.under if self._flight and self._flight_hidden() else None,
                   self._flight_hidden())
        for seat in seats:
            self._draw_seat_fan(surface, frame, ctx, ml, seat)
        self._draw_flight(surface, frame, ctx, ml)
        self._draw_bug(surface, frame, ml, seats)
        draw_timer_labelled(surface, frame, ctx, ml)
        if ph in RACE_PHASES:
            self._draw_race(surface, frame, ctx, ml, seats, view, ph)
        else:
            draw_caption(surface, frame, ctx, ml.table.caption, status_text(frame, seats, view, ph), theme.TEXT, px=22)
        draw_notices(surface, frame, ctx)

    # parts ---------------------------------------------------------------------------------------
    def _flight_hidden(self) -> bool:
        return self._flight is not None and self.t - self._flight.since < self.PLAY_S

    def _draw_turn(self, surface: pygame.Surface, frame: Frame, ml: MothLayout, view: Mapping[str, Any],
                   ph: Phase | None) -> None:
        u = frame.scale.u
        pulse = 0.5 + 0.5 * math.sin(self.t * 4)
        acting: list[int] = []
        turn = int_at(view, "turn")
        pending = mapping(view, "pending")
        if turn is not None and ph is Phase.PLAY:
            acting = [turn]
        elif ph in GIVE_PHASES:
            giver = pending.get("giver")
            acting = [giver] if isinstance(giver, int) else [g for g in pending.get("givers", []) if isinstance(g, int)]
        for seat in acting:
            if 0 <= seat < len(ml.table.spots):
                rect = plate_of(ml, seat).inflate(round(12 * u), round(12 * u))
                pygame.draw.rect(surface, theme.mix(theme.GOLD, theme.TEXT, pulse), rect, max(2, round(5 * u)),
                                 border_radius=round(14 * u))

    def _draw_seat_fan(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, ml: MothLayout,
                       seat: SeatModel) -> None:
        if seat.seat >= len(ml.table.spots):
            return
        u = frame.scale.u
        centre = fan_centre(ml, seat.seat)
        count = FAN_SHOWN_WHEN_MANY if seat.hand is None else seat.hand
        shake = (0.0, 0.0)
        lift = None
        offset = (0.0, 0.0)
        if seat.tell is Tell.TREMBLE:  # M11 subtle: the fan trembles while the hold lasts
            shake = (math.sin(self.t * 47) * 2.2 * u, math.sin(self.t * 61 + 1) * 1.6 * u)
        elif seat.tell is Tell.SLEEVE and count > 0:  # M11 obvious: a card slides toward the sleeve
            plate = plate_of(ml, seat.seat)
            slide = (self.t * 0.8) % 1.0
            lift = count - 1
            offset = ((plate.centerx - centre[0]) * 0.5 * slide, (plate.centery - centre[1]) * 0.5 * slide)
        draw_fan(surface, centre, count, ml.card, shake, lift, offset)
        label = pygame.Rect(0, 0, round(ml.card[0] * 3.4), round(22 * u))
        label.center = (round(centre[0]), round(centre[1] + ml.card[1] * 0.42))
        surface.blit(shapes.veil(label.size, (*theme.BACKGROUND, 215), round(6 * u)), label.topleft)
        exact = seat.hand is not None and seat.hand <= 3
        ctx.text.draw(surface, hand_text(frame, seat.hand), frame.lang, label.inflate(-round(6 * u), 0),
                      TextStyle(round(16 * u), theme.GOLD if exact else theme.TEXT, bold=exact, align=Align.CENTER,
                                max_lines=1, min_px=7))

    def _draw_flight(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, ml: MothLayout) -> None:
        f = self._flight
        if f is None or f.seat >= len(ml.table.spots):
            return
        p = ease(span(self.t, f.since, self.PLAY_S))
        if p >= 1:
            return
        start = fan_centre(ml, f.seat)
        dest = mirror(ml.discard, frame, ml.table.middle.centerx)
        w = round(ml.card[0] + (dest.width - ml.card[0]) * p)
        h = round(ml.card[1] + (dest.height - ml.card[1]) * p)
        rect = pygame.Rect(0, 0, max(4, w), max(4, h))
        rect.center = (round(start[0] + (dest.centerx - start[0]) * p), round(start[1] + (dest.centery - start[1]) * p))
        draw_face(surface, frame, ctx, rect, f.top, label=False)

    def _draw_bug(self, surface: pygame.Surface, frame: Frame, ml: MothLayout, seats: Sequence[SeatModel]) -> None:
        guard = self._guard
        if guard is None or guard >= len(ml.table.spots):
            return
        end = bug_spot(ml, guard)
        p = span(self.t, self._bug_since, self.BUG_WALK_S)
        walking = self._bug_from is not None and self._bug_from < len(ml.table.spots) and p < 1
        pos = end
        if walking and self._bug_from is not None:
            start = bug_spot(ml, self._bug_from)
            q = ease(p)
            cx, cy = ml.table.centre
            mid = ((start[0] + end[0]) / 2 + (cx - (start[0] + end[0]) / 2) * 0.5,
                   (start[1] + end[1]) / 2 + (cy - (start[1] + end[1]) / 2) * 0.5)
            pos = ((1 - q) ** 2 * start[0] + 2 * (1 - q) * q * mid[0] + q * q * end[0],
                   (1 - q) ** 2 * start[1] + 2 * (1 - q) * q * mid[1] + q * q * end[1])
        r = plate_of(ml, guard).height * (0.34 if walking else 0.28)
        draw_bug(surface, pos, r, self.t, walking)

    def _draw_race(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, ml: MothLayout,
                   seats: Sequence[SeatModel], view: Mapping[str, Any], ph: Phase) -> None:
        u = frame.scale.u
        race = mapping(view, "race")
        player = int_at(race, "player")
        number = int_at(race, "number") or 0
        pulse = 0.5 + 0.5 * math.sin(self.t * 9)
        for seat in race.get("eligible", []) or []:
            if isinstance(seat, int) and 0 <= seat < len(ml.table.spots) and ph is Phase.MOSQUITO_RACE:
                pygame.draw.rect(surface, theme.mix(theme.DANGER, theme.GOLD, pulse),
                                 plate_of(ml, seat).inflate(round(10 * u), round(10 * u)), max(2, round(4 * u)),
                                 border_radius=round(12 * u))
        w, h = frame.size
        band = pygame.Rect(0, 0, round(w * (0.42 + 0.03 * pulse)), round(h * 0.15))
        band.center = (round(ml.table.centre[0]), round(ml.table.middle.y + band.height * 0.2))
        colour = (150, 30, 40) if ph is Phase.MOSQUITO_RACE else (40, 110, 50)
        pygame.draw.rect(surface, colour, band, border_radius=round(18 * u))
        pygame.draw.rect(surface, theme.GOLD, band, max(2, round(4 * u)), border_radius=round(18 * u))
        kind = Kind.MOSQUITO if ph is Phase.MOSQUITO_RACE else Kind.BEETLE
        for side in (-1, 1):
            draw_kind_icon(surface, kind, (band.centerx + side * (band.width / 2 - band.height * 0.5), band.centery),
                           band.height * 0.3, theme.GOLD)
        if ph is Phase.MOSQUITO_RACE:
            title, sub = s(frame, "race.mosquito.title"), s(frame, "race.mosquito.sub", name=seat_name(frame, seats, player))
        else:
            title, sub = s(frame, "race.beetle.title", n=number), s(frame, "race.beetle.sub", n=number)
        ctx.text.draw(surface, title, frame.lang, band.inflate(-round(band.height * 2.2), -round(8 * u)),
                      TextStyle(round(70 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=1, min_px=8))
        draw_caption(surface, frame, ctx, ml.table.caption, sub, theme.GOLD, px=24, border=theme.GOLD)


def bug_spot(ml: MothLayout, seat: int) -> Point:
    """Where the Guard Bug sits at a seat: on the plate's outer top corner."""
    plate = plate_of(ml, seat)
    right_side = plate.centerx > ml.table.centre[0] + plate.width * 0.25
    return (plate.x if right_side else plate.right), plate.y


def draw_piles(surface: pygame.Surface, frame: Frame, ctx: RenderContext, ml: MothLayout, view: Mapping[str, Any],
               under: TopCard | None = None, landing: bool = False) -> None:
    """The discard pile with its top card big (while a card is ``landing``, the one ``under`` it),
    the draw pile with its count, the round."""
    u = frame.scale.u
    cx = ml.table.middle.centerx
    discard = mirror(ml.discard, frame, cx)
    draw = mirror(ml.draw, frame, cx)
    top = top_card(view)
    size = int_at(view, "discard_size") or 0
    for k in range(min(3, max(0, size - 1)), 0, -1):
        below = discard.move(round(k * 3 * u), round(k * 3 * u))
        shapes.card(surface, below, theme.mix(theme.CARD_FACE, theme.BACKGROUND, 0.3), (90, 90, 90))
    shown = under if landing else top
    if shown is not None:
        draw_face(surface, frame, ctx, discard, shown)
    elif top is not None:
        shapes.card(surface, discard, theme.mix(theme.CARD_FACE, theme.BACKGROUND, 0.3), (90, 90, 90))
    draw_n = int_at(view, "draw_size") or 0
    for k in range(min(4, draw_n) - 1, -1, -1):
        shapes.card_back(surface, draw.move(round(k * 2 * u), -round(k * 2 * u)))
    below = pygame.Rect(0, 0, round(draw.width * 2.0), round(24 * u))
    below.midtop = (draw.centerx, draw.bottom + round(6 * u))
    ctx.text.draw(surface, s(frame, "draw_pile", n=draw_n), frame.lang, below, style(17, theme.TEXT, frame, bold=True))
    if top is not None:
        hint = pygame.Rect(0, 0, round(discard.width * 2.0), round(24 * u))
        hint.midtop = (discard.centerx, discard.bottom + round(6 * u))
        a, b = neighbours(top.number)
        ctx.text.draw(surface, s(frame, "top.hint", a=a, b=b), frame.lang, hint, style(17, theme.GOLD, frame, bold=True))
    round_no, rounds = view.get("round"), view.get("rounds")
    if isinstance(round_no, int) and isinstance(rounds, int):
        heading = mirror(ml.heading, frame, frame.size[0] / 2)
        ctx.text.draw(surface, s(frame, "round", round=round_no, rounds=rounds), frame.lang, heading,
                      TextStyle(round(20 * u), theme.TEXT_DIM, bold=True, align=Align.START, max_lines=1, min_px=7))


def beat_caption(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, text: str,
                 colour: theme.Colour, border: theme.Colour) -> None:
    """A beat's caption, covering the table's own caption beneath it."""
    pygame.draw.rect(surface, theme.BACKGROUND, rect, border_radius=round(12 * frame.scale.u))
    draw_caption(surface, frame, ctx, rect, text, colour, px=24, border=border)


def draw_timer_labelled(surface: pygame.Surface, frame: Frame, ctx: RenderContext, ml: MothLayout) -> None:
    timer = frame.snapshot.timer
    if timer is None:
        return
    centre = ml.timer if frame.lang != "fa" else (2 * ml.table.middle.centerx - ml.timer[0], ml.timer[1])
    draw_timer(surface, frame, ctx, centre, ml.timer_r)
    key = f"timer.{timer.label}"
    if timer.label and i18n.has(frame.lang, DOMAIN, key):
        under = pygame.Rect(0, 0, round(ml.timer_r * 3.0), round(22 * frame.scale.u))
        under.midtop = (round(centre[0]), round(centre[1] + ml.timer_r + 4 * frame.scale.u))
        ctx.text.draw(surface, s(frame, key), frame.lang, under, style(15, theme.TEXT_DIM, frame))


def status_text(frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any], ph: Phase | None) -> str:
    """The caption: whose turn and what they may play, or who gives to whom."""
    pending = mapping(view, "pending")
    if ph is Phase.SPIDER_GIVE:
        return s(frame, "phase.spider_give", name=seat_name(frame, seats, int_at(pending, "giver")))
    if ph is Phase.MOSQUITO_GIVE:
        left = len([g for g in pending.get("givers", []) if isinstance(g, int)])
        return s(frame, "phase.mosquito_give", name=seat_name(frame, seats, int_at(pending, "receiver")), left=left)
    if ph is Phase.PENALTY_GIVE:
        return s(frame, "phase.penalty_give", giver=seat_name(frame, seats, int_at(pending, "giver")),
                 receiver=seat_name(frame, seats, int_at(pending, "receiver")))
    top = top_card(view)
    a, b = neighbours(top.number) if top else (0, 0)
    turn = view.get("turn")
    return s(frame, "turn", name=seat_name(frame, seats, turn if isinstance(turn, int) else None), a=a, b=b)


class RoundOverScene(Scene):
    """The round's end (M17): who went out, every seat's penalty points this round and in total."""

    name = "moth_round_over"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        w, h = frame.size
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        score = round_from(view)
        surface.fill(theme.BACKGROUND)
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.1))
        ctx.text.draw(surface, s(frame, "round.title", round=score.round if score else 0), frame.lang, title,
                      style(44, theme.GOLD, frame, bold=True))
        if score is None:
            return
        story = pygame.Rect(round(w * 0.1), title.bottom, round(w * 0.8), round(h * 0.09))
        draw_caption(surface, frame, ctx, story, s(frame, "round.out", name=seat_name(frame, seats, score.out)),
                     theme.TEXT, px=28)
        rule = pygame.Rect(round(w * 0.08), story.bottom + round(h * 0.01), round(w * 0.84), round(h * 0.06))
        ctx.text.draw(surface, s(frame, "round.rule"), frame.lang, rule, style(19, theme.TEXT_DIM, frame))
        area = pygame.Rect(round(w * 0.12), rule.bottom + round(h * 0.02), round(w * 0.76), round(h * 0.6))
        p = ease(span(self.t, 0.4, 1.4))
        self._draw_rows(surface, frame, ctx, area, seats, score, p)
        left = frame.timer_left_ms()
        if left is not None:
            hint = pygame.Rect(0, round(h * 0.93), w, round(h * 0.05))
            ctx.text.draw(surface, s(frame, "round.next", n=math.ceil(left / 1000)), frame.lang, hint,
                          style(20, theme.ACCENT, frame))

    @staticmethod
    def _draw_rows(surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect,
                   seats: Sequence[SeatModel], score: RoundScore, p: float) -> None:
        u = frame.scale.u
        n = len(seats)
        cell_h = min(area.height // max(1, n), round(62 * u))
        area = area.move(0, (area.height - cell_h * n) // 3)  # a short list sits higher than centre
        rtl = frame.lang == "fa"
        for i, seat in enumerate(seats):
            rect = pygame.Rect(area.x, area.y + i * cell_h + 2, area.width, cell_h - 4)
            out = seat.seat == score.out
            colour = theme.seat_colour(seat.seat, seat.colour)
            shapes.panel(surface, rect, theme.PANEL_LIGHT if out else theme.PANEL, theme.GOLD if out else colour,
                         radius=round(8 * u), width=max(1, round(2 * u)))
            r = rect.height * 0.32
            sym = (rect.right - rect.height * 0.5, rect.centery) if rtl else (rect.x + rect.height * 0.5, rect.centery)
            shapes.symbol(surface, seat.symbol, colour, sym, r)
            cols = row_columns(rect.inflate(-round(rect.height * 2.2), 0), frame, (0.36, 0.2, 0.22, 0.22))
            points = score.points[i] if i < len(score.points) else 0
            moths = score.moths[i] if i < len(score.moths) else 0
            total = score.totals[i] if i < len(score.totals) else seat.total
            shown = round(points * p)
            cells = (
                (seat_name(frame, seats, seat.seat), theme.TEXT, True),
                (s(frame, "round.moths", n=moths) if moths else "", theme.DANGER, False),
                (s(frame, "round.gained", n=shown), theme.GOLD if points else theme.GOOD, True),
                (s(frame, "points", n=total - points + shown), theme.TEXT, False),
            )
            for box, (text, ink, bold) in zip(cols, cells):
                if text:
                    ctx.text.draw(surface, text, frame.lang, box.inflate(-round(6 * u), -round(6 * u)),
                                  TextStyle(round(21 * u), ink, bold=bold, max_lines=1, min_px=7, align=Align.START))


def row_columns(rect: pygame.Rect, frame: Frame, weights: Sequence[float]) -> list[pygame.Rect]:
    """Columns across a row in reading order (right to left in Persian)."""
    total = sum(weights)
    out: list[pygame.Rect] = []
    x = rect.x
    for wgt in weights:
        width = round(rect.width * wgt / total)
        out.append(pygame.Rect(x, rect.y, width, rect.height))
        x += width
    if frame.lang == "fa":
        out = [pygame.Rect(rect.x + rect.right - c.right, c.y, c.width, c.height) for c in out]
    return out


class GameOverScene(FinalScene):
    """The final table (M19): lowest total first, moths as the tie-break, the winners in gold."""

    name = "moth_game_over"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        w, h = frame.size
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        ranking = ranking_from(view)
        winners = [r.seat for r in ranking if r.rank == 1]
        surface.fill(theme.BACKGROUND)
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.08))
        ctx.text.draw(surface, s(frame, "over.title"), frame.lang, title, style(38, theme.TEXT_DIM, frame, bold=True))
        glow = 0.5 + 0.5 * math.sin(self.t * 3)
        r = h * 0.07
        for k, seat in enumerate(winners[:4]):
            c = (w / 2 + (k - (len(winners[:4]) - 1) / 2) * r * 3, title.bottom + r * 1.3)
            pygame.draw.circle(surface, theme.mix(theme.BACKGROUND, theme.GOLD, 0.25 + 0.2 * glow), c, r * 1.35)
            if seat < len(seats):
                shapes.symbol(surface, seats[seat].symbol, theme.seat_colour(seat, seats[seat].colour), c, r)
        line = pygame.Rect(round(w * 0.08), round(title.bottom + r * 2.9), round(w * 0.84), round(h * 0.08))
        if len(winners) == 1:
            total = next((x.total for x in ranking if x.seat == winners[0]), 0)
            text = s(frame, "over.wins", name=seat_name(frame, seats, winners[0]), n=total)
        else:
            text = s(frame, "over.shared", names=names(frame, seats, winners))
        ctx.text.draw(surface, text, frame.lang, line, style(38, theme.GOLD, frame, bold=True))
        rule = pygame.Rect(round(w * 0.1), line.bottom, round(w * 0.8), round(h * 0.05))
        ctx.text.draw(surface, s(frame, "over.rule"), frame.lang, rule, style(18, theme.TEXT_DIM, frame))
        self._draw_ranking(surface, frame, ctx, seats, ranking,
                           pygame.Rect(round(w * 0.15), rule.bottom + round(h * 0.02), round(w * 0.7), round(h * 0.42)))
        hint = pygame.Rect(0, round(h * 0.93), w, round(h * 0.05))
        ctx.text.draw(surface, s(frame, "over.next"), frame.lang, hint, style(20, theme.ACCENT, frame))

    @staticmethod
    def _draw_ranking(surface: pygame.Surface, frame: Frame, ctx: RenderContext, seats: Sequence[SeatModel],
                      ranking: Sequence[Rank], area: pygame.Rect) -> None:
        u = frame.scale.u
        cell_h = min(area.height // max(1, len(ranking)), round(56 * u))
        rtl = frame.lang == "fa"
        for k, r in enumerate(ranking):
            rect = pygame.Rect(area.x, area.y + k * cell_h + 2, area.width, cell_h - 4)
            win = r.rank == 1
            colour = theme.seat_colour(r.seat, seats[r.seat].colour if r.seat < len(seats) else None)
            shapes.panel(surface, rect, theme.PANEL_LIGHT if win else theme.PANEL, theme.GOLD if win else colour,
                         radius=round(8 * u), width=max(1, round(2 * u)))
            rank_box = pygame.Rect(0, rect.y, round(rect.height * 1.1), rect.height)
            sym_c = (rect.x + rect.height * 1.5, rect.centery)
            text_box = pygame.Rect(rect.x + round(rect.height * 2.1), rect.y, rect.width - round(rect.height * 2.3), rect.height)
            if rtl:
                rank_box.right = rect.right
                sym_c = (rect.right - rect.height * 1.5, rect.centery)
                text_box.right = rect.right - round(rect.height * 2.1)
            else:
                rank_box.x = rect.x
            ctx.text.draw(surface, i18n.number(frame.lang, r.rank), frame.lang, rank_box.inflate(-4, -4),
                          TextStyle(round(24 * u), theme.GOLD if win else theme.TEXT_DIM, bold=True, align=Align.CENTER,
                                    max_lines=1, min_px=7))
            if r.seat < len(seats):
                shapes.symbol(surface, seats[r.seat].symbol, colour, sym_c, rect.height * 0.3)
            line = s(frame, "over.row", name=seat_name(frame, seats, r.seat), points=r.total, moths=r.moths)
            ctx.text.draw(surface, line, frame.lang, text_box,
                          TextStyle(round(21 * u), theme.GOLD if win else theme.TEXT, bold=win, max_lines=1, min_px=7))


# ---------------------------------------------------------------------------------------- beats
class AccusationBeat(Scene):
    """The guard points at a player: an arrow, then CAUGHT! or WRONG! and what follows (M10)."""

    name = "moth_accusation"
    overlay = True
    duration_s = ACCUSE_S

    def __init__(self, accusation: Accusation, seats: tuple[SeatModel, ...]) -> None:
        super().__init__()
        self.accusation = accusation
        self.seats = seats
        self._sounded = False

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if not self._sounded and self.t >= 0.7:
            self._sounded = True
            ctx.sound.play(Effect.AMBUSH if self.accusation.caught else Effect.DEATH)

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

    def __init__(self, moves: tuple[Move, ...], caption: str, seats: tuple[SeatModel, ...]) -> None:
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
            ctx.sound.play(Effect.VOTE_DOWN)

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

    def __init__(self, race: RaceResult, seats: tuple[SeatModel, ...]) -> None:
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
        if r.kind is Kind.MOSQUITO:
            head = s(frame, "result.mosquito")
        else:
            head = s(frame, "result.beetle", n=r.number) if r.number is not None else s(frame, "result.beetle_plain")
        ctx.text.draw(surface, head, frame.lang, title, style(36, theme.GOLD, frame, bold=True))
        for side in (-1, 1):
            draw_kind_icon(surface, r.kind, (title.centerx + side * panel.width * 0.4, title.centery), title.height * 0.3,
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
        if self.t >= self.ROW_S * len(r.order) + 0.3:
            draw_caption(surface, frame, ctx, verdict, self._verdict(frame), theme.GOLD, px=26, border=theme.GOLD)

    def _draw_rows(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, area: pygame.Rect) -> None:
        u = frame.scale.u
        r = self.race
        n = max(1, len(r.order))
        cell_h = min(area.height // n, round(64 * u))
        for k, seat in enumerate(r.order):
            if self.t < k * self.ROW_S:
                break
            rect = pygame.Rect(area.x, area.y + k * cell_h + 2, area.width, cell_h - 4)
            key = seat == r.slowest or seat == r.winner
            colour = theme.seat_colour(seat, self.seats[seat].colour if seat < len(self.seats) else None)
            shapes.panel(surface, rect, theme.PANEL_LIGHT if key else theme.PANEL,
                         theme.DANGER if seat == r.slowest else theme.GOLD if key else colour,
                         radius=round(8 * u), width=max(1, round((4 if key else 2) * u)))
            cols = row_columns(rect, frame, (0.08, 0.09, 0.31, 0.17, 0.17, 0.18))
            shapes.symbol(surface, self.seats[seat].symbol if seat < len(self.seats) else "circle", colour,
                          cols[1].center, rect.height * 0.3)
            time = r.times_ms[k] if k < len(r.times_ms) else 0
            margin = r.margins_ms[k] if k < len(r.margins_ms) else 0
            source = r.sources[k] if k < len(r.sources) else None
            cells = (
                (i18n.number(frame.lang, k + 1), theme.GOLD, Align.CENTER),
                (seat_name(frame, self.seats, seat), theme.TEXT, Align.START),
                (s(frame, "result.ms", n=time), theme.TEXT, Align.END),
                (s(frame, "result.margin", n=margin) if k else "", theme.DANGER if r.too_close(k) else theme.TEXT_DIM,
                 Align.END),
                (s(frame, f"source.{source.value}") if source else "", theme.ACCENT, Align.CENTER),
            )
            for box, (text, ink, align) in zip((cols[0], cols[2], cols[3], cols[4], cols[5]), cells):
                if text:
                    ctx.text.draw(surface, text, frame.lang, box.inflate(-round(8 * u), -round(8 * u)),
                                  TextStyle(round(22 * u), ink, bold=align is Align.CENTER, align=align, max_lines=1,
                                            min_px=7))

    def _notes(self, frame: Frame) -> list[tuple[str, theme.Colour]]:
        r = self.race
        out: list[tuple[str, theme.Colour]] = []
        if r.order:
            out.append((s(frame, "result.error", n=_ms(r.error_bound_ms)), theme.TEXT_DIM))
        if r.close:
            out.append((s(frame, "result.close"), theme.DANGER))
        if r.by_rng:
            out.append((s(frame, "result.by_rng"), theme.DANGER))
        if r.no_press and r.kind is Kind.MOSQUITO:
            out.append((s(frame, "result.no_press", names=names(frame, self.seats, r.no_press)), theme.TEXT))
        if r.void:
            out.append((s(frame, "result.void", names=names(frame, self.seats, r.void)), theme.TEXT))
        for seat, early in r.false_starts[:2]:
            out.append((s(frame, "result.false_start", name=seat_name(frame, self.seats, seat), n=_ms(early)), theme.DANGER))
        return out[:4]

    def _verdict(self, frame: Frame) -> str:
        r = self.race
        if r.kind is Kind.MOSQUITO:
            return s(frame, "result.slowest", name=seat_name(frame, self.seats, r.slowest))
        if r.winner is None:
            return s(frame, "result.nobody")
        return s(frame, "result.winner", name=seat_name(frame, self.seats, r.winner))


def _ms(value: float) -> int | str:
    """Whole milliseconds, or one decimal under 10 ms (arcade presses are that precise)."""
    return round(value) if value >= 10 or value == round(value) else f"{value:.1f}"


# ---------------------------------------------------------------------------------------- rules
def choose_base(snapshot: TableSnapshot) -> Scene:
    ph = phase(snapshot.public_view)
    if ph is Phase.ROUND_OVER:
        return RoundOverScene()
    if ph is Phase.GAME_OVER:
        return GameOverScene()
    return TableScene()


def _gives(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, str]]:
    return [(int(e["giver"]), int(e["receiver"]), str(e.get("cause", ""))) for e in events_of(events, "card_given")
            if isinstance(e.get("giver"), int) and isinstance(e.get("receiver"), int)]


def race_number(race_id: int, events: Sequence[Mapping[str, Any]], previous: TableSnapshot | None) -> int | None:
    """The raced number: the decided event does not carry it, the race (still in the view before) does."""
    for e in events_of(events, "race_started"):
        if e.get("race") == race_id and isinstance(e.get("number"), int):
            return int(e["number"])
    before = (previous.public_view or {}).get("race") if previous is not None and previous.public_view else None
    if isinstance(before, Mapping) and before.get("id") == race_id and isinstance(before.get("number"), int):
        return int(before["number"])
    return None


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The beats one batch of events calls for, in order."""
    view = snapshot.public_view or {}
    events = snapshot.events
    seats = seat_models(snapshot)
    lang = snapshot.language if snapshot.language in i18n.LANGUAGES else i18n.FALLBACK

    def t(key: str, **values: Any) -> str:
        return i18n.text(lang, DOMAIN, key, **values)

    def nm(seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(seats):
            return "?"
        return seats[seat].name or i18n.text(lang, "screen", "seat.name", n=seat + 1)

    out: list[Scene] = []
    race = race_from(view.get("last_race"), snapshot.extras.get(OUTCOME_KEY))
    if race is not None and events_of(events, "race_decided"):
        out.append(RaceResultBeat(dataclasses.replace(race, number=race_number(race.race, events, previous)), seats))
    if phase(view) in (Phase.ROUND_OVER, Phase.GAME_OVER):
        return out  # the round's summary tells the rest; table beats would play over it
    for e in events_of(events, "accused"):
        acc = accusation_from(e)
        if acc is not None:
            out.append(AccusationBeat(acc, seats))
            if not acc.caught:
                out.append(FlightBeat((Move(None, acc.guard),), t("accuse.wrong_story", guard=nm(acc.guard),
                                                                    target=nm(acc.target)), seats))
    for e in events_of(events, "effect"):
        seat = e.get("seat") if isinstance(e.get("seat"), int) else None
        if e.get("kind") == "ant":
            drew = tuple(Move(None, int(d["seat"])) for d in events_of(events, "drew")
                         if d.get("cause") == "M12" and isinstance(d.get("seat"), int) and d.get("count"))
            out.append(FlightBeat(drew, t("effect.ant", name=nm(seat)), seats))
        elif e.get("kind") == "spider" and e.get("outcome") == "no_card_to_give":
            out.append(FlightBeat((), t("effect.spider_none", name=nm(seat)), seats))
    gives = _gives(events)
    if gives:
        receivers = {r for _, r, _ in gives}
        if len(gives) == 1:
            caption = t("give.one", giver=nm(gives[0][0]), receiver=nm(gives[0][1]))
        elif len(receivers) == 1:
            lang_names = [nm(g) for g, _, _ in gives]
            joined = i18n.text(lang, "screen", "list.sep").join(lang_names[:-1]) + i18n.text(lang, "screen", "list.last") + lang_names[-1]
            caption = t("give.many", names=joined, receiver=nm(gives[0][1]))
        else:
            caption = i18n.text(lang, "screen", "sep").join(t("give.one", giver=nm(g), receiver=nm(r)) for g, r, _ in gives)
        out.append(FlightBeat(tuple(Move(g, r) for g, r, _ in gives), caption, seats))
    for e in events_of(events, "guard_passed"):
        if e.get("cause") == "M18":  # a new round: the bug goes to the next first guard (the table shows it walk)
            out.append(FlightBeat((), t("bug.passed", name=nm(int_at(e, "new"))), seats))
    for e in events_of(events, "give_skipped"):
        out.append(FlightBeat((), t("give.skipped", giver=nm(e.get("giver") if isinstance(e.get("giver"), int) else None)),
                              seats))
    return out
