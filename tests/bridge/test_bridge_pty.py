"""The host bridge against the simulated board over a real pty pair (tools/arcade_sim.py)."""
from __future__ import annotations

import asyncio
import os
import random
import time
import tty

import pytest

from firmware_bridge import framing as fr
from firmware_bridge.bridge import (
    ArcadeBridge,
    BoardFound,
    BoardIncompatible,
    BoardLost,
    BridgeError,
    BridgeState,
    ButtonDown,
    ButtonUp,
    MappingDone,
    MappingStep,
    RaceLit,
    monotonic_ms,
)
from game.session.race_floor import Press, PressSource, PressVerdict, RaceJudge
from game.session.snapshot import InputKind, InputSource
from tools.arcade_sim import ArcadeSimulator

pytestmark = pytest.mark.timeout(90)


async def until(cond, timeout: float = 3.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)


def soon(sim, ms: float = 20) -> int:
    return sim.device_us() + int(ms * 1000)


def feed(bridge, judge: RaceJudge) -> list[PressVerdict]:
    verdicts: list[PressVerdict] = []

    def on_event(ev) -> None:
        if isinstance(ev, ButtonDown) and (p := ev.to_press()) is not None:
            verdicts.append(judge.press(p))

    bridge.add_listener(on_event)
    return verdicts


async def test_hello_and_press_converted_to_the_session_clock(sim, bridge):
    rec = bridge.recorder
    found = rec.of(BoardFound)[0]
    assert found.hello == fr.Hello(1, "1.0.0-sim", 12, 12, 5000, sim.boot_id, 0)
    assert bridge.state is BridgeState.CONNECTED and bridge.connected_port == sim.port
    at = sim.press(4, at_us=soon(sim))
    down = await rec.wait(ButtonDown)
    assert (down.button, down.seat, down.device_us) == (4, 4, at)
    assert abs(down.t_ms - sim.host_ms(at)) <= down.error_ms + 0.05
    assert down.error_ms < 5
    up = await rec.wait(ButtonUp)
    assert up.t_ms - down.t_ms == pytest.approx(60.0, abs=0.5)  # the clock map may refine between
    ev = down.to_input_event("m1")
    assert (ev.source, ev.kind, ev.seat, ev.payload["race"]) == (InputSource.ARCADE, InputKind.PRESS, 4, "m1")


async def test_mapping_wizard_assigns_buttons_to_seats_in_order(sim, bridge):
    rec = bridge.recorder
    with pytest.raises(BridgeError):
        bridge.start_mapping([])
    with pytest.raises(BridgeError):
        bridge.start_mapping([1, 1])
    bridge.start_mapping([2, 0, 1])
    await until(lambda: len(sim.lamp_modes) == 12 and all(m is fr.LampMode.BLINK for m, _ in sim.lamp_modes.values()))
    sim.press(5, at_us=soon(sim))
    assert await rec.wait(MappingStep) == MappingStep(2, 5, 0)
    await until(lambda: sim.lamp_modes[5][0] is fr.LampMode.ON)
    sim.press(5, at_us=soon(sim, 100))  # already taken: ignored
    sim.press(7, at_us=soon(sim, 120))
    assert await rec.wait(MappingStep) == MappingStep(0, 7, 1)
    sim.press(1, at_us=soon(sim, 20))
    assert await rec.wait(MappingStep) == MappingStep(1, 1, None)
    assert (await rec.wait(MappingDone)).mapping == {2: 5, 0: 7, 1: 1}
    assert not bridge.mapping_in_progress
    await until(lambda: not sim.lit_lamps())
    sim.press(5, at_us=soon(sim, 80))
    sim.press(3, at_us=soon(sim, 81))
    await until(lambda: len(rec.of(ButtonDown)) == 6)  # 5, 5 (again), 7, 1 while mapping; then these
    assert [d.seat for d in rec.of(ButtonDown)[:4]] == [None] * 4  # no seat owns a button mid-wizard
    last = rec.of(ButtonDown)[-2:]
    assert [(d.button, d.seat) for d in last] == [(5, 2), (3, None)]
    assert last[1].to_press() is None


