"""The crash loop: a real server process (``python -m game --headless``), scripted phones playing a
game to its end, and ``kill -9`` at random moments; each time the server is started again on the
same data directory and the phones reconnect with their seat keys. Shared by
``tests/reliability/test_crash_loop.py`` (a few kills, marked slow) and ``bench/bench_crash.py``
(100 kills over Collusion and Cheating Moth).

An action counts as *acknowledged* when the phone holds the state that applied it: the phone sends
the action, then a marker ping; no ``error`` for the action before the marker's ``pong`` means the
server applied it, and the newest ``state`` before the ``pong`` is its acknowledgement. After every
restart the table's version must be at least every acknowledged version (the journal is a prefix:
holding version v means holding every change up to v), the acting phone's view at that version must
be the one it was shown, and every seat must come back to its phone.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
PIN = "2468"
SEAT_LINE = re.compile(r"^Seat\s+(\d+)\s+\S+\s+(\S+/s/(\S+))\s+code (\w{4})")
FAST: dict[str, dict[str, int]] = {
    "collusion": {"conspiracy_ms": 3_600_000, "target_score": 6},
    "cheating_moth": {"cheat_ms": 20, "round_pause_ms": 1, "race_timeout_ms": 300, "choice_ms": 0, "caught_window_ms": 10},
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``python -m game --headless`` on loopback as a real process (the crash tests kill it): ``extra``
    are further command-line arguments (a game, a mode). Shared by the crash loop, the kill -9
    resume test and the companion crash test."""

    def __init__(self, data_dir: Path, port: int, *extra: str) -> None:
        self.data_dir, self.port, self.extra = data_dir, port, extra
        self.proc: subprocess.Popen[str] | None = None
        self.output: list[str] = []  # what it printed until it listened
        self.starts: list[float] = []  # seconds from launch to listening

    async def start(self) -> dict[int, str]:
        """Start the server; seat -> link token from the printed lines."""
        env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
        t0 = time.monotonic()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "game", "--headless", "--host", "127.0.0.1", "--port", str(self.port),
             "--data-dir", str(self.data_dir), "--pin", PIN, "--seed", "3", *self.extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        tokens: dict[int, str] = {}
        self.output = []
        assert self.proc.stdout is not None
        while True:
            line = await asyncio.wait_for(asyncio.to_thread(self.proc.stdout.readline), 60)
            assert line, "the server exited: " + "".join(self.output)
            self.output.append(line)
            match = SEAT_LINE.match(line)
            if match:
                tokens[int(match.group(1)) - 1] = match.group(3)
            if line.startswith("Listening on port"):
                self.starts.append(time.monotonic() - t0)
                asyncio.get_running_loop().run_in_executor(None, self._drain)
                return tokens

    def _drain(self) -> None:
        proc = self.proc
        if proc is not None and proc.stdout is not None:
            for _ in proc.stdout:  # keep the pipe from filling up
                pass

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def game_server(data_dir: Path, port: int, game: str) -> ServerProcess:
    """The crash loop's server: one game, no arcade board."""
    return ServerProcess(data_dir, port, "--game", game, "--serial", "/nonexistent")


class Gone(Exception):
    """The server went away (killed)."""


