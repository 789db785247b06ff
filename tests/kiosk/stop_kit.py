"""A real kiosk (``python -m game --mode kiosk``) in its own process group, driven to a scene and
stopped as systemd stops a unit: one signal to every process of the group at once. Shared by
``tests/kiosk/test_stop_signals.py`` and ``bench/bench_stop.py``.

Scenes: the lobby; the attract loop with its tape worker recording (a window only); the how-to-play;
a race (Cheating Moth's bots call them); the final scores; the hand-over after them. The final
scores are reached as ``tests/kiosk/test_handover_kill9.py`` does: a bots' game played to its end
in this process on virtual time, on the kiosk's own data, which the real kiosk then resumes.
"""
from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
PIN = "246810"
START_S = 60.0
HANG_S = 20.0  # a stop that takes longer is a hang (systemd's own limit is 90 s, then SIGKILL)


class Scene(enum.Enum):
    LOBBY = "lobby"
    ATTRACT = "attract"
    HOW_TO_PLAY = "how_to_play"
    RACE = "race"
    RESULTS = "results"
    HAND_OVER = "hand_over"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kiosk_file(folder: Path, port: int, scene: Scene) -> Path:
    """The kiosk's config for ``scene``: its game, timers and house rules."""
    game = "cheating_moth" if scene is Scene.RACE else "collusion"
    results_s = 5 if scene is Scene.HAND_OVER else 600
    attract_after_s = 5 if scene is Scene.ATTRACT else 3600
    house = ('[house_rules.cheating_moth]\ncheat_ms = 20\nround_pause_ms = 1\nchoice_ms = 0\n' if scene is Scene.RACE
             else '[house_rules.collusion]\ntarget_score = 6\n')
    path = folder / "kiosk.toml"
    path.write_text(f'[table]\ngame = "{game}"\nlanguages = ["en"]\nhow_to_play = {str(scene is Scene.HOW_TO_PLAY).lower()}\n'
                    f'[timers]\nresults_s = {results_s}\nattract_after_s = {attract_after_s}\n{house}'
                    f'[server]\nport = {port}\ndata_dir = "{folder / "data"}"\n[admin]\npin = "{PIN}"\n', encoding="utf-8")
    return path


@dataclass
class Kiosk:
    process: subprocess.Popen[bytes]
    port: int
    folder: Path

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def output(self) -> str:
        return (self.folder / "kiosk.out").read_text(encoding="utf-8", errors="replace")


def group(pgid: int) -> list[int]:
    """The live processes of process group ``pgid`` (zombies are dead: not counted)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


@contextlib.contextmanager
def running(folder: Path, scene: Scene, display: str | None) -> Iterator[Kiosk]:
    """The kiosk, headless (``display`` None) or in a window on the X display ``display``, its own
    process group; killed with its group on the way out if a test left it running."""
    port = free_port()
    config = kiosk_file(folder, port, scene)
    if scene in (Scene.RESULTS, Scene.HAND_OVER):
        from test_handover_kill9 import play_to_the_end  # the kiosk resumes at the final scores

        play_to_the_end(config, folder / "data")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_AUDIODRIVER": "dummy", "PYTHONUNBUFFERED": "1"}
    args = [sys.executable, "-m", "game", "--mode", "kiosk", "--config", str(config), "--host", "127.0.0.1", "-v"]
    if display is None:
        args.append("--headless")
        env["SDL_VIDEODRIVER"] = "dummy"
    else:
        env.update(DISPLAY=display, SDL_VIDEODRIVER="x11")
    with open(folder / "kiosk.out", "wb") as out:
        process = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, cwd=folder, env=env, start_new_session=True)
    kiosk = Kiosk(process, port, folder)
    try:
        _wait_for(lambda: "Join by code:" in kiosk.output or process.poll() is not None, START_S, "the kiosk's links")
        assert process.poll() is None, kiosk.output
        yield kiosk
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def _wait_for(done: Callable[[], object], limit_s: float, what: str) -> None:
    end = time.monotonic() + limit_s
    while not done():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@dataclass(frozen=True, slots=True)
class Stopped:
    status: int
    seconds: float  # from the signal until every process of the group is gone
    left: list[int]  # processes of the group still alive after HANG_S


def stop(kiosk: Kiosk, sig: signal.Signals) -> Stopped:
    """``sig`` to the whole group, as systemd's KillMode=control-group sends it."""
    t0 = time.monotonic()
    os.killpg(kiosk.process.pid, sig)
    try:
        status = kiosk.process.wait(HANG_S)
    except subprocess.TimeoutExpired:
        return Stopped(-1, HANG_S, group(kiosk.process.pid))
    with contextlib.suppress(AssertionError):
        _wait_for(lambda: not group(kiosk.process.pid), HANG_S, "the group to end")
    return Stopped(status, time.monotonic() - t0, group(kiosk.process.pid))


