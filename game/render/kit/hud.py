"""What every table screen draws over its game: a caption banner, the session's notices, the round
timer (and its ticking), a badge beside a seat's plate."""
from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

import pygame

from game import i18n

from . import shapes, theme
from .scene import Frame, RenderContext
from .sound import Effect
from .table import TableLayout
from .text import Align, TextStyle

URGENT_MS = 10_000  # the timer turns red in its last ten seconds


def draw_on_chip(surface: pygame.Surface, frame: Frame, ctx: RenderContext, text: str, box: pygame.Rect,
                 style: TextStyle, chip: theme.Colour = theme.BACKGROUND) -> pygame.Rect:
    """Text in ``box`` on a dark rounded chip as wide as its words: readable over whatever lies
    under it (a reveal's arrows). Returns the chip."""
    pad = max(2, round(5 * frame.scale.u))
    rect = ctx.text.place(text, frame.lang, box, style).inflate(2 * pad, pad)
    pygame.draw.rect(surface, chip, rect, border_radius=pad * 2)
    ctx.text.draw(surface, text, frame.lang, box, style)
    return rect


def draw_caption(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, text: str,
                 colour: theme.Colour = theme.TEXT, px: int = 26, border: theme.Colour | None = None) -> None:
    """Up to three lines of explanation on a dark veil (what just happened, what to do now)."""
    u = frame.scale.u
    surface.blit(shapes.veil(rect.size, (*theme.BACKGROUND, 215), round(12 * u)), rect.topleft)
    if border is not None:
        pygame.draw.rect(surface, border, rect, max(2, round(3 * u)), border_radius=round(12 * u))
    ctx.text.draw(surface, text, frame.lang, *_caption_words(frame, rect, colour, px))


def fit_caption(frame: Frame, ctx: RenderContext, rect: pygame.Rect, text: str, colour: theme.Colour = theme.TEXT,
                px: int = 26) -> None:
    """Fit ``text`` as :func:`draw_caption` would, drawing nothing: the fit is cached, so a scene
    that knows a caption it will show can pay for it in a lighter frame (a long one took 8 ms)."""
    box, style = _caption_words(frame, rect, colour, px)
    ctx.text.fit(text, frame.lang, box.size, style)


def _caption_words(frame: Frame, rect: pygame.Rect, colour: theme.Colour, px: int) -> tuple[pygame.Rect, TextStyle]:
    """Where a caption's words go in its veil, and their style."""
    u = frame.scale.u
    return (rect.inflate(-round(24 * u), -round(10 * u)),
            TextStyle(round(px * u), colour, align=Align.CENTER, max_lines=3, min_px=7, balance=True))


