"""Test helpers for the session tests."""
from __future__ import annotations

from game.session.session import NoticeCode


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

    def table_changed(self) -> None:
        self.changes += 1

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        self.revoked.append(seat)

    def claim_answered(self, claim: object, record: object) -> None:
        self.answered.append((claim, record))

    def claim_ended(self, claim: object, why: object) -> None:
        self.ended.append((claim, why))

    def claims_changed(self) -> None:
        self.claim_changes += 1

    def notice(self, code: NoticeCode) -> None:
        self.notices.append(code)
