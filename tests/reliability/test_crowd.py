"""The crowd (/watch): seats are served first, spectators get a coalesced public feed, and a
spectator that stops reading is closed (4008) without delaying anyone."""
from __future__ import annotations

import asyncio
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


async def test_a_stalled_spectator_is_closed_and_delays_nobody(live_table: MakeTable, monkeypatch: pytest.MonkeyPatch) -> None:
    t = await live_table(seats=3)
    seat, _, _ = await t.seat(0, name="Ann")
    stalled = await _watcher(t)
    (stalled_client,) = _server_side(t, spectators=1)
    healthy = await _watcher(t)
    never = asyncio.get_running_loop().create_future()  # a peer that stopped reading: writes never finish

    async def stuck(data: bytes) -> None:
        await never

    monkeypatch.setattr(stalled_client.outbox, "_send", stuck)
    monkeypatch.setattr(hub_module, "SPECTATOR_STALL_S", 0.0)
    for i in range(20):  # each change: the seat at once, the healthy spectator in the feed's next round
        t.session.set_name(0, f"Ann{i}")
        await seat.recv("state", lambda m, v=t.session.version: m["version"] == v)
        await healthy.recv("state", lambda m, v=t.session.version: m["version"] == v)
        if stalled_client.closing:
            break
    assert await stalled.closed() == TOO_SLOW_CLOSE
    assert _hub(t).feed.dropped_slow == 1
    t.session.set_name(0, "Bea")  # the healthy one goes on
    await healthy.recv("state", lambda m: m["lobby"]["seats"][0]["name"] == "Bea")
