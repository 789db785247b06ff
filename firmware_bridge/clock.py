"""Device-clock → session-clock conversion for the arcade board.

The bridge asks the board for its clock (``CLK <token>``) and notes when it sent the request and
when the answer came back, on the session clock. The device read its clock somewhere in between,
so the midpoint is the best guess, off by at most half the round trip. Only the best (shortest
round-trip) samples are kept; with samples spread over time the device crystal's rate error
(typically 20–100 ppm) is fitted too. Pure: no clock is read here.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from game.session.board_events import SCAN_RESOLUTION_MS  # the firmware's timestamps are exact to this

RATE_UNKNOWN = 1e-4  # a USB board's crystal is within 100 ppm of nominal
RATE_FITTED = 1e-5  # what is left after fitting the rate
GOOD_RTT_SLACK_MS = 0.1  # a sample within 2 x best round trip + this is "good"


@dataclass(frozen=True, slots=True)
class ClockSample:
    sent_ms: float  # session clock when the request left
    received_ms: float  # session clock when the answer arrived
    device_us: int

    @property
    def rtt_ms(self) -> float:
        return self.received_ms - self.sent_ms

    @property
    def mid_ms(self) -> float:
        return (self.sent_ms + self.received_ms) / 2


@dataclass(frozen=True, slots=True)
class ClockMap:
    """An affine map device µs → session ms, with its uncertainty: ``error_ms`` at the reference
    point, growing by ``drift`` (ms per ms, the bound on the unmodelled crystal rate error) away
    from it."""

    device_ref_us: int
    session_ref_ms: float
    rate: float  # session ms per device ms (1.0 = same speed)
    error_ms: float
    drift: float = RATE_UNKNOWN
    version: int = 0  # which fit of its ClockSync this is (same version: same map)

    def to_session_ms(self, device_us: int) -> float:
        return self.session_ref_ms + (device_us - self.device_ref_us) / 1000.0 * self.rate

    def to_device_us(self, session_ms: float) -> int:
        return self.device_ref_us + round((session_ms - self.session_ref_ms) * 1000.0 / self.rate)

    def error_at(self, device_us: int) -> float:
        return self.error_ms + abs(device_us - self.device_ref_us) / 1000.0 * self.drift


class ClockSync:
    """Keeps recent samples and derives the current :class:`ClockMap`.

    Samples whose round trip is close to the best one are "good"; the crystal rate is fitted over
    the good samples once they span ``min_span_for_rate_ms``; the reference is the good sample that
    gives the smallest error *now* (a fast one, not too old). ``freeze()`` pins the map (the bridge
    does this while a race is armed, so every press in one race is converted by the same map and
    margins are exact device differences); ``thaw()`` lets new samples refine it again.
    """

    def __init__(self, *, keep: int = 64, min_span_for_rate_ms: float = 10_000.0) -> None:
        self._samples: deque[ClockSample] = deque(maxlen=keep)
        self._min_span = min_span_for_rate_ms
        self._frozen: ClockMap | None = None
        self._current: ClockMap | None = None
        self._fits = 0

    def reset(self) -> None:
        self._samples.clear()
        self._frozen = self._current = None

    def add(self, sample: ClockSample) -> None:
        if sample.rtt_ms < 0:
            raise ValueError("clock sample received before it was sent")
        self._samples.append(sample)
        self._current = self._fit()

    @property
    def ready(self) -> bool:
        return self._current is not None

    @property
    def samples(self) -> int:
        return len(self._samples)

    def map(self) -> ClockMap:
        m = self._frozen or self._current
        if m is None:
            raise LookupError("no clock sample yet")
        return m

    def freeze(self) -> None:
        self._frozen = self._current

    def thaw(self) -> None:
        self._frozen = None

    def _fit(self) -> ClockMap:
        best_rtt = min(s.rtt_ms for s in self._samples)
        good = [s for s in self._samples if s.rtt_ms <= 2 * best_rtt + GOOD_RTT_SLACK_MS]
        rate = self._rate(good)
        drift = RATE_FITTED if rate is not None else RATE_UNKNOWN
        newest = max(s.device_us for s in self._samples)

        def error_now(s: ClockSample) -> float:
            return s.rtt_ms / 2 + (newest - s.device_us) / 1000.0 * drift

        anchor = min(good, key=error_now)
        self._fits += 1
        error = anchor.rtt_ms / 2 + SCAN_RESOLUTION_MS
        return ClockMap(anchor.device_us, anchor.mid_ms, rate or 1.0, error, drift, self._fits)

    def _rate(self, good: list[ClockSample]) -> float | None:
        """Least-squares slope session-ms per device-ms (None while the samples span too little)."""
        xs = [s.device_us / 1000.0 for s in good]
        ys = [s.mid_ms for s in good]
        if len(good) < 3 or max(xs) - min(xs) < self._min_span:
            return None
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        return slope if 0.999 < slope < 1.001 else None  # beyond 1000 ppm it is noise, not a crystal
