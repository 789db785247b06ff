"""Speakeasy's table: the clue on a big card in its own language, the host and the timer under it,
who has pointed, and in ``reveal`` the arrows, the subject and what it meant, until the next clue.
Also the drawing the reveal beats reuse (plates, identity tabs, arrows, point tokens)."""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import pygame

from game import i18n
from game.games.speakeasy.screen.model import (
    Clue,
    ClueResult,
    Identity,
    Outcome,
    Phase,
    Seat,
    clue_from,
    clue_language,
    phase,
    pointed,
    pointers,
    result_from,
    seat_models,
)
from game.render.kit import shapes, theme
from game.render.kit.hud import URGENT_MS, Ticker, draw_badge, draw_caption, draw_notices, draw_timer, fit_caption
from game.render.kit.motion import ease, edge_point, span
from game.render.kit.plates import PlateLook, plate_surface, plates_layer
from game.render.kit.route import draw_seat_arrow, seat_route
from game.render.kit.scene import Frame, RenderContext, Scene, scratch_surface, view_of
from game.render.kit.seats import look, names, seat_name
from game.render.kit.sound import Effect
from game.render.kit.table import TableLayout, background, clear_middle, table_layout
from game.render.kit.text import Align, TextStyle

DOMAIN = "screen_speakeasy"
REVEAL_TIMER = "speakeasy_reveal"  # the pause after a reveal: no hurry, no ticking
INK = (30, 28, 36)  # text on the cream clue card
IDENTITY_COLOURS: dict[Identity, theme.Colour] = {Identity.INFORMANT: (196, 52, 60), Identity.CITIZEN: (52, 120, 196)}


# ------------------------------------------------------------------------------------- helpers
def say(frame: Frame, key: str, **values: Any) -> str:
    """A Speakeasy screen string in the table's language."""
    return i18n.text(frame.lang, DOMAIN, key, **values)


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


@lru_cache(maxsize=32)
def stage(size: tuple[int, int], n: int) -> Stage:
    lay = table_layout(size, n)
    mid = clear_middle(lay, size)
    header = pygame.Rect(mid.x, mid.y, mid.width, round(mid.height * 0.14))
    card = pygame.Rect(mid.x, header.bottom, mid.width, round(mid.height * 0.62))
    footer = pygame.Rect(mid.x, card.bottom, mid.width, mid.bottom - card.bottom)
    return Stage(lay, mid, header, card.inflate(-round(mid.height * 0.03), -round(mid.height * 0.03)), footer)


# -------------------------------------------------------------------------------------- plates
def plate_look(frame: Frame, seat: Seat, is_host: bool, highlight: bool) -> PlateLook:
    """A Speakeasy plate: the score; the clue's host in a lighter plate with a gold ring."""
    ring = theme.GOLD if is_host else theme.ACCENT if highlight else None
    return PlateLook(say(frame, "score", n=seat.score), fill=theme.PANEL_LIGHT if is_host else theme.PANEL,
                     bold_border=highlight, ring=ring)


def static_layer(frame: Frame, ctx: RenderContext, seats: tuple[Seat, ...], host: int | None,
                 highlight: frozenset[int] = frozenset()) -> pygame.Surface:
    """Room, felt and every seat plate; rebuilt only when one of them changes (keyed on the seats'
    looks: the count of right pointers, not on a plate, changes with the votes before the reveal
    shows its first frame)."""
    return plates_layer(frame, ctx, tuple((look(s), plate_look(frame, s, s.seat == host, s.seat in highlight))
                                          for s in seats))




def draw_identity_tabs(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout,
                       seats: Sequence[Seat]) -> None:
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


def loop_box(centre: tuple[float, float], r: float) -> pygame.Rect:
    """The room a self-point's round arrow of radius ``r`` takes, with its head."""
    box = pygame.Rect(0, 0, round(2.4 * r), round(2.4 * r))
    box.center = (round(centre[0]), round(centre[1]))
    return box


def self_loop_centre(lay: TableLayout, seat: int, r: float, keep_clear: pygame.Rect | None,
                     screen: tuple[int, int]) -> tuple[float, float]:
    """Where a self-point's round arrow goes: just inside the plate, towards the table's centre,
    unless that would cross ``keep_clear`` (the clue card: its first words must stay readable,
    e.g. where a Persian clue starts at the right edge, nor its counter and host line); then above,
    below or beside the plate, the first place that stays clear and on the screen."""
    plate = lay.spots[seat].plate
    ix, iy = lay.spots[seat].inward
    edge = edge_point(plate, lay.centre)
    inward = (edge[0] + ix * r * 1.3, edge[1] + iy * r * 1.3)
    above = (float(plate.centerx), plate.top - r * 1.15)
    below = (float(plate.centerx), plate.bottom + r * 1.15)
    left = (plate.left - r * 1.15, float(plate.centery))
    right = (plate.right + r * 1.15, float(plate.centery))
    # a full table's top seat has little room: snug against the plate's sides, over its corners
    snug = [(plate.left - r * 0.9, float(plate.centery)), (plate.right + r * 0.9, float(plate.centery)),
            (plate.left - r * 0.7, plate.top - r * 0.4), (plate.right + r * 0.7, plate.top - r * 0.4)]
    screen_rect = pygame.Rect(0, 0, *screen)
    others = [s.plate for k, s in enumerate(lay.spots) if k != seat]
    for c in (inward, above, below, left, right, *snug):
        box = loop_box(c, r)
        clear = keep_clear is None or not box.colliderect(keep_clear)
        if clear and screen_rect.contains(box) and box.collidelist(others) < 0:
            return c
    return inward


