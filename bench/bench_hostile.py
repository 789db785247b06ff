"""Hostile messages: 10,000 (or more) fuzzed WebSocket messages against the real server app.

    python3 bench/bench_hostile.py [--messages 10000] [--game collusion]

Hypothesis draws plans of up to 50 hostile frames (wrong fields, random JSON, lone surrogates,
huge numbers, deep nesting, other seats' actions, replays, binary and oversized frames) sent by a
seat, a spectator, the host and a socket that never said hello, each on a fresh table in play
(``tests/reliability/hostile_kit.py``). Every refused message must leave every seat's view as it
was; every socket gets an answer or a documented close. Prints the counts and the first breach.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

from hostile_kit import FAST_DIR, SENDERS, Frame, Run, make_plans, play_hostile  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--game", default="collusion")
    args = parser.parse_args()
    totals: Counter[str] = Counter()
    closes: Counter[int] = Counter()
    tables = 0
    started = time.monotonic()

    @settings(max_examples=max(1, args.messages // 60), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(plan=make_plans(40, 80))
    def one(plan: list[tuple[str, Frame]]) -> None:
        nonlocal tables
        if totals["messages"] >= args.messages:
            return
        with tempfile.TemporaryDirectory(prefix="hostile-", dir=FAST_DIR) as data_dir:
            run: Run = asyncio.run(play_hostile(plan, Path(data_dir), args.game))
        tables += 1
        totals.update(messages=run.messages, refused=run.refused, accepted=run.accepted)
        totals.update(f"from {role}" for role, _ in plan)
        closes.update(run.closes)

    try:
        while totals["messages"] < args.messages:
            one()
        breach = None
    except AssertionError as exc:
        breach = exc
    seconds = time.monotonic() - started
    print(f"hostile messages: {totals['messages']} on {tables} tables in {seconds:.0f} s ({args.game}); "
          f"refused {totals['refused']} (each left every view unchanged), accepted {totals['accepted']}")
    print("  senders: " + ", ".join(f"{role} {totals['from ' + role]}" for role in SENDERS))
    print("  documented closes: " + (", ".join(f"{code} x{n}" for code, n in sorted(closes.items())) or "none"))
    if breach is not None:
        print(f"BREACH: {breach}")
        return 1
    print("breaches: 0")
    return 0


if __name__ == "__main__":
    sys.exit(main())