async def test_presses_1ms_apart_are_judged_in_true_order_1000_times_out_of_1000(sim, bridge):
    judge = RaceJudge()
    verdicts = feed(bridge, judge)
    rng = random.Random(1000)
    stop = False

    async def stall_the_loop() -> None:  # the host reads whenever it gets round to it
        while not stop:
            time.sleep(rng.uniform(0, 0.004))
            await asyncio.sleep(rng.uniform(0, 0.002))

    staller = asyncio.get_running_loop().create_task(stall_the_loop())
    groups = [list(range(4)), list(range(4, 8)), list(range(8, 12))]
    correct = 0
    try:
        for i in range(1000):
            seats = groups[i % 3][:]
            rng.shuffle(seats)
            judge.arm(f"r{i}", seats, monotonic_ms(), 5000)
            bridge.arm_race(f"r{i}", seats)
            base = soon(sim, 1.5)
            for k, seat in enumerate(seats):
                sim.press(seat, at_us=base + 1000 * k, hold_us=400)
            try:
                await until(lambda: len(judge.result().order) == 4, timeout=5)
            except AssertionError as exc:
                raise AssertionError(f"race {i}: {judge.result()} {verdicts[-8:]} {bridge.recorder.events[-10:]} {bridge.stats} {sim.history}") from exc
            out = judge.result()
            correct += out.order == tuple(seats) and out.ties == ()  # one board, one clock map: no doubt
            assert out.margins_ms == pytest.approx((1.0, 1.0, 1.0), abs=1e-3)  # device µs, rate-corrected
            bridge.end_race()
    finally:
        stop = True
        await staller
    assert correct == 1000
    assert bridge.stats.dropped.total() == 0


async def test_garbage_and_truncated_lines_are_dropped_and_no_press_is_lost(sim, bridge):
    rec = bridge.recorder
    judge = RaceJudge()
    feed(bridge, judge)
    judge.arm("g", range(12), monotonic_ms(), 60_000)
    rng = random.Random(5)
    pressed = []
    for i in range(12):
        sim.inject_noise()  # random junk, sometimes without a newline: the next line breaks too
        if i % 3 == 0:
            sim.inject_noise(b"P 99 3 12")  # a truncated press line
        if i % 4 == 1:
            sim.corrupt_next(1)
        pressed.append(sim.press(i, at_us=soon(sim, 5), hold_us=20_000))
        await asyncio.sleep(rng.uniform(0.005, 0.03))
    await until(lambda: len(judge.result().order) == 12, timeout=5)
    downs = rec.of(ButtonDown)
    assert sorted(d.device_us for d in downs) == sorted(pressed)  # each exactly once, none invented
    assert judge.result().order == tuple(range(12))
    assert bridge.stats.dropped.total() >= 4  # (test_gap_healing checks the RESEND logic itself)
    assert bridge.connected


async def test_unplug_and_replug_mid_race(sim, bridge):
    rec = bridge.recorder
    judge = RaceJudge()
    feed(bridge, judge)
    judge.arm("m", {0, 1, 2}, monotonic_ms(), 10_000)
    bridge.arm_race("m", {0, 1, 2})
    lit = await rec.wait(RaceLit)
    assert lit.race_id == "m"
    await until(lambda: sim.lit_lamps() == {0, 1, 2})
    at0 = sim.press(0, at_us=soon(sim))
    true0 = sim.host_ms(at0)  # the board's clock restarts when it is plugged back
    down0 = await rec.wait(ButtonDown)
    await until(lambda: sim.lit_lamps() == {1, 2})  # a slap puts its lamp out
    old_boot = sim.boot_id
    sim.unplug()
    lost = await rec.wait(BoardLost)
    assert lost.reason == "unplugged" and bridge.state is BridgeState.SEARCHING
    # the table falls back to phones for the rest of this race
    assert judge.press(Press(1, monotonic_ms(), PressSource.PHONE, 6.0)) is PressVerdict.ACCEPTED
    sim.replug()
    found = await rec.wait(BoardFound)
    assert found.hello.boot_id != old_boot
    await until(lambda: bridge.sync.ready and sim.lit_lamps() == {1, 2})  # re-armed on the new boot
    at2 = sim.press(2, at_us=soon(sim))
    down = await rec.wait(ButtonDown)
    assert abs(down.t_ms - sim.host_ms(at2)) <= down.error_ms + 0.05
    out = judge.result()
    assert out.order == (0, 1, 2)
    assert [out.source_per_seat[s] for s in out.order] == [PressSource.ARCADE, PressSource.PHONE, PressSource.ARCADE]
    assert abs(out.times_ms[0] - true0) <= down0.error_ms + 0.05
    bridge.end_race()
    await until(lambda: not sim.lit_lamps())


