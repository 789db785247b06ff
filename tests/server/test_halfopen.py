"""On the connection guard itself (fake transports, an injected clock): the table
holds a bounded number of connections; every address — a seated phone's too — lives within its
budgets (connections, half-open ones, new ones a second with a back-off); a proven socket (a seated
phone's or the host's) is never evicted and leaves its address's budgets; strangers share what is
left (the busiest address's oldest silent connection makes room); every connection closed for
noise is counted, and the counts are logged one line per kind per minute."""
from __future__ import annotations

import asyncio
import logging
import socket
from typing import Any

import pytest

from game.server.capacity import connection_room
from game.server.guard import BACKOFF_S, SO_ATTACH_FILTER, ConnectionGuard, Pace, syn_filter
from game.server.noise import NetworkNoise, NoiseKind


class Transport:
    def __init__(self, address: str) -> None:
        self.address = address
        self.closed = False

    def get_extra_info(self, name: str) -> Any:
        return (self.address, 40000) if name == "peername" else None

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
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


def unpaced(clock: Clock) -> Pace:
    """No rate budget to speak of: the tests of the other budgets open many connections at once."""
    return Pace(clock, rate=1e9, burst=1e9)


async def test_strangers_share_the_room_the_busiest_address_makes_room() -> None:
    clock = Clock()
    guard = ConnectionGuard(clock, room=40, reserve=10, per_address=100, silent_per_address=100, exempt=frozenset(),
                            pace=unpaced(clock), noise=quiet_noise())
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


async def test_a_seated_address_is_held_to_the_same_half_open_budget_as_anyone() -> None:
    """The issue's repro: an address that held a seat opened 4,000 half-open connections; now it
    holds at most its silent budget, only its own connections make room, and its proven socket
    stays."""
    clock = Clock()
    guard = ConnectionGuard(clock, room=3800, reserve=128, exempt=frozenset(), pace=unpaced(clock), noise=quiet_noise())
    seated = open_from(guard, "10.0.0.7")
    guard.requested(seated[0][0])
    guard.prove(seated[0][0])  # its phone's socket said hello with its device key
    flood = open_from(guard, "10.0.0.7", 4000)
    await closes_done()
    assert guard.silent("10.0.0.7") == guard.silent_per_address
    assert sum(not t.closed for _, t in flood) == guard.silent_per_address
    assert not seated[0][1].closed
    neighbour = open_from(guard, "10.0.0.8", 6)  # a new phone: its browser's connections all get in
    await closes_done()
    assert not any(t.closed for _, t in neighbour)


async def test_a_proven_socket_leaves_its_addresses_budgets_and_is_never_evicted() -> None:
    clock = Clock()
    guard = ConnectionGuard(clock, room=40, reserve=10, per_address=4, silent_per_address=4, exempt=frozenset(),
                            pace=unpaced(clock), noise=quiet_noise())
    phone = open_from(guard, "10.0.0.7")
    guard.requested(phone[0][0])
    guard.prove(phone[0][0])
    assert guard.connections("10.0.0.7") == 0
    for n in range(20):
        open_from(guard, f"10.0.1.{n}", 4)  # strangers fill their room and more: the busiest make room
    more = open_from(guard, "10.0.0.7", 4)  # its browser's other connections: within the address's budget
    await closes_done()
    assert not phone[0][1].closed and not any(t.closed for _, t in more)


async def test_new_connections_a_second_are_budgeted_per_address_with_a_doubling_back_off() -> None:
    clock = Clock()
    pace = Pace(clock, rate=10, burst=20)
    guard = ConnectionGuard(clock, exempt=frozenset(), silent_per_address=1000, pace=pace, noise=quiet_noise())
    burst = open_from(guard, "10.0.0.66", 25)
    await closes_done()
    assert sum(t.closed for _, t in burst) == 5 and guard.refused == 5  # the burst, then refused
    assert pace.wait_s("10.0.0.66") == BACKOFF_S[0]
    clock.now += BACKOFF_S[0] + 0.05
    early = open_from(guard, "10.0.0.66")  # the back-off over, but its bucket starts empty: no burst
    await closes_done()
    assert early[0][1].closed and pace.wait_s("10.0.0.66") == 2 * BACKOFF_S[0]  # a second back-off, twice as long
    clock.now += 2 * BACKOFF_S[0] + 0.2  # then within its rate (10 a second): one gets in
    later = open_from(guard, "10.0.0.66")
    await closes_done()
    assert not later[0][1].closed
    other = open_from(guard, "10.0.0.7", 6)
    await closes_done()
    assert not any(t.closed for _, t in other)  # another address is not held back


async def test_a_stranger_with_nothing_silent_to_evict_is_refused_and_counted() -> None:
    clock = Clock()
    guard = ConnectionGuard(clock, room=20, reserve=10, per_address=100, silent_per_address=100, exempt=frozenset(),
                            pace=unpaced(clock), noise=quiet_noise())
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


def test_the_kernels_filter_keeps_an_address_backing_off_out_and_lets_others_in() -> None:
    """The door's filter on a real listening socket: a connection from the blocked address never
    completes (its first packet is dropped by the kernel, nothing reaches the loop); a neighbour's
    connects at once."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        program = syn_filter(frozenset({"127.0.0.9"}))  # alive while the kernel copies it
        server.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, program.fprog)
        port = server.getsockname()[1]
        outcomes = {}
        for source in ("127.0.0.8", "127.0.0.9"):
            with socket.socket() as phone:
                phone.settimeout(0.3)
                phone.bind((source, 0))
                try:
                    phone.connect(("127.0.0.1", port))
                    outcomes[source] = "connected"
                except TimeoutError:
                    outcomes[source] = "dropped"
        assert outcomes == {"127.0.0.8": "connected", "127.0.0.9": "dropped"}


def test_the_pace_lists_the_addresses_backing_off_for_the_filter() -> None:
    clock = Clock()
    pace = Pace(clock, rate=1, burst=1)
    assert pace.allow("10.0.0.66") and not pace.allow("10.0.0.66")
    assert pace.blocked(10) == frozenset({"10.0.0.66"})
    clock.now += BACKOFF_S[0] + 0.01
    assert pace.blocked(10) == frozenset()


def test_the_pace_forgets_an_address_only_when_a_fresh_entry_would_stand_for_it() -> None:
    clock = Clock()
    pace = Pace(clock, rate=1, burst=2)
    assert pace.allow("10.0.0.66") and pace.allow("10.0.0.66") and not pace.allow("10.0.0.66")  # one strike
    assert pace.allow("10.0.0.7")
    clock.now += BACKOFF_S[1]
    assert pace.forget_idle() == 0  # a strike is remembered a while, and 10.0.0.7's bucket for as long
    clock.now += 1.0
    assert pace.forget_idle() == 2 and pace.wait_s("10.0.0.66") == 0.0  # forgiven: the table is empty again
    assert pace.allow("10.0.0.66") and pace.allow("10.0.0.66") and not pace.allow("10.0.0.66")
    assert pace.wait_s("10.0.0.66") == BACKOFF_S[0]  # a first strike again, as for any new address
