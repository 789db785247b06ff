"""Before / after in one run: the bare limit, this tree's table and another tree's table (e.g. main
checked out elsewhere), alternated round by round, pooled (the shared machine's load drifts).

    python3 bench/bench_ws_compare.py OTHER_TREE [--rounds 3] [--samples 200]
    BENCH_DIR=/dev/shm python3 bench/bench_ws_compare.py ...   (journal on tmpfs: the CPU path only)

``OTHER_TREE`` needs this ``bench/bench_ws.py`` (copy it there): its server worker starts that tree's table.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent.parent


def load(root: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, root / "bench" / "bench_ws.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--samples", type=int, default=200)
    args = parser.parse_args()
    this, other = load(HERE, "bench_this"), load(args.other.resolve(), "bench_other")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; journal in {os.environ.get('BENCH_DIR', '/tmp')}")
    bare: list[float] = []
    mine: list[float] = []
    theirs: list[float] = []
    for _ in range(args.rounds):
        bare += this.bare_row(args.samples, 0.05)
        mine += this.one_run(args.samples, 0, 0.05, settle_s=1.0)[0]
        theirs += other.one_run(args.samples, 0, 0.05, settle_s=1.0)[0]
    this.report("pooled: bare limit", bare)
    this.report(f"pooled: {HERE.name}", mine)
    this.report(f"pooled: {args.other.name}", theirs)
    this.ratio(HERE.name, mine, bare)
    this.ratio(args.other.name, theirs, bare)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
