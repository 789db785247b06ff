"""Limits: a token bucket per socket (``capacity`` messages at once, refilled at ``per_second``),
and backoffs on failed guesses (per address, and per target for the admin PIN)."""
from __future__ import annotations

import secrets
from collections import OrderedDict
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


class Backoff:
    """Failed guesses by key (an address, or a target such as the admin PIN). The first ``free``
    failures cost nothing; each one after doubles the wait before the next try (``base_s``,
    2 × ``base_s``, … up to ``max_s``). A key that stays quiet for ``quiet_s`` after its wait is
    forgiven. A key with no failures never waits."""

    def __init__(self, clock: Callable[[], float], *, free: int, base_s: float = 1.0, max_s: float = 300.0,
                 quiet_s: float = 60.0) -> None:
        self._clock = clock
        self._free, self._base_s, self._max_s, self._quiet_s = free, base_s, max_s, quiet_s
        self._failures: dict[object, tuple[int, float]] = {}  # key -> (count, time of the last)

    def _penalty(self, count: int) -> float:
        return 0.0 if count < self._free else min(self._max_s, self._base_s * 2.0 ** (count - self._free))

    def failures(self, key: object) -> int:
        entry = self._failures.get(key)
        if entry is None:
            return 0
        count, last = entry
        if self._clock() - last >= self._penalty(count) + self._quiet_s:
            del self._failures[key]
            return 0
        return count

    def wait_s(self, key: object) -> float:
        """Seconds before ``key`` may try again (0: now)."""
        count = self.failures(key)
        if count == 0:
            return 0.0
        return max(0.0, self._failures[key][1] + self._penalty(count) - self._clock())

    def failed(self, key: object) -> None:
        self._failures[key] = (self.failures(key) + 1, self._clock())

    def forget(self, key: object) -> None:
        self._failures.pop(key, None)


PIN_TARGET = "admin-pin"


STAFF_DEVICES = 32  # staff keys remembered (the newest kept)
SLIPS_FORGIVEN = 1  # an address's own wrong PINs before the table-wide backoff may hold it back


class PinGuard:
    """Wrong admin PINs, counted per address and per device, so that nobody is locked out by
    someone else's guesses.

    * Per address: a backoff of its own (``per_address`` free tries).
    * Table-wide: every unknown device's failures together (``table_wide`` free), which holds back
      only addresses that have themselves failed more than :data:`SLIPS_FORGIVEN` times: a
      neighbour's guessing never locks out the right PIN from a device that has not guessed wrong,
      nor a host who mistyped once.
    * Per device: a device that once gave the right PIN gets a staff key (144 random bits, sent
      back in the welcome and by the console in its next hellos). A known key is judged by its own
      backoff only: a staff phone is never held back by other devices' guesses, whatever its
      address, and its own mistakes never count towards the table-wide backoff."""

    def __init__(self, clock: Callable[[], float], *, per_address: int = 5, table_wide: int = 20) -> None:
        self.by_address = Backoff(clock, free=per_address)
        self.by_device = Backoff(clock, free=per_address)
        self.target = Backoff(clock, free=table_wide)
        self._staff: OrderedDict[str, None] = OrderedDict()

    def known(self, device: str | None) -> bool:
        return bool(device) and device in self._staff

    def wait_s(self, address: str, device: str | None = None) -> float:
        if device is not None and self.known(device):
            return self.by_device.wait_s(device)
        own = self.by_address.wait_s(address)
        if own > 0 or self.by_address.failures(address) <= SLIPS_FORGIVEN:
            return own
        return self.target.wait_s(PIN_TARGET)

    def blocked(self, address: str, device: str | None = None) -> bool:
        return self.wait_s(address, device) > 0

    def failed(self, address: str, device: str | None = None) -> None:
        if device is not None and self.known(device):
            self.by_device.failed(device)
            return
        self.by_address.failed(address)
        self.target.failed(PIN_TARGET)

    def succeeded(self, address: str, device: str | None = None) -> str:
        """The right PIN: this address's and device's failures forgiven; returns the device's staff
        key (its own if it had one, else a new one)."""
        self.by_address.forget(address)
        if device is not None and self.known(device):
            self.by_device.forget(device)
            self._staff.move_to_end(device)
            return device
        key = secrets.token_urlsafe(18)
        self._staff[key] = None
        while len(self._staff) > STAFF_DEVICES:
            self._staff.popitem(last=False)
        return key
