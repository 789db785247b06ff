"""The seated phone's way back under each hostile flood, against a real table in a subprocess
(``flood_kit.table``), shared by ``tests/reliability/test_reconnect_floods.py`` and
``bench/bench_hostile.py --reconnect-only``.

Each flood runs in its own process (so the measuring client is not slowed by the flood it
measures), from loopback addresses only, bounded in count and in time (``FLOOD_S`` at most):

- ``seated_half_open``: one address that holds a seat opens 4,000 connections that send half a
  ``GET /ws`` request and stop, re-opened as the table closes them;
- ``half_open``: 140 addresses × 40 silent connections;
- ``hello_less``: 140 addresses × 4 WebSockets that never say hello;
- ``churn``: one address re-opening connections at ~1,000 a second;
- ``claims``: 20 addresses asking for the away seat through ``/api/away``'s link.

Meanwhile the seated phone reconnects with its device key from its usual address, the host's
console logs in, and (for ``claims``) the seat's player on a new browser of the same phone asks and
the host allows the first card. :func:`measure` returns their times; ``quiet`` is the baseline.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import multiprocessing
import re
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import flood_kit
from flood_kit import HOST_ADDRESS, PHONE_ADDRESS, PIN, hello

FLOOD_S = 60.0  # a flood process stops after this whatever happens (the bound)
SEATED_GUEST = "127.0.0.150"  # the guest who holds seat 2 and floods from its own address
FLOODS = ("quiet", "seated_half_open", "half_open", "hello_less", "churn", "claims")
HALF_GET = b"GET /ws HTTP/1.1\r\nHost: table\r\n"  # the headers never finish


# ---------------------------------------------------------------------------- the floods
def _connect(port: int, address: str, payload: bytes = b"") -> socket.socket | None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        sock.bind((address, 0))
        err = sock.connect_ex(("127.0.0.1", port))
        if err not in (0, errno.EINPROGRESS):
            sock.close()
            return None
        if payload:
            time.sleep(0)  # connected on loopback at once, or the send below fails and it is re-opened
            with contextlib.suppress(OSError):
                sock.send(payload)
    except OSError:
        sock.close()
        return None
    return sock


def _alive(sock: socket.socket) -> bool:
    try:
        return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def _hold(port: int, addresses: list[str], per_address: int, payload: bytes, stop: Any, deadline: float) -> None:
    """Keep ``per_address`` connections open from each address, re-opened as they close."""
    held: dict[tuple[str, int], socket.socket | None] = {}
    while not stop.is_set() and time.monotonic() < deadline:
        for address in addresses:
            for k in range(per_address):
                sock = held.get((address, k))
                if sock is not None and _alive(sock):
                    continue
                if sock is not None:
                    sock.close()
                held[(address, k)] = _connect(port, address, payload)
        stop.wait(0.2)
    for sock in held.values():
        if sock is not None:
            sock.close()


def _churn(port: int, address: str, per_s: float, stop: Any, deadline: float) -> None:
    """Open and drop a connection ``per_s`` times a second from one address."""
    gap = 1.0 / per_s
    while not stop.is_set() and time.monotonic() < deadline:
        started = time.monotonic()
        sock = _connect(port, address)
        if sock is not None:
            sock.close()
        time.sleep(max(0.0, gap - (time.monotonic() - started)))


async def _hello_less(port: int, addresses: list[str], per_address: int, stop: Any, deadline: float) -> None:
    """WebSockets that never say hello, re-opened as the table closes them."""
    async def keep(address: str) -> None:
        connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True, limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            while not stop.is_set() and time.monotonic() < deadline:
                with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError):
                    async with http.ws_connect(f"http://127.0.0.1:{port}/ws", timeout=aiohttp.ClientWSTimeout(ws_close=1)) as ws:
                        await ws.receive(timeout=max(0.1, deadline - time.monotonic()))  # its close, when it comes
                await asyncio.sleep(0.05)
    await asyncio.gather(*(keep(a) for a in addresses for _ in range(per_address)))


async def _claims(port: int, addresses: list[str], stop: Any, deadline: float) -> None:
    """Each address asks for the away seat through the public link, again whenever it is closed."""
    async def keep(address: str) -> None:
        connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
        async with aiohttp.ClientSession(connector=connector) as http:
            while not stop.is_set() and time.monotonic() < deadline:
                with contextlib.suppress(aiohttp.ClientError, OSError, asyncio.TimeoutError, KeyError, IndexError):
                    away = await (await http.get(f"http://127.0.0.1:{port}/api/away")).json()
                    token = away["seats"][0]["url"].removeprefix("/s/")
                    async with http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
                        await ws.send_str(json.dumps({"v": 1, "kind": "hello", "token": token, "name": "Sara"}))
                        async for _ in ws:  # waiting, until the table closes it
                            pass
                await asyncio.sleep(0.05)
    await asyncio.gather(*(keep(a) for a in addresses))


def _run_flood(kind: str, port: int, stop: Any) -> None:
    deadline = time.monotonic() + FLOOD_S
    many = [f"127.0.0.{2 + i}" for i in range(140)]
    if kind == "seated_half_open":
        _hold(port, [SEATED_GUEST], 4000, HALF_GET, stop, deadline)
    elif kind == "half_open":
        _hold(port, many, 40, b"", stop, deadline)
    elif kind == "hello_less":
        asyncio.run(_hello_less(port, many, 4, stop, deadline))
    elif kind == "churn":
        _churn(port, SEATED_GUEST, 1000.0, stop, deadline)
    elif kind == "claims":
        asyncio.run(_claims(port, many[:20], stop, deadline))


@contextlib.contextmanager
def flood(kind: str, port: int, warm_s: float = 1.5) -> Iterator[None]:
    """``kind`` running in its own process (nothing for ``quiet``), ``warm_s`` after it started."""
    if kind == "quiet":
        yield
        return
    ctx = multiprocessing.get_context("fork")
    stop = ctx.Event()
    process = ctx.Process(target=_run_flood, args=(kind, port, stop), daemon=True)
    process.start()
    time.sleep(warm_s)
    try:
        yield
    finally:
        stop.set()
        process.join(10)
        if process.is_alive():
            process.kill()
            process.join(5)


# ------------------------------------------------------------------------------ measuring
@dataclass
class Times:
    seated: list[float] = field(default_factory=list)  # the seated phone back (its device key, its address)
    host: list[float] = field(default_factory=list)  # the host's console logged in
    lost: list[float] = field(default_factory=list)  # the lost phone seated again (claims: asked, allowed, welcome)
    failed: list[str] = field(default_factory=list)
    key: str = ""  # the seat's device key after a hand-over (the lost phone's new one)


async def _timed(where: list[float], failed: list[str], label: str, attempt: Callable[[], Any]) -> None:
    try:
        seconds, reply = await attempt()
    except (aiohttp.ClientError, TimeoutError, AssertionError, OSError) as exc:
        failed.append(f"{label}: {type(exc).__name__}: {exc}")
        return
    if reply["kind"] != "welcome":
        failed.append(f"{label}: {reply}")
        return
    where.append(seconds)


async def measure(port: int, device_key: str, tries: int, *, gap_s: float = 0.3) -> Times:
    """``tries`` times: the seated phone reconnects, the host logs in."""
    out = Times()
    for _ in range(tries):
        await _timed(out.seated, out.failed, "seated", lambda: hello(port, PHONE_ADDRESS, {"role": "seat", "token": device_key}))
        await _timed(out.host, out.failed, "host", lambda: hello(port, HOST_ADDRESS, {"role": "host", "pin": PIN}))
        await asyncio.sleep(gap_s)
    return out


async def lost_phone_back(port: int, seat_token: str, tries: int) -> Times:
    """The seat's phone is seated and goes away; ``tries`` times its player asks again from a new
    browser on the same phone (no key: a claim with the seat's link) and the host allows the first
    card shown; then that socket goes away too. The time from asking to the welcome."""
    out = Times()
    host_session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(HOST_ADDRESS, 0), force_close=True))
    async with host_session, host_session.ws_connect(f"http://127.0.0.1:{port}/ws") as host:
        await host.send_str(json.dumps({"v": 1, "kind": "hello", "role": "host", "pin": PIN}))
        _, welcome = await hello(port, PHONE_ADDRESS, {"role": "seat", "token": seat_token, "name": "Ali"})
        link, out.key = str(welcome.get("link") or seat_token), str(welcome.get("token", ""))
        for _ in range(tries):
            await asyncio.sleep(1.0)  # away: the flood reads /api/away and asks
            try:
                seconds, reply = await _ask_and_allow(port, host, link)
            except (aiohttp.ClientError, TimeoutError, AssertionError, OSError) as exc:
                out.failed.append(f"lost: {type(exc).__name__}: {exc}")
                continue
            if reply["kind"] != "welcome":
                out.failed.append(f"lost: {reply}")
                continue
            out.lost.append(seconds)
            link, out.key = str(reply.get("link") or link), str(reply["token"])  # its new link and key
    return out


async def _ask_and_allow(port: int, host: aiohttp.ClientWebSocketResponse, link: str) -> tuple[float, dict[str, Any]]:
    """The player's new browser asks with its seat's link; the host allows the first card for it."""
    started = time.monotonic()
    connector = aiohttp.TCPConnector(local_addr=(PHONE_ADDRESS, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as http, http.ws_connect(f"http://127.0.0.1:{port}/ws") as ws:
        await ws.send_str(json.dumps({"v": 1, "kind": "hello", "token": link}))
        allowed: set[int] = set()
        while time.monotonic() - started < flood_kit.WELCOME_S:
            with contextlib.suppress(asyncio.TimeoutError):
                msg = await ws.receive(timeout=0.05)
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    raise AssertionError(f"closed while asking: {msg}")
                data = json.loads(msg.data)
                if data["kind"] in ("welcome", "error"):
                    return time.monotonic() - started, data
            await _allow_first(host, allowed)
    raise AssertionError("not seated in time")


async def _allow_first(host: aiohttp.ClientWebSocketResponse, allowed: set[int]) -> None:
    """Read the host's states; allow the first card shown (once each)."""
    with contextlib.suppress(asyncio.TimeoutError):
        while True:
            msg = await host.receive(timeout=0.01)
            if msg.type is not aiohttp.WSMsgType.TEXT:
                return
            data = json.loads(msg.data)
            cards = (data.get("lobby") or {}).get("claims") or [] if data["kind"] == "state" else []
            if cards and cards[0]["id"] not in allowed:
                allowed.add(cards[0]["id"])
                await host.send_str(json.dumps({"v": 1, "kind": "host", "command": "claim",
                                                "args": {"id": cards[0]["id"], "allow": True}}))


def seat_tokens(out_text: str) -> list[str]:
    return re.findall(r"/s/([A-Za-z0-9_-]+)", out_text)


async def seat_guest(port: int, token: str) -> None:
    """The seated guest (seat 2) from its own address: its address has held a seat."""
    _, welcome = await hello(port, SEATED_GUEST, {"role": "seat", "token": token, "name": "Guest"})
    assert welcome["kind"] == "welcome", welcome


def busy_processes(n: int) -> list[multiprocessing.Process]:
    """``n`` processes spinning on the CPU (the machine busy with other work), for ``FLOOD_S`` at most."""
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_spin, args=(time.monotonic() + FLOOD_S * len(FLOODS),), daemon=True) for _ in range(n)]
    for p in procs:
        p.start()
    return procs


def _spin(until: float) -> None:
    while time.monotonic() < until:
        sum(range(10_000))
