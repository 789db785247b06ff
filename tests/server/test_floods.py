"""One device on the LAN cannot lock the table. HTTP connections that never send
their headers are closed after the header deadline, one address holds a bounded number of
connections and sockets, sockets that never say hello are closed after the hello deadline, and a
flood of silent sockets never refuses a seated phone's reconnect. The clock is injected."""
from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from game.server.app import GUARD, HUB
from game.server.hub import HELLO_GRACE_S

MakeTable = Callable[..., Any]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    """Whether the server closed this raw connection (EOF) rather than answering."""
    return await asyncio.wait_for(reader.read(1024), 5) == b""


async def raw(t: Any) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(t.client.server.host, t.client.server.port)


async def settle(condition: Callable[[], bool]) -> None:
    """Let the loop run the closes just made (no timer is waited for)."""
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the server did not get there")


async def test_http_connections_without_headers_are_closed_at_the_deadline(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock, "uncapped": frozenset()})
    guard = t.client.app[GUARD]
    idle_r, idle_w = await raw(t)  # sends nothing at all
    slow_r, slow_w = await raw(t)
    slow_w.write(b"GET /healthz HTTP/1.1\r\nHost: table\r\n")  # half a request, never finished
    good = await t.client.get("/healthz")
    assert good.status == 200
    await settle(lambda: guard.connections("127.0.0.1") >= 3)
    clock.now += 9.9
    assert guard.reap() == 0
    clock.now += 0.1
    assert guard.reap() == 2
    assert await closed_by_server(idle_r) and await closed_by_server(slow_r)
    assert (await t.client.get("/healthz")).status == 200  # the finished one's connection lives on
    for w in (idle_w, slow_w):
        w.close()


async def test_one_address_holds_a_bounded_number_of_connections(make_table: MakeTable) -> None:
    t = await make_table(server={"per_address_connections": 4, "uncapped": frozenset()})
    guard = t.client.app[GUARD]
    held = [await raw(t) for _ in range(4)]
    await settle(lambda: guard.connections("127.0.0.1") == 4)
    extra_r, extra_w = await raw(t)
    assert await closed_by_server(extra_r)  # the fifth is closed at once
    assert guard.refused == 1
    for _, w in held:
        w.close()
    extra_w.close()


