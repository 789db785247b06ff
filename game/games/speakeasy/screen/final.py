"""Speakeasy's last screen: the winner (S13) and how a tie was broken, then every seat: score,
right guesses, identity."""
from __future__ import annotations

from game.games.speakeasy.screen.model import Seat, TieBreak, final_from, seat_models
from game.games.speakeasy.screen.table import IDENTITY_COLOURS, say
from game.render.kit import theme
from game.render.kit.final import Cell, FinalBoard, FinalRow, FinalScene
from game.render.kit.scene import Frame, view_of
from game.render.kit.seats import names, seat_name
from game.render.kit.text import Align


class OverScene(FinalScene):
    name = "speakeasy_over"

    def board(self, frame: Frame) -> FinalBoard | None:
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        final = final_from(view)
        winners = final.winners if final else tuple(int(x) for x in view.get("winners", []))
        headline = ""
        if len(winners) == 1:
            best = winners[0]
            headline = say(frame, "over.wins", name=seat_name(frame, seats, best),
                           n=seats[best].score if best < len(seats) else 0)
        elif winners:
            headline = say(frame, "over.shared", names=names(frame, seats, winners))
        notes = (say(frame, f"tie.{final.tie_break.value}"),) if final and final.tie_break is not TieBreak.NONE else ()
        order = sorted(seats, key=lambda s: (-s.score, -s.correct, s.seat))
        rows = tuple(FinalRow(seat, seat.seat in winners, self._cells(frame, seats, seat)) for seat in order)
        return FinalBoard(say(frame, "over.title"), tuple(seats[w] for w in winners if w < len(seats)), headline, notes,
                          rows)

    @staticmethod
    def _cells(frame: Frame, seats: tuple[Seat, ...], seat: Seat) -> tuple[Cell, ...]:
        identity = seat.identity
        return (
            Cell(seat_name(frame, seats, seat.seat), 0.36),
            Cell(say(frame, f"identity.{identity.value}") if identity else "", 0.2, px=17,
                 pill=IDENTITY_COLOURS[identity] if identity else None),
            Cell(say(frame, "over.correct", n=seat.correct), 0.22, theme.TEXT_DIM, px=17, align=Align.CENTER),
            Cell(say(frame, "score", n=seat.score), 0.22, theme.GOLD, bold=True, align=Align.END),
        )
