"""M16: a phone's claimed press time is bounded by the server's own evidence. A modified phone that
really pressed late and stamped its press earlier is held to ``arrival − (measured one-way delay +
clock error)``, on every race kind (Mosquito slowest-loses, Beetle fastest-wins, table and
companion), and the race report says which press was clamped; honest phones whose presses travel
like their clock-sync answers are judged exactly as before.

The session runs on virtual time (the sockets are real): network delays are virtual time passing."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))

import tabletop_racekit as kit
from tabletop_wsphone import Phone

from game.server.phoneclock import BURST, PhoneClock
from game.session.scheduler import VirtualTime
from game.session.snapshot import RunMode

pytestmark = pytest.mark.timeout(60)
JITTER_MS = 12  # each way, for every message of an honest phone
OFFSETS = (3_000.0, -7_500.0, 12_345.6, -250.0)  # each phone's clock, seconds off the table's
BACKDATE_MS = 550.0  # the modified phone's claim, earlier than its real press


async def sync_phone(vt: VirtualTime, phone: Phone, offset_ms: float, rnd: random.Random) -> None:
    """Answer a burst of probes like a phone ``offset_ms`` ahead, each way taking 0–JITTER_MS."""
    for _ in range(BURST):
        probe = await phone.recv("sync")
        vt.advance(rnd.randint(0, JITTER_MS))
        reading = vt.now_ms() + offset_ms
        vt.advance(rnd.randint(0, JITTER_MS))
        await phone.send("sync_reply", s=probe["s"], t=reading)
    await settled(phone)


async def settled(phone: Phone) -> None:
    await phone.send("ping", t=0)
    await phone.recv("pong")


async def table_of(make_table: Any, vt: VirtualTime, mode: RunMode) -> tuple[Any, list[Phone]]:
    table = await make_table(game="cheating_moth", time=vt, mode=mode)
    phones = [(await table.seat(i, name=f"P{i + 1}"))[0] for i in range(4)]
    rnd = random.Random(11)
    for i, phone in enumerate(phones):
        await sync_phone(vt, phone, OFFSETS[i], rnd)
    table.command("start")
    return table, phones


async def press_all(vt: VirtualTime, phones: list[Phone], race: int, armed: float,
                    presses: dict[int, tuple[float, float, float]]) -> dict[int, dict[str, Any]]:
    """``presses``: seat -> (true press after the signal, claimed shift, upload delay). Each press is
    sent at its true moment, claiming ``true + shift`` on its own clock, and arrives ``upload`` later
    (handled in arrival order, virtual time moving between them)."""
    arrivals = sorted(presses, key=lambda s: presses[s][0] + presses[s][2])
    results = {}
    for seat in arrivals:
        true, shift, upload = presses[seat]
        vt.advance(max(0.0, armed + true + upload - vt.now_ms()))
        await phones[seat].send("press", race=race, t=armed + true + shift + OFFSETS[seat])
        results[seat] = await phones[seat].recv("press_result")
    return results


async def start_race(table: Any, vt: VirtualTime, kind: str, mode: RunMode, seed: int) -> tuple[dict[str, Any], float]:
    """The race's public view and when it opened; ``eligible``: the judge's own list (a Beetle's
    view lists every seat, its real racers are the secret holders)."""
    session = table.session
    if mode is RunMode.COMPANION:
        session.submit_action(0, {"type": "call", "kind": kind}, None)
    else:
        seat, action = await kit.move_until_playable(session, kind, seed, vt=vt)
        session.submit_action(seat, action, None)
    race = {**session.snapshot.public_view["race"], "eligible": sorted(session._races.current.request.eligible)}
    return race, session.snapshot.race.current.armed_at_ms


@pytest.mark.parametrize("mode", [RunMode.TABLE, RunMode.COMPANION], ids=["table", "companion"])
async def test_M16_a_backdated_mosquito_press_is_clamped_and_the_late_presser_is_slowest(
        make_table: Any, mode: RunMode) -> None:
    vt = VirtualTime()
    table, phones = await table_of(make_table, vt, mode)
    race, armed = await start_race(table, vt, "mosquito", mode, seed=3)
    honest, *others = race["eligible"]
    cheat = others[-1]
    plan = {honest: (200.0, 0.0, 6.0), cheat: (600.0, -BACKDATE_MS, 5.0)}
    plan.update(dict.fromkeys(others[:-1], (150.0, 0.0, 3.0)))
    results = await press_all(vt, phones, race["id"], armed, plan)
    last = await kit.wait_decided(table.session, race["id"], vt=vt)
    assert last["order"][-1] == cheat  # really pressed last: the slowest, whatever it claimed
    assert results[cheat]["clamped"] is True and results[cheat]["t_ms"] >= armed + 600 - 2 * JITTER_MS
    assert not any(results[s]["clamped"] for s in results if s != cheat)
    assert table.session.snapshot.race.last.clamped == (cheat,)


@pytest.mark.parametrize("mode", [RunMode.TABLE, RunMode.COMPANION], ids=["table", "companion"])
async def test_M16_a_backdated_beetle_press_does_not_beat_the_first_real_press(make_table: Any, mode: RunMode) -> None:
    vt = VirtualTime()
    table, phones = await table_of(make_table, vt, mode)
    race, armed = await start_race(table, vt, "beetle", mode, seed=9)
    holders = race["eligible"]
    assert len(holders) >= 2, "this seed deals the beetle's number to two seats"
    honest, cheat = holders[0], holders[1]
    # the cheat really pressed 100 ms after the honest phone (inside the closing window) and claims 250 ms earlier
    results = await press_all(vt, phones, race["id"], armed, {honest: (200.0, 0.0, 8.0), cheat: (300.0, -250.0, 4.0)})
    last = await kit.wait_decided(table.session, race["id"], vt=vt)
    assert last["winner"] == honest
    assert results[cheat]["clamped"] is True and results[honest]["clamped"] is False
    assert table.session.snapshot.race.last.clamped == (cheat,)


async def test_M16_honest_phones_with_jitter_are_judged_exactly_as_their_clocks_say(make_table: Any) -> None:
    vt = VirtualTime()
    table, phones = await table_of(make_table, vt, RunMode.TABLE)
    race, armed = await start_race(table, vt, "mosquito", RunMode.TABLE, seed=3)
    rnd = random.Random(5)
    true_after = dict(zip(race["eligible"], (60.0, 25.0, 40.0)))  # >= 10 ms apart: jitter reorders arrivals
    plan = {s: (t, 0.0, float(rnd.randint(0, JITTER_MS))) for s, t in true_after.items()}
    results = await press_all(vt, phones, race["id"], armed, plan)
    last = await kit.wait_decided(table.session, race["id"], vt=vt)
    assert last["order"] == sorted(true_after, key=true_after.__getitem__)
    assert not any(r["clamped"] for r in results.values()) and table.session.snapshot.race.last.clamped == ()
    for s, t in zip(last["order"], last["times_ms"]):
        assert abs(t - true_after[s]) <= max(last["error_ms"]) + 1


def synced_clock(rnd: random.Random, offset: float, jitter: int) -> tuple[PhoneClock, float]:
    """A PhoneClock fed a burst with 0–``jitter`` ms each way; returns it and the time after."""
    clock, now = PhoneClock(), 1_000.0
    for _ in range(BURST):
        token = clock.probe(now)["s"]
        now += rnd.randint(0, jitter)
        reading = now + offset
        now += rnd.randint(0, jitter)
        clock.reply(token, reading, now)
        now += 3
    return clock, now


@pytest.mark.parametrize("seed", range(20))
def test_M16_an_honest_press_no_slower_than_the_sync_answers_is_never_clamped(seed: int) -> None:
    rnd = random.Random(seed)
    offset = rnd.uniform(-60_000, 60_000)
    clock, now = synced_clock(rnd, offset, jitter=rnd.choice((2, 15, 40)))
    slowest = clock.sync.upload_ms()
    for _ in range(50):
        pressed = now + rnd.uniform(0, 500)
        arrival = pressed + rnd.uniform(0, slowest)
        stamp = clock.stamp(pressed + offset, arrival)
        assert not stamp.clamped
        assert stamp.t_ms == min(clock.sync.to_server_ms(pressed + offset), arrival)  # as before the bound


@pytest.mark.parametrize("backdate", [100.0, 550.0, 4_000.0, 60_000.0])
def test_M16_a_backdated_claim_gets_the_bound_not_the_claim(backdate: float) -> None:
    clock, now = synced_clock(random.Random(1), 5_000.0, jitter=10)
    arrival = now + 700
    stamp = clock.stamp(arrival - 5 + 5_000.0 - backdate, arrival)
    bound = arrival - (clock.sync.upload_ms() + clock.sync.error_ms(arrival) + 1)
    assert stamp.clamped and stamp.t_ms == pytest.approx(bound)
    assert arrival - stamp.t_ms <= 2 * 10 + 1 + 10  # no more than the measured delay and error
