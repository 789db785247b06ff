"""Phone race presses over the WebSocket (M16): clock sync probes, presses stamped by each phone's
own clock (offset by seconds from the table's) judged in true order, verdicts, bad input.

The session runs on virtual time (the sockets are real): network delays are virtual time passing,
so no test sleeps."""
from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))

import tabletop_racekit as kit
from tabletop_wsphone import Phone

from game.server.phoneclock import BURST, UNSYNCED_ERROR_MS, PhoneClock
from game.session.scheduler import VirtualTime

pytestmark = pytest.mark.timeout(60)
VT = VirtualTime()


@pytest.fixture(autouse=True)
def vt() -> VirtualTime:
    """Each test's session time (module-wide, so the helpers below reach it)."""
    global VT
    VT = VirtualTime()
    return VT


def table_ms() -> float:
    """The session's clock, in ms."""
    return float(VT.now_ms())


async def answer_syncs(phone: Phone, offset_ms: float, rounds: int, rnd: random.Random,
                       uploads: tuple[int, ...] = ()) -> None:
    """Answer ``rounds`` clock probes like a phone whose clock runs ``offset_ms`` ahead: each probe
    takes 0–15 ms to reach it and its answer 0–15 ms back (``uploads[i]``: answer i's way back)."""
    for i in range(rounds):
        probe = await phone.recv("sync")
        VT.advance(rnd.randint(0, 15))
        reading = table_ms() + offset_ms
        VT.advance(uploads[i] if i < len(uploads) else rnd.randint(0, 15))
        await phone.send("sync_reply", s=probe["s"], t=reading)
    await settled(phone)


async def settled(phone: Phone) -> None:
    """Everything this phone sent has been handled (the table answers in order)."""
    await phone.send("ping", t=0)
    await phone.recv("pong")


async def move_until_playable(session: Any, kind: str, seed: int) -> tuple[int, dict[str, Any]]:
    return await kit.move_until_playable(session, kind, seed, vt=VT)


async def wait_decided(session: Any, race: int) -> dict[str, Any]:
    return await kit.wait_decided(session, race, vt=VT)


async def seated_moth(make_table: Any) -> tuple[Any, list[Phone]]:
    table = await make_table(game="cheating_moth", time=VT)
    phones = [(await table.seat(i, name=f"P{i + 1}"))[0] for i in range(4)]
    table.command("start")
    return table, phones


async def test_probes_come_in_a_burst_on_join(make_table: Any) -> None:
    table = await make_table(game="cheating_moth", time=VT)
    phone, _, _ = await table.seat(0)
    await answer_syncs(phone, 42_000.0, BURST, random.Random(1))
    hub_phone = next(iter(c for c in _hub(table).clients if c.seat == 0)).phone
    assert hub_phone.sync.ready and len(hub_phone.sync.samples) == BURST
    mapped = hub_phone.sync.to_server_ms(table_ms() + 42_000.0)
    assert abs(mapped - table_ms()) < 20


def _hub(table: Any) -> Any:
    return table.session._listeners[0]  # the app attached its hub


async def test_M16_phone_presses_with_offset_clocks_are_judged_in_true_order(make_table: Any) -> None:
    table, phones = await seated_moth(make_table)
    rnd = random.Random(7)
    offsets = [3_000.0, -7_500.0, 12_345.6, -250.0]  # each phone's clock, seconds off the table's
    for i, p in enumerate(phones):
        await answer_syncs(p, offsets[i], BURST, rnd)
    session = table.session
    seat, action = await move_until_playable(session, "mosquito", 3)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    armed = session.snapshot.race.current.armed_at_ms
    true_after = dict(zip(race["eligible"], (60.0, 25.0, 40.0)))  # >= 10 ms apart
    travel = dict(zip(race["eligible"], (0.0, 15.0, 0.0)))  # on the way like the sync answers: 40 lands before 25
    verdicts = []
    for s in sorted(race["eligible"], key=lambda s: true_after[s] + travel[s]):
        VT.advance(armed + true_after[s] + travel[s] - table_ms())
        await phones[s].send("press", race=race["id"], t=armed + true_after[s] + offsets[s])
        verdicts.append(await phones[s].recv("press_result"))
    assert {v["verdict"] for v in verdicts} == {"accepted"} and not any(v["clamped"] for v in verdicts)
    assert all(v["error_ms"] < 20 for v in verdicts)
    last = await wait_decided(session, race["id"])
    assert last["order"] == sorted(race["eligible"], key=lambda s: true_after[s])
    for s, t in zip(last["order"], last["times_ms"]):
        assert abs(t - true_after[s]) <= max(last["error_ms"]) + 1
    assert session.snapshot.race.last.sources == ("phone",) * 3


