"""The companion's last screen (M19): lowest total first; equal totals share a place (the moths each
player took are real cards the program never saw, so the M19 tie-break cannot be applied)."""
from __future__ import annotations

from game import i18n
from game.games.cheating_moth.companion_screen.model import model_of
from game.games.cheating_moth.companion_screen.table import names, s, seat_name
from game.render.kit.final import Cell, FinalBoard, FinalRow, FinalScene
from game.render.kit.scene import Frame
from game.render.kit.seats import SeatModel, look_of


class FinalStandings(FinalScene):
    name = "cheating_moth_companion_final"

    def board(self, frame: Frame) -> FinalBoard | None:
        m = model_of(frame.snapshot)
        seats = [SeatModel(**look_of(frame.snapshot, seat)) for seat in range(m.n)]
        ranking = m.ranking or tuple(range(m.n))
        places = m.places or tuple(range(1, m.n + 1))
        winners = tuple(seat for seat in ranking if places[seat] == 1)
        total_of = (lambda seat: m.totals[seat] if seat < len(m.totals) else 0)
        if len(winners) == 1:
            headline = s(frame, "final.wins", name=seat_name(frame, winners[0]), n=total_of(winners[0]))
        else:
            headline = s(frame, "final.shared", names=names(frame, winners))
        sep = frame.s("sep")
        rows = tuple(FinalRow(seats[seat], places[seat] == 1, (
            Cell(seat_name(frame, seat), 0.45, px=24),
            Cell(sep.join("–" if v is None else i18n.number(frame.lang, v) for v in (m.rows[seat] if seat < len(m.rows) else ())),
                 0.35, px=20),
            Cell(s(frame, "final.points", n=total_of(seat)), 0.2, bold=True, px=24),
        ), rank=places[seat]) for seat in ranking)
        notes = (s(frame, "pad.lowest", rule="M19"), s(frame, "final.tie"))
        return FinalBoard(s(frame, "final.title"), tuple(seats[w] for w in winners), headline, notes, rows)
