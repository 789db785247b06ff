"""Limits: a token bucket per socket (``capacity`` messages at once, refilled at ``per_second``)
and a per-address limit on failed guesses."""
from __future__ import annotations

import collections
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RateLimit:
    capacity: float = 30.0
    per_second: float = 10.0


class TokenBucket:
    def __init__(self, limit: RateLimit, clock: Callable[[], float]) -> None:
        self._limit = limit
        self._clock = clock
        self._tokens = limit.capacity
        self._at = clock()

    def take(self) -> bool:
        """Spend one token; False when the bucket is empty (the message must be dropped)."""
        now = self._clock()
        self._tokens = min(self._limit.capacity, self._tokens + (now - self._at) * self._limit.per_second)
        self._at = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True


class FailureLimiter:
    """Failed guesses (join codes, host PINs) per client address: at most ``per_minute`` in any 60 s."""

    def __init__(self, per_minute: int, clock: Callable[[], float]) -> None:
        self._per_minute = per_minute
        self._clock = clock
        self._failures: dict[str, collections.deque[float]] = {}

    def blocked(self, address: str) -> bool:
        recent = self._failures.get(address)
        if not recent:
            return False
        now = self._clock()
        while recent and now - recent[0] > 60.0:
            recent.popleft()
        if not recent:
            del self._failures[address]
        return len(recent) >= self._per_minute

    def failed(self, address: str) -> None:
        self._failures.setdefault(address, collections.deque()).append(self._clock())
