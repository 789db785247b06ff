"""Clock sync with one phone (``docs/protocol.md``, "Clock sync"): the server sends
``sync {s}`` at ``t0`` (session clock), the phone answers ``sync_reply {s, t}`` with its own clock
``t`` (= ``t1``), the server notes the arrival ``t2`` and feeds ``ClockSync``. A burst of
:data:`BURST` round trips (one after the other) on join, then :data:`REFRESH` every
:data:`EVERY_S` seconds. Pure bookkeeping: the hub sends and schedules."""
from __future__ import annotations

import contextlib
import itertools
from typing import Any, NamedTuple

from game.rules.base import MalformedAction
from game.session.clocksync import BadSample, ClockSync

BURST = 10  # round trips on join
REFRESH = 3  # round trips every EVERY_S
EVERY_S = 4.0
MAX_PENDING = 8  # unanswered probes kept (older ones are forgotten)
UNSYNCED_ERROR_MS = 250.0  # a press from a phone with no estimate yet: arrival time, this error
SESSION_TICK_MS = 1.0  # the session clock counts whole ms: "now" may read up to this much early


class Stamp(NamedTuple):
    """A phone's claimed time on the session clock. ``clamped``: the claim was earlier than the
    server's evidence allows (arrival minus the measured one-way delay and the clock error, M16)
    and ``t_ms`` is that bound instead."""

    t_ms: float
    error_ms: float
    clamped: bool = False


class PhoneClock:
    """One phone socket's sync state."""

    def __init__(self) -> None:
        self.sync = ClockSync()
        self._tokens = itertools.count(1)
        self._pending: dict[int, float] = {}
        self.left = BURST  # round trips still to do in the current burst

    def probe(self, now_ms: float) -> dict[str, Any]:
        """The next ``sync`` message's body (``s``), remembering when it left."""
        token = next(self._tokens)
        self._pending[token] = now_ms
        if len(self._pending) > MAX_PENDING:
            del self._pending[min(self._pending)]
        self.left -= 1
        return {"s": token}

    def reply(self, token: int, phone_ms: float, now_ms: float) -> bool:
        """A ``sync_reply``; True when another probe of the burst is due now. Unknown tokens and
        impossible samples are ignored (a stale or replayed answer), never an error."""
        sent = self._pending.pop(token, None)
        if sent is None:
            return False
        with contextlib.suppress(BadSample):
            self.sync.add(sent, phone_ms, now_ms)
        return self.left > 0

    def new_burst(self, size: int = REFRESH) -> None:
        self.left = size

    def to_session(self, phone_ms: Any, now_ms: float) -> tuple[float, float]:
        """A phone time as ``(session ms, error bound ms)`` (see :meth:`stamp`)."""
        stamp = self.stamp(phone_ms, now_ms)
        return stamp.t_ms, stamp.error_ms

    def stamp(self, phone_ms: Any, now_ms: float) -> Stamp:
        """A phone time on the session clock, never earlier than the server's own evidence allows:
        ``now_ms`` (the arrival) minus the longest one-way delay measured from this phone and the
        clock error. A modified phone cannot backdate a press further than an honest message could
        have travelled (M16). Arrival time when not synced yet or when the mapping is in the future."""
        if isinstance(phone_ms, bool) or not isinstance(phone_ms, (int, float)):
            raise MalformedAction("'t' must be a number")
        if not self.sync.ready:
            return Stamp(float(now_ms), UNSYNCED_ERROR_MS)
        mapped = self.sync.to_server_ms(phone_ms)
        error = self.sync.error_ms(now_ms)
        if mapped > now_ms + error + SESSION_TICK_MS:
            return Stamp(float(now_ms), UNSYNCED_ERROR_MS)
        earliest = now_ms - (self.sync.upload_ms() + error + SESSION_TICK_MS)
        if mapped < earliest:
            return Stamp(earliest, error, True)
        return Stamp(min(mapped, float(now_ms)), error)
