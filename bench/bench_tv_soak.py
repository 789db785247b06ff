#!/usr/bin/env python3
"""TV soak: the program with its TV window up (1920×1080, on a virtual display, Xvfb, started by
the bench) plays bot games back to back at machine speed — Collusion, Speakeasy, Cheating Moth in
turn, five seats, every seat a bot that acts at once — each ended on its final screen for a moment,
then *Play again, same players*. After each game it reads the PSS of every process of the program
(the window's, the table's, multiprocessing's helper: ``/proc/<pid>/smaps_rollup``) and ends with

    tv soak: N games, PSS first X MB, last Y MB

(first: after the warm-up, one game of each — the window has then drawn every game's scenes and
its bounded caches of pictures are full, so what it grows by after that is what it keeps; last: after
N more games). The warm-up's games are printed too: the window grows through them while its caches
fill to their bounds (game 1 draws only Collusion's scenes). Goal: flat (+10 MB at most over 10
games) and ≤ 200 MB.

    python3 bench/bench_tv_soak.py [--games 12] [--every 1] [--warmup 3]

The window process runs ``game.server.process_runtime.ProcessRuntime`` (the table's loop in its own
process) and ``game.render.app.run_window``, as ``tabletop`` does, with the bots' thinking time
scaled to zero (``bot_delay_scale``); the table's own process runs the games (``Autoplay``, a
session listener) and prints one line per game. ``bench/bench_tv_lag.py`` uses the same harness.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ws import ROOT, start_xvfb  # the repository; a virtual 1920×1080 display on a free display number

GAMES = ("collusion", "speakeasy", "cheating_moth")
SEATS = 5  # every game takes five (Cheating Moth's one deck seats five)
FINAL_S = 2.5  # each final screen stays this long once the TV shows it, before the next game
FINAL_WAIT_S = 30.0  # ... or the game's end plus this long, if the TV never says it shows it
BOT_DELAY_SCALE = 0.05  # machine speed: bots act within a tenth of a second (a cheat still needs its 1.5 s hold)
SIZE = (1920, 1080)
GAME_LINE = "tv soak: game "
HELD_LINE = "tv soak: phones held "  # ms the phones waited for the TV to tell a batch of news (session/news.py)


# ------------------------------------------------------------------------- the table's process
class Autoplay:
    """On the table's loop: starts a bot game, and once it is over (after ``FINAL_S`` on its final
    screen) says so on stdout and plays again with the same seats; the next game in turn."""

    def __init__(self, session: Any, loop: asyncio.AbstractEventLoop) -> None:
        self.session, self.loop = session, loop
        self.done = 0
        self.waiting: asyncio.TimerHandle | None = None
        self.held_since: float | None = None  # the phones wait for the TV since then (loop time)

    def begin(self) -> None:
        s = self.session
        game = GAMES[self.done % len(GAMES)]
        if s.table.game != game:
            s.host_command({"command": "set_game", "game": game})
        if s.table.seat_count != SEATS:
            s.host_command({"command": "set_seats", "count": SEATS})
        s.host_command({"command": "fill_bots", "kind": "heuristic"})
        s.host_command({"command": "start"})

    def next_game(self) -> None:
        self.waiting = None
        self.done += 1
        print(f"{GAME_LINE}{self.done} {self.session.table.game} over", flush=True)
        self.session.host_command({"command": "next"})
        self.begin()

    def updated(self, update: Any) -> None:
        from game.session.snapshot import TablePhase

        now = self.loop.time()
        if update.look and self.held_since is None:
            self.held_since = now
        elif not update.look and self.held_since is not None:
            print(f"{HELD_LINE}{(now - self.held_since) * 1000:.0f}", flush=True)
            self.held_since = None
        if self.session.phase is TablePhase.FINISHED and self.waiting is None:  # the TV has this long to get there
            self.waiting = self.loop.call_later(FINAL_WAIT_S, self.next_game)

    def final_shown(self) -> None:
        """The TV says its final screen is on (``InputKind.SHOWN``): the next game in ``FINAL_S``."""
        if self.waiting is not None:
            self.waiting.cancel()
            self.waiting = self.loop.call_later(FINAL_S, self.next_game)

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        pass

    def notice(self, code: Any) -> None:
        pass


def autoplay(session: Any) -> None:
    """``ProcessRuntime``'s ``on_started``: the games begin once the table serves."""
    player = Autoplay(session, asyncio.get_running_loop())
    session.attach(player)
    shows = session.screen_shows

    def screen_shows(scene: str) -> None:  # the TV's word that its final screen is on
        shows(scene)
        player.final_shown()

    session.screen_shows = screen_shows  # type: ignore[method-assign]
    player.begin()


