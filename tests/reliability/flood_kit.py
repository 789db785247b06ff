"""A half-open flood from many loopback addresses against a real table in a subprocess, shared by
``tests/reliability/test_halfopen_flood.py`` and ``bench/bench_hostile.py``.

The table runs headless in its own process (``fd_limit``: its open-file limit, soft and hard, set
before it starts). The flood opens TCP connections from 127.0.0.2 … 127.0.0.(1 + addresses) that
never send a byte, and opens each one again when the table closes it (for a bounded number of
rounds). Meanwhile a seated phone reconnects (its own device key) and the host's console logs in,
each from its own loopback address; their times are measured. Only loopback addresses are used.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent.parent
PIN = "246813"
PHONE_ADDRESS = "127.0.0.200"  # the seated phone's usual address
NEW_PHONE_ADDRESS = "127.0.0.202"  # the same phone after its address changed (a stranger's address)
HOST_ADDRESS = "127.0.0.201"  # the host's phone: never seen before the flood
START_S = 30.0
WELCOME_S = 10.0  # how long a reconnect is waited for at most (the measure, not the bound)
CONNECT_S = 2.0  # a malformed request's connection: an address backing off is dropped by the kernel

SERVER = """
import resource, sys
limit = int(sys.argv[1])
if limit:
    resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