def draw_notices(surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
    """The session's notices (e.g. unplugged arcade buttons) in a big band across the top, over
    the game: read from across the room (a table that lost its buttons must see it)."""
    notes = [frame.s(f"notice.{n}") if i18n.has(frame.lang, "screen", f"notice.{n}") else n
             for n in frame.snapshot.notices]
    if not notes:
        return
    w, h = frame.size
    u = frame.scale.u
    band = pygame.Rect(round(w * 0.08), round(h * 0.012), round(w * 0.84), round(h * 0.115))
    pygame.draw.rect(surface, theme.BACKGROUND, band, border_radius=round(14 * u))
    pygame.draw.rect(surface, theme.DANGER, band, max(3, round(5 * u)), border_radius=round(14 * u))
    ctx.text.draw(surface, frame.s("sep").join(notes), frame.lang, band.inflate(-round(36 * u), -round(14 * u)),
                  TextStyle(round(38 * u), theme.DANGER, bold=True, align=Align.CENTER, max_lines=2, min_px=9,
                            balance=True))


def draw_timer(surface: pygame.Surface, frame: Frame, ctx: RenderContext, centre: tuple[float, float], r: float) -> None:
    """The running timer as a ring that empties, the time left in it and its label under it."""
    timer = frame.snapshot.timer
    left = frame.timer_left_ms()
    if timer is None or left is None:
        return
    draw_timer_face(surface, frame, ctx, centre, r, left, timer.duration_ms, timer.label)


def draw_timer_face(surface: pygame.Surface, frame: Frame, ctx: RenderContext, centre: tuple[float, float], r: float,
                    left: int, duration_ms: int, label_key: str) -> None:
    """A timer's ring, seconds and label (``timer.<label_key>``) for ``left`` of ``duration_ms``
    (a scene warming its fonts draws one off-screen without a running timer)."""
    u = frame.scale.u
    urgent = left <= URGENT_MS
    colour = theme.DANGER if urgent else theme.ACCENT
    pygame.draw.circle(surface, theme.BACKGROUND, centre, r)
    shapes.timer_ring(surface, centre, r, left / max(1, duration_ms), colour, max(3, round(r * 0.16)))
    secs = math.ceil(left / 1000)
    label = i18n.number(frame.lang, f"{secs // 60}:{secs % 60:02d}") if secs >= 60 else i18n.number(frame.lang, secs)
    box = pygame.Rect(0, 0, round(r * 1.3), round(r * 0.9))
    box.center = (round(centre[0]), round(centre[1]))
    ctx.text.draw(surface, label, frame.lang, box, TextStyle(round(r * 0.6), theme.DANGER if urgent else theme.TEXT,
                                                             bold=True, align=Align.CENTER, max_lines=1, min_px=6))
    key = f"timer.{label_key}"
    if label_key and i18n.has(frame.lang, "screen", key):
        under = pygame.Rect(0, 0, round(r * 3.2), round(26 * u))
        under.midtop = (round(centre[0]), round(centre[1] + r + 4 * u))
        ctx.text.draw(surface, frame.s(key), frame.lang, under,
                      TextStyle(round(17 * u), colour, align=Align.CENTER, max_lines=1, min_px=7))


@dataclass(slots=True)
class Ticker:
    """A tick a second in a timer's last seconds (a scene calls :meth:`update` every step)."""

    from_ms: int = URGENT_MS
    last: int = -1  # the second last ticked

    def update(self, frame: Frame, ctx: RenderContext, *, active: bool = True) -> None:
        left = frame.timer_left_ms()
        if not active or left is None or not 0 < left <= self.from_ms:
            return
        second = left // 1000
        if second != self.last:
            self.last = second
            ctx.sound.play(Effect.TICK)


def _badge_at(size: tuple[int, int], lay: TableLayout, seat: int, *, above: bool) -> pygame.Rect:
    plate = lay.spots[seat].plate
    rect = pygame.Rect(0, 0, round(plate.width * 0.7), round(size[1] * 0.036))
    rect.centerx = plate.centerx
    if above:
        rect.bottom = plate.y - 2
    else:
        rect.y = plate.bottom + 2
    rect.clamp_ip(pygame.Rect((0, 0), size))
    return rect


def _low(lay: TableLayout, seat: int) -> bool:
    return lay.spots[seat].inward[1] < -0.2


def badge_rect(size: tuple[int, int], lay: TableLayout, seat: int, badged: Collection[int | None] = ()) -> pygame.Rect:
    """Where a seat's badge goes: under its plate, or over it for a plate low on the screen (clear
    of the caption). ``badged``: the other seats that carry a badge now. A low plate's badge that
    would share the gap above it with the badge under a badged plate above (a full table's side
    columns) goes under its own plate instead, when that is clear of the other plates, their
    badges, the caption and the screen's edge."""
    default = _badge_at(size, lay, seat, above=_low(lay, seat))
    if not _low(lay, seat):
        return default
    others = [i for i in range(len(lay.spots)) if i != seat]
    taken = [lay.spots[i].plate for i in others] + [_badge_at(size, lay, i, above=_low(lay, i))
                                                    for i in others if i in badged]
    if not any(default.colliderect(r) for r in taken):
        return default
    below = _badge_at(size, lay, seat, above=False)
    clear = below.bottom <= size[1] and below.top > lay.spots[seat].plate.bottom and not below.colliderect(lay.caption)
    if clear and not any(below.colliderect(r) for r in taken):
        return below
    return default


def draw_badge(surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout, seat: int, text: str,
               colour: theme.Colour, badged: Collection[int | None] = ()) -> None:
    """A small label beside a seat's plate (where :func:`badge_rect` puts it; ``badged``: the seats
    with a badge now)."""
    u = frame.scale.u
    rect = badge_rect(frame.size, lay, seat, badged)
    pygame.draw.rect(surface, colour, rect, border_radius=round(6 * u))
    ctx.text.draw(surface, text, frame.lang, rect.inflate(-round(8 * u), -2),
                  TextStyle(round(16 * u), theme.ink_on(colour), bold=True, align=Align.CENTER, max_lines=1, min_px=6))
