"""Toy Guess on the big screen (found through its descriptor's ``screen``, like every game's): the
round, who has picked (never what) until the reveal, the last picks and the scores (T1–T3); then
the final board (T4). Its words are its own (``screen_toy_guess_<lang>.json`` in this folder)."""
from __future__ import annotations

import pygame

from game import i18n
from game.render.kit import theme
from game.render.kit.final import Cell, FinalBoard, FinalRow, FinalScene
from game.render.kit.scene import Frame, RenderContext, Scene, view_of
from game.render.kit.seats import SeatModel, look_of, names, seat_name
from game.render.kit.table import background
from game.render.kit.text import Align, TextStyle
from game.session.snapshot import TableSnapshot

DOMAIN = "screen_toy_guess"

__all__ = ["beats_for", "choose_base"]


def s(frame: Frame, key: str, **values: object) -> str:
    return i18n.text(frame.lang, DOMAIN, key, **values)


def seat_models(frame: Frame) -> tuple[SeatModel, ...]:
    n = len(view_of(frame).get("scores", [])) or len(frame.snapshot.seats)
    return tuple(SeatModel(**look_of(frame.snapshot, k)) for k in range(n))


class ToyTableScene(Scene):
    name = "toy_guess_table"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view, seats, u = view_of(frame), seat_models(frame), frame.scale.u
        w, h = frame.size
        surface.blit(background(frame, len(seats)), (0, 0))
        title = s(frame, "round", n=int(view.get("round", 1)), m=int(view.get("rounds", 1)))
        phase = s(frame, f"phase.{view.get('phase', 'pick')}")
        ctx.text.draw(surface, f"{title} | {phase}", frame.lang, pygame.Rect(round(w * 0.05), round(h * 0.04), round(w * 0.9), round(h * 0.1)),
                      TextStyle(round(36 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        picked, last, scores = view.get("picked", []), view.get("last_picks", []), view.get("scores", [])
        row_h = round(h * 0.8 / max(1, len(seats)))
        for k in range(len(seats)):
            row = pygame.Rect(round(w * 0.1), round(h * 0.16) + k * row_h, round(w * 0.8), row_h - 6)
            state = s(frame, "picked") if k < len(picked) and picked[k] else s(frame, "thinking")
            if k < len(last) and last[k]:
                state = f"{state} | {s(frame, 'last_pick', n=int(last[k]))}"
            line = f"{seat_name(frame, seats, k)} | {s(frame, 'score', n=int(scores[k]) if k < len(scores) else 0)} | {state}"
            ctx.text.draw(surface, line, frame.lang, row, TextStyle(round(26 * u), theme.TEXT, max_lines=1, min_px=9))


class ToyOverScene(FinalScene):
    name = "game_over"

    def board(self, frame: Frame) -> FinalBoard | None:
        view, seats = view_of(frame), seat_models(frame)
        winners = tuple(int(x) for x in view.get("winners", []))
        scores = [int(x) for x in view.get("scores", [])]
        headline = s(frame, "winners", names=names(frame, seats, winners)) if winners else ""
        order = sorted(range(len(seats)), key=lambda k: (-(scores[k] if k < len(scores) else 0), k))
        rows = tuple(FinalRow(seats[k], k in winners, (
            Cell(seat_name(frame, seats, k), 0.6, px=22),
            Cell(s(frame, "score", n=scores[k] if k < len(scores) else 0), 0.4, px=22),
        )) for k in order)
        return FinalBoard(frame.s("over.title"), tuple(seats[w] for w in winners if w < len(seats)), headline,
                          (), rows)


def choose_base(snapshot: TableSnapshot) -> Scene:
    if (snapshot.public_view or {}).get("phase") == "game_over":
        return ToyOverScene()
    return ToyTableScene()


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    return []