def closed_cleanly(data: Path) -> bool:
    """The table closed in order: the journal's WAL folded in and removed by its last connection,
    and the kiosk's run marked stopped cleanly in the archive."""
    if (data / "journal.sqlite3-wal").exists():
        return False
    with contextlib.closing(sqlite3.connect(data / "archive.sqlite3")) as db:
        row = db.execute("SELECT stopped_at FROM runs ORDER BY id DESC LIMIT 1").fetchone()
    return row is not None and row[0] is not None


# ------------------------------------------------------------------------------- the scenes
def reach(kiosk: Kiosk, scene: Scene) -> None:
    """Drive the running kiosk to ``scene`` (the results and the hand-over were prepared before it started)."""
    if scene is Scene.ATTRACT:
        # the TV, multiprocessing's resource tracker, the table, then the tape worker
        _wait_for(lambda: len(group(kiosk.process.pid)) >= 4, 60, "the attract loop's tape worker")
        worker = max(group(kiosk.process.pid))
        _wait_for(lambda: _idle(worker), 120, "the tape worker waiting for its next order")
    elif scene is Scene.HOW_TO_PLAY:
        asyncio.run(_host(kiosk.port, [FILL_BOTS, START], lambda s: s["lobby"].get("how_to_play")))
    elif scene is Scene.RACE:
        asyncio.run(_host(kiosk.port, [{"command": "set_seats", "args": {"count": 4}}, FILL_BOTS, START], _racing,
                          limit_s=120))
    elif scene is Scene.RESULTS:
        asyncio.run(_host(kiosk.port, [], lambda s: s["phase"] == "finished"))
    elif scene is Scene.HAND_OVER:
        asyncio.run(_host(kiosk.port, [], lambda s: s["phase"] == "lobby", limit_s=30))


def _idle(pid: int) -> bool:
    """The worker has recorded its tapes and waits on its pipe: its CPU time stands still. (The
    multiprocessing.Pool it replaced hung the kiosk's stop exactly then: its idle worker held the
    queue's lock while it waited, and a worker killed holding it left the pool's finaliser waiting.)"""
    def cpu() -> int:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])

    before = cpu()
    time.sleep(0.5)
    return cpu() == before


FILL_BOTS = {"command": "fill_bots", "args": {"kind": "heuristic"}}
START = {"command": "start"}


def _racing(state: dict[str, Any]) -> bool:
    timer = state.get("timer") or {}
    return str(timer.get("key", "")).startswith("race:")


async def _host(port: int, commands: list[dict[str, Any]], until: Callable[[dict[str, Any]], Any], limit_s: float = 60) -> None:
    async with aiohttp.ClientSession() as http, http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
        await ws.send_str(json.dumps({"v": 1, "kind": "hello", "role": "host", "pin": PIN}))
        for command in commands:
            await ws.send_str(json.dumps({"v": 1, "kind": "host", **command}))
        give_up = time.monotonic() + limit_s
        while True:
            msg = await asyncio.wait_for(ws.receive(), max(0.1, give_up - time.monotonic()))
            assert msg.type is aiohttp.WSMsgType.TEXT, msg
            data = json.loads(msg.data)
            assert data["kind"] != "error", data
            if data["kind"] == "state" and until(data):
                return


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A real X server (``Xvfb :N``) for the window's tests: its display name."""
    number = next(n for n in range(90, 200) if not Path(f"/tmp/.X11-unix/X{n}").exists() and not Path(f"/tmp/.X{n}-lock").exists())
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1280x720x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for(lambda: Path(f"/tmp/.X11-unix/X{number}").exists() or server.poll() is not None, 20, "Xvfb")
        assert server.poll() is None, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)
