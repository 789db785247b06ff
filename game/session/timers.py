"""The session's one game timer, following :class:`~game.rules.base.TimerRequest` key semantics:
the same key keeps the running timer, a new key restarts it, ``None`` cancels it."""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from game.rules.base import RaceRequest, TimerRequest

from .journal import Journal, JournalError, SavedTimer
from .race_floor import race_timer_key
from .scheduler import Handle, Scheduler
from .snapshot import TimerInfo

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RunningTimer:
    request: TimerRequest
    deadline_ms: int

    @property
    def info(self) -> TimerInfo:
        r = self.request
        return TimerInfo(key=r.key, label=r.label, duration_ms=r.duration_ms, deadline_ms=self.deadline_ms)

    def to_json(self, now_ms: int) -> dict[str, Any]:
        r = self.request
        return {"key": r.key, "label": r.label, "duration_ms": r.duration_ms,
                "remaining_ms": max(0, self.deadline_ms - now_ms), "deadline_ms": self.deadline_ms}


class GameTimer:
    """Runs at most one timer on the scheduler; calls ``on_expiry(request)`` when it runs out."""

    def __init__(self, clock: Callable[[], int], scheduler: Scheduler,
                 on_expiry: Callable[[TimerRequest], None]) -> None:
        self._clock = clock
        self._scheduler = scheduler
        self._on_expiry = on_expiry
        self._running: RunningTimer | None = None
        self._handle: Handle | None = None

    @property
    def running(self) -> RunningTimer | None:
        return self._running

    def sync(self, request: TimerRequest | None, remaining_ms: int | None = None) -> None:
        """Follow the engine's request; a new timer runs ``remaining_ms`` (a resumed one) or its
        full duration."""
        if request is None:
            self.cancel()
            return
        if self._running is not None and self._running.request.key == request.key:
            return
        self.cancel()
        left = max(0, request.duration_ms if remaining_ms is None else remaining_ms)
        self._running = RunningTimer(request, self._clock() + left)
        self._handle = self._scheduler.call_later(left, partial(self._fire, request.key))

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        self._handle = None
        self._running = None

    def _fire(self, key: str) -> None:
        running = self._running
        if running is None or running.request.key != key:
            return
        self._handle = None
        self._running = None
        self._on_expiry(running.request)


def table_request(engine_timer: TimerRequest | None, race: RaceRequest | None,
                  factor: float = 1.0) -> TimerRequest | None:
    """The one timer the table shows: a running race's timeout, else the engine's timer, given
    ``factor`` times its duration (the table's extended timers). A race keeps its window: the
    engine that decides it counts a press by its own timeout (M14), and its judging never changes."""
    if race is not None:
        return TimerRequest(race_timer_key(race), race.timeout_ms, None, race.label)
    if engine_timer is None or factor == 1.0:
        return engine_timer
    return replace(engine_timer, duration_ms=round(engine_timer.duration_ms * factor))


class TableTimer(GameTimer):
    """The table's timer. A new game timer's deadline is journaled on the wall clock, so after a
    restart the same timer resumes with what was left of it (:attr:`resumed`: the journaled one)."""

    def __init__(self, clock: Callable[[], int], scheduler: Scheduler, on_expiry: Callable[[TimerRequest], None],
                 wall: Callable[[], int], journal: Journal | None) -> None:
        super().__init__(clock, scheduler, on_expiry)
        self._wall = wall
        self._journal = journal
        self.resumed: SavedTimer | None = None

    def follow(self, game_no: int | None, request: TimerRequest | None) -> None:
        """Follow the request of game ``game_no`` (``None``: no game in play)."""
        running = self.running
        if game_no is None or request is None or request.on_expiry is None or (
                running is not None and running.request.key == request.key):
            self.sync(request)
            return
        resumed, self.resumed = self.resumed, None
        if resumed is not None and (resumed.game_no, resumed.key) == (game_no, request.key):
            self.sync(request, min(request.duration_ms, max(0, resumed.deadline_wall_ms - self._wall())))
            return
        self.sync(request)
        if self._journal is not None:
            try:
                self._journal.save_timer(SavedTimer(game_no, request.key, self._wall() + request.duration_ms))
            except JournalError as exc:
                log.warning("timer deadline not journaled (a restart would give it afresh): %s", exc)
