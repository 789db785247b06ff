"""What the session tells its listeners (the WebSocket hub, the TV's link, the kiosk's keeper): each
change as one :class:`~game.session.update.TableUpdate` (its kind says when only the open claims
changed: only the TV and the host consoles show them, the seats' phones get no new state for a
claim), that a seat was taken from its phone and why, a notice for everyone, and (to the hub) a
seat-claim's answer and its end."""
from __future__ import annotations

import enum
from typing import Protocol, runtime_checkable

from .claims import Claim, ClaimEnd
from .seats import SeatRecord
from .update import TableUpdate

__all__ = ["ClaimListener", "Listeners", "NoticeCode", "SessionListener"]


class NoticeCode(enum.Enum):
    KICKED = "kicked"
    TABLE_RESET = "table_reset"
    GAME_STARTED = "game_started"
    GAME_FINISHED = "game_finished"
    NEW_TABLE = "new_table"
    NEW_GROUP = "new_group"  # kiosk: the table was handed to the next group (fresh links and codes)
    SEAT_MOVED = "seat_moved"  # the host handed this seat to another phone
    SEAT_GIVEN = "seat_given"  # the seated phone itself gave its seat to the phone asking for it


class SessionListener(Protocol):
    def updated(self, update: TableUpdate) -> None:
        """The table changed: ``update`` holds everything shown of it (the same object for every listener)."""
        ...

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None: ...

    def notice(self, code: NoticeCode) -> None: ...


@runtime_checkable
class ClaimListener(Protocol):
    """A listener that also seats or sends away phones waiting for the host (the WebSocket hub)."""

    def claim_answered(self, claim: Claim, record: SeatRecord | None) -> None: ...

    def claim_ended(self, claim: Claim, why: ClaimEnd) -> None:
        """``claim`` left the queue unanswered (``why``: expired, replaced by its asker, pushed out,
        its phone gone, the table handed over)."""
        ...


class Listeners(list[SessionListener]):
    """The session's listeners, told in the order they attached."""

    def updated(self, update: TableUpdate) -> None:
        for listener in list(self):
            listener.updated(update)

    def notice(self, code: NoticeCode) -> None:
        for listener in list(self):
            listener.notice(code)

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        for listener in list(self):
            listener.seat_revoked(seat, reason)

    def claim_answered(self, claim: Claim, record: SeatRecord | None) -> None:
        for listener in list(self):
            if isinstance(listener, ClaimListener):
                listener.claim_answered(claim, record)

    def claim_ended(self, claim: Claim, why: ClaimEnd) -> None:
        for listener in list(self):
            if isinstance(listener, ClaimListener):
                listener.claim_ended(claim, why)
