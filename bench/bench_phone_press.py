"""Phone race presses through the real server, on loopback.

    python3 bench/bench_phone_press.py [--phones 4] [--presses 40] [--seed 1]

1. clock sync over the WebSocket: each fake phone's clock runs seconds off the table's and answers
   the server's ``sync`` probes after a simulated Wi-Fi delay (5–60 ms each way, asymmetric); after
   the join burst plus two refresh bursts (16 round trips), measured is |mapped phone time - true table time| and
   the estimator's reported error bound, p50/p95/p99 over the phones and probes.
2. press -> verdict: a phone sends ``press`` and waits for ``press_result`` (the judge's verdict),
   round-trip time p50/p99 (no race armed: the same parse / map / judge path, verdict not_armed).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp

from game.config import TableConfig
from game.server.runtime import start_table, stop_table

PRESS_GAP_S = 0.12  # under the per-socket rate limit (10 messages/s)


def table_ms() -> float:
    return time.monotonic_ns() / 1e6


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


async def phone(url: str, token: str, offset_ms: float, rounds: int, rnd: random.Random,
                presses: int) -> tuple[list[tuple[float, float]], list[float]]:
    errors: list[tuple[float, float]] = []
    rtts: list[float] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{url}/ws") as ws:
        await ws.send_str(json.dumps({"v": 1, "kind": "hello", "token": token}))
        answered = 0
        while answered < rounds:
            msg = json.loads((await ws.receive()).data)
            if msg["kind"] != "sync":
                continue
            await asyncio.sleep(rnd.uniform(0.005, 0.060))  # the probe's way to the phone
            t1 = table_ms() + offset_ms
            await asyncio.sleep(rnd.uniform(0.005, 0.060) * rnd.choice((1, 1, 3)))  # the way back, asymmetric
            await ws.send_str(json.dumps({"v": 1, "kind": "sync_reply", "s": msg["s"], "t": t1}))
            answered += 1
        for _ in range(presses):
            truth = table_ms()
            sent = time.perf_counter()
            await ws.send_str(json.dumps({"v": 1, "kind": "press", "race": 1, "t": truth + offset_ms}))
            while True:
                msg = json.loads((await ws.receive()).data)
                if msg["kind"] in ("press_result", "error"):
                    break
            if msg["kind"] == "error":
                raise SystemExit(f"the table refused a press: {msg}")
            rtts.append((time.perf_counter() - sent) * 1000)
            await asyncio.sleep(PRESS_GAP_S)
            if msg["error_ms"] < 250:
                errors.append((abs(msg["t_ms"] - truth), msg["error_ms"]))
    return errors, rtts


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        config = TableConfig(host="127.0.0.1", port=0, data_dir=Path(tmp), admin_pin="1234", game="cheating_moth")
        started = await start_table(config, arcade=False)
        try:
            session = started.session
            session.host_command({"command": "set_seats", "count": args.phones})
            url = f"http://127.0.0.1:{started.port}"
            rnd = random.Random(args.seed)
            jobs = [phone(url, session.table.seats[i].token, rnd.uniform(-30_000, 30_000), 16,
                          random.Random(args.seed * 100 + i), args.presses) for i in range(args.phones)]
            results = await asyncio.gather(*jobs)
        finally:
            await stop_table(started)
    errors = [e for r in results for e in r[0]]
    rtts = [t for r in results for t in r[1]]
    actual = [a for a, _ in errors]
    bound = [b for _, b in errors]
    print(f"clock sync, {len(errors)} mapped presses over {args.phones} phones (5-60 ms one-way jitter):")
    print(f"  |mapped - true| ms  p50 {pct(actual, 50):.2f}  p95 {pct(actual, 95):.2f}  p99 {pct(actual, 99):.2f}")
    print(f"  error bound ms      p50 {pct(bound, 50):.2f}  p95 {pct(bound, 95):.2f}  p99 {pct(bound, 99):.2f}")
    print(f"  within the bound: {sum(a <= b + 0.5 for a, b in errors)}/{len(errors)}")
    print(f"press -> press_result round trip ms: p50 {statistics.median(rtts):.3f}  p99 {pct(rtts, 99):.3f}"
          f"  ({len(rtts)} presses)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=4)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    asyncio.run(main(parser.parse_args()))
