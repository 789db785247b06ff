"""The signal is the start (M14): race called -> the TV's flip of its first frame -> race open.

    python3 bench/bench_signal.py [--races 30] [--hogs 2]

The table is the real one: the session and server on their loop thread (``TableRuntime``) and the
real window loop (``run_window``, 1920x1080, SDL's dummy video driver: no vsync wait) on the main
thread, as ``tabletop`` runs them. A driver thread has the player in turn call a Mosquito in
companion Cheating Moth, waits until the race is open, presses every eligible seat (phones) and
waits for the verdict. ``--hogs N`` runs N busy processes beside it (a machine that is busy).

Printed, p50/p99 in ms: called -> the TV's flip (how long the race waits for its signal: the TV's
own lag) and flip -> race open on the session's loop (the report's hop; the race's t0 is the flip
itself, so this is only how soon the judge knows it), and how many races the TV left unshown for
``SIGNAL_WAIT_MS`` (they opened on the lamps).
"""
from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from game.config import TableConfig
from game.render.app import run_window
from game.server.runtime import TableRuntime
from game.session.race_floor import PressSource
from game.session.scheduler import monotonic_ms
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, RunMode, TableSnapshot

SEATS = 4
WARM_UP = 2  # the first races load the race scene's fonts


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Window:
    """The window's runtime: the real one, the flips it reports noted, closed when ``done``."""

    def __init__(self, runtime: TableRuntime) -> None:
        self.runtime = runtime
        self.flips: dict[str, float] = {}  # race key -> flip time (session clock)
        self.done = threading.Event()
        self.frames = 0

    def snapshot(self) -> TableSnapshot:
        self.frames += 1
        if self.done.is_set():
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return self.runtime.snapshot()

    def send(self, event: InputEvent) -> None:
        if event.kind is InputKind.SIGNAL:
            self.flips[str(event.payload["race"])] = event.t_ms
        self.runtime.send(event)


def wait(done: Any, limit_s: float = 20.0) -> None:
    end = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the table did not get there in time")
        time.sleep(0.0005)


def decided(session: Session, race: int) -> bool:
    last = (session.snapshot.public_view or {}).get("last_race")
    return last is not None and last.get("race") == race and session.snapshot.race.current is None


def drive(window: Window, races: int, out: dict[str, list[float]]) -> None:
    runtime = window.runtime
    session: Session = runtime.call(lambda s: s)
    try:
        def seat_all(s: Session) -> None:
            s.host_command({"command": "set_seats", "count": SEATS})
            for record in s.table.offered:
                s.join_seat(record.token, name=f"P{record.seat + 1}")
            s.host_command({"command": "start"})
            if s.intro is not None:
                s.host_command({"command": "skip_intro"})

        runtime.call(seat_all)
        wait(lambda: session.snapshot.public_view is not None and session.snapshot.public_view.get("turn") is not None)
        wait(lambda: window.frames > 10, 60.0)  # the window has said hello: its signal opens races from now on
        for _ in range(races):
            def call(s: Session) -> tuple[float, dict[str, Any]]:
                turn = s.snapshot.public_view["turn"]
                asked = monotonic_ms()
                s.submit_action(turn, {"type": "call", "kind": "mosquito"}, None)
                return asked, s.snapshot.public_view["race"]

            asked, race = runtime.call(call)
            wait(lambda: session.snapshot.race.current is not None and not session.snapshot.race.current.waiting)
            opened = monotonic_ms()
            key = session.snapshot.race.current.key
            flip = window.flips.get(key)
            if flip is None or abs(session.snapshot.race.current.armed_at_ms - flip) > 1:
                out["lamps"].append(opened - asked)  # the TV said nothing in SIGNAL_WAIT_MS: opened on the lamps
            else:
                out["flip"].append(flip - asked)
                out["open"].append(opened - flip)

            def press_all(s: Session, eligible: list[int] = race["eligible"], rid: int = race["id"]) -> None:
                for seat in eligible:
                    s.press(seat, s.clock(), PressSource.PHONE, error_ms=5.0, race=rid)

            runtime.call(press_all)
            wait(lambda rid=race["id"]: decided(session, rid))
    finally:
        window.done.set()


def hog() -> None:
    while True:
        pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=30)
    parser.add_argument("--hogs", type=int, default=0, help="busy processes beside the table")
    args = parser.parse_args()
    hogs = [multiprocessing.Process(target=hog, daemon=True) for _ in range(args.hogs)]
    for p in hogs:
        p.start()
    out: dict[str, list[float]] = {"flip": [], "open": [], "lamps": []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            config = TableConfig(host="127.0.0.1", port=0, data_dir=Path(tmp), admin_pin="1234",
                                 game="cheating_moth", mode=RunMode.COMPANION, seed=3, window_size=(1920, 1080))
            runtime = TableRuntime(config, arcade=False)
            runtime.start()
            runtime.wait_ready()
            window = Window(runtime)
            driver = threading.Thread(target=drive, args=(window, args.races + WARM_UP, out), daemon=True)
            driver.start()
            run_window(window, config)
            driver.join(5)
            runtime.stop()
    finally:
        for p in hogs:
            p.terminate()
    flips, opens = out["flip"][WARM_UP:], out["open"][WARM_UP:]
    if not flips:
        print("no race measured")
        return 1
    print(f"companion Cheating Moth, window 1920x1080, {args.hogs} busy processes, {len(flips)} races:")
    print(f"  called -> TV flip (the race waits)   p50 {pct(flips, 50):7.1f}  p99 {pct(flips, 99):7.1f}")
    print(f"  TV flip -> race open on the loop     p50 {pct(opens, 50):7.1f}  p99 {pct(opens, 99):7.1f}")
    print(f"  opened on the lamps (no flip within SIGNAL_WAIT_MS): {len(out['lamps'])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
