"""What a table answers without changing anything: its phase, timer, how-to, open claims and seats,
links and presence. :class:`Session` (the one writer, ``session.py``) has these as its reads."""
from __future__ import annotations

from typing import Any

from .claims import Claim, ClaimQueue
from .intro import HowToPlay, Intro
from .news import NewsGate
from .seats import SeatRecord
from .snapshot import TablePhase
from .table import TableRecord
from .timers import RunningTimer, TableTimer

__all__ = ["TableReads"]


class TableReads:
    """The session's state as read by the server, the presenter and the tests."""

    table: TableRecord
    base_url: str
    _timer: TableTimer
    _howto: HowToPlay
    _claims: ClaimQueue
    _connected: set[int]
    _news: NewsGate

    @property
    def phase(self) -> TablePhase:
        return self.table.phase

    @property
    def look(self) -> bool:
        """The phones wait for the TV to show the news of the last batch (``news.py``)."""
        return self._news.look

    @property
    def timer(self) -> RunningTimer | None:
        return self._timer.running

    @property
    def intro(self) -> Intro | None:  # the how-to-play on the TV before the game starts
        return self._howto.info

    @property
    def claims(self) -> tuple[Claim, ...]:
        """The open requests as shown: the best ranked first (``claims.py``)."""
        return self._claims.ordered()

    @property
    def offered(self) -> tuple[SeatRecord, ...]:
        return self.table.offered

    def seat_url(self, record: SeatRecord) -> str:
        return f"{self.base_url}/s/{record.token}"

    def seat_by_token(self, token: str) -> SeatRecord | None:
        return self.table.seat_by_token(token) if isinstance(token, str) and token else None

    def seat_by_device(self, key: str) -> SeatRecord | None:  # the seat this phone's device key holds
        return self.table.seat_by_device(key) if isinstance(key, str) and key else None

    def check_pin(self, pin: Any) -> bool:
        return self.table.check_pin(pin)

    def is_connected(self, seat: int) -> bool:
        return seat in self._connected
