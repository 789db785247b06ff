"""Test helpers for the session tests."""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from game.session.scheduler import Outcome, VirtualTime
from game.session.session import NoticeCode
from game.session.update import TableUpdate, UpdateKind


class FakeClock:
    def __init__(self, start: int = 1_000) -> None:
        self.now = start

    def __call__(self) -> int:
        return self.now


class Recorder:
    """A session listener that records what it is told."""

    def __init__(self) -> None:
        self.changes = 0
        self.revoked: list[int] = []
        self.notices: list[NoticeCode] = []
        self.answered: list[tuple[object, object]] = []
        self.ended: list[tuple[object, object]] = []
        self.claim_changes = 0

    def updated(self, update: TableUpdate) -> None:
        if update.kind is UpdateKind.CLAIMS:
            self.claim_changes += 1
        else:
            self.changes += 1

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        self.revoked.append(seat)

    def claim_answered(self, claim: object, record: object) -> None:
        self.answered.append((claim, record))

    def claim_ended(self, claim: object, why: object) -> None:
        self.ended.append((claim, why))

    def notice(self, code: NoticeCode) -> None:
        self.notices.append(code)


class HeldTime(VirtualTime):
    """Virtual time whose off-loop work (a search bot's move) waits in a queue until :meth:`finish`
    runs it: a stand-in for the thread executor, the table goes on meanwhile."""

    def __init__(self, start_ms: int = 1_000_000) -> None:
        super().__init__(start_ms)
        self.held: list[tuple[Callable[[], Any], Callable[[Outcome[Any]], None]]] = []

    def off_loop(self, work: Callable[[], Any], done: Callable[[Outcome[Any]], None]) -> None:
        self.held.append((work, done))

    def finish(self) -> None:
        """Every held work runs, then its answer comes back (in the order asked)."""
        held, self.held = self.held, []
        for work, done in held:
            outcome: Future[Any] = Future()
            try:
                outcome.set_result(work())
            except RuntimeError as exc:  # a bot's bug comes back like an executor's
                outcome.set_exception(exc)
            done(outcome)
