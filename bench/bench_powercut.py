"""Power cuts at random byte offsets: the journal's WAL or database cut short or garbled, then the
table started on it (``tests/reliability/powercut_kit.py``).

    python3 bench/bench_powercut.py [--trials 50]

Prints how many restarts resumed at the last whole action, started fresh with the damaged journal
kept aside, or refused with a message; any other outcome (a traceback, a game that never was)
stops the bench with the damage that caused it.
"""
from __future__ import annotations

import argparse
import logging
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

from powercut_kit import Damage, run_trials, summary  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=50, help="per kind of damage and per game (two games)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory(prefix="powercut-") as work:
        verdicts = run_trials(Path(work), trials=args.trials, seed=args.seed)
    counts = summary(verdicts)
    print(f"power cuts: {counts['trials']} damaged restarts; resumed at the last whole action {counts['resumed']}, "
          f"fresh table with the journal kept aside {counts['moved_aside']}, refused {counts['refused']}; "
          "tracebacks 0, games that never were 0")
    by_kind = Counter((v.what.split()[0].rstrip(":"), "cut" if " cut at " in v.what else "garbled", v.outcome.value)
                      for v in verdicts)
    for kind in Damage:
        file = "journal.sqlite3-wal" if kind.value.startswith("wal") else "journal.sqlite3"
        how = "cut" if kind.value.endswith("cut") else "garbled"
        parts = ", ".join(f"{o} {n}" for (f, h, o), n in sorted(by_kind.items()) if f == file and h == how)
        print(f"  {file} {how}: {parts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
