"""The TV is never more than a moment behind the table: the pacing rule the :class:`Director` applies
to its beats (DESIGN: "The TV never builds a backlog: behind the table, it skips to what matters now").

Every beat is stamped with the batch of the table's events that called for it (the snapshot's
``event_seq``). When a newer batch brings beats of its own while older ones still run or wait, the
table has moved on:

- a beat already running is cut to its tail (its last :data:`TAIL_S`: the outcome it tells, the
  deaths, the verdict, not the build-up);
- of the older beats still waiting, the newest ones are kept while their tails fit in
  :data:`BACKLOG_S`, each cut to its tail; older ones are dropped (the latest state tells them);
- the new batch's beats play in full (the reveal that matters now).

So whatever the table's pace, the TV starts the newest outcome within about ``TAIL_S + BACKLOG_S``.

The ending is the story's last word: when the base scene becomes one that ``announces`` itself (a
game's final screen), every older beat, running or waiting, is dropped and only the last batch's
beats (the reveal that ended the game) play before it; no overlay of an earlier scene (a flight's
caption, a race's panel) is ever drawn over it. Overlays belong to the base they were queued over:
any change of base scene drops them.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .scene import Scene

TAIL_S = 1.0  # a superseded beat still shows its last this-many seconds: its outcome
BACKLOG_S = 1.0  # superseded beats still waiting: at most this many seconds of their tails


def cut_to_tail(scene: Scene) -> None:
    """Let ``scene`` play only its last :data:`TAIL_S` seconds (from wherever it is now)."""
    if scene.duration_s is not None:
        scene.t = max(scene.t, scene.duration_s - TAIL_S)


def tail_s(scene: Scene) -> float:
    """How long ``scene`` has left to play once cut to its tail."""
    if scene.duration_s is None:
        return 0.0
    return max(0.0, min(TAIL_S, scene.duration_s - scene.t))


def superseded(running: Sequence[Scene], waiting: Sequence[Scene]) -> list[Scene]:
    """A newer batch with beats of its own arrived: cut ``running`` beats to their tails and return
    the ``waiting`` beats still worth showing (the newest whose tails fit in :data:`BACKLOG_S`,
    in their order, each cut to its tail)."""
    for scene in running:
        cut_to_tail(scene)
    kept: list[Scene] = []
    budget = BACKLOG_S
    for scene in reversed(waiting):
        cost = tail_s(scene)
        if cost > budget + 1e-9:
            break
        budget -= cost
        cut_to_tail(scene)
        kept.append(scene)
    kept.reverse()
    return kept


def told(scene: Scene) -> bool:
    """Whether ``scene`` has told its news: its outcome is on screen (``Scene.told_s``, at the latest
    where its tail starts) or it is not a timed beat."""
    if scene.duration_s is None:
        return True
    return scene.t >= min(scene.told_s, scene.duration_s - TAIL_S) - 1e-9


def behind_s(running: Sequence[Scene], waiting: Sequence[Scene]) -> float:
    """Seconds of beats left before the TV shows the table as it is now (running and waiting)."""
    left = sum(max(0.0, (s.duration_s or 0.0) - s.t) for s in running)
    return left + sum(max(0.0, (s.duration_s or 0.0) - s.t) for s in waiting)
