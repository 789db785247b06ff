"""The game in play: its engine, seed, seat count and state (:class:`GameRun`), and how a
restarted table rebuilds it from the journal (:func:`replay`)."""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from game.rules.base import GameEngine, GameOver, IllegalAction

from .journal import Saved
from .snapshot import TablePhase

__all__ = ["GameRun", "Replayed", "game_seed", "replay", "require_play"]


@dataclass(frozen=True, slots=True)
class GameRun:
    game_no: int
    engine: GameEngine
    seed: int
    n_seats: int
    state: Any

    def view(self, seat: int | None) -> Any:
        """A seat's view of the game (``None``: the public one)."""
        return self.engine.view(self.state, seat)



@dataclass(frozen=True, slots=True)
class Replayed:
    run: GameRun
    events: tuple[dict[str, Any], ...]  # the wire events of the last journaled action (or of the start)
    event_seq: int  # the version that produced them


def replay(saved: Saved, engine: GameEngine) -> Replayed:
    """Rebuild the journaled game from its seed and actions (``saved.game`` is set)."""
    g = saved.game
    assert g is not None
    state = engine.new_game(engine.settings_from_wire(g.settings, g.preset), g.n_seats, g.seed)
    events, event_seq = engine.start_events(state), g.start_version
    for record in saved.actions:
        state, events = engine.apply(state, record.seat, engine.action_from_wire(record.action))
        event_seq = record.version
    return Replayed(GameRun(g.game_no, engine, g.seed, g.n_seats, state), tuple(engine.events_to_wire(events)), event_seq)


def require_play(run: GameRun | None, phase: TablePhase) -> GameRun:
    """The game in play; none: GameOver (it has ended) or IllegalAction."""
    if phase is TablePhase.FINISHED:
        raise GameOver("the game is over")
    if run is None or phase is not TablePhase.PLAYING:
        raise IllegalAction("no game is in play")
    return run


def game_seed(config_seed: int | None, last_game_no: int | None) -> int:
    """A new game's seed: derived from the configured seed and the game's number (tests, demos), else random."""
    if config_seed is not None:
        return (config_seed + (last_game_no or 0) * 7_919) & ((1 << 62) - 1)
    return secrets.randbits(62)