from game.__main__ import main
sys.exit(main(sys.argv[2:]))
"""


@dataclass
class Table:
    process: subprocess.Popen[bytes]
    port: int
    seat_token: str
    log_path: Path

    @property
    def log_bytes(self) -> int:
        return self.log_path.stat().st_size

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


@contextlib.contextmanager
def table(tmp: Path, fd_limit: int = 0, *, options: Sequence[str] = ("--new", "-v")) -> Iterator[Table]:
    """A headless table on 127.0.0.1 (``fd_limit``: 0 keeps the inherited open-file limit), its
    data in ``tmp/data``; what it writes to the terminal (``-v``: INFO and up) goes to
    ``tmp/server.log``. ``options``: more command-line options (e.g. ``--mode kiosk``)."""
    log_path = tmp / "server.log"
    out_path = tmp / "server.out"
    args = [sys.executable, "-c", SERVER, str(fd_limit), "--headless", "--host", "127.0.0.1", "--port", "0",
            "--data", str(tmp / "data"), "--pin", PIN, "--seed", "3", *options]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    with open(log_path, "wb") as err, open(out_path, "wb") as out:
        process = subprocess.Popen(args, stdout=out, stderr=err, cwd=ROOT, env=env)
    try:
        port, token = _wait_started(process, out_path)
        yield Table(process, port, token, log_path)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


def _wait_started(process: subprocess.Popen[bytes], out_path: Path) -> tuple[int, str]:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        text = out_path.read_text(encoding="utf-8", errors="replace")
        port = re.search(r"Listening on port (\d+)", text)
        token = re.search(r"/s/([A-Za-z0-9_-]+)", text)
        if port and token:
            return int(port.group(1)), token.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.05)
    raise AssertionError(f"the table did not start: {out_path.read_text(errors='replace')}")


# ---------------------------------------------------------------------------------- flood
@dataclass
class Flood:
    """Silent connections from ``addresses`` loopback addresses, ``per_address`` each."""

    port: int
    addresses: int = 140
    per_address: int = 40
    sockets: dict[tuple[int, int], socket.socket] = field(default_factory=dict)
    opened: int = 0  # connections opened in all (the hostile connections)

    def address(self, i: int) -> str:
        return f"127.0.0.{2 + i}"

    def fill(self) -> None:
        """Open every missing connection and open again those the table closed."""
        for a in range(self.addresses):
            for k in range(self.per_address):
                sock = self.sockets.get((a, k))
                if sock is not None and not _closed(sock):
                    continue
                if sock is not None:
                    sock.close()
                self.sockets[(a, k)] = self._open(self.address(a))

    def _open(self, address: str) -> socket.socket:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        sock.bind((address, 0))
        err = sock.connect_ex(("127.0.0.1", self.port))
        if err not in (0, errno.EINPROGRESS):
            raise OSError(err, os.strerror(err))
        self.opened += 1
        return sock

    def held(self) -> int:
        return sum(1 for s in self.sockets.values() if not _closed(s))

    def close(self) -> None:
        for sock in self.sockets.values():
            sock.close()
        self.sockets.clear()


def _closed(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False  # open and silent
    except OSError:
        return True


async def keep_flooding(flood: Flood, rounds: int, pause_s: float = 0.2) -> None:
    """Re-open what the table closed, ``rounds`` times (bounded)."""
    for _ in range(rounds):
        flood.fill()
        await asyncio.sleep(pause_s)


# ------------------------------------------------------------------------------- clients
async def hello(port: int, address: str, message: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """Open ``/ws`` from ``address``, send ``message``; the seconds until the welcome (or the
    first error), and that message."""
    started = time.monotonic()
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    timeout = aiohttp.ClientTimeout(total=WELCOME_S)
    async with (aiohttp.ClientSession(connector=connector, timeout=timeout) as client,
                client.ws_connect(f"http://127.0.0.1:{port}/ws") as ws):
        await ws.send_str(json.dumps({"v": 1, "kind": "hello", **message}))
        while True:
            msg = await ws.receive(timeout=WELCOME_S)
            if msg.type is not aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"closed before the welcome: {msg}")
            data = json.loads(msg.data)
            if data["kind"] in ("welcome", "error"):
                return time.monotonic() - started, data


async def seat_phone(port: int, seat_token: str) -> str:
    """Seat a phone from its usual address; its device key."""
    _, welcome = await hello(port, PHONE_ADDRESS, {"role": "seat", "token": seat_token, "name": "Sara"})
    assert welcome["kind"] == "welcome", welcome
    return str(welcome["token"])


@dataclass
class Reconnects:
    seated: list[float] = field(default_factory=list)  # the seated phone back, from its usual address
    moved: list[float] = field(default_factory=list)  # ... from an address the table never saw
    host: list[float] = field(default_factory=list)  # the host's console from a new address
    failed: list[str] = field(default_factory=list)


async def reconnect_under_flood(flood: Flood, device_key: str, tries: int, *, rounds_between: int = 2) -> Reconnects:
    """``tries`` times: the flood re-filled, then the seated phone (usual and new address) and the
    host connect; each time and every failure recorded."""
    out = Reconnects()
    for _ in range(tries):
        await keep_flooding(flood, rounds_between)
        for where, address, message in (
                (out.seated, PHONE_ADDRESS, {"role": "seat", "token": device_key}),
                (out.moved, NEW_PHONE_ADDRESS, {"role": "seat", "token": device_key}),
                (out.host, HOST_ADDRESS, {"role": "host", "pin": PIN})):
            try:
                seconds, reply = await hello(flood.port, address, message)
            except (aiohttp.ClientError, TimeoutError, AssertionError, OSError) as exc:
                out.failed.append(f"{address}: {type(exc).__name__}: {exc}")
                continue
            if reply["kind"] != "welcome":
                out.failed.append(f"{address}: {reply}")
                continue
            where.append(seconds)
    return out


BAD_REQUEST = b"GET / HTTP/1.1\r\nHost: table\r\nBad Header\r\n\r\n"


async def bad_requests(port: int, n: int, addresses: int = 20, at_once: int = 25,
                       payloads: Sequence[bytes] = (BAD_REQUEST,)) -> int:
    """``n`` malformed HTTP requests (``payloads`` in turn) from 127.0.0.2 … (1 + ``addresses``),
    ``at_once`` at a time; how many were answered 400 (the others were reset over their address's
    rate of new connections, or closed over a cap, before they were read)."""
    async def one(i: int) -> bool:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.0.{2 + i % addresses}", 0)), CONNECT_S)
        except (ConnectionError, TimeoutError):  # its address is over its rate: reset, or kept out by the kernel
            return False
        try:
            writer.write(payloads[i % len(payloads)])
            await writer.drain()
            return b" 400 " in await asyncio.wait_for(reader.readline(), WELCOME_S)
        except ConnectionError:  # closed over a cap before it was read (the table still counts it)
            return False
        finally:
            writer.close()
    answered = 0
    for start in range(0, n, at_once):
        answered += sum(await asyncio.gather(*(one(i) for i in range(start, min(n, start + at_once)))))
    return answered


def tracebacks(log_text: str) -> int:
    return log_text.count("Traceback (most recent call last)")