def draw_pointing(surface: pygame.Surface, frame: Frame, lay: TableLayout, seats: Sequence[Seat],
                  pointing: Sequence[int | None], progress: float, keep_clear: pygame.Rect | None = None,
                  keep_out: Sequence[pygame.Rect] = ()) -> None:
    """An arrow from each pointer to whom they pointed at, in the pointer's colour, round
    ``keep_out`` (the clue card and its words); a self-point's round arrow keeps off ``keep_clear``
    (the clue card)."""
    if progress <= 0:
        return
    u = frame.scale.u
    plan = _Arrows.of(lay, pointing, keep_clear, surface.get_size())
    for src, dst in plan.arrows:
        colour = theme.seat_colour(src, seats[src].colour if src < len(seats) else None)
        if src in plan.loops:
            r = lay.spots[src].plate.height * 0.4
            loop_arrow(surface, plan.loops[src], r, (10, 10, 14), max(4, round(8 * u)), progress)
            loop_arrow(surface, plan.loops[src], r, colour, max(3, round(5 * u)), progress)
            continue
        # side: two seats pointing at each other get two arrows side by side
        draw_seat_arrow(surface, lay.spots[src].plate, lay.spots[dst].plate, keep_out, colour, u, progress, side=7 * u,
                        plates=plan.avoid, rather_not=(lay.caption,))


def route_pointing(frame: Frame, lay: TableLayout, pointing: Sequence[int | None], keep_clear: pygame.Rect | None = None,
                   keep_out: Sequence[pygame.Rect] = ()) -> Iterator[None]:
    """Route each arrow :func:`draw_pointing` will draw with these arguments, one a step: the
    routes are cached, so a beat that does this in the frames before its arrows show spares the
    frame they first show in (a full table's first routing of six arrows took 22 ms)."""
    plan = _Arrows.of(lay, pointing, keep_clear, frame.size)
    for src, dst in plan.arrows:
        if src not in plan.loops:
            seat_route(frame.size, lay.spots[src].plate, lay.spots[dst].plate, keep_out, frame.scale.u,
                       side=7 * frame.scale.u, plates=plan.avoid, rather_not=(lay.caption,))
            yield


@dataclass(frozen=True, slots=True)
class _Arrows:
    """Who points at whom (self-points too), where the self-points' loops go, and what the
    arrows go round where they can: the other plates and the loops."""

    arrows: list[tuple[int, int]]
    loops: dict[int, tuple[float, float]]
    avoid: list[pygame.Rect]

    @staticmethod
    def of(lay: TableLayout, pointing: Sequence[int | None], keep_clear: pygame.Rect | None,
           size: tuple[int, int]) -> _Arrows:
        n = len(lay.spots)
        arrows = [(src, dst) for src, dst in enumerate(pointing[:n]) if dst is not None and 0 <= dst < n]
        loops = {src: self_loop_centre(lay, src, lay.spots[src].plate.height * 0.4, keep_clear, size)
                 for src, dst in arrows if src == dst}
        avoid = [s.plate for s in lay.spots] + [loop_box(c, lay.spots[src].plate.height * 0.4) for src, c in loops.items()]
        return _Arrows(arrows, loops, avoid)



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


