"""The signal is the start (M14): race called -> the TV's flip of its first frame -> race open.

    python3 bench/bench_signal.py [--races 30] [--hogs 2] [--runtime process|thread|both]

The table is the real one and the TV the real window loop (``run_window``, 1920x1080, SDL's dummy
video driver: no vsync wait), as ``tabletop`` runs them: ``--runtime process`` (the default, what
``tabletop`` does) runs the session and server in their own process (``ProcessRuntime``), ``thread``
on a loop thread of the window's process (``TableRuntime``: one interpreter for both), ``both`` one
after the other in the same run. A driver on the table's loop has the player in turn call a
Mosquito in companion Cheating Moth, notes when the race opens, presses every eligible seat
(phones) at human reaction times after the signal (``REACTIONS_MS``: a press within the phones'
error of the signal could be a false start, and a race left open waits for its timeout) and
waits for the verdict. ``--hogs N`` runs N busy processes beside it (a busy machine).

Printed, p50/p99 in ms: called -> the TV's flip (how long the race waits for its signal: the TV's
own lag) and flip -> race open on the session's loop (the report's hop; the race's t0 is the flip
itself, so this is only how soon the judge knows it), how many races the TV left unshown for
``SIGNAL_WAIT_MS`` (they opened on the lamps), and last press -> the TV's flip of the first frame
after the verdict reached it (the judge's settle included). The load average is printed with them.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import multiprocessing.synchronize
import os
import sys
import tempfile
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pygame

from game.config import TableConfig
from game.render.app import run_window
from game.server.process_runtime import ProcessRuntime
from game.server.runtime import TableRuntime
from game.session.race_floor import PressSource
from game.session.scheduler import monotonic_ms
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, RunMode, TableSnapshot

SEATS = 4
WARM_UP = 2  # the first races load the race scene's fonts
REACTIONS_MS = (190, 230, 270, 320)  # each seat presses this long after the signal (human reactions)
WINDOW_UP_FRAMES = 10  # the window has said hello: its signal opens races from then on
SPAWN = multiprocessing.get_context("spawn")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Window:
    """The window's runtime: the real one, the flips it reports noted, closed when ``done``."""

    def __init__(self, runtime: TableRuntime | ProcessRuntime, up: multiprocessing.synchronize.Event,
                 done: multiprocessing.synchronize.Event) -> None:
        self.runtime = runtime
        self.flips: dict[str, float] = {}  # race key -> flip time (session clock)
        self.up, self.done = up, done
        self.frames = 0
        self.verdicts: dict[int, float] = {}  # race id -> the flip after its verdict reached the TV
        self._verdict: int | None = None  # a verdict read, its frame not flipped yet
        self._flip = pygame.display.flip
        pygame.display.flip = self.flip  # run_window flips through the module

    def snapshot(self) -> TableSnapshot:
        self.frames += 1
        if self.frames == WINDOW_UP_FRAMES:
            self.up.set()
        if self.done.is_set():
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        snapshot = self.runtime.snapshot()
        last = (snapshot.public_view or {}).get("last_race")
        if isinstance(last, dict) and last.get("race") not in self.verdicts:
            self._verdict = last.get("race")
        return snapshot

    def flip(self) -> None:
        self._flip()
        if self._verdict is not None:
            self.verdicts[self._verdict] = monotonic_ms()
            self._verdict = None

    def close(self) -> None:
        pygame.display.flip = self._flip

    def send(self, event: InputEvent) -> None:
        if event.kind is InputKind.SIGNAL:
            self.flips[str(event.payload["race"])] = event.t_ms
        self.runtime.send(event)


class Changes:
    """A session listener: wakes the driver on every change."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.changed = asyncio.Event()
        self.opened: dict[str, float] = {}  # race key -> when the session published it open
        session.attach(self)

    def updated(self, update: Any) -> None:
        current = update.race.current
        if current is not None and not current.waiting and current.key not in self.opened:
            self.opened[current.key] = monotonic_ms()
        self.changed.set()

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        """Not measured."""

    def notice(self, code: Any) -> None:
        """Not measured."""

    async def until(self, done: Callable[[], bool], limit_s: float = 20.0) -> None:
        async with asyncio.timeout(limit_s):
            while not done():
                self.changed.clear()
                await self.changed.wait()


def decided(session: Session, race: int) -> bool:
    last = (session.snapshot.public_view or {}).get("last_race")
    return last is not None and last.get("race") == race and session.snapshot.race.current is None


def seat_all(s: Session) -> None:
    s.host_command({"command": "set_seats", "count": SEATS})
    for record in s.table.offered:
        s.join_seat(record.token, name=f"P{record.seat + 1}")
    s.host_command({"command": "start"})
    if s.intro is not None:
        s.host_command({"command": "skip_intro"})


def start_driver(races: int, out: str, up: multiprocessing.synchronize.Event,
                 done: multiprocessing.synchronize.Event, session: Session) -> None:
    """On the table's loop (either runtime): drive ``races`` races, write what was seen to ``out``."""
    asyncio.get_running_loop().create_task(drive(session, races, Path(out), up, done))