async def test_sockets_that_never_say_hello_are_closed_at_the_hello_deadline(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    silent = [await t.connect("10.0.0.66") for _ in range(3)]
    watcher = await t.connect("10.0.0.7")
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    clock.now += 9.0
    assert t.client.app[HUB].reap() == 0
    clock.now += 1.0
    assert t.client.app[HUB].reap() == 3
    for phone in silent:
        assert await phone.closed() == 1008
    await watcher.send("ping", t=1)
    assert (await watcher.recv("pong"))["t"] == 1


async def test_a_flood_of_silent_sockets_never_refuses_a_seated_phone(make_table: MakeTable) -> None:
    t = await make_table(max_sockets=40, server={"per_address_sockets": 1000})
    ali, _, _ = await t.seat(0, name="Ali")
    await ali.ws.close()
    hub = t.client.app[HUB]
    for n in range(60):  # more silent sockets than the table holds
        await t.connect(f"10.0.2.{n}")
        assert len([c for c in hub.clients if not c.closing]) <= 40
    back, welcome, _ = await t.seat(0)  # the phone reconnects: a silent socket makes room, never a 503
    assert welcome["name"] == "Ali"
    host = await t.host()  # and the host
    await host.send("ping", t=2)
    assert (await host.recv("pong"))["t"] == 2


async def test_one_device_holds_a_bounded_number_of_sockets(make_table: MakeTable) -> None:
    t = await make_table(server={"per_address_sockets": 3})
    for _ in range(3):
        await t.connect("10.0.0.66")
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await t.connect("10.0.0.66")
    assert refused.value.status == 503
    phone, _, _ = await t.seat(1)  # another device: not affected
    assert phone is not None


async def test_a_seated_address_holds_at_most_four_hello_less_sockets_and_its_phone_always_gets_back(
        make_table: MakeTable) -> None:
    t = await make_table()
    hub = t.client.app[HUB]
    phone = await t.connect("10.0.0.7")
    await phone.send("hello", token=t.session.table.seats[0].token, name="Ali")
    key = (await phone.recv("welcome"))["token"]
    await phone.ws.close()
    silent = [await t.connect("10.0.0.7") for _ in range(12)]  # the seated guest floods from its own address

    def hello_less() -> int:
        return sum(1 for c in hub.clients if c.address == "10.0.0.7" and not c.closing and not c.greeted)

    await settle(lambda: hello_less() <= 4)
    assert [await s.closed() for s in silent[:8]] == [1008] * 8  # its own oldest made room, each in turn
    back = await t.connect("10.0.0.7")  # its phone's own socket: always admitted, seated by its device key
    await back.send("hello", token=key)
    assert (await back.recv("welcome"))["seat"] == 0


async def test_a_seated_address_is_held_to_the_per_address_socket_cap(make_table: MakeTable) -> None:
    t = await make_table(server={"per_address_sockets": 3})
    phone = await t.connect("10.0.0.7")
    await phone.send("hello", token=t.session.table.seats[0].token, name="Ali")
    await phone.recv("welcome")
    for _ in range(2):
        watcher = await t.connect("10.0.0.7")
        await watcher.send("hello", role="spectator")
        await watcher.recv("welcome")
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await t.connect("10.0.0.7")  # no exemption for the address of a seated phone
    assert refused.value.status == 503 and refused.value.headers.get("Retry-After") == "1"


async def test_hello_less_sockets_from_every_address_are_bounded_and_cut_at_once(make_table: MakeTable) -> None:
    """A flood's memory is what it holds at once: the oldest silent socket makes room, whatever
    its address (the table's own included), and a peer that never answers the close frame is cut
    at once, not after aiohttp's 10 s close wait; a phone saying hello is not touched."""
    clock = Clock()
    t = await make_table(server={"clock": clock})
    hub = t.client.app[HUB]
    hub.sockets = dataclasses.replace(hub.sockets, hello_less=5)
    watcher = await t.connect("10.0.3.250")
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    mute_r, mute_w = await raw(t)  # upgraded, then never reads nor answers: the table's own address
    mute_w.write(b"GET /ws HTTP/1.1\r\nHost: table\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    assert (await mute_r.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    silent = []
    for n in range(8):
        clock.now += HELLO_GRACE_S  # each older than a phone's moment to say hello when the next comes
        silent.append(await t.connect(f"10.0.3.{n}"))

    def waiting() -> int:
        return sum(1 for c in hub.clients if not c.closing and not c.greeted)

    assert waiting() <= 5
    frame = await asyncio.wait_for(mute_r.read(64), 2)  # the close frame (1008) ...
    assert frame[:1] == b"\x88" and frame[2:4] == (1008).to_bytes(2, "big")
    assert await asyncio.wait_for(mute_r.read(64), 2) == b""  # ... and the connection cut without an answer
    assert [await s.closed() for s in silent[:3]] == [1008] * 3  # the oldest, each in turn
    back, welcome, _ = await t.seat(0, name="Ali")
    assert welcome["name"] == "Ali"
    await watcher.send("ping", t=3)
    assert (await watcher.recv("pong"))["t"] == 3
    mute_w.close()


async def test_the_busiest_address_makes_room_among_everyone_s_hello_less_sockets(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    hub = t.client.app[HUB]
    hub.sockets = dataclasses.replace(hub.sockets, hello_less=5)
    phone = await t.connect("10.0.4.7")  # the oldest silent socket, but its address's only one
    flood = []
    for _ in range(8):
        clock.now += HELLO_GRACE_S
        flood.append(await t.connect("127.0.0.1"))  # the table's own address: no per-address cap
    assert [await s.closed() for s in flood[:4]] == [1008] * 4
    await phone.send("hello", token=t.session.table.seats[0].token, name="Ali")
    assert (await phone.recv("welcome"))["seat"] == 0


async def test_a_socket_in_its_first_moment_is_not_cut_for_everyone_s_hello_less_cap(make_table: MakeTable) -> None:
    """Under a flood a phone's hello can wait behind the upgrades: for HELLO_GRACE_S its socket is
    not the one that makes room, even as the oldest of its address's only one; older ones are."""
    clock = Clock()
    t = await make_table(server={"clock": clock})
    hub = t.client.app[HUB]
    hub.sockets = dataclasses.replace(hub.sockets, hello_less=3)
    old = [await t.connect(f"10.0.5.{n}") for n in range(2)]
    clock.now += HELLO_GRACE_S
    phone = await t.connect("10.0.5.9")  # the third: the cap is full from now on
    young = [await t.connect(f"10.0.6.{n}") for n in range(4)]  # the two old ones make room, then none is due
    assert [await s.closed() for s in old] == [1008, 1008]
    await phone.send("hello", token=t.session.table.seats[0].token, name="Ali")
    assert (await phone.recv("welcome"))["seat"] == 0
    assert sum(1 for c in hub.clients if not c.closing and not c.greeted) == len(young)
