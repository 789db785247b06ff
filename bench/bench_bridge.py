"""Arcade bridge benchmarks, through a real pty pair with the simulated board.

    python3 bench/bench_bridge.py [--presses 400] [--lines 100000]

1. press -> race judge latency: the simulated board stamps a press at device time T and writes its
   line at once; measured is the session-clock moment the judge has the press minus T (both on
   this machine's monotonic clock), p50/p99.
2. lines/s the bridge sustains: the board's side writes a flood of valid press/release lines as
   fast as the pty takes them; measured is lines decoded, de-duplicated, clock-converted and
   delivered as events per second. Also the decoder alone (no I/O) for reference.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge import framing as fr
from firmware_bridge.bridge import ArcadeBridge, BoardProtocol, ButtonDown, ButtonUp, monotonic_ms
from game.session.race_floor import RaceJudge
from tools.arcade_sim import ArcadeSimulator


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def connect(link: Path) -> tuple[ArcadeSimulator, ArcadeBridge]:
    sim = ArcadeSimulator(link=link, seed=1).start()
    bridge = ArcadeBridge(port=sim.port, poll_s=0.05)
    await bridge.start()
    await bridge.wait_connected(5)
    while bridge.sync.samples < 8:
        await asyncio.sleep(0.01)
    return sim, bridge


async def latency(presses: int, link: Path) -> list[float]:
    sim, bridge = await connect(link)
    judge = RaceJudge()
    judge.arm("bench", range(12), monotonic_ms(), 10_000_000)
    got: dict[int, float] = {}
    done = asyncio.Event()

    def on_event(ev: object) -> None:
        if isinstance(ev, ButtonDown):
            judge.press(ev.to_press("bench"))
            got[ev.device_us] = monotonic_ms()
            if len(got) == presses:
                done.set()

    bridge.add_listener(on_event)
    stamped = []
    for i in range(presses):
        stamped.append(sim.press(i % 12, hold_us=2000))
        await asyncio.sleep(0.004 + (i % 7) * 0.0005)
    await asyncio.wait_for(done.wait(), 10)
    await bridge.stop()
    sim.close()
    return [got[at] - sim.host_ms(at) for at in stamped]


async def throughput(lines: int, link: Path) -> tuple[float, int]:
    sim, bridge = await connect(link)
    base_seq, t0 = sim.seq + 1, sim.device_us()
    flood = b"".join(
        fr.encode(fr.ButtonEdge(base_seq + i, i % 12, t0 + i * 10, (i // 12) % 2 == 0)) for i in range(lines)
    )
    count = 0
    done = asyncio.Event()

    def on_event(ev: object) -> None:
        nonlocal count
        if isinstance(ev, (ButtonDown, ButtonUp)):
            count += 1
            if count == lines:
                done.set()

    bridge.add_listener(on_event)
    sim.hang()  # the simulated firmware stays quiet; this thread plays the board at full speed
    master = sim._master

    def write_all() -> None:
        view = memoryview(flood)
        while view:
            try:
                view = view[os.write(master, view[:4096]) :]
            except BlockingIOError:
                time.sleep(0.0002)

    start = time.perf_counter()
    writer = threading.Thread(target=write_all)
    writer.start()
    await asyncio.wait_for(done.wait(), 120)
    elapsed = time.perf_counter() - start
    writer.join()
    await bridge.stop()
    sim.close()
    return lines / elapsed, bridge.stats.dropped.total()


def decode_only(lines: int) -> float:
    data = b"".join(fr.encode(fr.ButtonEdge(i + 1, i % 12, 10**9 + i, True)) for i in range(lines))
    protocol = BoardProtocol(lambda m: None, lambda e: None)
    start = time.perf_counter()
    for i in range(0, len(data), 4096):
        protocol.data_received(data[i : i + 4096])
    return lines / (time.perf_counter() - start)


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--presses", type=int, default=400)
    ap.add_argument("--lines", type=int, default=100_000)
    args = ap.parse_args()
    link = Path(f"/tmp/tabletop-arcade-bench-{os.getpid()}")
    print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    lat = await latency(args.presses, link)
    print(f"press -> judge latency over {len(lat)} presses: p50 {statistics.median(lat):.3f} ms, "
          f"p99 {pct(lat, 99):.3f} ms, max {max(lat):.3f} ms")
    rate, dropped = await throughput(args.lines, link)
    print(f"bridge sustains {rate:,.0f} lines/s through the pty ({args.lines} lines, {dropped} dropped)")
    print(f"decoder alone: {decode_only(args.lines):,.0f} lines/s")


if __name__ == "__main__":
    asyncio.run(main())
