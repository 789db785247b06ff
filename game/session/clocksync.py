"""Phone clock synchronisation: an NTP-style estimator per phone (pure: no clock, no asyncio).

The server sends a ping at ``t0`` (session clock, ms); the phone answers with its own clock
reading ``t1`` (``performance.timeOrigin + performance.now()`` or ``Date.now()``); the server
receives the answer at ``t2``. Whatever the delays, the phone read its clock at some server time
inside ``[t0, t2]``, so the offset ``theta = phone - server`` lies in ``[t1 - t2, t1 - t0]``:
a hard bound, not a guess. Intersecting the bounds of many round trips keeps, in effect, the
sample with the fastest way out and the one with the fastest way back (NTP's "lowest delay
samples", but per direction), which is far tighter than any single round trip under asymmetric
Wi-Fi jitter. The estimate is the middle of the intersection; its **error bound** is half its
width (at most half the lowest round trip) plus a drift term for the time since the samples.

Clocks drift (phones: tens of ppm). With samples spread over ``skew_span_ms`` or more the skew is
measured (from the two halves of the window) and corrected; a residual ``drift_ppm`` widens old
samples' bounds, and stale samples age out. A clock that jumps (the user changed the time)
contradicts the old bounds: the estimator then starts again from the newest sample.

Usage::

    sync = ClockSync()
    sync.add(t0, t1, t2)          # after each ping/pong (every second or so, more at the start)
    sync.to_server_ms(tap_ms)     # a tap's phone time on the session clock
    sync.error_ms(now_ms)         # the bound to report with a race result
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass

SKEW_CHUNKS = 4  # the window is cut into this many chunks to measure the skew


class ClockSyncError(ValueError):
    """Base of the estimator's typed errors."""


class BadSample(ClockSyncError):
    """A sample that cannot be a round trip (answer before the ping, non-finite numbers)."""


class NotSynced(ClockSyncError):
    """No usable samples yet: the phone's clock cannot be mapped."""


@dataclass(frozen=True, slots=True)
class SyncSample:
    t0: float  # server send (session clock)
    t1: float  # phone clock when it answered
    t2: float  # server receive (session clock)

    @property
    def rtt(self) -> float:
        return self.t2 - self.t0

    @property
    def mid(self) -> float:
        return (self.t0 + self.t2) / 2

    @property
    def low(self) -> float:
        """Smallest possible offset (the phone read its clock as late as t2)."""
        return self.t1 - self.t2

    @property
    def high(self) -> float:
        """Largest possible offset (the phone read its clock as early as t0)."""
        return self.t1 - self.t0


@dataclass(frozen=True, slots=True)
class Estimate:
    """``phone = server + offset_ms + skew * (server - ref_ms)``, good to ``error_ms`` at ``ref_ms``."""

    offset_ms: float
    skew: float  # dimensionless (1e-6 = 1 ppm)
    ref_ms: float  # server time the estimate refers to (the newest sample)
    error_ms: float
    drift_ppm: float
    samples: int
    min_rtt_ms: float

    def offset_at(self, server_ms: float) -> float:
        return self.offset_ms + self.skew * (server_ms - self.ref_ms)

    def to_server_ms(self, phone_ms: float) -> float:
        return (phone_ms - self.offset_ms + self.skew * self.ref_ms) / (1.0 + self.skew)

    def error_at(self, server_ms: float) -> float:
        return self.error_ms + self.drift_ppm * 1e-6 * abs(server_ms - self.ref_ms)


@dataclass(frozen=True, slots=True)
class _Interval:
    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low

    @property
    def mid(self) -> float:
        return (self.low + self.high) / 2


