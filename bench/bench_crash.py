"""Crash loop: kill -9 the real server at random moments while scripted phones play, 100 times.

    python3 bench/bench_crash.py [--kills 100]

Half the kills during Collusion, half during Cheating Moth (``tests/reliability/crash_kit.py``):
each time the server restarts on the same data directory and the phones reconnect with their seat
keys. Prints kills, acknowledged actions, acknowledged actions lost (goal 0), seats lost, and the
restart time (launch to listening) p50 / max.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

from crash_kit import crash_loop  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    failed = False
    restarts: list[float] = []
    totals = {"kills": 0, "acked": 0, "lost": 0, "seats": 0}
    for n, game in enumerate(("collusion", "cheating_moth")):
        kills = args.kills // 2 + (args.kills % 2 if n == 0 else 0)
        with tempfile.TemporaryDirectory(prefix="crash-") as data_dir:
            report = asyncio.run(crash_loop(game, Path(data_dir), kills=kills, seed=args.seed + n))
        print(report.line())
        for problem in report.problems[:5]:
            print(f"  PROBLEM: {problem}")
        failed |= bool(report.problems)
        restarts += report.restarts_s
        totals["kills"] += report.kills
        totals["acked"] += report.acked
        totals["lost"] += report.lost
        totals["seats"] += report.seats_lost
    restarts.sort()
    print(f"all: kills {totals['kills']}, acked actions {totals['acked']}, acked actions lost {totals['lost']}, "
          f"seats lost {totals['seats']}; restart p50 {restarts[len(restarts) // 2] * 1000:.0f} ms, "
          f"max {restarts[-1] * 1000:.0f} ms")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
