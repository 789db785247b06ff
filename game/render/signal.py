"""The TV's side of "the signal is the start" (M14, M15): a race opens at the instant the TV shows it.

When the session asks for a race and a TV is up (:meth:`RaceSignal.hello`, sent once when the
window opens), the race waits (``RaceNow.waiting``) until the TV reports the flip of the first frame
that shows it (:meth:`RaceSignal.flipped`: an ``InputEvent`` of kind ``SIGNAL`` with the flip time on
the session clock, through the same input path as every key and press). The session takes that
instant as the judge's t0 and lights the lamps then (``RaceFloor.signal``).

:meth:`RaceSignal.front` puts the race in front: the beats running or queued wait behind the base
scene that draws the race, so the first frame after the race arrives is the race (the app draws it
before any other work, such as warming caches).
"""
from __future__ import annotations

from game.clock import monotonic_ms
from game.session.snapshot import InputEvent, InputKind, InputSource, TableSnapshot

from .kit.scene import Director


class RaceSignal:
    """Which race's signal this TV has reported (one report per race)."""

    def __init__(self) -> None:
        self._reported: str | None = None

    @staticmethod
    def hello(on: bool = True) -> InputEvent:
        """Tell the session a TV shows the races' signal (races then open at its flip)."""
        return InputEvent(InputSource.SCREEN, InputKind.SCREEN, None, {"on": on}, monotonic_ms())

    def due(self, snapshot: TableSnapshot | None) -> str | None:
        """The race waiting for this TV's signal, not reported yet."""
        current = snapshot.race.current if snapshot is not None else None
        if current is None or not current.waiting or current.key == self._reported:
            return None
        return current.key

    def front(self, director: Director, snapshot: TableSnapshot | None) -> bool:
        """A race waits for its signal: its scene goes in front of every beat (True: draw it now)."""
        if self.due(snapshot) is None:
            return False
        director.front()
        return True

    def flipped(self, snapshot: TableSnapshot | None, t_ms: float | None = None) -> InputEvent | None:
        """The frame showing ``snapshot`` was just flipped (at ``t_ms``, session clock; now when
        None): the report for the race it showed first, if any."""
        key = self.due(snapshot)
        if key is None:
            return None
        self._reported = key
        return InputEvent(InputSource.SCREEN, InputKind.SIGNAL, None, {"race": key},
                          monotonic_ms() if t_ms is None else t_ms)
