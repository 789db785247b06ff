"""On the connection guard itself (fake transports, an injected clock): the table
holds a bounded number of connections; seated phones' and the host's addresses always get in;
strangers share what is left (the busiest address's oldest silent connection makes room); every
connection closed for noise is counted, and the counts are logged one line per kind per minute."""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from game.server.capacity import connection_room
from game.server.guard import ConnectionGuard
from game.server.noise import NetworkNoise, NoiseKind


class Transport:
    def __init__(self, address: str) -> None:
        self.address = address
        self.closed = False

    def get_extra_info(self, name: str) -> Any:
        return (self.address, 40000) if name == "peername" else None

    def close(self) -> None:
        self.closed = True


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def open_from(guard: ConnectionGuard, address: str, n: int = 1) -> list[tuple[object, Transport]]:
    out = []
    for _ in range(n):
        handler, transport = object(), Transport(address)
        guard.opened(handler, transport)
        out.append((handler, transport))
    return out


async def closes_done() -> None:
    await asyncio.sleep(0)  # refused newcomers are closed on the next loop turn


def quiet_noise() -> NetworkNoise:
    return NetworkNoise(logger=logging.getLogger("test.noise"))


async def test_strangers_share_the_room_the_busiest_address_makes_room() -> None:
    guard = ConnectionGuard(Clock(), room=40, reserve=10, per_address=100, exempt=frozenset(), noise=quiet_noise())
    flood = open_from(guard, "10.0.0.66", 30)  # the whole strangers' room (40 - 10)
    phone = open_from(guard, "10.0.0.7")  # a phone that has just connected: room is made for it
    await closes_done()
    assert not phone[0][1].closed
    assert flood[0][1].closed and not any(t.closed for _, t in flood[1:])  # the flood's oldest went
    more = open_from(guard, "10.0.0.66", 20)  # the flood goes on: only its own connections make room
    await closes_done()
    assert not phone[0][1].closed
    assert sum(not t.closed for _, t in flood + more) == 29
    assert guard.noise.total(NoiseKind.OVER_CAP) == 21


async def test_seated_and_host_addresses_always_get_in_even_over_their_address_cap() -> None:
    seated = {"10.0.0.7"}
    guard = ConnectionGuard(Clock(), room=40, reserve=10, per_address=4, exempt=frozenset(),
                            trusted=lambda a: a in seated, noise=quiet_noise())
    for n in range(10):
        open_from(guard, f"10.0.1.{n}", 4)  # strangers fill their room (30) and more
    back = open_from(guard, "10.0.0.7", 8)  # the seated phone's browser: over the per-address cap
    await closes_done()
    assert not any(t.closed for _, t in back)
    assert guard.connections("10.0.0.7") == 8


async def test_a_stranger_with_nothing_silent_to_evict_is_refused_and_counted() -> None:
    guard = ConnectionGuard(Clock(), room=20, reserve=10, per_address=100, exempt=frozenset(), noise=quiet_noise())
    busy = open_from(guard, "10.0.0.66", 10)
    for handler, _ in busy:
        guard.requested(handler)  # every connection sent its request: none is silent
    late = open_from(guard, "10.0.0.67")
    await closes_done()
    assert late[0][1].closed and not any(t.closed for _, t in busy)
    assert guard.refused == 1 and guard.noise.total(NoiseKind.OVER_CAP) == 1


def test_the_room_leaves_files_for_the_journal_and_an_accept_burst() -> None:
    assert connection_room(1024) < 1024 - 200
    assert connection_room(4096) > connection_room(1024) > 0


async def test_reaped_connections_are_counted_as_handshake_timeouts() -> None:
    clock = Clock()
    guard = ConnectionGuard(clock, exempt=frozenset(), noise=quiet_noise())
    open_from(guard, "10.0.0.66", 3)
    clock.now += guard.header_s
    assert guard.reap() == 3
    assert guard.noise.total(NoiseKind.HANDSHAKE_TIMEOUT) == 3


def test_noise_is_one_line_per_kind_per_minute(caplog: pytest.LogCaptureFixture) -> None:
    clock = Clock()
    noise = NetworkNoise(clock=clock, wall=lambda: 86_400.0 * 3 + 100, midnight=lambda t: 86_400.0 * 3)
    with caplog.at_level(logging.WARNING, logger="game.server.noise"):
        for _ in range(500):
            noise.count(NoiseKind.BAD_REQUEST, "10.0.0.66")
        noise.count(NoiseKind.OVER_CAP, "10.0.0.67")
        noise.flush()
        clock.now += 59.0
        noise.flush()
        assert len(caplog.records) == 2  # the first of each kind, at once
        clock.now += 1.0
        noise.flush()
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3 and "499 bad requests" in lines[2] and "500 since start" in lines[2]
    assert all(r.exc_info is None for r in caplog.records)
    assert noise.total(NoiseKind.BAD_REQUEST) == 500 and noise.today(NoiseKind.BAD_REQUEST) == 500


def test_today_starts_again_at_midnight() -> None:
    day = [86_400.0 * 3]
    noise = NetworkNoise(wall=lambda: day[0] + 10, midnight=lambda t: day[0], logger=logging.getLogger("test.noise"))
    noise.count(NoiseKind.BAD_REQUEST)
    day[0] += 86_400.0
    assert noise.today(NoiseKind.BAD_REQUEST) == 0 and noise.total(NoiseKind.BAD_REQUEST) == 1
    noise.count(NoiseKind.BAD_REQUEST)
    assert noise.today(NoiseKind.BAD_REQUEST) == 1
