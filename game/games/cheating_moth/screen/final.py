"""Cheating Moth's last screen (M19): lowest total first, moths as the tie-break, the winners in gold."""
from __future__ import annotations

from game.games.cheating_moth.screen.model import ranking_from, seat_models
from game.games.cheating_moth.screen.table import s
from game.render.kit import theme
from game.render.kit.final import Cell, FinalBoard, FinalRow, FinalScene
from game.render.kit.scene import Frame, view_of
from game.render.kit.seats import names, seat_name


class GameOverScene(FinalScene):
    name = "moth_game_over"

    def board(self, frame: Frame) -> FinalBoard | None:
        seats = seat_models(frame.snapshot)
        ranking = ranking_from(view_of(frame))
        winners = [r.seat for r in ranking if r.rank == 1]
        headline = ""
        if len(winners) == 1:
            total = next((x.total for x in ranking if x.seat == winners[0]), 0)
            headline = s(frame, "over.wins", name=seat_name(frame, seats, winners[0]), n=total)
        elif winners:
            headline = s(frame, "over.shared", names=names(frame, seats, winners))
        rows = tuple(FinalRow(seats[r.seat], r.rank == 1, (
            Cell(seat_name(frame, seats, r.seat), 0.5, px=22),
            Cell(s(frame, "points", n=r.total), 0.28, px=22),
            Cell(s(frame, "round.moths", n=r.moths), 0.22, theme.TEXT_DIM, px=20),
        ), rank=r.rank) for r in ranking if r.seat < len(seats))
        return FinalBoard(s(frame, "over.title"), tuple(seats[w] for w in winners if w < len(seats)), headline,
                          (s(frame, "over.rule"),), rows)
