"""How long a stop takes: SIGTERM to every process of a real kiosk at once (systemd's stop), in each
scene, in a real X window (Xvfb) and headless, until no process of it is left.

    python3 bench/bench_stop.py [--runs 3] [--headless-only | --window-only] [--scenes lobby,race,...]

Prints, per scene and mode, the runs' p50 and max in seconds (the goal: within 2 s), the exit
statuses and whether the table closed in order, beside a bare limit measured in the same run: a
Python process holding the same imports (pygame, aiohttp) that exits on SIGTERM. The scenes and the
driving are ``tests/kiosk/stop_kit.py``'s (the tests there check the behaviour; this measures it).
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "kiosk")]

from stop_kit import Scene, closed_cleanly, reach, running, stop, xvfb  # noqa: E402

BARE = "import signal, pygame, aiohttp; signal.signal(signal.SIGTERM, lambda *a: exit(0)); print('up', flush=True); signal.pause()"


def bare_stop_s() -> float:
    """The floor: a process with the same imports, from SIGTERM to its exit."""
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    proc = subprocess.Popen([sys.executable, "-c", BARE], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "up"
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    proc.wait(30)
    return time.monotonic() - t0


def measure(scene: Scene, display: str | None, runs: int) -> tuple[list[float], set[int], bool]:
    times, statuses, clean = [], set(), True
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="stop-") as folder, running(Path(folder), scene, display) as kiosk:
            reach(kiosk, scene)
            stopped = stop(kiosk, signal.SIGTERM)
            times.append(stopped.seconds)
            statuses.add(stopped.status)
            clean &= not stopped.left and closed_cleanly(kiosk.data)
    return times, statuses, clean


def line(label: str, times: list[float], statuses: set[int], clean: bool) -> str:
    ordered = sorted(times)
    return (f"{label:<24} p50 {statistics.median(ordered):5.2f} s   max {ordered[-1]:5.2f} s   "
            f"runs {len(times)}   exit {sorted(statuses)}   closed in order: {'yes' if clean else 'NO'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--headless-only", action="store_true")
    parser.add_argument("--window-only", action="store_true")
    parser.add_argument("--scenes", default=",".join(s.value for s in Scene), help="which scenes (comma-separated)")
    args = parser.parse_args()
    scenes = [Scene(name) for name in args.scenes.split(",")]
    bare = sorted(bare_stop_s() for _ in range(args.runs))
    print(f"{'bare limit (same imports)':<24} p50 {statistics.median(bare):5.2f} s   max {bare[-1]:5.2f} s")
    worst = 0.0
    for scene in scenes if not args.window_only else ():
        if scene is not Scene.ATTRACT:
            times, statuses, clean = measure(scene, None, args.runs)
            print(line(f"headless {scene.value}", times, statuses, clean), flush=True)
            worst = max(worst, *times)
    if not args.headless_only:
        with xvfb() as display:
            for scene in scenes:
                times, statuses, clean = measure(scene, display, args.runs)
                print(line(f"window {scene.value}", times, statuses, clean), flush=True)
                worst = max(worst, *times)
    print(f"slowest stop: {worst:.2f} s (goal: 2 s)")
    return 0 if worst <= 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
