"""Cheating Moth companion on the big screen (real cards on the table): whose turn, the guard, the
round, the races with every margin and time source, the score pad with its corrections, the final
standings. The app finds this module through the game's descriptor."""
from __future__ import annotations

from game.games.cheating_moth.companion_screen.final import FinalStandings
from game.games.cheating_moth.companion_screen.model import model_of
from game.games.cheating_moth.companion_screen.table import CompanionScene
from game.render.kit.scene import Scene
from game.session.snapshot import TableSnapshot

__all__ = ["beats_for", "choose_base"]


def choose_base(snapshot: TableSnapshot) -> Scene:
    return FinalStandings() if model_of(snapshot).phase == "game_over" else CompanionScene()


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    return []  # the race verdicts stay on the table scene until the next turn: nothing to time