async def drive(session: Session, races: int, out: Path, up: multiprocessing.synchronize.Event,
                done: multiprocessing.synchronize.Event) -> None:
    seen: list[dict[str, Any]] = []
    try:
        changes = Changes(session)
        seat_all(session)
        await changes.until(lambda: (session.snapshot.public_view or {}).get("turn") is not None)
        while not up.is_set():
            await asyncio.sleep(0.01)
        for _ in range(races):
            turn = session.snapshot.public_view["turn"]  # type: ignore[index]
            asked = monotonic_ms()
            session.submit_action(turn, {"type": "call", "kind": "mosquito"}, None)
            race = session.snapshot.public_view["race"]  # type: ignore[index]
            await changes.until(lambda: (c := session.snapshot.race.current) is not None and not c.waiting)
            current = session.snapshot.race.current
            assert current is not None
            for seat, reaction in zip(race["eligible"], REACTIONS_MS):  # people, not the instant the race opens
                await asyncio.sleep(max(0.0, current.armed_at_ms + reaction - session.clock()) / 1000)
                session.press(seat, session.clock(), PressSource.PHONE, error_ms=5.0, race=race["id"])
            seen.append({"key": current.key, "id": race["id"], "asked": asked, "opened": changes.opened[current.key],
                         "armed": current.armed_at_ms, "pressed": monotonic_ms()})
            await changes.until(partial(decided, session, race["id"]))
    finally:
        write(out, seen)
        done.set()


def write(out: Path, seen: list[dict[str, Any]]) -> None:
    out.write_text(json.dumps(seen))


def one_run(kind: str, races: int) -> dict[str, list[float]]:
    """The table and its window with the ``kind`` runtime; the figures in ms."""
    up, done = SPAWN.Event(), SPAWN.Event()
    with tempfile.TemporaryDirectory() as tmp:
        config = TableConfig(host="127.0.0.1", port=0, data_dir=Path(tmp), admin_pin="1234",
                             game="cheating_moth", mode=RunMode.COMPANION, seed=3, window_size=(1920, 1080))
        results = Path(tmp) / "races.json"
        driver = partial(start_driver, races + WARM_UP, str(results), up, done)
        runtime: TableRuntime | ProcessRuntime
        if kind == "process":
            runtime = ProcessRuntime(config, on_started=driver, arcade=False)
        else:
            runtime = TableRuntime(config, arcade=False)
        runtime.start()
        try:
            runtime.wait_ready()
            if isinstance(runtime, TableRuntime):
                runtime.call(driver)
            window = Window(runtime, up, done)
            try:
                run_window(window, config)
            finally:
                window.close()
        finally:
            runtime.stop()
        seen = json.loads(results.read_text())[WARM_UP:]
    out: dict[str, list[float]] = {"flip": [], "open": [], "lamps": [], "verdict": []}
    for race in seen:
        if race["id"] in window.verdicts:
            out["verdict"].append(window.verdicts[race["id"]] - race["pressed"])
        flip = window.flips.get(race["key"])
        if flip is None or abs(race["armed"] - flip) > 1:
            out["lamps"].append(race["opened"] - race["asked"])  # the TV said nothing in SIGNAL_WAIT_MS
        else:
            out["flip"].append(flip - race["asked"])
            out["open"].append(race["opened"] - flip)
    return out


def hog() -> None:
    while True:
        pass


def report(kind: str, hogs: int, out: dict[str, list[float]]) -> None:
    flips, opens = out["flip"], out["open"]
    where = "its own process" if kind == "process" else "a thread of the window's process"
    print(f"table on {where}: companion Cheating Moth, window 1920x1080, {hogs} busy processes, "
          f"{len(flips)} races; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not flips:
        print("  no race measured")
        return
    print(f"  called -> TV flip (the race waits)   p50 {pct(flips, 50):7.1f}  p99 {pct(flips, 99):7.1f}")
    print(f"  TV flip -> race open on the loop     p50 {pct(opens, 50):7.1f}  p99 {pct(opens, 99):7.1f}")
    print(f"  opened on the lamps (no flip within SIGNAL_WAIT_MS): {len(out['lamps'])}")
    verdicts = out["verdict"]
    if verdicts:
        print(f"  last press -> verdict flipped on the TV p50 {pct(verdicts, 50):7.1f}  p99 {pct(verdicts, 99):7.1f}"
              f"  ({len(verdicts)} races)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=30)
    parser.add_argument("--hogs", type=int, default=0, help="busy processes beside the table")
    parser.add_argument("--runtime", choices=("process", "thread", "both"), default="process",
                        help="the table in its own process (as tabletop runs it), in a thread of the window's, or both")
    args = parser.parse_args()
    hogs = [SPAWN.Process(target=hog, daemon=True) for _ in range(args.hogs)]
    for p in hogs:
        p.start()
    try:
        for kind in ("process", "thread") if args.runtime == "both" else (args.runtime,):
            report(kind, args.hogs, one_run(kind, args.races))
    finally:
        for p in hogs:
            p.terminate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
