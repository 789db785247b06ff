"""Serial faults mid-race through the simulated board on a pty (``tests/reliability/serial_kit.py``):
1 MB of garbage, a 2 MB line without a newline, 8 unplug/replug cycles, a hung board.

    python3 bench/bench_serial.py [--rounds 3]

Prints, per fault, whether the race ended in its true order (board press first, phones after),
whether the screen said the board was gone, tracebacks seen, and how long the bridge took to be
back after a replug (session clock, ms; goal ≤ 1000).
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

from serial_kit import Fault, run_fault  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    back: list[float] = []
    bad = 0
    for fault in Fault:
        fair = said = tracebacks = 0
        for n in range(args.rounds):
            with tempfile.TemporaryDirectory(prefix="serial-") as work:
                outcome = asyncio.run(run_fault(fault, Path(work), seed=n + 1))
            fair += outcome.order == outcome.expected
            said += outcome.said_unplugged
            tracebacks += len(outcome.tracebacks)
            back += outcome.back_ms
        bad += (args.rounds - fair) + tracebacks
        print(f"{fault.value:<32} races ended in true order {fair}/{args.rounds}; screen said 'unplugged' "
              f"{said}/{args.rounds}; tracebacks {tracebacks}")
    if back:
        print(f"bridge back after a replug (session clock): p50 {statistics.median(back):.0f} ms, "
              f"max {max(back):.0f} ms over {len(back)} replugs (goal ≤ 1000 ms)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