def draw_host_and_timer(surface: pygame.Surface, frame: Frame, ctx: RenderContext, st: Stage, seats: Sequence[Seat],
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
    urgent = left <= URGENT_MS and timer.label != REVEAL_TIMER
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


def result_sentence(frame: Frame, seats: Sequence[Seat], r: ClueResult) -> str:
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


def subject_sentence(frame: Frame, seats: Sequence[Seat], r: ClueResult) -> str:
    key = "reveal.subject_random" if r.subject_by_timeout else "reveal.subject"
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
        self._ticker = Ticker()

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
                ctx.sound.play(Effect.PLACE)
        for seat in set(self._pointed_since) - now:
            del self._pointed_since[seat]

    def _tick(self, frame: Frame, ctx: RenderContext) -> None:
        """A tick a second in the last seconds of a timer someone must beat (not the reveal's pause)."""
        timer = frame.snapshot.timer
        self._ticker.update(frame, ctx, active=timer is not None and timer.label != REVEAL_TIMER)

    def warm_key(self, frame: Frame) -> tuple:
        """The pictures to warm are the seats' plates, the host's ring, the clue's card and, in
        ``reveal``, its arrows."""
        view = view_of(frame)
        return seat_models(frame.snapshot), host_of(view), clue_from(view), phase(view)

    def warm_tasks(self, frame: Frame, ctx: RenderContext) -> Iterator[None]:
        """This table's picture made a piece a step (:func:`table_warm_tasks`), then drawn once off
        screen: a TV started mid-game shows it, and the reveal's first frame (the same plates and
        clue) follows, with nothing left to make (it made all of it in one 40 ms frame)."""
        yield from table_warm_tasks(frame, ctx)
        view = view_of(frame)
        ph = phase(view)
        if ph is not Phase.REVEAL:
            seats = seat_models(frame.snapshot)
            fit_caption(frame, ctx, stage(frame.size, len(seats)).lay.caption, self._status(frame, seats, view, ph),
                        px=STATUS_PX)
            yield
        self.draw(pygame.Surface(frame.size), frame, ctx)  # the rest: badges, identity tabs (small)
        yield

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
            draw_badge(surface, frame, ctx, st.lay, host, say(frame, "badge.host"), theme.GOLD,
                       () if result is None else (result.subject,))
        if result is not None:
            draw_spotlight(surface, frame, st.lay, result.subject, self.t)
            draw_pointing(surface, frame, st.lay, seats, result.pointing, 1.0, keep_clear=st.middle, keep_out=(st.middle,))
            if result.subject is not None and result.subject < len(st.lay.spots):
                draw_badge(surface, frame, ctx, st.lay, result.subject, say(frame, "badge.subject"), theme.GOLD, (host,))
            draw_caption(surface, frame, ctx, st.lay.caption, reveal_caption(frame, seats, result, view), theme.TEXT,
                         px=REVEAL_CAPTION_PX)
        else:
            draw_pointed_marks(surface, frame, st.lay, pointers(view) if ph is Phase.POINTING else (),
                               self._pointed_since, self.t)
            draw_caption(surface, frame, ctx, st.lay.caption, self._status(frame, seats, view, ph), theme.TEXT,
                         px=STATUS_PX)
        draw_identity_tabs(surface, frame, ctx, st.lay, seats)
        draw_notices(surface, frame, ctx)

    @staticmethod
    def _status(frame: Frame, seats: Sequence[Seat], view: Mapping[str, Any], ph: Phase | None) -> str:
        if ph is Phase.POINTING:
            done, total = len(pointed(view)), len(pointers(view))
            return say(frame, "pointing.all") if total and done >= total else say(frame, "pointing", n=done, m=total)
        return say(frame, "choosing", name=seat_name(frame, seats, host_of(view)))


STATUS_PX = 22  # the table's caption before a reveal: who is choosing, who has pointed
REVEAL_CAPTION_PX = 22  # the table's caption after a reveal (the beat's own is larger)
BEAT_CAPTION_PX = 24  # the reveal beat's caption


def table_warm_tasks(frame: Frame, ctx: RenderContext) -> Iterator[None]:
    """The table's pictures for this snapshot, one a step (at 1080p none over 14 ms, most 1 or 2 ms):
    the room, each seat's plate, the plates' layer, the clue card, the host and timer, the arrows
    after a reveal and the captions: the table's own and the reveal beat's title, known before the
    votes."""
    scratch = scratch_surface()
    view = view_of(frame)
    seats, host = seat_models(frame.snapshot), host_of(view)
    st = stage(frame.size, len(seats))
    background(frame, len(seats))
    yield
    for spot, seat in zip(st.lay.spots, seats):
        plate_surface(frame, ctx, spot.plate.size, look(seat), plate_look(frame, seat, seat.seat == host, False))
        yield
    static_layer(frame, ctx, seats, host)
    yield
    draw_clue(scratch, frame, ctx, st, clue_from(view), int(view.get("clues_left", 0) or 0))
    yield
    draw_host_and_timer(scratch, frame, ctx, st, seats, host)
    yield
    result = result_from(view.get("reveal")) if phase(view) is Phase.REVEAL else None
    if result is not None:
        yield from route_pointing(frame, st.lay, result.pointing, keep_clear=st.middle, keep_out=(st.middle,))
        fit_caption(frame, ctx, st.lay.caption, reveal_caption(frame, seats, result, view), px=REVEAL_CAPTION_PX)
        yield
    fit_caption(frame, ctx, st.lay.caption, say(frame, "reveal.title"), px=BEAT_CAPTION_PX)
    yield


def reveal_caption(frame: Frame, seats: Sequence[Seat], result: ClueResult, view: Mapping[str, Any]) -> str:
    """The table's caption once a reveal has played: what it meant, and what comes next."""
    return result_sentence(frame, seats, result) + say(frame, "sep") + _next_clue(frame, seats, view)


def _next_clue(frame: Frame, seats: Sequence[Seat], view: Mapping[str, Any]) -> str:
    if int(view.get("clues_left", 0) or 0) <= 0:
        return say(frame, "reveal.last")
    nxt = view.get("next_host")
    nxt = nxt if isinstance(nxt, int) else None
    timed = bool((view.get("timers") or {}).get("reveal_ms", 0))
    return say(frame, "reveal.next" if timed else "reveal.continue", name=seat_name(frame, seats, nxt),
               button=frame.button("speakeasy.continue"))
