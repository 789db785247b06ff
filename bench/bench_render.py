#!/usr/bin/env python3
"""Renderer benchmarks (software rendering, SDL dummy video driver).

1. Frame time (update + draw + flip) of the busiest scene — the reveal at a 12-seat table, played
   through its whole animation — at 1920×1080 and 3840×2160: p50 / p99 / max.
2. Time from process start to the lobby (12 seats, 12 QR codes) on screen: a fresh Python process
   imports the renderer, opens the window and draws the first frame.

    python3 bench/bench_render.py [--frames 420] [--starts 5] [--game collusion|speakeasy]

``--game speakeasy`` plays the Speakeasy reveal at a 12-seat table instead (every seat's arrow,
the identity card, points flying).

"cold" plays the reveal with empty caches (every font, text and layer made for the first time);
"as live" with fresh caches primed the way the window primes them (fonts while the lobby is up,
plates, labels and badges during the conspiracy);
"warm" plays it again; "cpu" is the process's CPU time per frame (what the frame costs even when other
programs compete for the cores), "wall" the elapsed time.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    import pygame

    from game.render.app import Screen
    from game.session.snapshot import TableSnapshot

STARTUP_CHILD = r"""
import sys, time
t0 = float(sys.argv[1])
import pygame
from game.config import TableConfig
from game.render.app import run_window
from game.render.tapes import lobby_snapshot

snap = lobby_snapshot(12, "fa", joined=0, bots=0)
real_flip = pygame.display.flip
def flip():
    real_flip()
    print(f"{time.time() - t0:.4f}", flush=True)
    pygame.event.post(pygame.event.Event(pygame.QUIT))
pygame.display.flip = flip

class Runtime:
    def snapshot(self):
        return snap
    def send(self, event):
        pass

run_window(Runtime(), TableConfig(window_size=(1920, 1080)))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def play_reveal(screen: Screen, window: pygame.Surface, before: TableSnapshot, after: TableSnapshot,
                size: tuple[int, int], frames: int) -> tuple[list[float], list[float]]:
    """Frame times (wall ms, CPU ms) of ``frames`` frames of the reveal beat, from its start."""
    import pygame

    from game.render.app import STEP_S

    screen.sync(before)
    screen.advance(STEP_S, size)
    screen.sync(after)  # queues the reveal beat
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(frames):
        w0, c0 = time.perf_counter(), time.process_time()
        screen.advance(STEP_S, size)
        screen.sync(after)
        screen.draw(window)
        pygame.display.flip()
        wall.append((time.perf_counter() - w0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return wall, cpu


def bench_frames(size: tuple[int, int], frames: int, game: str = "collusion") -> dict[str, tuple[list[float], list[float]]]:
    """The whole reveal (about 7 s of animation) played cold (empty caches), then warm."""
    import pygame

    from game.render.app import Screen
    from game.render.games.collusion.tapes import busiest_reveal
    from game.render.games.speakeasy.tapes import speakeasy_busiest_reveal

    window = pygame.display.set_mode(size)
    before, after = (speakeasy_busiest_reveal if game == "speakeasy" else busiest_reveal)(12, "en")
    cold_screen = Screen()
    cold = play_reveal(cold_screen, window, before, after, size, frames)
    live = Screen()  # new caches, then what the window does first: the lobby primes fonts,
    live.sync(before)  # the conspiracy (3 s here) primes the reveal's known pictures
    for _ in range(1000):
        live.warm_step(size)
    live.advance(3.0, size)
    primed = play_reveal(live, window, before, after, size, frames)
    warm = play_reveal(Screen(ctx=cold_screen.ctx), window, before, after, size, frames)
    return {"cold": cold, "as live": primed, "warm": warm}


def bench_startup(runs: int) -> list[float]:
    out = []
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(runs):
        t0 = time.time()
        result = subprocess.run([sys.executable, "-c", STARTUP_CHILD, repr(t0)], capture_output=True, text=True,
                                env=env, cwd=ROOT, timeout=60, check=True)
        out.append(float(result.stdout.strip().splitlines()[-1]) * 1000)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description="renderer benchmarks")
    parser.add_argument("--frames", type=int, default=420, help="frames per pass (the reveal lasts ~7 s = 420)")
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--game", choices=("collusion", "speakeasy"), default="collusion")
    args = parser.parse_args()
    import pygame

    pygame.init()
    print(f"busiest scene: {args.game.capitalize()} reveal, 12 seats (update + draw + flip, software); load {os.getloadavg()[0]:.1f}"
          f" on {os.cpu_count()} cores")
    for size in ((1920, 1080), (3840, 2160)):
        for label, (wall, cpu) in bench_frames(size, args.frames, args.game).items():
            print(f"  {size[0]}x{size[1]} {label}: wall p50 {statistics.median(wall):.2f} ms  p99 {percentile(wall, 99):.2f} ms"
                  f"  max {max(wall):.1f} ms | cpu p50 {statistics.median(cpu):.2f} ms  p99 {percentile(cpu, 99):.2f} ms"
                  f"  ({len(wall)} frames)")
    pygame.quit()
    starts = bench_startup(args.starts)
    print(f"start to lobby on screen (12 seats, 1920x1080): p50 {statistics.median(starts):.0f} ms"
          f"  max {max(starts):.0f} ms  ({len(starts)} runs)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
