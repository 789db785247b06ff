"""The crowd (/watch): seats are served first, spectators get a coalesced public feed, and a
spectator that stops reading is closed (4008) without delaying anyone."""
from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import struct
from collections.abc import Callable
from typing import Any

import pytest
from tabletop_wsphone import Phone, Table

from game.server import hub as hub_module
from game.server.app import HUB
from game.server.hub import TOO_SLOW_CLOSE, Client, Hub

MakeTable = Callable[..., Any]


async def _watcher(t: Table) -> Phone:
    phone = await t.connect()
    await phone.send("hello", role="spectator")
    await phone.recv("welcome")
    await phone.state()
    return phone


def _hub(t: Table) -> Hub:
    return t.client.server.app[HUB]


def _server_side(t: Table, *, spectators: int) -> list[Client]:
    watchers = [c for c in _hub(t).clients if c.role is hub_module.Role.SPECTATOR]
    assert len(watchers) == spectators
    return watchers


async def test_spectators_get_the_newest_state_coalesced(live_table: MakeTable) -> None:
    t = await live_table(seats=3)
    seat, _, _ = await t.seat(0, name="Ann")
    watchers = [await _watcher(t) for _ in range(3)]
    changes = 30
    for i in range(changes):  # each change reaches the seat at once
        t.session.set_name(0, f"Ann{i}")
        state = await seat.recv("state", lambda m, v=t.session.version: m["version"] == v)
        assert state["lobby"]["seats"][0]["name"] == f"Ann{i}"
    final = t.session.version
    for w in watchers:
        last = await w.recv("state", lambda m: m["version"] == final)
        assert last["lobby"]["seats"][0]["name"] == f"Ann{changes - 1}"
        states = [m for m in w.seen if m["kind"] == "state"]
        # the feed sends at most ten a second: far fewer states than changes, in order, none stale at the end
        assert len(states) < changes
        versions = [m["version"] for m in states]
        assert versions == sorted(versions)


async def test_a_notice_follows_the_state_it_speaks_of(live_table: MakeTable) -> None:
    t = await live_table(seats=3)
    watcher = await _watcher(t)
    t.command("fill_bots", kind="random")
    t.command("start")
    notice = await watcher.recv("notice", lambda m: m["code"] == "game_started")
    assert notice
    states = [m for m in watcher.seen if m["kind"] == "state"]
    assert states[-1]["phase"] == "playing"


class StalledPeer:
    """A spectator on a raw TCP socket with a tiny receive buffer: it says hello, then never reads
    again (a phone whose page froze). Speaks just enough RFC 6455 for that."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, host: str, port: int) -> StalledPeer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, (host, port))
        reader, writer = await asyncio.open_connection(sock=sock)
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write(f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                     f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        peer = cls(reader, writer)
        peer.send_text(json.dumps({"v": 1, "kind": "hello", "role": "spectator"}))
        return peer

    def send_text(self, text: str) -> None:
        payload, mask = text.encode(), os.urandom(4)
        assert len(payload) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.writer.write(bytes([0x81, 0x80 | len(payload)]) + mask + masked)

    async def read_to_the_end(self) -> bytes:
        """Start reading again: whatever the server still sends, until it ends the connection."""
        return await asyncio.wait_for(self.reader.read(), 10)


async def test_a_stalled_spectator_is_closed_and_delays_nobody(live_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    t = await live_table(seats=3)
    seat, _, _ = await t.seat(0, name="Ann")
    server = t.client.server
    stalled = await StalledPeer.open(str(server.host), int(server.port or 0))
    for _ in range(100):
        if _hub(t).clients and any(c.role is hub_module.Role.SPECTATOR for c in _hub(t).clients):
            break
        await asyncio.sleep(0.01)
    (stalled_client,) = _server_side(t, spectators=1)
    assert stalled_client.transport is not None
    stalled_client.transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    healthy = await _watcher(t)
    monkeypatch.setattr(hub_module, "SPECTATOR_STALL_S", 0.0)
    monkeypatch.setattr(hub_module, "SPECTATOR_HZ", 1000.0)  # the feed's pace does not matter here
    for i in range(500):  # each change: the seat at once, the healthy spectator in the feed's next round
        t.session.set_name(0, f"Ann{i}")
        await seat.recv("state", lambda m, v=t.session.version: m["version"] == v)
        await healthy.recv("state", lambda m, v=t.session.version: m["version"] == v)
        if stalled_client.closing:
            break
    assert stalled_client.closing, "the stalled spectator was never closed"
    assert _hub(t).feed.dropped_slow == 1
    assert _hub(t).feed.skipped >= 1  # frames it had no room for were dropped, not queued
    t.session.set_name(0, "Bea")  # the healthy one goes on
    await healthy.recv("state", lambda m: m["lobby"]["seats"][0]["name"] == "Bea")
    rest = await stalled.read_to_the_end()  # what was in the buffers, then the close frame or a cut
    close = struct.pack("!BBH", 0x88, 2 + len(b"too slow: the feed was not read"), TOO_SLOW_CLOSE)
    assert close in rest or not rest.endswith(b"}")  # 4008 when it fit, otherwise the connection was cut


@pytest.mark.parametrize("size", [2, 125, 126, 127, 65_535, 65_536, 200_000])
async def test_frames_written_straight_to_the_socket_reach_a_real_client_whole(live_table: MakeTable, size: int) -> None:
    """The outbox frames messages itself (RFC 6455 lengths: 7-bit, 16-bit, 64-bit); a real
    WebSocket client reads each one back whole, and in the order they were queued."""
    t = await live_table(seats=3)
    watcher = await _watcher(t)
    (client,) = _server_side(t, spectators=1)
    text = json.dumps({"kind": "probe", "pad": ""})
    body = json.dumps({"kind": "probe", "pad": "x" * (size - len(text))}).encode()
    assert len(body) == max(size, len(text))
    client.outbox.put(body)
    client.outbox.put(b'{"kind":"probe","pad":"after"}')
    first = await watcher.recv("probe")
    second = await watcher.recv("probe")
    assert len(watcher.raw[-2].encode()) == len(body) and first["pad"] == "x" * (size - len(text))
    assert second["pad"] == "after"


async def test_the_crowd_waits_for_the_players_burst_to_end(live_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of changes reaches the seat one by one; the crowd gets one state, the last, once the
    table has been still for SPECTATOR_AFTER_S (never a state from the middle of the run)."""
    monkeypatch.setattr(hub_module, "SPECTATOR_AFTER_S", 0.5)
    monkeypatch.setattr(hub_module, "SPECTATOR_HZ", 1.0)
    t = await live_table(seats=3)
    seat, _, _ = await t.seat(0, name="Ann")
    watcher = await _watcher(t)
    await watcher.recv("state", lambda m: m["version"] == t.session.version)
    await asyncio.sleep(1.0)  # the feed's last round is over: the next change starts a new one
    before = t.session.version
    for i in range(10):
        t.session.set_name(0, f"Run{i}")
        await seat.recv("state", lambda m, v=t.session.version: m["version"] == v)
    final = t.session.version
    got = await watcher.recv("state", lambda m: m["version"] > before)
    assert got["version"] == final and got["lobby"]["seats"][0]["name"] == "Run9"