async def test_unsynced_phone_uses_arrival_time_and_a_wide_error(make_table: Any) -> None:
    table, phones = await seated_moth(make_table)
    session = table.session
    seat, action = await move_until_playable(session, "mosquito", 5)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    s = race["eligible"][0]
    before = table_ms()
    await phones[s].send("press", race=race["id"], t=123.0)  # no sync answered: its clock means nothing
    result = await phones[s].recv("press_result")
    assert result["verdict"] == "accepted" and result["error_ms"] == UNSYNCED_ERROR_MS
    assert int(before) <= result["t_ms"] <= table_ms()


async def test_false_start_and_too_late_verdicts(make_table: Any) -> None:
    table, phones = await seated_moth(make_table)
    for i, p in enumerate(phones):
        await answer_syncs(p, 1_000.0, BURST, random.Random(i))
    session = table.session
    seat, action = await move_until_playable(session, "beetle", 2)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    armed = session.snapshot.race.current.armed_at_ms
    holders = [s for s in range(4) if session.update.seat(s).view["me"]["race_cards"]]
    if not holders:
        pytest.skip("nobody holds the beetle's number in this deal")
    first = holders[0]
    await phones[first].send("press", race=race["id"], t=armed - 300 + 1_000.0)
    assert (await phones[first].recv("press_result"))["verdict"] == "false_start"
    await phones[first].send("press", race=race["id"], t=armed + 30 + 1_000.0)
    assert (await phones[first].recv("press_result"))["verdict"] == "accepted"
    outsider = next(s for s in range(4) if s not in holders)
    await phones[outsider].send("press", race=race["id"], t=armed + 10 + 1_000.0)
    assert (await phones[outsider].recv("press_result"))["verdict"] == "not_eligible"
    last = await wait_decided(session, race["id"])
    assert last["winner"] == first


@pytest.mark.parametrize("fields", [{"t": 1}, {"race": 1}, {"race": "", "t": 1}, {"race": "x" * 65, "t": 1},
                                    {"race": "a\nb", "t": 1}, {"race": 1.5, "t": 1}, {"race": None, "t": 1},
                                    {"race": True, "t": 1}, {"race": 10**30, "t": 1}, {"race": 1, "t": "x"},
                                    {"race": 1, "t": 1, "card": True}, {"race": 1, "t": 1, "extra": 0}])
async def test_malformed_presses_are_refused(make_table: Any, fields: dict[str, Any]) -> None:
    table = await make_table(game="cheating_moth")
    phone, _, _ = await table.seat(0)
    version = table.session.version
    await phone.send("press", **fields)
    assert (await phone.error())["code"] == "malformed"
    assert table.session.version == version


async def test_press_from_a_spectator_is_forbidden(make_table: Any) -> None:
    table = await make_table(game="cheating_moth")
    watcher = await table.connect()
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    await watcher.send("press", race=1, t=1.0)
    assert (await watcher.error())["code"] == "forbidden"


def test_phone_clock_ignores_unknown_and_impossible_answers() -> None:
    clock = PhoneClock()
    assert clock.reply(99, 5.0, 10.0) is False  # never asked
    token = clock.probe(100.0)["s"]
    clock.reply(token, 5.0, 50.0)  # answered "before" it was sent: not a sample
    assert not clock.sync.ready
    t, error = clock.to_session(1_000.0, 200.0)
    assert (t, error) == (200.0, UNSYNCED_ERROR_MS)


async def test_cheat_gesture_is_stamped_by_the_phones_own_clock(make_table: Any) -> None:
    table, phones = await seated_moth(make_table)
    offset = -4_321.0  # one answer took 250 ms on its way back: messages from this phone may be that slow
    await answer_syncs(phones[1], offset, BURST, random.Random(3), uploads=(250,))
    session = table.session
    legal = [a for a in session.update.seat(1).legal if a["type"] == "cheat_start"]
    assert legal, "seat 1 (not the guard, a full hand) may cheat at the start"
    touched = table_ms() - 200.0  # the finger went down 200 ms before the message arrives
    await phones[1].send("action", action={**legal[0], "t_ms": round(touched + offset)}, version=session.version)
    await phones[1].recv("state", lambda m: m["view"]["me"]["cheat"] is not None)
    started = session.update.seat(1).view["me"]["cheat"]["started_ms"]
    assert abs(started - touched) < 20  # not the arrival time, 200 ms later


def test_a_press_just_now_is_mapped_despite_the_whole_ms_session_clock() -> None:
    clock = PhoneClock()
    for i in range(BURST):  # phone = table + 1000.25 ms, answered instantly: a tight estimate
        token = clock.probe(100.0 * i)["s"]
        clock.reply(token, 100.0 * i + 1000.25 + 0.1, 100.0 * i + 0.2)
    now = 5_000.0  # the session clock reads whole ms: the press at 5000.6 arrives while it says 5000
    t, error = clock.to_session(5_000.6 + 1000.25, now)
    assert error < 1 and t == now  # mapped (and clamped to now), not the arrival fallback
