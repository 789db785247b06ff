"""The Speakeasy companion's table scene (and, on key P, its score pad): plates with each seat's score from the pad (and any
revealed identity), the clue card in the middle (or "read the top card of your deck"), the
countdown "3 – 2 – 1 – point!" over it with a tick a second and a sting at "point!", who has
pointed (never at whom) until the reveal, then an arrow from each pointer, the subject in a
spotlight and the result in words with its rule id."""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, cast

import pygame

from game import i18n
from game.render.kit import shapes, theme
from game.render.kit.hud import draw_badge, draw_caption, draw_notices, draw_timer
from game.render.kit.motion import glow
from game.render.kit.plates import PlateLook, plates_layer
from game.render.kit.route import draw_seat_arrow
from game.render.kit.scene import Frame, Intent, PopScene, PushScene, RenderContext, Scene, view_of
from game.render.kit.scorepad import draw_pad
from game.render.kit.seats import SeatModel, look_of, names, seat_name
from game.render.kit.sound import Effect
from game.render.kit.table import TableLayout, clear_middle, table_layout
from game.render.kit.text import Align, TextStyle

DOMAIN = "screen_speakeasy_companion"
INK = (40, 30, 20)
ARROW_S = 0.8  # how long the reveal's arrows take to fly


def s(frame: Frame, key: str, **values: Any) -> str:
    return i18n.text(frame.lang, DOMAIN, key, **values)


def seat_models(frame: Frame) -> tuple[SeatModel, ...]:
    n = int(view_of(frame).get("n_seats", 0)) or len(frame.snapshot.seats)
    return tuple(SeatModel(**look_of(frame.snapshot, k)) for k in range(n))


