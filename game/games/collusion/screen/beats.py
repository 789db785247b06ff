"""Collusion's timed beats: the simultaneous reveal (cards flip, arrows fly, the tally, the Ambush,
the deaths explained), the Final Showdown's cards and payout, and the round's summary."""
from __future__ import annotations

import math

import pygame

from game.games.collusion.rules import RoundOutcome
from game.games.collusion.screen.model import Choice, Reveal, RoundEnd, Seat, ShowdownResult, alive_before, with_alive
from game.games.collusion.screen.table import (
    _dead,
    death_sentence,
    draw_banner,
    draw_choice,
    draw_death_label,
    draw_middle,
    draw_revealed_votes,
    draw_showdown_stage,
    draw_tally_badge,
    showdown_rects,
    static_layer,
)
from game.render.kit import shapes, theme
from game.render.kit.hud import draw_badge, draw_caption
from game.render.kit.motion import ease, edge_point, span
from game.render.kit.scene import Frame, RenderContext, Scene, view_of
from game.render.kit.seats import names, plate_name, seat_name
from game.render.kit.sound import Effect
from game.render.kit.table import TableLayout, table_layout
from game.render.kit.text import Align, TextStyle


class RevealBeat(Scene):
    """The simultaneous reveal: cards flip, arrows fly from voter to target, the tally lands on the
    targets, an Ambush flashes, then the deaths fall, each with its cause in words.

    ``resolution_only``: an Ambush choice just resolved (cards already known): show who the
    ambushing target picked and the deaths."""

    name = "reveal"
    FLIP, ARROWS, TALLY, AMBUSH, DEATHS = 0.0, 0.9, 2.0, 2.8, 3.6

    def __init__(self, reveal: Reveal, seats: tuple[Seat, ...], resolution_only: bool = False) -> None:
        super().__init__()
        self.reveal = reveal
        self.resolution_only = resolution_only
        self.seats = with_alive(seats, alive_before(reveal, len(seats)))
        self.has_ambush = bool(set(reveal.ambushers) & set(reveal.targets))
        start = 0.0 if resolution_only else self.DEATHS
        self.deaths_at = (start + (1.2 if resolution_only else 0.0)) if reveal.resolved else None
        self.duration_s = (self.deaths_at or start) + (4.6 if reveal.resolved else 2.4)
        self._played: set[str] = set()

    @property
    def told_s(self) -> float:
        """The deaths have fallen (or, with none to come, the tally has landed)."""
        return (self.deaths_at if self.deaths_at is not None else self.TALLY) + 0.6

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        cues = [("reveal", 0.0 if not self.resolution_only else 99.0, Effect.REVEAL),
                ("ambush", self.AMBUSH if not self.resolution_only else 0.2, Effect.STING)]
        if self.deaths_at is not None and self.reveal.deaths:
            cues.append(("death", self.deaths_at, Effect.LOSS))
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
        draw_revealed_votes(surface, frame, lay, seats, self.reveal, ease(span(t, self.FLIP, 0.7)),
                            ease(span(t, self.ARROWS, 0.9)))
        draw_middle(surface, frame, ctx, lay, {**view_of(frame), "round": self.reveal.round, "vote": self.reveal.vote},
                    timer=False)  # over the arrows
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
        badged = {seat for seat in self.reveal.ambushers if seat in self.reveal.targets and seat < len(lay.spots)}
        for seat in badged:
            draw_badge(surface, frame, ctx, lay, seat, frame.s("reveal.ambush"), theme.GOLD, badged)
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


class ShowdownRevealBeat(Scene):
    """Both showdown cards flip at once; the payout in bars flies to each duellist."""

    name = "showdown_reveal"
    duration_s = 7.0

    PAYOUT = 2.2
    told_s = PAYOUT + 0.8  # both cards face up, the payout landed

    def __init__(self, result: ShowdownResult, seats: tuple[Seat, ...], before: tuple[Seat, ...]) -> None:
        super().__init__()
        self.result = result
        self.seats = seats
        self.before = before if len(before) == len(seats) else seats
        self._played = False

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if not self._played:
            self._played = True
            ctx.sound.play(Effect.SUSPENSE)

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
    told_s = 1.5  # the summary and every seat's bars are up; the rest is time to read them

    def __init__(self, end: RoundEnd, seats: tuple[Seat, ...], before: tuple[int, ...], tie: tuple[int, ...],
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
        if e.outcome is RoundOutcome.TAKEN and e.survivors:
            text = frame.s("round.taken", name=seat_name(frame, self.seats, e.survivors[0]), n=e.bars_taken)
        elif e.outcome is RoundOutcome.SHOWDOWN and self.showdown is not None:
            sd = self.showdown
            text = frame.s("round.showdown", names=names(frame, self.seats, sd.seats))
            if sd.choices == (Choice.STEAL, Choice.STEAL):
                text += frame.s("sep") + frame.s("showdown.steal_steal")
            else:
                text += frame.s("sep") + frame.s("sep").join(frame.s("showdown.gets", name=seat_name(frame, self.seats, s), n=p)
                                               for s, p in zip(sd.seats, sd.payout))
        elif e.outcome is RoundOutcome.SHOWDOWN:
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
    def _draw_row(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rect: pygame.Rect, seat: Seat,
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
        ctx.text.draw(surface, plate_name(frame.lang, seat.name) or frame.s("seat.name", n=seat.seat + 1), frame.lang, name_box,
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
