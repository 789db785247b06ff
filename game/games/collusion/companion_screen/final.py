"""The Collusion companion's last screen: the winner by C18 (or C20), every total, the corrections."""
from __future__ import annotations

from game.games.collusion.companion_screen.table import s, seat_models, trace_lines
from game.render.kit import theme
from game.render.kit.final import Cell, FinalBoard, FinalRow, FinalScene
from game.render.kit.scene import Frame, view_of
from game.render.kit.scorepad import trace_shown
from game.render.kit.seats import names, seat_name


class CompanionOverScene(FinalScene):
    name = "game_over"

    def board(self, frame: Frame) -> FinalBoard | None:
        view = view_of(frame)
        seats = seat_models(frame)
        final = view.get("final") or {}
        winners = tuple(int(w) for w in view.get("winners", []))
        totals = [int(t) for t in final.get("totals", [])]
        bars = [int(b) for b in final.get("bars", [])]
        headline = ""
        if len(winners) == 1 and winners[0] < len(totals):
            headline = frame.s("over.wins", name=seat_name(frame, seats, winners[0]), n=totals[winners[0]])
        elif winners:
            headline = frame.s("over.shared", names=names(frame, seats, winners))
        cause = str(final.get("cause", "C18"))
        notes = (s(frame, f"over.cause_{cause}"), *trace_shown(frame, trace_lines(frame, seats, view), 1))
        order = sorted(range(len(seats)), key=lambda k: (-(totals[k] if k < len(totals) else 0), k))
        rows = tuple(FinalRow(seats[k], k in winners, (
            Cell(seat_name(frame, seats, k), 0.5, px=22),
            Cell(frame.s("over.points", n=totals[k] if k < len(totals) else 0), 0.28, px=22),
            Cell(frame.s("table.bars", n=bars[k] if k < len(bars) else 0), 0.22, theme.TEXT_DIM, px=20),
        )) for k in order)
        return FinalBoard(frame.s("over.title"), tuple(seats[w] for w in winners if w < len(seats)), headline,
                          notes, rows)
