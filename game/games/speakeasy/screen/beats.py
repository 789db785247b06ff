"""Speakeasy's timed beats: a clue's reveal (arrows, the subject, their identity card, the points
flying to the plates) and the finale (every hidden identity turns over with its bonus)."""
from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import pygame

from game.games.speakeasy.screen.model import (
    Bonus,
    Clue,
    ClueResult,
    Final,
    Identity,
    Outcome,
    Seat,
    scores_before,
    with_identities,
    with_scores,
)
from game.games.speakeasy.screen.table import (
    BEAT_CAPTION_PX,
    IDENTITY_COLOURS,
    REVEAL_CAPTION_PX,
    Stage,
    draw_card_panel,
    draw_clue,
    draw_identity_tabs,
    draw_point_token,
    draw_pointing,
    draw_spotlight,
    result_sentence,
    reveal_caption,
    route_pointing,
    say,
    stage,
    static_layer,
    subject_sentence,
)
from game.render.kit import shapes, theme
from game.render.kit.hud import draw_badge, draw_caption, fit_caption
from game.render.kit.motion import ease, span
from game.render.kit.scene import Frame, RenderContext, Scene, view_of
from game.render.kit.seats import seat_name
from game.render.kit.sound import Effect
from game.render.kit.text import Align, TextStyle


