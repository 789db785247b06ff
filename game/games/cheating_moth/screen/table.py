"""Cheating Moth's table: the discard pile and its top number, the draw pile, every seat's fan
(exact count only at 3 or fewer, M11) with the cheat tell, the Guard Bug walking to its new guard,
whose turn it is, the races; and the round's penalty points (M17). Strings:
``game/i18n/screen_cheating_moth_<lang>.json``."""
from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game import i18n
from game.games.cheating_moth.screen.model import (
    GIVE_PHASES,
    RACE_PHASES,
    Kind,
    Phase,
    RoundScore,
    Seat,
    Tell,
    TopCard,
    event_types,
    events_of,
    int_at,
    kind_of,
    mapping,
    phase,
    round_from,
    seat_models,
    top_card,
)
from game.render.kit import shapes, theme
from game.render.kit.hud import Ticker, draw_caption, draw_notices, draw_timer
from game.render.kit.motion import ease, span
from game.render.kit.plates import Plate, PlateLook, plates_layer
from game.render.kit.scene import Frame, RenderContext, Scene, view_of
from game.render.kit.seats import look, seat_name
from game.render.kit.sound import Effect
from game.render.kit.table import LayerCache, Point, TableLayout, table_layout
from game.render.kit.text import Align, TextStyle
from game.render.kit.widgets import readable_px

DOMAIN = "screen_cheating_moth"
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
_DIMMED = LayerCache()


def plates(frame: Frame, seats: Sequence[Seat]) -> tuple[Plate, ...]:
    """Each seat's look and penalty points so far: the parts of a plate that change rarely."""
    return tuple((look(x), PlateLook(s(frame, "points", n=x.total))) for x in seats)


def static_layer(frame: Frame, ctx: RenderContext, seats: Sequence[Seat]) -> pygame.Surface:
    return plates_layer(frame, ctx, plates(frame, seats))


def dimmed_layer(frame: Frame, ctx: RenderContext, seats: Sequence[Seat]) -> pygame.Surface:
    """The table's static layer, darkened: the backdrop of a full-screen panel (one opaque blit)."""
    key = (frame.size, frame.lang, plates(frame, seats), ctx.text.serial)

    def build() -> pygame.Surface:
        layer = static_layer(frame, ctx, seats).copy()
        layer.fill(DIM, special_flags=pygame.BLEND_RGB_MULT)
        return layer

    return _DIMMED.get(key, build)




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
        self._ticker = Ticker(TICK_FROM_MS)

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
                ctx.sound.play(Effect.PLACE)
        if "race_started" in types:
            ctx.sound.play(Effect.SUSPENSE)
        if guard != self._guard:
            self._bug_from, self._guard = self._guard, guard
            delay = ACCUSE_S if "accused" in types else 0.0  # the bug walks after the verdict
            self._bug_since = self.t + delay

    def _tick(self, frame: Frame, ctx: RenderContext) -> None:
        self._ticker.update(frame, ctx, active=phase(view_of(frame)) is not Phase.ROUND_OVER)

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
                       seat: Seat) -> None:
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

    def _draw_bug(self, surface: pygame.Surface, frame: Frame, ml: MothLayout, seats: Sequence[Seat]) -> None:
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
                   seats: Sequence[Seat], view: Mapping[str, Any], ph: Phase) -> None:
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
        px = readable_px(frame.scale.u)  # "race", "giving": read from across the room
        under = pygame.Rect(0, 0, round(ml.timer_r * 3.0), ctx.text.line_height(frame.lang, px))
        under.midtop = (round(centre[0]), round(centre[1] + ml.timer_r + 4 * frame.scale.u))
        ctx.text.draw(surface, s(frame, key), frame.lang, under,
                      TextStyle(px, theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=px))


def status_text(frame: Frame, seats: Sequence[Seat], view: Mapping[str, Any], ph: Phase | None) -> str:
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
                   seats: Sequence[Seat], score: RoundScore, p: float) -> None:
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