class Phone:
    """A phone speaking the protocol; reconnects with the key its welcome gave it."""

    def __init__(self, http: aiohttp.ClientSession, url: str, hello: dict[str, Any]) -> None:
        self.http, self.url, self.hello = http, url, hello
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.state: dict[str, Any] | None = None
        self.seat: int | None = None
        self.marker = 0
        self.last_act = 0.0  # monotonic time of the last action (phones stay under the rate limit)

    async def connect(self) -> dict[str, Any]:
        for _ in range(400):
            try:
                self.ws = await self.http.ws_connect(self.url)
                break
            except (aiohttp.ClientError, OSError):
                await asyncio.sleep(0.05)
        else:
            raise AssertionError("the phone could not reconnect")
        last = {"last_version": self.state["version"]} if self.state else {}
        await self.send({"kind": "hello", **self.hello, **last})
        welcome = await self.next("welcome")
        if welcome.get("token"):
            self.hello["token"] = welcome["token"]
        self.seat = welcome.get("seat")
        await self.next("state")
        return welcome

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        try:
            await self.ws.send_str(json.dumps({"v": 1, **message}))
        except (ConnectionError, RuntimeError, aiohttp.ClientError) as exc:
            raise Gone(str(exc)) from None

    async def receive(self) -> dict[str, Any]:
        assert self.ws is not None
        msg = await asyncio.wait_for(self.ws.receive(), 30)
        if msg.type is not aiohttp.WSMsgType.TEXT:
            raise Gone(str(msg.type))
        data = json.loads(msg.data)
        if data["kind"] == "state":
            self.state = data
        return data

    async def next(self, kind: str) -> dict[str, Any]:
        while True:
            data = await self.receive()
            if data["kind"] == kind:
                return data
            if data["kind"] == "error" and kind == "welcome":
                raise AssertionError(f"hello refused: {data}")

    async def act(self, action: dict[str, Any]) -> int | None:
        """Send an action; the version that acknowledges it, or None when refused."""
        assert self.state is not None
        self.last_act = time.monotonic()
        self.marker += 1
        await self.send({"kind": "action", "action": action, "version": self.state["version"], "id": f"a{self.marker}"})
        await self.send({"kind": "ping", "t": self.marker})
        refused = False
        while True:
            data = await self.receive()
            if data["kind"] == "error" and data.get("id") == f"a{self.marker}":
                refused = True
            if data["kind"] == "pong" and data.get("t") == self.marker:
                return None if refused else int(self.state["version"])


ACT_EVERY_S = 0.25  # an action and its marker ping: 8 messages a second, under the 10/s rate limit
AVOID = frozenset({"unlock", "cheat_cancel"})  # a scripted player that moves the game on


def _pick(rng: random.Random, legal: list[dict[str, Any]]) -> dict[str, Any]:
    return rng.choice([a for a in legal if a.get("type") not in AVOID] or legal)


def _fill_time(action: dict[str, Any]) -> dict[str, Any]:
    return {**action, "t_ms": 0} if "t_ms" in action else action


@dataclass
class Acked:
    version: int
    seat: int
    view: Any


@dataclass
class Report:
    game: str
    kills: int = 0
    acked: int = 0
    refused: int = 0
    lost: int = 0
    seats_lost: int = 0
    games_finished: int = 0
    finished_at: int | None = None  # the version a finished game was counted at
    restarts_s: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        starts = self.restarts_s or [0.0]
        return (f"{self.game:<14} kills {self.kills}, acked actions {self.acked} (refused {self.refused}), "
                f"acked actions lost {self.lost}, seats lost {self.seats_lost}, games played to the end {self.games_finished}; "
                f"restart p50 {statistics.median(starts) * 1000:.0f} ms, max {max(starts) * 1000:.0f} ms")


