#!/usr/bin/env python3
"""How far the TV is behind the table: the program with its window up (1920×1080 on Xvfb, started
by the bench) plays bot games at machine speed (``bench/bench_tv_soak.py``'s harness: every seat a
bot acting within a tenth of a second), and the window's process times every batch of the table's
events it received:

- **behind**: from the table making the batch (``TableSnapshot.clock_ms``, the monotonic clock both
  processes share) to the first frame the TV drew telling it — its first beat on screen, a newer
  batch's (the pacing rule cut it to that), or, for a batch that calls for no beat, the first
  frame drawn after it arrived;
- **link** (the bare limit, same run): from the table making the batch to the window reading it,
  the part no pacing can remove;
- **final**: from the game-over batch to the frame where the final screen is alone on screen (its
  own last reveal played: the phones' "game over" to the TV's);
- **phones waiting**: how long each batch of public news kept the phones on "Look at the screen"
  (``game/session/news.py``), timed on the table's loop: until the TV reported it told it, or gave up.

Prints p50 / p99 / max of each (ms) and the load average.

    python3 bench/bench_tv_lag.py [--games 6]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_tv_soak import GAME_LINE, HELD_LINE, program, start_xvfb, window_worker

FIGURES = "tv lag figures: "


class LagWatch:
    """Called after every window step (in the window's process): times each batch (see above)."""

    def __init__(self) -> None:
        self.pending: dict[int, float] = {}  # batch -> when the table made it, not told yet
        self.seen: set[int] = set()
        self.behind: list[float] = []
        self.link: list[float] = []
        self.final: list[float] = []
        self.final_made: float | None = None

    def __call__(self, loop: Any) -> None:
        from game.session.scheduler import monotonic_ms
        from game.session.snapshot import TablePhase

        snap, now = loop.screen.snapshot, monotonic_ms()
        if snap is None:
            return
        if snap.events and snap.event_seq not in self.seen:
            self.seen.add(snap.event_seq)
            self.link.append(now - snap.clock_ms)
            self.pending[snap.event_seq] = snap.clock_ms
            if snap.phase is TablePhase.FINISHED:
                self.final_made = snap.clock_ms
        if loop.drew:
            self._told(loop.screen.director, now)

    def _told(self, director: Any, now: float) -> None:
        on = [s.batch for s in director.stack[1:] if s.batch is not None]
        queued = {s.batch for s in director.queued()}
        for batch, made in list(self.pending.items()):
            if any(b >= batch for b in on) or (batch not in queued and batch not in on):
                self.behind.append(now - made)
                del self.pending[batch]
        showing = director.showing()
        if self.final_made is not None and showing is not None and showing.announces:
            self.final.append(now - self.final_made)
            self.final_made = None

    def report(self) -> str:
        return FIGURES + " ".join(f"{name}={','.join(f'{v:.1f}' for v in values)}"
                                  for name, values in (("behind", self.behind), ("link", self.link), ("final", self.final)))


def stats(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):7.0f}  p99 {p99:7.0f}  max {ordered[-1]:7.0f}  (n={len(ordered)})"


def run(games: int) -> int:
    xvfb, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-tv-lag-", dir=os.environ.get("BENCH_DIR")) as data:
            proc = program(__file__, display, data)
            assert proc.stdout is not None and proc.stdin is not None
            done, figures, held = 0, "", []
            for line in proc.stdout:
                if line.startswith(HELD_LINE):
                    held.append(float(line[len(HELD_LINE):]))
                elif line.startswith(GAME_LINE):
                    done += 1
                    if done >= games:
                        proc.stdin.close()
                elif line.startswith(FIGURES):
                    figures = line[len(FIGURES):]
            proc.wait(timeout=60)
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
    if not figures:
        print("the window reported no figures", file=sys.stderr)
        return 1
    parsed = {k: [float(v) for v in vals.split(",") if v] for k, vals in (f.split("=") for f in figures.split())}
    print(f"tv lag: {done} bot games at machine speed, window 1920x1080 on Xvfb, load {os.getloadavg()[0]:.1f}")
    print(f"  TV behind the table (ms): {stats(parsed['behind'])}")
    print(f"  link, the bare limit (ms): {stats(parsed['link'])}")
    print(f"  game over to final screen (ms): {stats(parsed['final'])}")
    print(f"  phones waiting for the TV to tell the news (ms): {stats(held)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--window-worker"]:
        watch = LagWatch()
        try:
            window_worker(argv[1], watch)
        finally:
            print(watch.report(), flush=True)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    return run(parser.parse_args(argv).games)


if __name__ == "__main__":
    raise SystemExit(main())
