"""Collusion's last screen: the winner, and every seat's total revealed at last."""
from __future__ import annotations

from game.games.collusion.screen.model import final_from, seat_models
from game.render.kit import theme
from game.render.kit.final import Cell, FinalBoard, FinalRow, FinalScene
from game.render.kit.scene import Frame, view_of
from game.render.kit.seats import names, seat_name


class GameOverScene(FinalScene):
    name = "game_over"

    def board(self, frame: Frame) -> FinalBoard | None:
        view = view_of(frame)
        seats = seat_models(frame.snapshot)
        final = final_from(view)
        winners = final.winners if final else tuple(int(x) for x in view.get("winners", []))
        totals = final.totals if final else ()
        headline = ""
        if len(winners) == 1:
            total = totals[winners[0]] if winners[0] < len(totals) else 0
            headline = frame.s("over.wins", name=seat_name(frame, seats, winners[0]), n=total)
        elif winners:
            headline = frame.s("over.shared", names=names(frame, seats, winners))
        notes = (frame.s("over.deck_empty"),) if final is not None and final.reason == "deck_empty" else ()
        rows: tuple[FinalRow, ...] = ()
        if final is not None:
            order = sorted(range(len(seats)), key=lambda s: (-(final.totals[s] if s < len(final.totals) else 0), s))
            rows = tuple(FinalRow(seats[s], s in final.winners, (
                Cell(seat_name(frame, seats, s), 0.5, px=22),
                Cell(frame.s("over.points", n=final.totals[s] if s < len(final.totals) else 0), 0.28, px=22),
                Cell(frame.s("table.bars", n=final.bars[s] if s < len(final.bars) else 0), 0.22, theme.TEXT_DIM, px=20),
            )) for s in order)
        return FinalBoard(frame.s("over.title"), tuple(seats[w] for w in winners if w < len(seats)), headline, notes,
                          rows)
