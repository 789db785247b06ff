"""Toy Guess's scripted moments (T1–T4), recorded from a real session like every game's
(``game/tapes.py``): the lobby, a round with picks made, and the end."""
from __future__ import annotations

from collections.abc import Iterator

from game.tapes import Moment, ScriptedTable, Tapes, lobby_snapshot

GAME = "toy_guess"


def moments(language: str = "en") -> Iterator[Moment]:
    yield Moment("01_lobby", (lobby_snapshot(4, language, game=GAME),))
    t = ScriptedTable(GAME, 4, language, people=2, bots=2)
    t.start()
    start = t.snapshot()
    t.act(0, {"type": "pick", "number": 3})
    yield Moment("02_picking", (start, t.snapshot()), play_s=0.5)
    t.play_to_the_end()
    yield Moment("03_game_over", (t.snapshot(),), play_s=0.5)


TAPES = Tapes(moments)
