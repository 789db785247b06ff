"""When the session's delayed work runs: game timers, bot reaction times, race decisions.

Everything the session does later goes through a :class:`Scheduler`. At the table it is the
asyncio loop (:class:`LoopScheduler`); in tests and simulations it is :class:`VirtualTime`, a
clock that only moves when told to, so nothing waits on real time.

Work that may take long (a search bot's move) goes through :meth:`Scheduler.off_loop`: the loop
runs it in a thread executor and hands the outcome back on the loop; :class:`VirtualTime` runs it
at once, so tests stay deterministic.
"""
from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from game.clock import monotonic_ms

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


def wall_ms() -> int:
    """Epoch milliseconds: for deadlines that must survive a restart (the monotonic clock does not)."""
    return time.time_ns() // 1_000_000


def session_ms() -> int:
    """The session clock: :func:`monotonic_ms` in whole milliseconds (journal, timers, views)."""
    return int(monotonic_ms())


class Handle(Protocol):
    def cancel(self) -> None: ...


class Outcome(Protocol[T_co]):
    """What off-loop work came to: ``result()`` returns its value or raises its exception."""

    def result(self) -> T_co: ...


class Scheduler(Protocol):
    def call_later(self, delay_ms: float, callback: Callable[[], None]) -> Handle:
        """Run ``callback`` after ``delay_ms`` (on the session's loop); cancel with the handle."""
        ...

    def off_loop(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> None:
        """Run ``work`` where it cannot hold up the session's loop, then ``done(outcome)`` on the loop."""
        ...


class LoopScheduler:
    """The real thing: the running asyncio loop's ``call_later``; off-loop work runs in
    ``executor`` (by default one worker thread of its own, made when first needed)."""

    def __init__(self, executor: Executor | None = None) -> None:
        self._executor = executor

    def call_later(self, delay_ms: float, callback: Callable[[], None]) -> Handle:
        return asyncio.get_running_loop().call_later(max(0.0, delay_ms) / 1000, callback)

    def off_loop(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bot-think")
        asyncio.get_running_loop().run_in_executor(self._executor, work).add_done_callback(done)


@dataclass(order=True, slots=True)
class _Due:
    at_ms: float
    seq: int
    callback: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class VirtualTime:
    """A clock and a scheduler in one, for tests: ``now_ms()`` is the session clock and time only
    moves in :meth:`advance` (callbacks run in time order, each seeing the clock at its due time)."""

    def __init__(self, start_ms: int = 1_000_000) -> None:
        self._now = float(start_ms)
        self._queue: list[_Due] = []
        self._seq = itertools.count()

    def now_ms(self) -> int:
        return int(self._now)

    __call__ = now_ms  # usable wherever a ``clock`` callable is asked for

    def call_later(self, delay_ms: float, callback: Callable[[], None]) -> Handle:
        due = _Due(self._now + max(0.0, delay_ms), next(self._seq), callback)
        heapq.heappush(self._queue, due)
        return due

    def off_loop(self, work: Callable[[], T], done: Callable[[Outcome[T]], None]) -> None:
        """At once, in the caller's turn: virtual time does not move while work runs."""
        outcome: Future[T] = Future()
        try:
            outcome.set_result(work())
        except Exception as exc:  # handed to ``done`` like an executor's outcome
            outcome.set_exception(exc)
        done(outcome)

    def pending(self) -> int:
        return sum(1 for d in self._queue if not d.cancelled)

    def next_due_ms(self) -> float | None:
        live = [d.at_ms for d in self._queue if not d.cancelled]
        return min(live) if live else None

    def advance(self, ms: float) -> None:
        """Move the clock ``ms`` forward, running every callback that falls due on the way."""
        end = self._now + max(0.0, ms)
        while self._queue and self._queue[0].at_ms <= end:
            due = heapq.heappop(self._queue)
            if due.cancelled:
                continue
            self._now = max(self._now, due.at_ms)
            due.callback()
        self._now = end

    def run_until(self, done: Callable[[], bool], *, limit_ms: float = 3_600_000) -> None:
        """Advance from one due callback to the next until ``done()`` (or ``limit_ms`` passed:
        AssertionError, with nothing left to run or too long)."""
        end = self._now + limit_ms
        while not done():
            upcoming = self.next_due_ms()
            if upcoming is None or upcoming > end:
                raise AssertionError("nothing left to run" if upcoming is None else f"not done within {limit_ms} ms")
            self.advance(upcoming - self._now)
