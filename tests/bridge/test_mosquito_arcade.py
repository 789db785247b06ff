"""A Cheating Moth Mosquito race (M14, M16) decided by simulated arcade buttons through the bridge
and the race judge, as the session will wire them."""
from __future__ import annotations

import asyncio
import math
import random
import time

import pytest

from firmware_bridge.bridge import ButtonDown, monotonic_ms
from game.games.cheating_moth import rules as cm
from game.session.race_floor import PressSource, RaceJudge, RaceMode, RaceOutcome

pytestmark = pytest.mark.timeout(60)


def mosquito_race(seed: int = 0):
    """Play a 4-seat game until someone plays a Mosquito; return the state and its RaceStarted."""
    engine = cm.ENGINE
    state = engine.new_game(engine.default_settings(), 4, seed)
    rnd = random.Random(seed)
    for _ in range(500):
        acts = [(seat, a) for seat in engine.seats_to_act(state) for a in engine.legal_actions(state, seat)
                if isinstance(a, (cm.Play, cm.Draw, cm.Give))]
        if not acts:
            raise AssertionError(f"stuck in phase {state.phase} before any Mosquito")
        mosquitoes = [x for x in acts if isinstance(x[1], cm.Play) and state.card(x[1].card).kind is cm.Kind.MOSQUITO]
        seat, action = mosquitoes[0] if mosquitoes else rnd.choice(acts)
        state, events = engine.apply(state, seat, action)
        started = [e for e in events if isinstance(e, cm.RaceStarted) and e.kind is cm.Kind.MOSQUITO]
        if started:
            return state, started[0]
    raise AssertionError("no Mosquito in 500 moves")


def race_result(race: int, armed_at_ms: float, outcome: RaceOutcome):
    """The session's hand-over: the judge's outcome as the engine's RaceResult action."""
    return cm.RaceResult(
        race=race,
        start_ms=round(armed_at_ms),
        seats=outcome.order,
        times_ms=tuple(round(outcome.times_ms[s]) for s in outcome.order),
        error_ms=tuple(math.ceil(outcome.error_bound_ms) for _ in outcome.order),
    )


async def run_race(sim, bridge, started, presses: dict[int, float]) -> tuple[RaceOutcome, float]:
    """Arm judge and lamps, press the buttons of ``presses`` (seat -> ms after arming), judge."""
    judge = RaceJudge()
    bridge.add_listener(lambda ev: isinstance(ev, ButtonDown) and ev.to_press() and judge.press(ev.to_press()))
    sim.press(started.eligible[0], at_us=sim.device_us() + 2000, hold_us=3000)  # jumps the gun
    await asyncio.sleep(0.03)
    armed_at = monotonic_ms()
    judge.arm(f"moth-{started.race}", started.eligible, armed_at, started.timeout_ms, mode=RaceMode.SLOWEST_LOSES, settle_ms=50)
    bridge.arm_race(f"moth-{started.race}", started.eligible)
    end = time.monotonic() + 2
    while sim.lit_lamps() != set(started.eligible) and time.monotonic() < end:
        await asyncio.sleep(0.005)
    assert sim.lit_lamps() == set(started.eligible)  # M14: the slappers' lamps light
    device_armed = round(sim.device_us() - (monotonic_ms() - armed_at) * 1000)
    for seat, after_ms in presses.items():
        sim.press(seat, at_us=device_armed + round(after_ms * 1000) + 20_000)
    deadline = armed_at + started.timeout_ms
    while not judge.is_complete(monotonic_ms()):
        assert monotonic_ms() < deadline + 1000
        await asyncio.sleep(0.01 if presses.keys() == set(started.eligible) else 0.05)
    outcome = judge.result(now_ms=monotonic_ms())
    bridge.end_race()
    return outcome, armed_at


async def test_M14_mosquito_slowest_decided_by_arcade_buttons(sim, bridge):
    state, started = mosquito_race()
    a, b, c = started.eligible
    outcome, armed_at = await run_race(sim, bridge, started, {b: 0.0, c: 1.0, a: 2.5})
    assert outcome.order == (b, c, a)
    assert set(outcome.source_per_seat.values()) == {PressSource.ARCADE}
    assert outcome.margins_ms == pytest.approx((1.0, 1.5), abs=0.01)
    assert [f.seat for f in outcome.false_starts] == [a]  # shown, and ignored
    state, events = cm.ENGINE.apply(state, None, race_result(started.race, armed_at, outcome))
    decided = next(e for e in events if isinstance(e, cm.RaceDecided))
    assert decided.order == (b, c, a) and decided.slowest == a and not decided.no_press
    assert state.phase is cm.Phase.MOSQUITO_GIVE


@pytest.mark.slow
async def test_M14_a_seat_that_never_slaps_is_the_slowest(sim, bridge):
    state, started = mosquito_race()
    a, b, c = started.eligible
    engine_settings = state.settings
    assert started.timeout_ms == engine_settings.race_timeout_ms
    outcome, armed_at = await run_race(sim, bridge, started, {a: 0.0, c: 4.0})
    assert outcome.missing == (b,) and outcome.timed_out
    state, events = cm.ENGINE.apply(state, None, race_result(started.race, armed_at, outcome))
    decided = next(e for e in events if isinstance(e, cm.RaceDecided))
    assert decided.slowest == b and decided.no_press == (b,)