def trace_lines(frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> list[str]:
    """The pad's corrections as sentences ("Ali's clue 2: 1, now 0, corrected by the host")."""
    out = []
    total = int(cast(Mapping[str, Any], view.get("clue") or {}).get("total", 0))
    for c in cast(Mapping[str, Any], view.get("pad") or {}).get("trace", []):
        old = "–" if c.get("old") is None else i18n.number(frame.lang, int(c["old"]))
        new = "–" if c.get("new") is None else i18n.number(frame.lang, int(c["new"]))
        row = int(c["round"])
        where = s(frame, "pad.bonus") if row > total else s(frame, "pad.clue", n=row)
        out.append(s(frame, "trace.undo" if c.get("kind") == "undo" else "trace.host",
                     name=seat_name(frame, seats, int(c["seat"])), where=where, old=old, new=new))
    return out


def score_line(frame: Frame, info: Mapping[str, Any]) -> str:
    """A plate's second line: the seat's total from the score pad (S3), and its identity once
    revealed (S8, S12) without the word "Score", so the number keeps its full size on the plate."""
    n = int(info.get("score", 0))
    if info.get("identity"):
        return s(frame, "score_identity", n=n, identity=s(frame, f"identity.{info['identity']}"))
    return s(frame, "score", n=n)


def plate_looks(frame: Frame, view: Mapping[str, Any], seats: Sequence[SeatModel]) -> tuple[tuple[SeatModel, PlateLook], ...]:
    """Every seat's plate as the table scene draws it (the score on it in every phase of play)."""
    host = view.get("host")
    return tuple((m, PlateLook(score_line(frame, info), theme.GOLD, fill=theme.PANEL_LIGHT if m.seat == host else theme.PANEL,
                               ring=theme.GOLD if m.seat == host else None))
                 for m, info in zip(seats, view.get("seats", [])))


@lru_cache(maxsize=32)
def middle(size: tuple[int, int], n: int) -> pygame.Rect:
    """The clue's place: a centred box no seat plate overlaps (with 8 seats the top corner seats
    reached into a fixed box's counter line, where no arrow could go round it)."""
    return clear_middle(table_layout(size, n), size, most=(0.44, 0.44))


def pointer_colour(seats: Sequence[SeatModel], seat: int) -> theme.Colour:
    return theme.seat_colour(seat, seats[seat].colour if seat < len(seats) else None)


def card_rects(mid: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The clue counter's line and the clue card below it."""
    head = pygame.Rect(mid.x, mid.y, mid.width, round(mid.height * 0.16))
    return head, pygame.Rect(mid.x, head.bottom, mid.width, round(mid.height * 0.7))


def keep_out(size: tuple[int, int], n: int) -> pygame.Rect:
    """What the reveal's arrows go round: the clue card and its counter."""
    head, card = card_rects(middle(size, n))
    return head.union(card)


class CompanionTableScene(Scene):
    name = "speakeasy_companion"

    def __init__(self) -> None:
        super().__init__()
        self._phase: str | None = None
        self._second = -1
        self._since_reveal = 0.0

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        view = view_of(frame)
        phase = str(view.get("phase"))
        if phase != self._phase:
            if self._phase == "countdown":
                ctx.sound.play(Effect.STING)  # "point!"
            if phase in ("identity", "reveal") and self._phase in ("pointing", "recording"):
                ctx.sound.play(Effect.REVEAL)
                self._since_reveal = 0.0
            self._phase = phase
        self._since_reveal += dt
        left = frame.timer_left_ms()
        if phase == "countdown" and left is not None:
            second = math.ceil(left / 1000)
            if second != self._second:
                self._second = second
                ctx.sound.play(Effect.TICK)

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_p:
            return [PushScene(PadScene())]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        seats = seat_models(frame)
        surface.blit(plates_layer(frame, ctx, plate_looks(frame, view, seats)), (0, 0))
        lay = table_layout(frame.size, len(seats))
        mid = middle(frame.size, len(seats))
        phase = str(view.get("phase"))
        self._draw_card(surface, frame, ctx, mid, view)
        if phase == "countdown":
            self._draw_countdown(surface, frame, ctx, mid)
        if phase in ("pointing", "recording"):
            done = view.get("pointed", []) if phase == "pointing" else (view.get("recorded") or {}).get("done", [])
            badged = {int(seat) for seat in done}
            for seat in badged:
                draw_badge(surface, frame, ctx, lay, seat, s(frame, "badge.pointed"), theme.GOOD, badged)
        if phase in ("identity", "reveal") and view.get("pointing") is not None:
            self._draw_reveal(surface, frame, ctx, lay, view, seats)
        if phase == "final_identities":
            asked = {int(seat) for seat in view.get("identity_asked", [])}
            for seat in asked:
                draw_badge(surface, frame, ctx, lay, seat, s(frame, "badge.turn_over"), theme.ACCENT, asked)
        draw_caption(surface, frame, ctx, lay.caption, self._caption(frame, view, seats), theme.TEXT, px=24)
        if phase in ("pointing", "choosing", "reveal"):
            u = frame.scale.u
            draw_timer(surface, frame, ctx, (round(frame.size[0] * (0.08 if frame.lang != "fa" else 0.92)),
                                             round(frame.size[1] * 0.12)), 46 * u)
        hint = pygame.Rect(0, round(frame.size[1] * 0.012), round(frame.size[0] * 0.2), round(frame.size[1] * 0.04))
        hint.x = round(frame.size[0] * 0.01) if frame.lang == "fa" else frame.size[0] - hint.width - round(frame.size[0] * 0.01)
        ctx.text.draw(surface, s(frame, "pad.hint"), frame.lang, hint,
                      TextStyle(round(17 * frame.scale.u), theme.TEXT_DIM, align=Align.END, max_lines=1, min_px=7))
        draw_notices(surface, frame, ctx)

    # ------------------------------------------------------------------------------ the middle
    def _draw_card(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, mid: pygame.Rect,
                   view: Mapping[str, Any]) -> None:
        u = frame.scale.u
        clue = cast(Mapping[str, Any], view.get("clue") or {})
        head, card = card_rects(mid)
        ctx.text.draw(surface, s(frame, "clue.counter", number=int(clue.get("number", 1)), total=int(clue.get("total", 1))),
                      frame.lang, head, TextStyle(round(26 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        radius = round(16 * u)
        pygame.draw.rect(surface, theme.CARD_FACE, card, border_radius=radius)
        pygame.draw.rect(surface, theme.GOLD, card, max(2, round(4 * u)), border_radius=radius)
        text = clue.get("text")
        inner = card.inflate(-round(card.height * 0.16), -round(card.height * 0.12))
        if text:
            deck = str(cast(Mapping[str, Any], view.get("settings") or {}).get("deck"))
            ctx.text.draw(surface, str(text), deck if deck in i18n.LANGUAGES else frame.lang, inner,
                          TextStyle(round(44 * u), INK, bold=True, align=Align.CENTER, max_lines=4, min_px=round(14 * u)))
        else:
            ctx.text.draw(surface, s(frame, "clue.top_card"), frame.lang, inner,
                          TextStyle(round(44 * u), INK, bold=True, align=Align.CENTER, max_lines=3, min_px=round(14 * u)))

    def _draw_countdown(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, mid: pygame.Rect) -> None:
        left = frame.timer_left_ms()
        second = 0 if left is None else math.ceil(left / 1000)
        word = i18n.number(frame.lang, second) if second > 0 else s(frame, "countdown.point")
        veil = shapes.veil(mid.size, (*theme.BACKGROUND, 248), round(16 * frame.scale.u))
        surface.blit(veil, mid.topleft)
        pulse = 0.85 + 0.15 * glow(self.t, speed=6.0)
        ctx.text.draw(surface, word, frame.lang, mid.inflate(-round(mid.width * 0.1), -round(mid.height * 0.1)),
                      TextStyle(round(170 * frame.scale.u * pulse), theme.GOLD, bold=True, align=Align.CENTER,
                                max_lines=1, min_px=20))

    # ------------------------------------------------------------------------------ the reveal
    def _draw_reveal(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, lay: TableLayout,
                     view: Mapping[str, Any], seats: Sequence[SeatModel]) -> None:
        u = frame.scale.u
        subject = view.get("subject")
        if isinstance(subject, int) and 0 <= subject < len(lay.spots):
            plate = lay.spots[subject].plate
            colour = theme.mix(theme.GOLD, theme.TEXT, 0.5 * glow(self.t, speed=4.0))
            pygame.draw.rect(surface, colour, plate.inflate(round(18 * u), round(18 * u)), max(3, round(5 * u)),
                             border_radius=round(16 * u))
        progress = min(1.0, self._since_reveal / ARROW_S) if view.get("phase") == "identity" else 1.0
        pointing = [(src, int(dst)) for src, dst in enumerate((view.get("pointing") or [])[: len(lay.spots)])
                    if dst is not None and 0 <= int(dst) < len(lay.spots)]
        avoid = (keep_out(frame.size, len(lay.spots)),)
        for src, dst in pointing:
            if src != dst:  # side: two seats pointing at each other get two arrows side by side
                draw_seat_arrow(surface, lay.spots[src].plate, lay.spots[dst].plate, avoid, pointer_colour(seats, src), u,
                                progress, side=7 * u, plates=[s.plate for s in lay.spots], rather_not=(lay.caption,))
        selves = {src for src, dst in pointing if src == dst}
        for src in selves:  # the words over the arrows
            draw_badge(surface, frame, ctx, lay, src, s(frame, "badge.self"), pointer_colour(seats, src), selves)

    # ------------------------------------------------------------------------------ words
    def _caption(self, frame: Frame, view: Mapping[str, Any], seats: Sequence[SeatModel]) -> str:
        phase = str(view.get("phase"))
        host = seat_name(frame, seats, view.get("host"))
        if phase == "choosing":
            return s(frame, "say.choosing", host=host)
        if phase == "countdown":
            return s(frame, "say.countdown")
        if phase == "pointing":
            return s(frame, "say.pointing", n=len(view.get("pointed", [])), m=len(view.get("pointers", [])))
        if phase == "recording":
            return s(frame, "say.recording", host=host)
        if phase == "identity":
            return s(frame, "say.identity", name=seat_name(frame, seats, view.get("subject")))
        if phase == "final_identities":
            return s(frame, "say.final", names=names(frame, seats, [int(x) for x in view.get("identity_asked", [])]))
        return self._result(frame, view, seats)

    def _result(self, frame: Frame, view: Mapping[str, Any], seats: Sequence[SeatModel]) -> str:
        last = cast(Mapping[str, Any], view.get("last") or {})
        subject = seat_name(frame, seats, last.get("subject"))
        outcome = last.get("outcome")
        if outcome == "informant_caught":
            line = s(frame, "say.informant", name=subject, names=names(frame, seats, list(last.get("correct", []))))
        elif outcome == "citizen_found":
            line = s(frame, "say.citizen", name=subject)
        else:
            line = s(frame, "say.nobody", name=subject, host=seat_name(frame, seats, last.get("host")))
        trace = trace_lines(frame, seats, view)
        clue = cast(Mapping[str, Any], view.get("clue") or {})
        last_clue = int(clue.get("number") or 0) >= int(clue.get("total") or 0) > 0
        nxt = s(frame, "say.last") if last_clue else s(frame, "say.next", host=seat_name(frame, seats, view.get("next_host")))
        return line + " " + (trace[-1] if trace else nxt)


# ------------------------------------------------------------------------------ the score pad
CLOSE_KEYS = (pygame.K_p, pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER)


class PadScene(Scene):
    name = "speakeasy_companion_pad"

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        if event.type == pygame.KEYDOWN and event.key in CLOSE_KEYS:
            return [PopScene()]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        view = view_of(frame)
        seats = seat_models(frame)
        surface.fill(theme.BACKGROUND)
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.09))
        ctx.text.draw(surface, s(frame, "pad.title"), frame.lang, title,
                      TextStyle(round(46 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        total = int(cast(Mapping[str, Any], view.get("clue") or {}).get("total", 0))
        area = pygame.Rect(round(w * 0.06), title.bottom + round(h * 0.03), round(w * 0.88), round(h * 0.72))
        draw_pad(surface, frame, ctx, area, cast(Mapping[str, Any], view.get("pad") or {}), seats,
                 lambda r: s(frame, "pad.bonus") if r > total else s(frame, "pad.clue", n=r),
                 total=s(frame, "pad.total"), trace=trace_lines(frame, seats, view))
        hint = pygame.Rect(0, round(h * 0.9), w, round(h * 0.07))
        ctx.text.draw(surface, s(frame, "pad.close"), frame.lang, hint,
                      TextStyle(round(22 * u), theme.ACCENT, align=Align.CENTER, max_lines=1))