# ------------------------------------------------------------------------- the window's process
def window_worker(data_dir: str, watch: Callable[[Any], None] | None = None) -> None:
    """``--window-worker``: the program's two processes, the TV's window in this one, until stdin
    closes. ``watch(loop)``: called after every window step (the lag bench reads the screen)."""
    import pygame

    from game.config import TableConfig
    from game.render import app
    from game.server.process_runtime import ProcessRuntime

    config = TableConfig(host="127.0.0.1", port=0, data_dir=Path(data_dir), admin_pin="2468", new=True,
                         window_size=SIZE)

    def stop_on_eof() -> None:
        sys.stdin.read()
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    threading.Thread(target=stop_on_eof, daemon=True).start()
    if watch is not None:
        step = app.WindowLoop.step

        def watched(loop: app.WindowLoop, *args: Any) -> list[Any]:
            ops = step(loop, *args)
            watch(loop)
            return ops

        app.WindowLoop.step = watched  # type: ignore[method-assign]
    runtime = ProcessRuntime(config, on_started=autoplay, bot_delay_scale=BOT_DELAY_SCALE)
    runtime.start()
    try:
        runtime.wait_ready()
        app.run_window(runtime, config)
    finally:
        runtime.stop()


# ------------------------------------------------------------------------- the bench's process
def program(script: str, display: str, data_dir: str, *extra: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISPLAY": display, "SDL_VIDEODRIVER": "x11",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    return subprocess.Popen([sys.executable, script, "--window-worker", data_dir, *extra], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def tree(pid: int) -> list[int]:
    """``pid`` and every process below it."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        children = Path(f"/proc/{p}/task/{p}/children")
        try:
            todo += [int(c) for c in children.read_text().split()]
        except OSError:
            continue
    return out


def pss_mb(pid: int, whole: bool = True) -> float:
    """The proportional set size of ``pid`` and (``whole``) its descendants (shared pages counted once)."""
    total_kb = 0
    for p in tree(pid) if whole else [pid]:
        try:
            for line in Path(f"/proc/{p}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    total_kb += int(line.split()[1])
        except OSError:
            continue
    return total_kb / 1024


def soak(games: int, every: int, warmup: int = len(GAMES)) -> int:
    xvfb, display = start_xvfb()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-tv-soak-", dir=os.environ.get("BENCH_DIR")) as data:
            proc = program(__file__, display, data)
            assert proc.stdout is not None
            figures: list[float] = []
            log: list[str] = []  # the program's other lines: shown if it stops early
            try:
                for line in proc.stdout:
                    if not line.startswith(GAME_LINE):
                        log.append(line)
                        continue
                    figures.append(pss_mb(proc.pid))
                    n = len(figures) - warmup  # the games counted: after the warm-up's
                    if n <= 0 or n % every == 0 or n == games:
                        window = pss_mb(proc.pid, whole=False)
                        label = f"warm-up {n + warmup}" if n <= 0 else f"game {n:>3}"
                        print(f"{label} ({line.split()[-2]}): PSS {figures[-1]:.1f} MB (the window's process "
                              f"{window:.1f} MB, the table's and its helper {figures[-1] - window:.1f} MB)", flush=True)
                    if n >= games:
                        break
            finally:
                assert proc.stdin is not None
                proc.stdin.close()
                proc.wait(timeout=60)
            if len(figures) < games + warmup:
                print(f"the program stopped after {len(figures)} games:\n{''.join(log[-30:])}", file=sys.stderr)
                return 1
            first = figures[warmup - 1] if warmup else figures[0]
            print(f"tv soak: {games} games, PSS first {first:.1f} MB, last {figures[-1]:.1f} MB", flush=True)
            return 0
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--window-worker"]:
        window_worker(argv[1])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=len(GAMES), help="games before the first figure")
    args = parser.parse_args(argv)
    if args.games < 1 or args.every < 1 or args.warmup < 0:
        parser.error("--games and --every take 1 or more, --warmup 0 or more")
    return soak(args.games, args.every, args.warmup)


if __name__ == "__main__":
    raise SystemExit(main())
