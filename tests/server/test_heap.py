"""The cycle collector runs between actions on the table's loop (game/server/heap.py), not inside
them: young generations every second, a full pass when the table is still."""
from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable
from typing import Any

import pytest
from tabletop_wsphone import Table

from game.server import heap
from game.server.app import HUB
from game.server.heap import FULL_MAX_S, FULL_MIN_S, QUIET_S, SAFETY_NET, Collector, HeapTrim

MakeTable = Callable[..., Any]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The generations the collector asked for (gc.collect recorded, not run)."""
    asked: list[int] = []
    monkeypatch.setattr(heap.gc, "collect", lambda generation=2: asked.append(generation) or 0)
    return asked


def test_a_busy_table_gets_young_passes_only_until_the_longest_wait(passes: list[int]) -> None:
    clock, version = Clock(), [0]
    collector = Collector(lambda: version[0], clock)
    for _ in range(int(FULL_MAX_S) - 1):  # a change every second: never quiet
        clock.now += 1
        version[0] += 1
        collector.tick()
    assert set(passes) == {1}
    clock.now += 1
    version[0] += 1
    collector.tick()
    assert passes[-1] == 2 and collector.full_passes == 1  # FULL_MAX_S: a full pass whatever happens


def test_a_quiet_table_gets_a_full_pass_at_most_every_minute(passes: list[int]) -> None:
    clock = Clock()
    collector = Collector(lambda: 7, clock)
    clock.now += QUIET_S
    collector.tick()
    assert passes == [1]  # quiet, but the last full pass (start) is not FULL_MIN_S old
    clock.now += FULL_MIN_S
    collector.tick()
    assert passes == [1, 2]
    clock.now += 1
    collector.tick()
    assert passes == [1, 2, 1]


def test_a_change_restarts_the_quiet_wait(passes: list[int]) -> None:
    clock, version = Clock(), [0]
    collector = Collector(lambda: version[0], clock)
    clock.now += FULL_MIN_S
    version[0] = 1  # something just happened
    collector.tick()
    clock.now += QUIET_S - 1
    collector.tick()
    assert passes == [1, 1]
    clock.now += 1
    collector.tick()
    assert passes == [1, 1, 2]


async def test_while_a_table_serves_the_loop_collects_and_the_thresholds_are_a_safety_net(
        make_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    before = gc.get_threshold()
    monkeypatch.setattr(heap, "YOUNG_EVERY_S", 0.01)
    seen: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(record)
    try:
        t: Table = await make_table()
        assert gc.get_threshold() == SAFETY_NET
        phone, _, _ = await t.seat(0, name="Ann")
        for _ in range(500):
            if 1 in seen:
                break
            await asyncio.sleep(0.01)
        assert 1 in seen  # the loop's own young pass ran
        t.session.set_name(0, "Bea")  # the table goes on
        await phone.recv("state", lambda m: m["lobby"]["seats"][0]["name"] == "Bea")
        await t.client.close()
    finally:
        gc.callbacks.remove(record)
    assert gc.get_threshold() == before  # restored when the last table stops


def test_the_heap_is_trimmed_once_a_flood_of_sockets_has_gone() -> None:
    trims: list[int] = []
    heap = HeapTrim(lambda pad: trims.append(pad) or 1)
    # (open, ever opened): a flood of thousands, the hub holding ~130 of them at once
    for open_now, opened in ((3, 3), (130, 400), (130, 1500), (130, 3000)):
        heap.seen(open_now, opened)
    assert trims == []  # still arriving: no trim while they come
    heap.seen(3, 3000)  # none opened in the last second, thousands gone: back to the system
    assert trims == [0] and heap.trims == 1
    for open_now, opened in ((3, 3000), (2, 3000), (3, 3001)):  # quiet again, or phones: no trim each time
        heap.seen(open_now, opened)
    assert heap.trims == 1
    heap.seen(130, 3300)
    heap.seen(3, 3300)  # a second wave gone
    assert heap.trims == 2


def test_a_table_with_a_few_phones_coming_and_going_never_trims() -> None:
    heap = HeapTrim(lambda pad: 1)
    opened = 0
    for open_now, new in ((12, 12), (0, 0), (14, 14), (2, 0), (13, 11), (0, 0), (150, 150), (0, 0)):
        opened += new
        heap.seen(open_now, opened)
    assert heap.trims == 0


async def test_a_closed_socket_is_freed_as_it_closes_not_left_to_the_collector(
        make_table: MakeTable, passes: list[int]) -> None:
    """Without the cycle collector (disabled, and the loop's passes recorded, not run), a socket
    that has closed is gone at once: its WebSocket, request and transport were not in a cycle."""
    t: Table = await make_table()
    hub = t.client.server.app[HUB]
    phone = await t.connect()
    for _ in range(1000):  # loop turns until the table has taken the socket
        if hub.clients:
            break
        await asyncio.sleep(0)
    (client,) = hub.clients
    ws, transport = weakref.ref(client.ws), weakref.ref(client.ws._req.transport)
    del client
    gc.disable()
    try:
        await phone.ws.close()
        for _ in range(1000):  # loop turns until the table has let the socket go
            if not hub.clients and transport() is None:
                break
            await asyncio.sleep(0)
        assert not hub.clients
        assert ws() is None and transport() is None
    finally:
        gc.enable()