class ClockSync:
    """The estimator for one phone. Feed it samples; ask it for the mapping and its error bound."""

    def __init__(
        self,
        *,
        window: int = 128,
        max_age_ms: float = 180_000.0,
        drift_ppm: float = 100.0,
        residual_ppm: float = 5.0,
        max_skew_ppm: float = 300.0,
        skew_span_ms: float = 60_000.0,
        max_rtt_ms: float = 2_000.0,
    ) -> None:
        if window < 2 or max_age_ms <= 0 or min(drift_ppm, residual_ppm, max_skew_ppm) < 0 or max_rtt_ms <= 0:
            raise ValueError("ClockSync needs window >= 2 and positive ages, drift and round trips")
        self.window = window
        self.max_age_ms = max_age_ms
        self.drift_ppm = drift_ppm  # assumed worst drift while the skew is not measured
        self.residual_ppm = residual_ppm  # drift left once the skew is measured
        self.max_skew = max_skew_ppm * 1e-6
        self.skew_span_ms = skew_span_ms
        self.max_rtt_ms = max_rtt_ms
        self._samples: deque[SyncSample] = deque(maxlen=window)
        self._estimate: Estimate | None = None
        self.resets = 0  # clock jumps seen

    # ------------------------------------------------------------------------------- samples
    def add(self, t0: float, t1: float, t2: float) -> Estimate:
        """Record one round trip and return the new estimate; a bad sample raises BadSample."""
        if not all(math.isfinite(v) for v in (t0, t1, t2)):
            raise BadSample("sample times must be finite numbers")
        if t2 < t0:
            raise BadSample(f"the answer came back ({t2}) before the ping left ({t0})")
        if t2 - t0 > self.max_rtt_ms:
            raise BadSample(f"round trip {t2 - t0:.0f} ms is longer than {self.max_rtt_ms:.0f} ms")
        sample = SyncSample(float(t0), float(t1), float(t2))
        late = bool(self._samples) and t0 < self._samples[-1].t0  # overlapping pings answered out of order
        self._samples.append(sample)
        if late:
            self._samples = deque(sorted(self._samples, key=lambda x: x.t0), maxlen=self.window)
        self._drop_stale(max(s.t2 for s in self._samples))
        estimate = self._compute()
        if estimate is None:  # the new bound contradicts the old ones: the phone's clock jumped
            self.resets += 1
            self._samples = deque([sample], maxlen=self.window)
            estimate = self._compute()
        assert estimate is not None
        self._estimate = estimate
        return estimate

    def _drop_stale(self, now: float) -> None:
        while self._samples and now - self._samples[0].t2 > self.max_age_ms:
            self._samples.popleft()

    @property
    def samples(self) -> tuple[SyncSample, ...]:
        return tuple(self._samples)

    @property
    def ready(self) -> bool:
        return self._estimate is not None

    # ---------------------------------------------------------------------------- estimating
    def _intersect(self, samples: list[SyncSample], skew: float, ref: float, ppm: float) -> _Interval | None:
        """Intersect every sample's bound, moved to ``ref`` by ``skew`` and widened by ``ppm`` of
        its age (clock drift the skew does not explain)."""
        low, high = -math.inf, math.inf
        residual = ppm * 1e-6
        for s in samples:
            age = ref - s.mid
            shift = skew * age
            slack = residual * abs(age) + abs(skew) * s.rtt / 2
            low = max(low, s.low + shift - slack)
            high = min(high, s.high + shift + slack)
        return _Interval(low, high) if low <= high else None

    def _skew(self, samples: list[SyncSample]) -> float:
        """The phone clock's rate error: the least-squares slope through the offsets of
        ``SKEW_CHUNKS`` consecutive chunks of the window (each the middle of that chunk's own
        intersection). Widening a chunk's bounds for unknown drift biases its middle towards no
        skew, so the slope is refined with the skew found so far and ever smaller widening.
        0 while the samples span less than ``skew_span_ms``."""
        if len(samples) < 4 * SKEW_CHUNKS or samples[-1].mid - samples[0].mid < self.skew_span_ms:
            return 0.0
        size = len(samples) // SKEW_CHUNKS
        chunks = [samples[i * size : (i + 1) * size] for i in range(SKEW_CHUNKS)]
        skew = 0.0
        for ppm in (self.drift_ppm, self.drift_ppm / 3, self.residual_ppm):
            refined = self._slope(chunks, skew, ppm)
            if refined is None:
                break
            skew = max(-self.max_skew, min(self.max_skew, refined))
        return skew

    def _slope(self, chunks: list[list[SyncSample]], skew: float, ppm: float) -> float | None:
        points: list[tuple[float, float]] = []
        for chunk in chunks:
            at = sum(c.mid for c in chunk) / len(chunk)
            interval = self._intersect(chunk, skew, at, ppm)
            if interval is not None:
                points.append((at, interval.mid))
        if len(points) < 2:
            return None
        mean_t = sum(t for t, _ in points) / len(points)
        mean_o = sum(o for _, o in points) / len(points)
        spread = sum((t - mean_t) ** 2 for t, _ in points)
        if spread <= 0:
            return None
        return sum((t - mean_t) * (o - mean_o) for t, o in points) / spread

    def _compute(self) -> Estimate | None:
        samples = list(self._samples)
        if not samples:
            return None
        ref = samples[-1].mid
        skew = self._skew(samples)
        ppm = self.residual_ppm if skew else self.drift_ppm
        interval = self._intersect(samples, skew, ref, ppm)
        if interval is None:
            skew, ppm = 0.0, self.drift_ppm
            interval = self._intersect(samples, skew, ref, ppm)
        if interval is None:
            return None
        return Estimate(
            offset_ms=interval.mid, skew=skew, ref_ms=ref, error_ms=interval.width / 2,
            drift_ppm=ppm, samples=len(samples), min_rtt_ms=min(s.rtt for s in samples),
        )

    # ------------------------------------------------------------------------------- mapping
    def estimate(self) -> Estimate:
        if self._estimate is None:
            raise NotSynced("no clock samples from this phone yet")
        return self._estimate

    def to_server_ms(self, phone_ms: float) -> float:
        """A phone clock reading on the session clock."""
        return self.estimate().to_server_ms(phone_ms)

    def upload_ms(self) -> float:
        """The longest phone-to-server delay measured among the kept samples: each answer's arrival
        ``t2`` minus its phone reading ``t1`` mapped to the session clock (never below 0). An honest
        message from this phone has not, so far, taken longer than this (plus the mapping's error)."""
        estimate = self.estimate()
        return max(0.0, max(s.t2 - estimate.to_server_ms(s.t1) for s in self._samples))

    def error_ms(self, at_server_ms: float | None = None) -> float:
        """The error bound of :meth:`to_server_ms` near ``at_server_ms`` (default: the newest sample)."""
        estimate = self.estimate()
        return estimate.error_ms if at_server_ms is None else estimate.error_at(at_server_ms)

    def reset(self) -> None:
        """Forget everything (a phone that reconnected from a different device)."""
        self._samples.clear()
        self._estimate = None