class RevealBeat(Scene):
    """The simultaneous reveal: arrows fly from every pointer, the subject lights up, their identity
    card turns over (when someone pointed at them), the points fly to the scorers' plates."""

    name = "speakeasy_reveal"
    ARROWS, SUBJECT, IDENTITY, POINTS, LAND = 0.3, 1.4, 2.2, 3.3, 4.1
    FLIPPED = 0.35  # the identity card shows its face this long after it starts to turn
    CAPTION_PX = BEAT_CAPTION_PX

    def __init__(self, result: ClueResult, seats: tuple[Seat, ...], clue: Clue | None, host: int | None,
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
        self._ahead: Iterator[None] | None = None

    @property
    def told_s(self) -> float:
        """The points have landed on the scorers' plates (a skipped clue: its default, the tail)."""
        return self.LAND if self.result.outcome is not Outcome.SKIPPED else super().told_s

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if self._ahead is None:
            self._ahead = self._ahead_tasks(frame, ctx)
        next(self._ahead, None)
        if self.result.outcome is Outcome.SKIPPED:
            return
        sting = {Outcome.INFORMANT_CAUGHT: Effect.STING, Outcome.CITIZEN_FOUND: Effect.SUSPENSE}.get(
            self.result.outcome, Effect.LOSS)
        for at, effect in ((self.ARROWS, Effect.REVEAL), (self.IDENTITY, sting), (self.LAND, Effect.PLACE)):
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
            draw_badge(surface, frame, ctx, st.lay, self.host, say(frame, "badge.host"), theme.GOLD, (r.subject,))
        if r.outcome is Outcome.SKIPPED:
            draw_identity_tabs(surface, frame, ctx, st.lay, seats)
            draw_caption(surface, frame, ctx, st.lay.caption, result_sentence(frame, seats, r), theme.TEXT,
                         px=self.CAPTION_PX)
            return
        if t >= self.SUBJECT:
            draw_spotlight(surface, frame, st.lay, r.subject, t)
        draw_pointing(surface, frame, st.lay, seats, r.pointing, ease(span(t, self.ARROWS, 1.0)), keep_clear=st.middle,
                      keep_out=(st.middle,))
        if r.subject is not None and r.subject < len(st.lay.spots) and t >= self.SUBJECT:
            draw_badge(surface, frame, ctx, st.lay, r.subject, say(frame, "badge.subject"), theme.GOLD, (self.host,))
        draw_identity_tabs(surface, frame, ctx, st.lay, seats)
        if r.identity is not None and self.IDENTITY <= t < self.LAND + 0.6:
            self._draw_identity_card(surface, frame, ctx, st, seats, t)
        if self.POINTS <= t < self.LAND:
            self._draw_flying(surface, frame, ctx, st, ease(span(t, self.POINTS, self.LAND - self.POINTS)))
        draw_caption(surface, frame, ctx, st.lay.caption, self._caption(frame, seats, t), theme.TEXT, px=self.CAPTION_PX,
                     border=IDENTITY_COLOURS.get(r.identity) if r.identity and t >= self.IDENTITY + self.FLIPPED else None)

    def _ahead_tasks(self, frame: Frame, ctx: RenderContext) -> Iterator[None]:
        """What a later frame would otherwise make all at once, made a piece a step (one an update)
        while the frames are light: each arrow's route before the arrows fly (a full table's six
        took 22 ms in one frame), then the fits of the result's caption and of the table's after
        the beat (8 ms each)."""
        yield  # not before the first frame: it makes the beat's first picture
        st = stage(frame.size, len(self.after))
        yield from route_pointing(frame, st.lay, self.result.pointing, keep_clear=st.middle, keep_out=(st.middle,))
        fit_caption(frame, ctx, st.lay.caption, result_sentence(frame, self.revealed, self.result), theme.TEXT,
                    px=self.CAPTION_PX)
        yield
        fit_caption(frame, ctx, st.lay.caption, reveal_caption(frame, self.after, self.result, view_of(frame)),
                    theme.TEXT, px=REVEAL_CAPTION_PX)

    def _caption(self, frame: Frame, seats: Sequence[Seat], t: float) -> str:
        if t < self.SUBJECT:
            return say(frame, "reveal.title")
        if t < self.IDENTITY + self.FLIPPED:
            return subject_sentence(frame, seats, self.result)
        return result_sentence(frame, seats, self.result)

    def _draw_identity_card(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, st: Stage,
                            seats: Sequence[Seat], t: float) -> None:
        """The subject's identity card turns over above the clue, then fades into their plate."""
        identity = self.result.identity
        assert identity is not None
        flip = ease(span(t, self.IDENTITY, 0.6))
        subject = self.result.subject
        full = identity_card_rect(frame, st, subject if subject is not None else -1)
        w = max(2, round(full.width * abs(1 - 2 * flip)))
        rect = pygame.Rect(full.centerx - w // 2, full.y, w, full.height)
        if flip < 0.5:
            shapes.card_back(surface, rect)
            return
        fill = IDENTITY_COLOURS[identity]
        shapes.card(surface, rect, fill, theme.TEXT)
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


def identity_card_rect(frame: Frame, st: Stage, subject: int) -> pygame.Rect:
    """Where the subject's identity card turns over: over their own plate, pushed outwards until it
    leaves the clue uncovered (the table keeps reading the clue while the card shows)."""
    w, h = frame.size
    screen = pygame.Rect(0, 0, w, h)
    if not 0 <= subject < len(st.lay.spots):
        rect = pygame.Rect(0, 0, round(h * 0.2), round(h * 0.21))
        rect.midtop = (st.card.centerx, 0)
        return rect
    spot = st.lay.spots[subject]
    tall = round(min(spot.plate.height * 2.0, h * 0.24))
    rect = pygame.Rect(0, 0, round(tall * 0.96), tall)
    rect.center = spot.plate.center
    step = max(2, round(h * 0.01))
    for _ in range(80):
        if not rect.colliderect(st.card):
            break
        rect.move_ip(-round(spot.inward[0] * step), -round(spot.inward[1] * step))
    rect.clamp_ip(screen)
    while rect.colliderect(st.card) and rect.height > h * 0.08:  # squeezed between clue and edge: smaller
        centre = rect.center
        rect.size = (round(rect.width * 0.9), round(rect.height * 0.9))
        rect.center = centre
        rect.clamp_ip(screen)
        rect.move_ip(-round(spot.inward[0] * step), -round(spot.inward[1] * step))
        rect.clamp_ip(screen)
    return rect


class FinaleBeat(Scene):
    """The last secrets (S12): every identity still hidden turns over, one after another, and its
    bonus rises from the plate; the scores count up to the final totals."""

    name = "speakeasy_finale"
    START, STEP_MAX, HOLD = 1.2, 1.1, 2.6

    def __init__(self, final: Final, seats: tuple[Seat, ...], host: int | None) -> None:
        super().__init__()
        self.final = final
        self.after = seats
        self.host = host
        self.step = min(self.STEP_MAX, 6.0 / max(1, len(final.bonuses)))
        hidden = {b.seat: None for b in final.bonuses}
        self.before = with_identities(with_scores(seats, scores_before(seats, final.bonuses)), hidden)
        self.duration_s = self.START + self.step * len(final.bonuses) + self.HOLD
        self._flipped = 0

    @property
    def told_s(self) -> float:
        """The last hidden identity has turned over."""
        return self.START + self.step * len(self.final.bonuses) + 0.3

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        if self.t == 0.0:
            ctx.sound.play(Effect.SUSPENSE)
        super().update(dt, frame, ctx)
        due = self._shown()
        if due > self._flipped:
            self._flipped = due
            bonus = self.final.bonuses[due - 1]
            ctx.sound.play(Effect.STING if bonus.identity is Identity.INFORMANT else Effect.PLACE)

    def _shown(self) -> int:
        if self.t < self.START:
            return 0
        return min(len(self.final.bonuses), int((self.t - self.START) / self.step) + 1)

    def _seats(self, shown: int) -> tuple[Seat, ...]:
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
    def _bonus_sentence(frame: Frame, seats: Sequence[Seat], bonus: Bonus) -> str:
        identity = say(frame, f"identity.{bonus.identity.value}_a")  # in a sentence: "an Informant"
        return say(frame, "final.bonus", name=seat_name(frame, seats, bonus.seat), identity=identity, n=bonus.points)


