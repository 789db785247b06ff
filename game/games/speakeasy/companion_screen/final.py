"""The Speakeasy companion's last screen: S13's winner(s), every score from the pad, identities."""
from __future__ import annotations

from game.games.speakeasy.companion_screen.table import s, seat_models, trace_lines
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
        winners = tuple(int(w) for w in view.get("winners", []))
        info = view.get("seats", [])
        scores = [int(x.get("score", 0)) for x in info]
        headline = ""
        if len(winners) == 1 and winners[0] < len(scores):
            headline = s(frame, "over.wins", name=seat_name(frame, seats, winners[0]), n=scores[winners[0]])
        elif winners:
            headline = s(frame, "over.shared", names=names(frame, seats, winners))
        notes = (s(frame, f"over.tie.{view.get('tie_break') or 'none'}"), *trace_shown(frame, trace_lines(frame, seats, view), 1))
        order = sorted(range(len(seats)), key=lambda k: (-(scores[k] if k < len(scores) else 0), k))
        rows = tuple(FinalRow(seats[k], k in winners, (
            Cell(seat_name(frame, seats, k), 0.42, px=22),
            Cell(s(frame, "score", n=scores[k] if k < len(scores) else 0), 0.22, px=22),
            Cell(s(frame, f"identity.{info[k].get('identity') or 'unknown'}") if k < len(info) else "", 0.2,
                 theme.TEXT_DIM, px=20),
            Cell(s(frame, "correct", n=int(info[k].get("correct_points", 0))) if k < len(info) else "", 0.16,
                 theme.TEXT_DIM, px=18),
        )) for k in order)
        return FinalBoard(s(frame, "over.title"), tuple(seats[w] for w in winners if w < len(seats)), headline,
                          tuple(n for n in notes if n), rows)