async def crash_loop(game: str, data_dir: Path, *, kills: int, seats: int = 3, seed: int = 1,
                     kill_after_s: tuple[float, float] = (0.05, 0.6), to_the_end: bool = True) -> Report:
    """Play ``game`` with scripted phones, killing the server ``kills`` times at random moments;
    then (``to_the_end``) play on without kills until the game is over."""
    rng = random.Random(seed)
    report = Report(game)
    port = free_port()
    server = game_server(data_dir, port, game)
    url = f"http://127.0.0.1:{port}/ws"
    try:
        tokens = await server.start()
        async with aiohttp.ClientSession() as http:
            host = Phone(http, url, {"role": "host", "pin": PIN})
            await host.connect()
            await host.send({"kind": "host", "command": "set_seats", "args": {"count": seats}})
            for name, value in FAST.get(game, {}).items():
                await host.send({"kind": "host", "command": "set_setting", "args": {"name": name, "value": value}})
            phones = [Phone(http, url, {"token": tokens[i], "name": f"P{i}"}) for i in range(seats)]
            for phone in phones:
                await phone.connect()
            await host.send({"kind": "host", "command": "start"})
            await asyncio.sleep(0.1)
            acked: Acked | None = None
            while report.kills < kills:
                deadline = time.monotonic() + rng.uniform(*kill_after_s)
                try:
                    acked = await _play_until(phones, host, rng, deadline, report, acked)
                except Gone:
                    report.problems.append("a socket closed with the server still running")
                server.kill9()
                report.kills += 1
                await server.start()
                report.restarts_s.append(server.starts[-1])
                for phone in (*phones, host):
                    await phone.connect()
                for i, phone in enumerate(phones):
                    if phone.seat != i:
                        report.seats_lost += 1
                        report.problems.append(f"seat {i} came back as {phone.seat}")
                _check_resumed(phones, host, acked, report)
            if to_the_end:
                await _play_to_the_end(phones, host, rng, report, acked)
        return report
    finally:
        server.stop()
        report.restarts_s = server.starts[1:]


async def _play_to_the_end(phones: list[Phone], host: Phone, rng: random.Random, report: Report,
                           acked: Acked | None, limit_s: float = 300.0) -> None:
    """After the last kill: the game goes on, without kills, until it is over."""
    give_up = time.monotonic() + limit_s
    while (host.state or {}).get("phase") == "playing" and time.monotonic() < give_up:
        acked = await _play_until(phones, host, rng, time.monotonic() + 1.0, report, acked, new_games=False)
    if (host.state or {}).get("phase") != "playing":
        report.games_finished += 1
    else:
        report.problems.append("the game did not reach its end")


async def _play_until(phones: list[Phone], host: Phone, rng: random.Random, deadline: float,
                      report: Report, acked: Acked | None, *, new_games: bool = True) -> Acked | None:
    while time.monotonic() < deadline:
        for phone in (*phones, host):  # take in what the table did by itself (timers, races)
            await _drain(phone)
        phase = (host.state or {}).get("phase")
        if phase != "playing":
            if not new_games:
                return acked
            if phase == "finished" and report.finished_at != host.state["version"]:
                report.games_finished += 1  # over while the kills go on: the host starts the next one
                report.finished_at = host.state["version"]
            if phase == "finished":
                await host.send({"kind": "host", "command": "next"})
            await host.send({"kind": "host", "command": "start"})
            await _drain(host, 0.3)
            continue
        ready = time.monotonic() - ACT_EVERY_S
        movers = [p for p in phones if p.state and p.state.get("legal") and p.last_act <= ready]
        if not movers:
            await asyncio.sleep(0.02)
            continue
        phone = rng.choice(movers)
        assert phone.state is not None
        version = await phone.act(_fill_time(_pick(rng, phone.state["legal"])))
        if version is None:
            report.refused += 1
            continue
        report.acked += 1
        assert phone.seat is not None and phone.state is not None
        acked = Acked(version, phone.seat, phone.state["view"])
    return acked


async def _drain(phone: Phone, seconds: float = 0.0) -> None:
    """Read whatever is waiting (or arrives within ``seconds``)."""
    assert phone.ws is not None
    try:
        while True:
            await asyncio.wait_for(phone.receive(), seconds or 0.001)
    except TimeoutError:
        pass


def _check_resumed(phones: list[Phone], host: Phone, acked: Acked | None, report: Report) -> None:
    if acked is None or host.state is None:
        return
    version = int(host.state["version"])
    if version < acked.version:
        report.lost += 1
        report.problems.append(f"acked version {acked.version}, resumed at {version}")
        return
    if version == acked.version:
        mine = phones[acked.seat].state
        if mine is None or mine["view"] != acked.view:
            report.lost += 1
            report.problems.append(f"seat {acked.seat}'s view at version {version} is not the one it was shown")
