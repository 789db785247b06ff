"""Cheating Moth companion: race call -> verdict on the big screen, with arcade buttons and with phones.

    python3 bench/bench_companion_race.py [--races 40] [--hogs 2]

The table is the real one (session, journal on disk, race floor); the screen is the real renderer
drawing 1920x1080 in memory. Each race: the player in turn calls a Mosquito, every other seat
presses at once (zero reaction time, so only the program's own time is measured), and the clock
stops when a frame showing the verdict has been drawn. The first races only warm the screen up.

1. buttons: the simulated arcade board on a pty (``tools/arcade_sim.py``) through the bridge;
2. phones: four WebSocket phones on loopback through the real server (clock sync answered at once),
   the call itself sent by the caller's phone as an ``action``.

Printed per path, p50/p99 in ms: call -> race armed (lamps lit / the race in the slappers' state),
last press -> verdict on screen, and call -> verdict on screen. The judge waits ``SETTLE_MS`` after
the deciding press for a more precise press still in flight, on purpose: it is part of the figure.
``--hogs N``: each path again with N busy processes beside it, in the same run (a busy machine).
The screen here is drawn in memory on the table's own loop, not the TV's window process (for the
window's own path, flip included: ``bench/bench_signal.py``).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import pygame
from bench_signal import hog

from game.config import TableConfig
from game.render.app import Screen
from game.server.runtime import start_arcade, start_table, stop_table
from game.session.journal import Journal
from game.session.race_floor import SETTLE_MS
from game.session.session import Session
from game.session.snapshot import RunMode
from tools.arcade_sim import ArcadeSimulator

SIZE = (1920, 1080)
SEATS = 4


def now_ms() -> float:
    return time.monotonic_ns() / 1e6


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


WARM_UP = 2  # the first races load fonts and build the scene's caches, as a live screen did long before


def line(name: str, values: list[float]) -> str:
    values = values[WARM_UP:]
    return f"  {name:<34} p50 {pct(values, 50):7.1f}  p99 {pct(values, 99):7.1f}  ({len(values)} races)"


def config(tmp: str, **kw: Any) -> TableConfig:
    return TableConfig(host="127.0.0.1", port=0, data_dir=Path(tmp), admin_pin="1234", game="cheating_moth",
                       mode=RunMode.COMPANION, seed=3, **kw)


def decided(session: Session, race: int) -> bool:
    last = session.snapshot.public_view["last_race"] if session.snapshot.public_view else None
    return last is not None and last["race"] == race


async def on_screen(session: Session, screen: Screen, surface: pygame.Surface, race: int) -> float:
    """Wait until the verdict is in the snapshot, draw that frame; the time it is drawn."""
    while not decided(session, race):
        await asyncio.sleep(0.0005)
    screen.sync(session.snapshot)
    screen.advance(1 / 60, SIZE)
    screen.draw(surface)
    return now_ms()


def join_all(session: Session) -> None:
    session.host_command({"command": "set_seats", "count": SEATS})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")


async def buttons(races: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"armed": [], "press": [], "call": []}
    with tempfile.TemporaryDirectory() as tmp:
        sim = ArcadeSimulator(link=Path(tmp) / "arcade", seed=1).start()
        cfg = config(tmp, serial=sim.port)
        journal, saved, _ = Journal.open(cfg.data_dir)
        session = Session.boot(cfg, journal, saved)
        bridge = await start_arcade(cfg, session, poll_s=0.05, silence_s=1.5, sync_every_s=0.2)
        screen, surface = Screen(), pygame.Surface(SIZE)
        try:
            await bridge.wait_connected(5)
            while not bridge.sync.ready:
                await asyncio.sleep(0.01)
            join_all(session)
            session.host_command({"command": "start"})
            for _ in range(races):
                turn = session.snapshot.public_view["turn"]
                t_call = now_ms()
                session.submit_action(turn, {"type": "call", "kind": "mosquito"}, None)
                race = session.snapshot.public_view["race"]
                while sim.lit_lamps() != set(race["eligible"]):
                    await asyncio.sleep(0.0005)
                t_armed = now_ms()
                for seat in race["eligible"]:
                    sim.press(seat)
                t_press = now_ms()
                t_screen = await on_screen(session, screen, surface, race["id"])
                out["armed"].append(t_armed - t_call)
                out["press"].append(t_screen - t_press)
                out["call"].append(t_screen - t_call)
                while sim.lit_lamps():
                    await asyncio.sleep(0.001)
        finally:
            await bridge.stop()
            session.close()
            journal.close()
            sim.close()
    return out


class Phone:
    """A WebSocket phone that answers clock probes at once and keeps the latest state."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.changed = asyncio.Event()

    async def read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data["kind"] == "sync":
                await self.ws.send_str(json.dumps({"v": 1, "kind": "sync_reply", "s": data["s"], "t": now_ms()}))
            elif data["kind"] == "state":
                self.state = data
                self.changed.set()

    async def send(self, kind: str, **fields: Any) -> None:
        await self.ws.send_str(json.dumps({"v": 1, "kind": kind, **fields}))

    async def race_open(self) -> dict[str, Any]:
        while True:
            state = self.state
            if state and state["view"] and state["view"]["race"]:
                return state["view"]["race"]
            self.changed.clear()
            await self.changed.wait()