async def test_false_starts_are_shown_and_ignored(sim, bridge):
    rec = bridge.recorder
    judge = RaceJudge()
    verdicts = feed(bridge, judge)
    sim.press(3, at_us=soon(sim, 5), hold_us=10_000)  # before any race: a possible false start
    await rec.wait(ButtonDown)
    judge.arm("b", {3, 4}, monotonic_ms(), 5000)
    early = sim.press(4, at_us=soon(sim, 30), hold_us=10_000)  # stamped before the race is armed ...
    judge.disarm()
    judge.arm("b", {3, 4}, sim.host_ms(early) + 20.0, 5000)  # ... which happens 20 ms later
    jumped = await rec.wait(ButtonDown, lambda e: e.device_us == early)
    sim.press(3, at_us=soon(sim, 20))
    sim.press(4, at_us=soon(sim, 90))
    await until(lambda: len(judge.result().order) == 2)
    out = judge.result()
    assert out.order == (3, 4)
    assert [f.seat for f in out.false_starts] == [4]
    assert abs(out.false_starts[0].early_by_ms - 20.0) <= jumped.error_ms
    assert verdicts[:2] == [PressVerdict.NOT_ARMED, PressVerdict.FALSE_START]


async def test_silent_board_is_declared_lost_then_found_again(sim, bridge):
    rec = bridge.recorder
    sim.hang()
    lost = await rec.wait(BoardLost, timeout=5)
    assert lost.reason == "silent"
    sim.hang(False)
    found = await rec.wait(BoardFound, timeout=5)
    assert found.port == sim.port and bridge.connected


async def test_finds_the_board_by_its_hello_among_other_serial_ports(sim, recorder):
    master, slave = os.openpty()  # a serial port where nothing answers
    tty.setraw(slave)
    dumb = os.ttyname(slave)
    rec = recorder
    br = ArcadeBridge(port=None, ports=lambda: [dumb, "/dev/nonexistent-tty", sim.port], handshake_s=0.3, poll_s=0.05)
    br.add_listener(rec)
    try:
        await br.start()
        hello = await br.wait_connected(5)
        assert hello.boot_id == sim.boot_id and br.connected_port == sim.port
        assert (await rec.wait(BoardFound)).port == sim.port
    finally:
        await br.stop()
        os.close(master)
        os.close(slave)
    assert br.state is BridgeState.STOPPED


async def test_no_board_means_searching_and_lamps_are_harmless(tmp_path):
    br = ArcadeBridge(port=str(tmp_path / "missing"), poll_s=0.05)
    await br.start()
    await asyncio.sleep(0.2)
    assert br.state is BridgeState.SEARCHING and not br.connected
    br.arm_race("x", {0, 1})  # nothing to send to: no error, the race runs on phones
    br.end_race()
    with pytest.raises(BridgeError):
        br.start_mapping([0])
    await br.stop()


async def test_a_board_with_another_protocol_version_is_refused_and_reported_once(tmp_path, recorder):
    with ArcadeSimulator(link=tmp_path / "v2", protocol=2) as old:
        br = ArcadeBridge(port=old.port, poll_s=0.05, handshake_s=0.3)
        br.add_listener(recorder)
        await br.start()
        event = await recorder.wait(BoardIncompatible)
        assert event.hello.protocol == 2 and event.port == old.port
        await asyncio.sleep(0.3)  # several more attempts meanwhile
        assert len(recorder.of(BoardIncompatible)) == 1 and not br.connected
        await br.stop()


def test_presses_before_the_first_clock_answer_are_held_not_lost():
    now = [1000.0]
    br = ArcadeBridge(port="unused", clock=lambda: now[0])
    seen = []
    br.add_listener(seen.append)
    br._on_message(fr.ButtonEdge(1, 2, 5_000_000, True))
    assert seen == []
    br._pending_clk[7] = 999.0
    now[0] = 1001.0
    br._on_message(fr.ClockReply(7, 6_000_000))
    (down,) = seen
    assert (down.button, down.seat, down.t_ms) == (2, 2, pytest.approx(0.0))
    assert down.error_ms == pytest.approx(1.0 + 0.05 + 1000 * 1e-4)
