#!/usr/bin/env python3
"""The kiosk's attract loop on the render thread: frame time (kiosk layer + update + draw + flip,
software, 1920x1080) while the reel plays game after game, paced at the window's 60 fps.

    python3 bench/bench_attract.py [--seconds 40] [--game-s 8] [--recorder process|thread|inline]
                                   [--bots search|heuristic]

``inline`` records each tape on the render thread when it is due; ``process`` is the window's way
(``TapeOrders(worker=TapeWorker())``: a worker process at nice 10 records the next game's tape while
one plays); ``thread`` a worker thread (it shares the GIL with the render thread). Prints one line: frames,
games shown, wall p50 / p99 / max of a frame's work (the sleep to the next frame left out) and the
render thread's own CPU time per frame. Wall times depend on the machine's load (printed).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(ROOT))

FPS = 60
SIZE = (1920, 1080)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def run(seconds: float, game_s: int, recorder_name: str, bots: str) -> str:
    import pygame

    from game.bots import BotKind
    from game.config import TableConfig
    from game.kiosk.attract import AttractReel, TapeOrders, TapeWorker, record_tape
    from game.kiosk.config import KioskConfig, Timers, Venue
    from game.kiosk.screen import KioskLayer
    from game.render.app import SWITCH_INTERVAL_S, Screen
    from game.session.session import Session
    from game.session.snapshot import RunMode

    sys.setswitchinterval(SWITCH_INTERVAL_S)  # as the window sets it
    pygame.init()
    window = pygame.display.set_mode(SIZE)
    kiosk = KioskConfig(venue=Venue("Café Nakhl"), languages=("fa", "th", "en"), admin_pin="4821",
                        timers=Timers(attract_after_s=1, attract_game_s=game_s))
    config = TableConfig(mode=RunMode.KIOSK, language="fa", data_dir=Path("/nonexistent"), admin_pin="4821", kiosk=kiosk)
    session = Session.boot(config, None, None)
    session.set_base_url("http://192.168.1.20:8765")
    worker = TapeWorker() if recorder_name == "process" else None
    tapes = TapeOrders(threaded=recorder_name == "thread", record=partial(record_tape, kind=BotKind(bots)), worker=worker)
    layer = KioskLayer(config, time.monotonic, tapes=tapes)
    screen = Screen()
    layer.shown(session.snapshot, screen)  # the idle lobby; then the reel at once, with these bots
    layer.reel = AttractReel(kiosk.languages, game_ms=game_s * 1000, tapes=tapes)
    layer.reel.start(round(time.monotonic() * 1000))
    frames: list[float] = []
    cpu: list[float] = []  # the render thread's own CPU time per frame (what other load cannot inflate)
    games: set[tuple[int, str]] = set()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0, c0 = time.perf_counter(), time.thread_time()
        shown = layer.shown(session.snapshot, screen)
        screen.sync(shown)
        screen.advance(1 / FPS, SIZE)
        screen.draw(window)
        if screen.snapshot is not None:
            layer.draw(window, screen.snapshot, screen.ctx)
        pygame.display.flip()
        work = (time.perf_counter() - t0) * 1000
        if layer.reel is not None and layer.reel.tape is not None:
            games.add((layer.reel.turn, shown.game))
            frames.append(work)
            cpu.append((time.thread_time() - c0) * 1000)
        time.sleep(max(0.0, 1 / FPS - work / 1000))
    if worker is not None:
        worker.shutdown(wait=False)
    pygame.quit()
    return (f"attract {recorder_name} recorder, {bots} bots, {SIZE[0]}x{SIZE[1]}: {len(frames)} frames, {len(games)} games"
            f" ({', '.join(sorted({g for _, g in games}))}); frame work p50 {statistics.median(frames):.2f} ms"
            f"  p99 {percentile(frames, 99):.2f} ms  max {max(frames):.1f} ms | render thread cpu p50"
            f" {statistics.median(cpu):.2f} ms  p99 {percentile(cpu, 99):.2f} ms  max {max(cpu):.1f} ms; load {os.getloadavg()[0]:.1f}"
            f" on {os.cpu_count()} cores")


def main() -> int:
    parser = argparse.ArgumentParser(description="attract loop frame times")
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--game-s", type=int, default=8, help="each game's turn on screen (the kiosk default is 40)")
    parser.add_argument("--recorder", choices=("process", "thread", "inline"), default="process")
    parser.add_argument("--bots", choices=("search", "heuristic"), default="search")
    args = parser.parse_args()
    print(run(args.seconds, args.game_s, args.recorder, args.bots))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