async def phones(races: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"armed": [], "press": [], "call": []}
    with tempfile.TemporaryDirectory() as tmp:
        started = await start_table(config(tmp), arcade=False)
        session = started.session
        screen, surface = Screen(), pygame.Surface(SIZE)
        session.host_command({"command": "set_seats", "count": SEATS})  # the phones take the free seats
        async with aiohttp.ClientSession() as http:
            sockets = [await http.ws_connect(f"http://127.0.0.1:{started.port}/ws") for _ in range(SEATS)]
            group = [Phone(ws) for ws in sockets]
            readers = [asyncio.create_task(p.read()) for p in group]
            try:
                for seat, p in enumerate(group):
                    await p.send("hello", token=session.table.seats[seat].token, name=f"P{seat + 1}")
                await asyncio.sleep(1.0)  # the join burst of clock probes
                session.host_command({"command": "start"})
                for _ in range(races):
                    while not (all(p.state and p.state["view"] for p in group)):
                        await asyncio.sleep(0.001)
                    turn = session.snapshot.public_view["turn"]
                    t_call = now_ms()
                    await group[turn].send("action", action={"type": "call", "kind": "mosquito"},
                                           version=group[turn].state["version"])
                    slappers = [p for seat, p in enumerate(group) if seat != turn]
                    opened = await asyncio.gather(*(p.race_open() for p in slappers))
                    t_armed = now_ms()
                    for p, race in zip(slappers, opened):
                        await p.send("press", race=race["id"], t=now_ms())
                    t_press = now_ms()
                    t_screen = await on_screen(session, screen, surface, opened[0]["id"])
                    out["armed"].append(t_armed - t_call)
                    out["press"].append(t_screen - t_press)
                    out["call"].append(t_screen - t_call)
                    await asyncio.sleep(0.15)  # under the phones' message rate limit
            finally:
                for task in readers:
                    task.cancel()
                for ws in sockets:
                    await ws.close()
        await stop_table(started)
    return out


async def main(args: argparse.Namespace) -> None:
    pygame.font.init()
    print(f"Cheating Moth companion: Mosquito call -> verdict drawn at {SIZE[0]}x{SIZE[1]}, ms "
          f"(the judge settles {SETTLE_MS:.0f} ms after the deciding press)")
    for hogs in sorted({0, args.hogs}):
        for name, run in (("arcade buttons (pty)", buttons), ("phones (WebSocket, loopback)", phones)):
            if args.only and args.only not in name:
                continue
            busy = [multiprocessing.get_context("spawn").Process(target=hog, daemon=True) for _ in range(hogs)]
            for p in busy:
                p.start()
            try:
                figures = await run(args.races + WARM_UP)
            finally:
                for p in busy:
                    p.terminate()
            print(f"{name}, {hogs} busy processes (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}):")
            print(line("call -> race armed", figures["armed"]))
            print(line("last press -> verdict on screen", figures["press"]))
            print(line("call -> verdict on screen", figures["call"]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=40)
    parser.add_argument("--only", choices=["buttons", "phones"], default=None, help="run one path only")
    parser.add_argument("--hogs", type=int, default=0, help="each path again with N busy processes beside it")
    asyncio.run(main(parser.parse_args()))
