"""Phone clock sync: hard bounds, jumps, drift, and race order under simulated asymmetric jitter."""
from __future__ import annotations

import math
import random
from dataclasses import dataclass

import pytest

from game.session.clocksync import BadSample, ClockSync, NotSynced


@dataclass(frozen=True)
class Phone:
    """A phone clock: ``phone = server * (1 + skew) + offset``."""

    offset: float
    skew: float

    def read(self, server_ms: float) -> float:
        return server_ms * (1 + self.skew) + self.offset


def random_phone(rng: random.Random, ppm: float = 50.0) -> Phone:
    return Phone(rng.uniform(-1e7, 1e7), rng.uniform(-ppm, ppm) * 1e-6)


def sync_phone(phone: Phone, rng: random.Random, start: float, samples: int, every_ms: float,
               up: tuple[float, float] = (5, 60), down: tuple[float, float] = (5, 60)) -> tuple[ClockSync, float]:
    """Ping the phone ``samples`` times; one-way delays uniform in ``up`` / ``down`` (ms)."""
    sync = ClockSync()
    t = start
    for _ in range(samples):
        d_up, d_down = rng.uniform(*up), rng.uniform(*down)
        sync.add(t, phone.read(t + d_up), t + d_up + d_down)
        t += every_ms
    return sync, t


def test_one_sample_bounds_the_offset_by_half_the_round_trip():
    sync = ClockSync()
    estimate = sync.add(1000, 5030, 1040)  # phone read 5030 somewhere between server 1000 and 1040
    assert estimate.offset_ms == pytest.approx(4010) and estimate.error_ms == pytest.approx(20)
    assert sync.to_server_ms(5030) == pytest.approx(1020)
    assert sync.error_ms() == pytest.approx(20) and sync.ready


def test_intersection_is_tighter_than_any_single_round_trip():
    sync = ClockSync()
    true_offset = 500.0
    sync.add(0, 0 + 2 + true_offset, 50)  # fast way out (2 ms), slow way back
    estimate = sync.add(100, 100 + 45 + true_offset, 148)  # slow way out, fast way back (3 ms)
    assert estimate.min_rtt_ms == 48
    assert estimate.error_ms == pytest.approx(2.5, abs=0.01)  # [500 - 3, 500 + 2] (+ drift slack)
    assert abs(estimate.offset_ms - true_offset) <= estimate.error_ms


def test_bad_samples_are_refused_and_nothing_changes():
    sync = ClockSync()
    sync.add(100, 700, 140)
    before = sync.estimate()
    for t0, t1, t2 in ((200, 800, 190), (math.nan, 1, 2), (300, math.inf, 320), (400, 1000, 9000)):
        with pytest.raises(BadSample):
            sync.add(t0, t1, t2)
    assert sync.estimate() == before and len(sync.samples) == 1


def test_not_synced_until_the_first_sample():
    sync = ClockSync()
    assert not sync.ready
    with pytest.raises(NotSynced):
        sync.to_server_ms(5)
    sync.add(0, 10, 10)
    sync.reset()
    with pytest.raises(NotSynced):
        sync.error_ms()
    with pytest.raises(ValueError):
        ClockSync(window=1)


def test_a_clock_jump_starts_again_from_the_newest_sample():
    rng = random.Random(3)
    phone = Phone(1000.0, 0.0)
    sync, t = sync_phone(phone, rng, 0, 20, 200)
    jumped = Phone(phone.offset + 3_600_000, 0.0)  # the user moved the phone's clock an hour
    for _ in range(10):
        sync.add(t, jumped.read(t + 10), t + 20)
        t += 200
    assert sync.resets == 1
    assert abs(sync.estimate().offset_ms - jumped.offset) <= sync.estimate().error_ms + 1e-9


def test_old_samples_age_out():
    sync = ClockSync(max_age_ms=10_000)
    for i in range(30):
        sync.add(i * 1000, i * 1000 + 7, i * 1000 + 10)
    assert len(sync.samples) == 11
    assert ClockSync(window=8).add(0, 0, 1) and len(ClockSync(window=8).samples) == 0


def test_drift_is_measured_over_a_long_game():
    rng = random.Random(11)
    worst = 0.0
    for _ in range(6):
        phone = Phone(rng.uniform(-1e6, 1e6), rng.choice([-1, 1]) * 90e-6)  # a bad phone clock: 90 ppm
        sync, t = sync_phone(phone, rng, 0, 150, 1000)  # one ping a second for 2.5 minutes
        assert sync.estimate().skew == pytest.approx(phone.skew, abs=45e-6)  # measured, not assumed 0
        tap = t + 2000
        error = abs(sync.to_server_ms(phone.read(tap)) - tap)
        assert error <= sync.error_ms(tap)
        worst = max(worst, error)
    assert worst < 5


@pytest.mark.parametrize("up,down", [((5, 60), (5, 60)), ((5, 20), (20, 60)), ((30, 60), (5, 10))])
def test_judged_order_matches_true_order_for_taps_10ms_apart(up, down):
    """Two phones, asymmetric random delays 5–60 ms one way: taps >= 10 ms apart keep their order
    once each phone has had a short burst of pings (40 round trips, 150 ms apart)."""
    rng = random.Random(hash((up, down)) & 0xFFFF)
    checked = 0
    for trial in range(60):
        a, b = random_phone(rng), random_phone(rng)
        sync_a, t_a = sync_phone(a, rng, 0, 40, 150, up, down)
        sync_b, t_b = sync_phone(b, rng, 10, 40, 150, up, down)
        base = max(t_a, t_b) + rng.uniform(0, 3000)
        for gap in (10, 11, 15, 40):
            first, second = (a, sync_a), (b, sync_b)
            if trial % 2:
                first, second = second, first
            tap_1, tap_2 = base, base + gap
            judged_1 = first[1].to_server_ms(first[0].read(tap_1))
            judged_2 = second[1].to_server_ms(second[0].read(tap_2))
            assert judged_1 < judged_2, (trial, gap, judged_1 - tap_1, judged_2 - tap_2)
            for sync, _phone, tap, judged in ((first[1], first[0], tap_1, judged_1), (second[1], second[0], tap_2, judged_2)):
                assert abs(judged - tap) <= sync.error_ms(tap)  # the bound holds
            checked += 1
    assert checked == 240


def test_error_bound_shrinks_with_more_round_trips():
    rng = random.Random(5)
    phone = random_phone(rng)
    sync = ClockSync()
    bounds = []
    t = 0.0
    for _i in range(60):
        d_up, d_down = rng.uniform(5, 60), rng.uniform(5, 60)
        bounds.append(sync.add(t, phone.read(t + d_up), t + d_up + d_down).error_ms)
        t += 150
    assert bounds[-1] < bounds[0] and bounds[-1] <= bounds[9] and bounds[-1] < 15


def test_overlapping_pings_may_be_answered_out_of_order():
    rng = random.Random(8)
    phone = random_phone(rng)
    trips = []
    for i in range(30):
        t0 = i * 20.0  # a ping every 20 ms: several in flight at once
        d_up, d_down = rng.uniform(5, 60), rng.uniform(5, 60)
        trips.append((t0, phone.read(t0 + d_up), t0 + d_up + d_down))
    in_order, by_arrival = ClockSync(), ClockSync()
    for trip in trips:
        in_order.add(*trip)
    for trip in sorted(trips, key=lambda x: x[2]):
        by_arrival.add(*trip)
    assert by_arrival.estimate().offset_ms == pytest.approx(in_order.estimate().offset_ms)
    assert by_arrival.samples == in_order.samples
