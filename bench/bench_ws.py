"""WebSocket fan-out benchmark: time from one phone's action to every phone holding the update.

Starts the real server (``python -m game.server``, journal with fsync on disk) on loopback, joins
12 phone sockets to a 12-seat Collusion table, and has the phones change their votes in turn.
Each sample is the time from sending the action to the moment the last of the 12 phones has
received (and parsed) the ``state`` with the new version. Then the same with 200 extra spectator
sockets, which live in a second client process (spectators are other devices: they must not slow
down the phones' own reading in the measuring process), each a bare WebSocket client that reads
the version off each frame's head (:class:`Watcher`: about 11 µs of CPU per state; aiohttp's client
took about 18 µs, and a thousand of them share this machine's two cores with the table).

    python3 bench/bench_ws.py [--samples 300] [--spectators 200,1000] [--window xvfb|no]

The windowed row runs ``tabletop`` with its TV (``run_table``: the table's loop in its own process,
the 1920×1080 window in the first one, on a virtual display, Xvfb, started by the bench), in the same
run as the headless row, and prints the ratio of the two and both processes' RSS and CPU.

Spectators get the coalesced public feed (at most 10 states a second, ``game/server/hub.py``); the
bench prints the rate each spectator saw, and the server's RSS and CPU per spectator (from /proc).
The load average is printed with the figures: the machine is shared, run it a few times.

Actions are spaced ``--interval-ms`` apart (default 50 ms: twenty a second, far more than a table
of people makes). Prints p50 / p99 / max in milliseconds (``time.monotonic_ns``, comparable across processes).
The journal lives in a temporary directory (``BENCH_DIR`` chooses where; default the system's).
``BENCH_PYTHONPATH`` is put on the server worker's path after the tree (e.g. a ``sitecustomize.py``
that profiles the table's process).
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import orjson

ROOT = Path(__file__).resolve().parent.parent
PIN = "9753"
SEATS = 12
STATE_PREFIX = '{"v":1,"kind":"state"'
VERSION_BYTES = re.compile(rb'"version":(\d+)')


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Receiver:
    """Reads one socket; records the arrival time of each state version. The twelve phones share
    this one process and parse one after another (real phones parse at once, each its own), so
    they parse with orjson, as the table encodes: ``json.loads`` takes about 45 µs per 7 KB state
    (orjson 19; the bare limit's 2 KB frame: 2), a third of a millisecond of each sample that no
    phone waits for."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, bench: Bench) -> None:
        self.ws, self.bench = ws, bench
        self.version = 0
        self.state: dict[str, Any] | None = None
        self.task = asyncio.create_task(self.run())

    async def run(self) -> None:
        async for msg in self.ws:
            if msg.type is not aiohttp.WSMsgType.TEXT:
                break
            data = orjson.loads(msg.data)
            if data["kind"] == "error":
                print(f"server error: {data}", file=sys.stderr)
            if data["kind"] == "state":
                self.state = data
                self.version = data["version"]
                self.bench.arrived(self, data["version"])


class Bench:
    """The measuring process: waits for all phones to hold the expected version."""

    def __init__(self) -> None:
        self.target = 0
        self.waiting = 0
        self.done = asyncio.Event()
        self.t_done = 0

    def expect(self, version: int, phones: int) -> None:
        self.target, self.waiting = version, phones
        self.done.clear()

    def arrived(self, receiver: Receiver, version: int) -> None:
        if version != self.target:
            return
        self.waiting -= 1
        if self.waiting == 0:
            self.t_done = time.monotonic_ns()
            self.done.set()


class Tally:
    """The spectator process: when the last spectator got each version."""

    def __init__(self, sockets: int) -> None:
        self.sockets = sockets
        self.counts: dict[int, int] = {}
        self.last: dict[int, int] = {}
        self.held: dict[int, int] = {}  # receiver id -> version it holds
        self.states = 0  # state messages received by all spectators
        self.first_ns = 0

    def arrived(self, receiver: Watcher, version: int) -> None:
        self.states += 1
        self.first_ns = self.first_ns or time.monotonic_ns()
        # a slow socket may skip versions (the server sends only the newest pending state):
        # holding version v counts as holding every version before it
        before = self.held.get(id(receiver), version - 1)
        self.held[id(receiver)] = version
        now = time.monotonic_ns()
        for v in range(before + 1, version + 1):
            self.counts[v] = self.counts.get(v, 0) + 1
            if self.counts[v] == self.sockets:
                self.last[v] = now


class Watcher(asyncio.Protocol):
    """One spectator as a bare WebSocket client (RFC 6455 by hand): upgrade, hello, then read
    frames and note each state's version; pings answered. It stands in for another device in the
    room, so it costs this machine as little as it can (a thousand of them share one process and
    the server's two cores): no message objects, no JSON, the version read off the frame's head."""

    def __init__(self, tally: Tally, url: str) -> None:
        self.tally, self.url = tally, url
        self.buffer = bytearray()
        self.upgraded = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.closed = False

    @classmethod
    async def open(cls, tally: Tally, url: str) -> Watcher:
        parts = urlsplit(url)
        _, watcher = await asyncio.get_running_loop().create_connection(
            lambda: cls(tally, url), parts.hostname or "127.0.0.1", parts.port or 80)
        await watcher.upgraded
        watcher.send(0x1, json.dumps({"v": 1, "kind": "hello", "role": "spectator"}).encode())
        return watcher

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        parts = urlsplit(self.url)
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(f"GET {parts.path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())

    def send(self, opcode: int, payload: bytes) -> None:
        """A client frame (masked, as RFC 6455 requires; payloads here are short)."""
        assert self.transport is not None and len(payload) < 126
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + masked)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded.done():
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 101"):
                self.upgraded.set_exception(RuntimeError(bytes(self.buffer[:200]).decode(errors="replace")))
                return
            del self.buffer[:end + 4]
            self.upgraded.set_result(None)
        self.read_frames()

    def read_frames(self) -> None:
        buffer, start = self.buffer, 0
        while len(buffer) - start >= 2:
            opcode, size, head = buffer[start] & 0x0F, buffer[start + 1] & 0x7F, 2
            if size == 126:
                if len(buffer) - start < 4:
                    break
                size, head = int.from_bytes(buffer[start + 2:start + 4], "big"), 4
            elif size == 127:
                if len(buffer) - start < 10:
                    break
                size, head = int.from_bytes(buffer[start + 2:start + 10], "big"), 10
            if len(buffer) - start < head + size:
                break
            payload = start + head
            if opcode == 0x1 and buffer.startswith(STATE_PREFIX.encode(), payload):
                match = VERSION_BYTES.search(buffer, payload, payload + 64)
                if match:
                    self.tally.arrived(self, int(match.group(1)))
            elif opcode == 0x9:  # ping: the server's heartbeat
                self.send(0xA, bytes(buffer[payload:payload + size]))
            elif opcode == 0x8:
                self.closed = True
            start = payload + size
        del buffer[:start]

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def hello(http: aiohttp.ClientSession, url: str, **fields: Any) -> aiohttp.ClientWebSocketResponse:
    ws = await http.ws_connect(url, max_msg_size=0)
    await ws.send_str(json.dumps({"v": 1, "kind": "hello", **fields}))
    return ws


async def setup_table(http: aiohttp.ClientSession, url: str) -> list[str]:
    host = await hello(http, url, role="host", pin=PIN)
    commands = (("set_seats", {"count": SEATS}), ("set_setting", {"name": "conspiracy_ms", "value": 3_600_000}))
    for command, args in commands:
        await host.send_str(json.dumps({"v": 1, "kind": "host", "command": command, "args": args}))
    async for msg in host:
        data = json.loads(msg.data)
        if data["kind"] == "error":
            raise RuntimeError(data)
        if data["kind"] == "state" and data["lobby"]["seat_count"] == SEATS \
                and data["lobby"]["settings"]["conspiracy_ms"] == 3_600_000:
            await host.close()
            return [s["url"].rsplit("/s/", 1)[1] for s in data["lobby"]["seats"]]
    raise RuntimeError("host socket closed")


WARM_UP = 20


async def spectator_worker(url: str, count: int) -> None:
    """``--spectator-worker``: hold ``count`` spectator sockets until the last version arrives on
    stdin and every spectator holds it, then print {version: monotonic ns when the last spectator
    had it} as JSON."""
    sys.path.insert(0, str(ROOT))
    from game.server.capacity import raise_fd_limit

    raise_fd_limit()  # this process holds the crowd's client ends
    tally = Tally(count)
    watchers = [await Watcher.open(tally, url) for _ in range(count)]
    for _ in range(500):  # every spectator holds its first state
        if len(tally.held) == count:
            break
        await asyncio.sleep(0.01)
    print("READY", flush=True)
    tally.states, tally.first_ns = 0, 0  # count the feed's rate from here on
    cpu0 = time.process_time()
    last = int((await asyncio.to_thread(sys.stdin.read)).strip())  # the last version sent
    for _ in range(1000):
        if last in tally.last:
            break
        await asyncio.sleep(0.01)
    seconds = max(1e-9, (time.monotonic_ns() - tally.first_ns) / 1e9)
    cpu_us = (time.process_time() - cpu0) / max(1, tally.states) * 1e6
    closed = sum(1 for w in watchers if w.closed)
    for w in watchers:
        w.close()
    print(json.dumps({"last": tally.last, "rate": tally.states / count / seconds, "closed": closed, "cpu_us": cpu_us}),
          flush=True)


def start_spectators(url: str, count: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, __file__, "--spectator-worker", url, str(count)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    if proc.stdout.readline().strip() != "READY":
        raise RuntimeError("the spectator process did not start")
    return proc


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pss_kib(pid: int) -> int:
    """Proportional set size (shared pages split among the processes that map them): the whole
    program's memory is the sum of its processes' PSS."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return 0


def processes(pid: int) -> dict[str, int]:
    """The table's processes: ``pid`` and, with its TV, the table's own (and multiprocessing's resource tracker)."""
    found = {}
    children = Path(f"/proc/{pid}/task/{pid}/children")
    for child in (children.read_text().split() if children.exists() else ()):
        cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        if b"resource_tracker" in cmdline:
            found["tracker"] = int(child)
        elif b"child_entry" in cmdline or b"spawn_main" in cmdline:  # this tree's table process, or an older one's
            found["table"] = int(child)
    return {"TV": pid, **found} if "table" in found else {"table": pid}


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


async def run(samples: int, url: str, interval_s: float, settle_s: float = 0.2) -> tuple[list[float], list[tuple[int, int]]]:
    """Samples in ms (action -> all phones) and (version, send time ns) for each measured action."""
    async with aiohttp.ClientSession() as http:
        tokens = await setup_table(http, url)
        bench = Bench()
        phones = [Receiver(await hello(http, url, token=t, name=f"P{i}"), bench) for i, t in enumerate(tokens)]
        host = await hello(http, url, role="host", pin=PIN)
        await host.send_str(json.dumps({"v": 1, "kind": "host", "command": "start"}))
        while not all(r.state and r.state["phase"] == "playing" for r in phones):
            await asyncio.sleep(0.01)
        await asyncio.sleep(settle_s)  # the game's first seconds (a TV primes its caches then)
        out: list[float] = []
        sent: list[tuple[int, int]] = []
        for i in range(samples + WARM_UP):
            # the phones take turns (each stays far below the per-socket rate limit) and flip their
            # vote between the next two seats
            seat, turn = i % SEATS, i // SEATS
            actor = phones[seat]
            version = actor.version
            bench.expect(version + 1, len(phones))
            action = {"type": "vote", "target": (seat + 1 + turn % 2) % SEATS}
            t0 = time.monotonic_ns()
            await actor.ws.send_str(json.dumps({"v": 1, "kind": "action", "action": action, "version": version}))
            await asyncio.wait_for(bench.done.wait(), 10)
            if i >= WARM_UP:
                out.append((bench.t_done - t0) / 1e6)
                sent.append((version + 1, t0))
            await asyncio.sleep(max(0.0, interval_s - (time.monotonic_ns() - t0) / 1e9))
        await host.close()
        for r in phones:
            await r.ws.close()
        return out, sent


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def report(label: str, values: list[float]) -> None:
    print(f"{label:<46} p50 {statistics.median(values):6.2f} ms   p99 {pct(values, 99):6.2f} ms"
          f"   max {max(values):6.2f} ms   (n={len(values)})")


async def serve(data_dir: str, port: int) -> None:
    """``--server-worker``: the real table and server (``start_table``, as ``python -m game.server``
    runs it) with its default caps: the gallery holds 1,000 spectators when the open-file limit allows."""
    sys.path.insert(0, str(ROOT))
    from game.config import TableConfig
    from game.server.runtime import start_table, stop_table

    config = TableConfig(host="127.0.0.1", port=port, data_dir=Path(data_dir), admin_pin=PIN, new=True, headless=True)
    started = await start_table(config, arcade=False)
    print(f"Listening on port {started.port}", flush=True)
    try:
        await asyncio.to_thread(sys.stdin.read)  # until the bench closes our stdin
    finally:
        await stop_table(started)


BARE_FRAME_BYTES = 2048


async def serve_bare(data_dir: str, port: int) -> None:
    """``--bare-worker``: the bare limit, a plain aiohttp server with none of the table's work: for
    each message from a socket it appends one line to a file, fsyncs it, and sends one 2 KB
    ``state`` frame (the next version) to every socket."""
    from aiohttp import web

    sockets: list[web.WebSocketResponse] = []
    version = 0
    journal = os.open(Path(data_dir) / "bare.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT)  # blocking, as the table's journal
    head = json.dumps({"v": 1, "kind": "state", "version": 0, "phase": "playing", "pad": ""})

    async def socket_handler(request: web.Request) -> web.WebSocketResponse:
        nonlocal version
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        sockets.append(ws)
        async for msg in ws:
            version += 1
            os.write(journal, msg.data.encode() + b"\n")
            os.fsync(journal)
            frame = json.dumps({"v": 1, "kind": "state", "version": version, "phase": "playing",
                                "pad": "x" * (BARE_FRAME_BYTES - len(head))})
            for peer in sockets:
                await peer.send_str(frame)
        sockets.remove(ws)
        return ws

    app = web.Application()
    app.router.add_get("/ws", socket_handler)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    print(f"Listening on port {port}", flush=True)
    try:
        await asyncio.to_thread(sys.stdin.read)
    finally:
        await runner.cleanup()
        os.close(journal)


async def run_bare(samples: int, url: str, interval_s: float) -> list[float]:
    """As :func:`run`, against the bare server: the phones take turns sending an action; each
    sample is the time until all 12 hold the new version."""
    async with aiohttp.ClientSession() as http:
        bench = Bench()
        phones = [Receiver(await http.ws_connect(url, max_msg_size=0), bench) for _ in range(SEATS)]
        out: list[float] = []
        for i in range(samples + WARM_UP):
            actor = phones[i % SEATS]
            bench.expect(actor.version + 1, len(phones))
            t0 = time.monotonic_ns()
            await actor.ws.send_str(json.dumps({"v": 1, "kind": "action", "action": {"type": "vote", "target": i % SEATS}}))
            await asyncio.wait_for(bench.done.wait(), 10)
            if i >= WARM_UP:
                out.append((bench.t_done - t0) / 1e6)
            await asyncio.sleep(max(0.0, interval_s - (time.monotonic_ns() - t0) / 1e9))
        for r in phones:
            await r.ws.close()
        return out


def bare_row(samples: int, interval_s: float) -> list[float]:
    """The bare limit's row, measured in this run (the same machine, the same load)."""
    with tempfile.TemporaryDirectory(prefix="bench-ws-bare-", dir=os.environ.get("BENCH_DIR")) as data_dir:
        port = free_port()
        server = start_server(data_dir, port, worker="--bare-worker")
        try:
            out = asyncio.run(run_bare(samples, f"http://127.0.0.1:{port}/ws", interval_s))
        finally:
            if server.stdin is not None:
                server.stdin.close()
            server.wait(10)
    report("bare limit: fsync 1 line + 2 KB frame to 12 sockets", out)
    return out


def ratio(label: str, values: list[float], limit: list[float]) -> None:
    print(f"{'':<46} {label} / bare limit: p50 x{statistics.median(values) / statistics.median(limit):.2f}"
          f"   p99 x{pct(values, 99) / pct(limit, 99):.2f}")


async def rejoin(http: aiohttp.ClientSession, url: str, hello_fields: dict[str, Any]) -> tuple[float, str]:
    """A phone comes back: a new socket, its hello, until its ``state`` arrives. (ms, device key)."""
    t0 = time.monotonic_ns()
    ws = await hello(http, url, **hello_fields)
    key = ""
    async for msg in ws:
        data = json.loads(msg.data)
        if data["kind"] == "welcome":
            key = data["token"]
        elif data["kind"] == "state":
            break
        elif data["kind"] == "error":
            raise RuntimeError(data)
    ms = (time.monotonic_ns() - t0) / 1e6
    await ws.close()
    return ms, key


async def reconnects(samples: int, url: str) -> list[float]:
    """Seated phones (a game in play) drop their socket and come back with their device key, one
    after another: ms from the new socket's connect to the phone holding its seat's state again."""
    async with aiohttp.ClientSession() as http:
        tokens = await setup_table(http, url)
        keys = [(await rejoin(http, url, {"token": t, "name": f"P{i}"}))[1] for i, t in enumerate(tokens)]
        host = await hello(http, url, role="host", pin=PIN)
        await host.send_str(json.dumps({"v": 1, "kind": "host", "command": "start"}))
        await asyncio.sleep(1.0)
        out = [(await rejoin(http, url, {"token": keys[i % SEATS]}))[0] for i in range(samples)]
        await host.close()
        return out


async def bare_reconnects(samples: int, url: str) -> list[float]:
    """The bare limit of a reconnect: a new socket to the bare server, one message, its 2 KB frame back."""
    async with aiohttp.ClientSession() as http:
        out = []
        for _ in range(samples):
            t0 = time.monotonic_ns()
            ws = await http.ws_connect(url, max_msg_size=0)
            await ws.send_str('{"v":1,"kind":"hello"}')
            await ws.receive()
            out.append((time.monotonic_ns() - t0) / 1e6)
            await ws.close()
        return out


def start_hogs(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` busy processes (a busy loop each): the table shares the 2 cores with them."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def reconnect_rows(samples: int, hogs: int) -> None:
    """Phones reconnecting mid-game with ``hogs`` busy processes beside the table, and the bare
    limit's reconnect in the same conditions."""
    busy = start_hogs(hogs)
    try:
        rows = {}
        for worker, measure in (("--bare-worker", bare_reconnects), ("--server-worker", reconnects)):
            with tempfile.TemporaryDirectory(prefix="bench-ws-re-", dir=os.environ.get("BENCH_DIR")) as data_dir:
                port = free_port()
                server = start_server(data_dir, port, worker=worker)
                try:
                    rows[worker] = asyncio.run(measure(samples, f"http://127.0.0.1:{port}/ws"))
                finally:
                    if server.stdin is not None:
                        server.stdin.close()
                    server.wait(10)
    finally:
        for hog in busy:
            hog.kill()
            hog.wait()
    report(f"bare reconnect (connect + 1 frame), {hogs} busy processes", rows["--bare-worker"])
    report(f"phone reconnect mid-game -> its state, {hogs} busy", rows["--server-worker"])
    ratio("reconnect", rows["--server-worker"], rows["--bare-worker"])


def serve_windowed(data_dir: str, port: int) -> None:
    """``--window-worker``: ``tabletop`` with its TV, as it runs (``run_table``: the table's loop
    in its own process, the window (1920×1080) in this one), until stdin closes. Prints how many
    frames the TV drew."""
    import threading

    sys.path.insert(0, str(ROOT))
    import pygame

    from game.__main__ import run_table
    from game.config import TableConfig
    from game.render import app

    config = TableConfig(host="127.0.0.1", port=port, data_dir=Path(data_dir), admin_pin=PIN, new=True,
                         window_size=(1920, 1080))

    def stop_on_eof() -> None:
        sys.stdin.read()
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    threading.Thread(target=stop_on_eof, daemon=True).start()
    drawn = 0
    step = app.WindowLoop.step

    def counting(loop: app.WindowLoop, *args: Any) -> list[Any]:
        nonlocal drawn
        ops = step(loop, *args)
        drawn += loop.drew
        return ops

    app.WindowLoop.step = counting  # type: ignore[method-assign]
    t0 = time.monotonic()
    run_table(config)
    print(f"TV frames drawn: {drawn} in {time.monotonic() - t0:.1f} s", flush=True)


def start_xvfb(size: str = "1920x1080") -> tuple[subprocess.Popen[bytes], str]:
    """A virtual display (1920×1080 unless ``size`` says otherwise) on a free display number (Xvfb picks it)."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
                            pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    if not number:
        proc.kill()
        raise RuntimeError("Xvfb did not start")
    return proc, f":{number}"


def start_server(data_dir: str, port: int, display: str | None = None,
                 worker: str = "--server-worker") -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("BENCH_PYTHONPATH")]))}
    if display is not None:
        worker = "--window-worker"
        env.update(DISPLAY=display, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    proc = subprocess.Popen([sys.executable, __file__, worker, data_dir, str(port)],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith(("Listening on port", "Table: ")):  # the last of tabletop's links
            return proc
    raise RuntimeError("the server did not start")


def one_run(samples: int, spectators: int, interval_s: float,
            display: str | None = None, settle_s: float = 0.2) -> tuple[list[float], float]:
    """Prints the run's figures; returns the phones' samples and the server's CPU seconds per second.
    ``display``: the table runs with its TV window on this X display (a windowed row)."""
    with tempfile.TemporaryDirectory(prefix="bench-ws-", dir=os.environ.get("BENCH_DIR")) as data_dir:
        port = free_port()
        url = f"http://127.0.0.1:{port}/ws"
        server = start_server(data_dir, port, display)
        pids = processes(server.pid)
        table = pids["table"]
        rss_before = rss_kib(table)
        watchers = start_spectators(url, spectators) if spectators else None
        rss_crowd = rss_kib(table)
        try:
            cpu0, t0 = {name: cpu_s(pid) for name, pid in pids.items()}, time.monotonic()
            phones, sent = asyncio.run(run(samples, url, interval_s, settle_s))
            seconds = time.monotonic() - t0
            cpu_rates = {name: (cpu_s(pid) - cpu0[name]) / seconds for name, pid in pids.items()}
            rss = {name: rss_kib(pid) for name, pid in pids.items()}
            pss = {name: pss_kib(pid) for name, pid in pids.items()}
            cpu_rate = cpu_rates["table"]
            feed: dict[str, Any] = {}
            if watchers is not None:
                out, _ = watchers.communicate(str(sent[-1][0]), timeout=120)
                feed = json.loads(out.strip().splitlines()[-1])
        finally:
            for proc in (server, watchers):
                if proc is not None and proc.poll() is None:
                    if proc is server and proc.stdin is not None:
                        proc.stdin.close()
                    else:
                        proc.terminate()
                    proc.wait(10)
        tail = server.stdout.read().strip() if server.stdout is not None else ""
    suffix = f" + {spectators} spectators" if spectators else " (TV window up)" if display else ""
    report(f"action -> all 12 phones updated{suffix}", phones)
    print(f"{'':<46} server CPU {cpu_rate * 100:5.1f} % of a core; load average {load_average()}")
    if display:
        drawn = next((line for line in tail.splitlines() if line.startswith("TV frames")), "TV frames: ?")
        print(f"{'':<46} " + "; ".join(f"{name} process RSS {kib / 1024:.0f} MB, CPU {cpu_rates[name] * 100:.1f} %"
                                       for name, kib in rss.items()) + f"; {drawn}")
        print(f"{'':<46} PSS: " + ", ".join(f"{name} {kib / 1024:.0f} MB" for name, kib in pss.items())
              + f"; the whole program {sum(pss.values()) / 1024:.0f} MB")
    if spectators:
        last = feed["last"]
        everyone = [max(p, (last[str(v)] - t) / 1e6) for p, (v, t) in zip(phones, sent) if str(v) in last]
        report(f"action -> all {SEATS + spectators} sockets updated", everyone)
        print(f"{'':<46} spectator feed {feed['rate']:.1f} states/s each (actions: {1 / interval_s:.0f}/s); "
              f"server RSS +{(rss_crowd - rss_before) / spectators:.1f} KiB per spectator; "
              f"closed by the server: {feed['closed']}")
        print(f"{'':<46} the crowd's own client process: {feed['cpu_us']:.0f} µs of CPU per state received")
    return phones, cpu_rate


class Encoder:
    """A session listener doing the hub's per-change work: every seat's state frame and the
    public one, encoded as the hub encodes them."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def updated(self, update: Any) -> None:
        from game.server.hub import StateFrames

        frames = StateFrames(update, self.session.clock())
        for seat in range(SEATS):
            frames.get(seat, host=False)
        frames.get(None, host=False)

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        pass

    def claim_answered(self, claim: Any, record: Any) -> None:
        pass

    def claim_ended(self, claim: Any, why: Any) -> None:
        pass

    def notice(self, code: Any) -> None:
        pass


async def server_work(samples: int) -> list[float]:
    """In-process: time of one accepted action on the table's loop — checks, engine, journal
    (fsync), 13 views and their frames — without any socket."""
    sys.path.insert(0, str(ROOT))
    from game.config import TableConfig
    from game.session.journal import Journal
    from game.session.session import Session

    with tempfile.TemporaryDirectory(prefix="bench-ws-", dir=os.environ.get("BENCH_DIR")) as data_dir:
        journal, _, _ = Journal.open(Path(data_dir))
        session = Session.boot(TableConfig(data_dir=Path(data_dir), admin_pin=PIN), journal, None)
        session.host_command({"command": "set_seats", "count": SEATS})
        session.host_command({"command": "set_setting", "name": "conspiracy_ms", "value": 3_600_000})
        for record in session.table.offered:
            session.join_seat(record.token, f"P{record.seat}")
        session.host_command({"command": "start"})
        session.attach(Encoder(session))
        out = []
        for i in range(samples + WARM_UP):
            seat, turn = i % SEATS, i // SEATS
            t0 = time.monotonic_ns()
            session.submit_action(seat, {"type": "vote", "target": (seat + 1 + turn % 2) % SEATS}, session.version)
            if i >= WARM_UP:
                out.append((time.monotonic_ns() - t0) / 1e6)
        session.close()
        journal.close()
    return out


def windowed_rows(args: argparse.Namespace, headless: list[float], bare: list[float]) -> None:
    """The windowed row, then ``--rounds`` - 1 more rounds of bare limit, headless and windowed rows
    (the shared machine's load drifts: rows taken back to back, pooled, compare like with like); the
    ratios of the pools."""
    xvfb, display = start_xvfb()
    windowed: list[float] = []
    interval_s = args.interval_ms / 1000
    try:
        for turn in range(args.rounds):
            if turn:
                bare = bare + bare_row(args.samples, interval_s)
                headless = headless + one_run(args.samples, 0, interval_s, settle_s=args.settle_s)[0]
            windowed += one_run(args.samples, 0, interval_s, display, args.settle_s)[0]
    finally:
        xvfb.terminate()
        xvfb.wait(10)
    if args.rounds > 1:
        report(f"pooled, {args.rounds} rounds: bare limit", bare)
        report(f"pooled, {args.rounds} rounds: headless", headless)
        report(f"pooled, {args.rounds} rounds: TV window up", windowed)
        ratio("headless", headless, bare)
    ratio("TV window up", windowed, bare)
    print(f"{'':<46} with the TV / headless: p50 x{statistics.median(windowed) / statistics.median(headless):.2f}"
          f"   p99 x{pct(windowed, 99) / pct(headless, 99):.2f}")


def main() -> int:
    if len(sys.argv) == 4 and sys.argv[1] == "--spectator-worker":
        asyncio.run(spectator_worker(sys.argv[2], int(sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--server-worker":
        asyncio.run(serve(sys.argv[2], int(sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--bare-worker":
        asyncio.run(serve_bare(sys.argv[2], int(sys.argv[3])))
        return 0
    if len(sys.argv) == 4 and sys.argv[1] == "--window-worker":
        serve_windowed(sys.argv[2], int(sys.argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--spectators", default="200,1000", help="comma-separated crowd sizes (0: none)")
    parser.add_argument("--window", choices=("xvfb", "no"), default="xvfb",
                        help="xvfb: also a windowed row (the table with its TV on a virtual display, 1920x1080)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of bare limit, headless and windowed rows, pooled (the machine's load "
                             "drifts between rows)")
    parser.add_argument("--settle-s", type=float, default=3.0,
                        help="headless and windowed rows: seconds between the game's start and the first measured "
                             "action (0.2: include the TV's first seconds, when it primes its caches)")
    parser.add_argument("--reconnects", type=int, default=100, help="phone reconnects mid-game (0: none)")
    parser.add_argument("--hogs", type=int, default=2, help="busy processes beside the table during the reconnects")
    parser.add_argument("--interval-ms", type=float, default=50.0,
                        help="time from one action to the next (a real table: far more than 50 ms)")
    args = parser.parse_args()
    print(f"{args.samples} actions, one every {args.interval_ms:g} ms; journal with fsync in "
          f"{os.environ.get('BENCH_DIR') or tempfile.gettempdir()}")
    print(f"load average at start: {load_average()}")
    report("server work per action (no sockets)", asyncio.run(server_work(args.samples)))
    bare = bare_row(args.samples, args.interval_ms / 1000)
    headless, cpu_alone = one_run(args.samples, 0, args.interval_ms / 1000, settle_s=args.settle_s)
    ratio("headless", headless, bare)
    if args.reconnects:
        reconnect_rows(args.reconnects, args.hogs)
    if args.window == "xvfb":
        windowed_rows(args, headless, bare)
    for crowd in (int(n) for n in args.spectators.split(",") if int(n) > 0):
        _, cpu_crowd = one_run(args.samples, crowd, args.interval_ms / 1000)
        print(f"{'':<46} server CPU per spectator: {(cpu_crowd - cpu_alone) / crowd * 1e6:.0f} µs/s "
              f"({(cpu_crowd - cpu_alone) / crowd * 100:.3f} % of a core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
