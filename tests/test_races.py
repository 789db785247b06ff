"""The race judge (M14–M16): one interface for arcade, phone and keyboard presses."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.session.race_floor import (
    FalseStart,
    Press,
    PressSource,
    PressVerdict,
    RaceError,
    RaceJudge,
    RaceMode,
)

A, P, K = PressSource.ARCADE, PressSource.PHONE, PressSource.KEYBOARD


def armed(seats=(0, 1, 2), at=1000.0, timeout=5000.0, **kw) -> RaceJudge:
    judge = RaceJudge()
    judge.arm("r1", seats, at, timeout, **kw)
    return judge


def test_order_times_and_margins_from_press_times_not_arrival():
    judge = armed()
    assert judge.press(Press(2, 1300.0, A, 0.2)) is PressVerdict.ACCEPTED
    assert judge.press(Press(0, 1250.5, A, 0.2)) is PressVerdict.ACCEPTED
    assert judge.press(Press(1, 1251.5, A, 0.2)) is PressVerdict.ACCEPTED
    out = judge.result()
    assert out.order == (0, 1, 2)
    assert out.margins_ms == pytest.approx((1.0, 48.5))
    assert out.times_ms[1] == 1251.5
    assert out.reaction_ms(0) == pytest.approx(250.5)
    assert out.error_bound_ms == pytest.approx(0.2)
    assert out.ties == () and out.missing == () and out.winner == 0


def test_first_valid_press_per_seat_counts_even_if_it_arrives_later():
    judge = armed()
    assert judge.press(Press(1, 1400.0, A)) is PressVerdict.ACCEPTED
    assert judge.press(Press(1, 1500.0, A)) is PressVerdict.DUPLICATE
    assert judge.press(Press(1, 1350.0, A)) is PressVerdict.ACCEPTED  # earlier, delivered late
    assert judge.result().times_ms[1] == 1350.0


def test_M16_most_precise_source_wins_per_seat():
    judge = armed()
    assert judge.press(Press(0, 1100.0, K, 16)) is PressVerdict.ACCEPTED
    assert judge.press(Press(0, 1120.0, P, 5)) is PressVerdict.ACCEPTED
    assert judge.press(Press(0, 1130.0, A, 0.2)) is PressVerdict.ACCEPTED
    assert judge.press(Press(0, 1090.0, P, 5)) is PressVerdict.DUPLICATE  # earlier but less precise
    out = judge.result()
    assert out.times_ms[0] == 1130.0 and out.source_per_seat[0] is A


def test_false_starts_are_reported_and_ignored_and_seat_may_still_press():
    judge = armed()
    assert judge.press(Press(1, 990.0, A)) is PressVerdict.FALSE_START
    assert judge.press(Press(1, 1200.0, A)) is PressVerdict.ACCEPTED
    out = judge.result()
    assert out.false_starts == (FalseStart(1, 990.0, A, 10.0),)
    assert out.order == (1,)


def test_presses_shortly_before_arming_become_false_starts_of_the_next_race():
    judge = RaceJudge(false_start_window_ms=500)
    assert judge.press(Press(0, 400.0, P)) is PressVerdict.NOT_ARMED  # outside the window
    assert judge.press(Press(1, 900.0, P)) is PressVerdict.NOT_ARMED
    assert judge.press(Press(3, 950.0, P)) is PressVerdict.NOT_ARMED  # not eligible next race
    judge.arm("r", {0, 1, 2}, 1000.0, 5000.0)
    assert [f.seat for f in judge.result().false_starts] == [1]


def test_not_eligible_not_armed_wrong_race_and_too_late():
    judge = armed(seats=(0, 1), timeout=100)
    assert judge.press(Press(5, 1010.0, A)) is PressVerdict.NOT_ELIGIBLE
    assert judge.press(Press(0, 1010.0, A, race_id="other")) is PressVerdict.NOT_ARMED
    assert judge.press(Press(0, 1100.0, A)) is PressVerdict.TOO_LATE
    assert judge.press(Press(0, 1099.0, A, race_id="r1")) is PressVerdict.ACCEPTED


def test_M14_all_mode_completes_after_everyone_plus_settle_or_at_timeout():
    judge = armed(seats=(0, 1), settle_ms=100)
    judge.press(Press(0, 1200.0, P))
    assert not judge.is_complete(1300.0)
    judge.press(Press(1, 1250.0, P))
    assert not judge.is_complete(1349.0)
    assert judge.is_complete(1350.0)

    late = armed(seats=(0, 1, 2), timeout=5000)
    late.press(Press(2, 1500.0, A))
    assert not late.is_complete(5999.0)
    assert late.is_complete(6000.0)
    out = late.result(now_ms=6000.0)
    assert out.missing == (0, 1) and out.timed_out and out.order == (2,)


def test_M15_first_mode_decided_after_settle_and_late_faster_press_still_wins():
    judge = armed(mode=RaceMode.FASTEST_WINS, settle_ms=200)
    judge.press(Press(1, 1300.0, P, 8))
    assert not judge.is_complete(1450.0)
    assert judge.press(Press(2, 1280.0, P, 8)) is PressVerdict.ACCEPTED  # faster, arrived later
    assert judge.press(Press(0, 1600.0, P, 8)) is PressVerdict.TOO_LATE  # after it was decided
    assert judge.is_complete(1480.0)
    assert judge.result().winner == 2


def test_ties_within_error_are_reported():
    judge = armed(seats=(0, 1, 2, 3))
    judge.press(Press(0, 1100.0, P, 5))
    judge.press(Press(1, 1108.0, P, 5))  # 8 ms apart, errors 5+5: too close to call
    judge.press(Press(2, 1200.0, A, 0.1))
    judge.press(Press(3, 1200.0, A, 0.0))  # exactly equal
    out = judge.result()
    assert out.ties == ((0, 1), (2, 3)) or out.ties == ((0, 1), (3, 2))
    assert out.error_bound_ms == 5


def test_presses_on_one_shared_clock_are_told_apart_to_its_resolution():
    judge = armed(seats=(0, 1, 2))
    judge.press(Press(0, 1100.0, A, 0.3, clock="board-1", resolution_ms=0.05))
    judge.press(Press(1, 1100.2, A, 0.3, clock="board-1", resolution_ms=0.05))  # 0.2 ms: distinct
    judge.press(Press(2, 1100.25, A, 0.3, clock="board-2", resolution_ms=0.05))  # other clock: 0.05 < 0.6
    out = judge.result()
    assert out.order == (0, 1, 2) and out.ties == ((1, 2),)


def test_wire_form_for_the_result_screen():
    judge = armed(seats=(0, 1, 2))
    judge.press(Press(0, 900.0, A))
    judge.press(Press(1, 1250.25, A, 0.25))
    judge.press(Press(2, 1251.25, P, 4, clamped=True))  # its phone claimed earlier than it could have pressed
    wire = judge.result(now_ms=1300.0).to_wire()
    assert wire == {
        "race": "r1",
        "mode": "slowest_loses",
        "order": [1, 2],
        "reaction_ms": [250.25, 251.25],
        "margins_ms": [1.0],
        "sources": ["arcade", "phone"],
        "error_bound_ms": 4.0,
        "ties": [[1, 2]],
        "false_starts": [{"seat": 0, "early_by_ms": 100.0, "source": "arcade"}],
        "missing": [0],
        "timed_out": False,
        "clamped": [2],
    }
    secret = judge.result(now_ms=1300.0).to_wire(public=False)  # eligibility is private (a Beetle's holders)
    assert secret == {k: v for k, v in wire.items() if k not in ("missing", "timed_out")} | {"false_starts": []}


def test_M16_the_engine_gets_the_counted_presses_since_the_start_at_full_precision():
    judge = armed(seats=(0, 1, 2), at=1000.0)
    judge.press(Press(2, 1250.4, A, 0.25, clock="board", resolution_ms=0.05))
    judge.press(Press(0, 1100.6, P, 4.1))
    got = [(p.seat, p.t_ms, p.error_ms, p.clock, p.resolution_ms) for p in judge.result().presses()]
    assert got == [(0, pytest.approx(100.6), 4.1, "", 0.0), (2, pytest.approx(250.4), 0.25, "board", 0.05)]
    assert judge.decides_at() == 1000.0 + 5000.0  # seat 1 has not pressed: the timeout
    judge.press(Press(1, 1300.0, A))
    assert judge.decides_at() == 1300.0 + 150.0  # everyone pressed: the settle after the last


@pytest.mark.parametrize(
    "call",
    [
        lambda j: j.arm("", {0}, 0, 100),
        lambda j: j.arm("r", set(), 0, 100),
        lambda j: j.arm("r", {-1}, 0, 100),
        lambda j: j.arm("r", {0}, float("nan"), 100),
        lambda j: j.arm("r", {0}, 0, 0),
        lambda j: j.result(),
        lambda j: j.is_complete(0),
    ],
)
def test_bad_calls_raise_and_change_nothing(call):
    judge = RaceJudge()
    with pytest.raises(RaceError):
        call(judge)
    assert not judge.armed


@pytest.mark.parametrize(
    "kw",
    [dict(t_ms=float("inf")), dict(error_ms=-1), dict(seat=-2), dict(source="arcade"), dict(resolution_ms=-0.1)],
)
def test_bad_press_is_rejected(kw):
    base = dict(seat=0, t_ms=1.0, source=A, error_ms=0.0)
    with pytest.raises(RaceError):
        Press(**{**base, **kw})


def test_rearming_replaces_the_previous_race():
    judge = armed()
    judge.press(Press(0, 1100.0, A))
    judge.arm("r2", {0, 1}, 2000.0, 1000.0)
    assert judge.race_id == "r2" and judge.result().order == ()
    judge.disarm()
    assert not judge.armed


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.floats(900, 7000, allow_nan=False), st.sampled_from(list(PressSource))),
        max_size=30,
    ),
    st.randoms(use_true_random=False),
)
def test_property_result_independent_of_arrival_order(presses, rnd):
    def run(items):
        judge = armed(seats=(0, 1, 2, 3))
        for seat, t, src in items:
            judge.press(Press(seat, t, src))
        return judge.result()

    shuffled = list(presses)
    rnd.shuffle(shuffled)
    a, b = run(presses), run(shuffled)
    assert a.times_ms == b.times_ms and a.source_per_seat == b.source_per_seat
    assert sorted(a.false_starts, key=repr) == sorted(b.false_starts, key=repr)
    assert list(a.times_ms.values()) == sorted(a.times_ms.values()) or len(set(a.times_ms.values())) < len(a.times_ms)
    for seat, t in a.times_ms.items():
        best_src = max(s for q, tt, s in presses if q == seat and 1000 <= tt < 6000)
        assert a.source_per_seat[seat] is best_src
        assert t == min(tt for q, tt, s in presses if q == seat and s is best_src and 1000 <= tt < 6000)


class _Lamps:
    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []

    def arm_race(self, race_id: str, seats: frozenset[int]) -> None:
        self.calls.append(("arm", race_id))

    def end_race(self) -> None:
        self.calls.append(("end",))


def test_the_floor_judges_a_request_once_and_hands_the_engine_the_presses():
    from game.rules.base import RaceMode, RaceRequest
    from game.session.race_floor import RaceFloor
    from game.session.scheduler import VirtualTime

    vt, lamps, decided = VirtualTime(0), _Lamps(), []
    floor = RaceFloor(vt, vt, lamps, touched=lambda: None, changed=lambda: None, decided=decided.append)
    request = RaceRequest("k1", RaceMode.SLOWEST_LOSES, frozenset({0, 1}), 1_000, lambda presses: presses)
    floor.sync(request, {}, lambda seat: None)
    vt.advance(40)
    floor.press(1, vt.now_ms(), P, error_ms=2.5)
    vt.advance(10)
    floor.press(0, vt.now_ms(), K)
    vt.advance(149)
    assert decided == []  # the settle after the last press
    vt.advance(1)
    assert [(p.seat, p.t_ms, p.error_ms) for p in decided[0]] == [(1, 40, 2.5), (0, 50, 0)]  # full precision (M16)
    assert lamps.calls == [("arm", "k1"), ("end",)]
    floor.sync(request, {}, lambda seat: None)  # the engine still asks for it (it refused the result)
    assert floor.current is None and lamps.calls == [("arm", "k1"), ("end",)]
    floor.sync(None, {}, lambda seat: None)
    floor.sync(request, {}, lambda seat: None)  # after the race was gone, the key is a new race again
    assert floor.current is not None and floor.current.key == "k1"
