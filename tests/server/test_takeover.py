"""A second device opening the same seat link takes the seat over; the first is told and closed."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

MakeTable = Callable[..., Any]


async def test_second_device_takes_the_seat_over(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    first, _, _ = await t.seat(1, name="Ann")
    second, welcome, state = await t.seat(1)
    error = await first.error()
    assert error["code"] == "taken_over"
    assert await first.closed() == 4001
    assert welcome["seat"] == 1 and welcome["name"] == "Ann"
    assert t.session.is_connected(1)  # the first socket's close does not mark the seat offline
    await second.send("set_name", name="Ann B")
    await second.recv("state", lambda m: m["lobby"]["seats"][1]["name"] == "Ann B")
    # and back again: the first device reconnects and takes over
    third, _, _ = await t.seat(1)
    assert (await second.error())["code"] == "taken_over"
    assert await second.closed() == 4001
    await third.send("ping", t=5)
    assert (await third.recv("pong"))["t"] == 5


async def test_closing_the_only_socket_marks_the_seat_offline(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0)
    watcher = await t.connect()
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    assert t.session.is_connected(0)
    await phone.ws.close()
    state = await watcher.recv("state", lambda m: m["lobby"]["seats"][0]["connected"] is False)
    assert state["lobby"]["seats"][0]["status"] == "joined" and not t.session.is_connected(0)


async def test_reconnect_keeps_the_seats_secrets(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0)
    t.command("fill_bots", kind="random")
    t.command("start")
    state = await phone.recv("state", lambda m: m["phase"] == "playing")
    await phone.send("action", action={"type": "vote", "target": 2}, version=state["version"])
    await phone.recv("state", lambda m: m["view"]["me"]["card"] is not None)
    await phone.ws.close()
    again, welcome, state = await t.seat(0, last_version=state["version"])
    assert welcome["seat"] == 0 and state["view"]["me"]["card"] == {"card": "target", "target": 2}
    assert not [m for m in await again.quiet(0.1) if m["kind"] == "notice" and m["code"] == "new_table"]
