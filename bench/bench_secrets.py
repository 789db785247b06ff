"""The secrets matrix over whole bot-played games of every game in the catalog.

    python3 bench/bench_secrets.py [--seeds 3] [--seconds 60]

Records every seat's frame, the spectator feed, the host console and the big screen's snapshot at
every change (``tests/reliability/secrets_kit.py``) and checks that none holds another seat's
secret. Prints, per game, the moments recorded, (observer, seat) pairs checked, whether the game
was played to its end, and the breaches (goal: 0).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

from secrets_kit import play_and_check  # noqa: E402

from game import catalog  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=60.0, help="longest one game may take")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # bots' refused timed actions are logged; not the point here
    breaches = 0
    for desc in catalog.games():
        if not desc.has_bots:
            print(f"{desc.id:<22} no bots for this variant: not in the bots' matrix")
            continue
        totals = {"moments": 0, "checks": 0, "finished": 0, "spectator": 0, "host": 0}
        for seed in range(1, args.seeds + 1):
            with tempfile.TemporaryDirectory(prefix="secrets-") as data_dir:
                m = asyncio.run(play_and_check(desc.id, Path(data_dir), seed=seed, max_seconds=args.seconds))
            totals["moments"] += m.moments
            totals["checks"] += m.checks
            totals["finished"] += m.finished
            totals["spectator"] += m.spectator_states
            totals["host"] += m.host_states
            breaches += len(m.breaches)
            for line in m.breaches[:5]:
                print(f"  BREACH {desc.id} seed {seed}: {line}")
        print(f"{desc.id:<22} {args.seeds} games, {totals['finished']} played to the end; {totals['moments']} moments, "
              f"{totals['checks']} (observer, seat) checks; spectator got {totals['spectator']} states, "
              f"host {totals['host']}")
    print(f"secrets found outside their seat: {breaches}")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
