"""A claim flood from other devices on the LAN (real sockets bound to 127.0.0.2 … 127.0.0.5): one
address holds at most one waiting request, the seated phone is asked about one phone at a time and
gets no new state for a request, the TV shows one request, and a real "my phone died" request from
a new address is shown first and goes through (the rules: ``game/session/claims.py``)."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import aiohttp

from game.session.claims import CLAIM_TTL_MS, MAX_CLAIMS, REFUSED_WAIT_MS
from game.session.scheduler import VirtualTime

MakeTable = Callable[..., Any]
FLOOD = 1000
ATTACKERS = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
NEW_PHONE = "127.0.0.50"


class Watch:
    """What the table shows while the flood runs: the most waiting requests, the most the TV shows."""

    def __init__(self, session: Any) -> None:
        self.session, self.pending_max, self.tv_max = session, 0, 0

    def table_changed(self) -> None:
        self.pending_max = max(self.pending_max, len(self.session.claims))
        self.tv_max = max(self.tv_max, len(self.session.snapshot.claims))

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        pass

    def notice(self, code: Any) -> None:
        pass


async def ask_from(url: str, address: str, token: str, count: int, first: int) -> int:
    """``count`` requests for the seat of ``token``, each on a new socket from ``address``; the
    previous socket stays open until the table closes it. Returns how many were told "waiting"."""
    waiting = 0
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)) as http:
        previous: aiohttp.ClientWebSocketResponse | None = None
        for i in range(count):
            ws = await http.ws_connect(url)
            await ws.send_str(json.dumps({"v": 1, "kind": "hello", "token": token, "name": f"Sara {first + i}"}))
            reply = await ws.receive(timeout=5)
            if reply.type == aiohttp.WSMsgType.TEXT and json.loads(reply.data).get("state") == "waiting":
                waiting += 1
            if previous is not None:
                await previous.close()
            previous = ws
        if previous is not None:
            await previous.close()
    return waiting


async def test_item2_a_claim_flood_from_four_addresses_never_blocks_my_phone_died(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    ali, _, _ = await t.seat(0, name="Ali")
    host = await t.host()
    watch = Watch(t.session)
    t.session.attach(watch)
    url = str(t.client.make_url("/ws"))
    token = t.session.table.seats[0].token
    per = FLOOD // len(ATTACKERS)
    told = await asyncio.gather(*(ask_from(url, a, token, per, n * per) for n, a in enumerate(ATTACKERS)))
    assert sum(told) == FLOOD  # every request was heard (each address renewing its own)
    await ali.quiet(0.3)  # what the flood sent Ali's phone has arrived
    cards = [m for m in ali.seen if m["kind"] == "claim"]
    open_cards = 0
    for card in cards:  # asked about one phone at a time
        open_cards += 1 if card["state"] == "asked" else -1
        assert 0 <= open_cards <= 1
    asked = [c for c in cards if c["state"] == "asked"]
    assert 1 <= len(asked) <= 4, len(asked)
    assert not [m for m in ali.seen if m["kind"] == "state"][1:]  # no new state for a request
    assert watch.pending_max <= len(ATTACKERS) < MAX_CLAIMS and watch.tv_max <= 1

    await ali.ws.close()  # Ali's phone dies; Ali opens the seat's link on a new phone
    await asyncio.sleep(0.05)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(NEW_PHONE, 0))) as http:
        mine = await http.ws_connect(url)
        await mine.send_str(json.dumps({"v": 1, "kind": "hello", "token": token}))
        assert json.loads((await mine.receive(timeout=5)).data)["state"] == "waiting"
        shown = t.session.snapshot.claims
        assert len(shown) == 1 and shown[0].name == ""  # the TV shows Ali's own request first
        await host.send("host", command="claim", args={"id": shown[0].id, "allow": True})
        kinds = []
        while "welcome" not in kinds:
            kinds.append(json.loads((await mine.receive(timeout=5)).data)["kind"])
        assert t.session.table.seats[0].name == "Ali" and t.session.is_connected(0)
        await mine.close()


async def test_item2_a_request_nobody_answers_expires_and_its_phone_asks_again_at_the_back(make_table: MakeTable) -> None:
    vt = VirtualTime()
    t = await make_table(seats=3, time=vt)
    ali, _, _ = await t.seat(0, name="Ali")
    first, claim = await t.ask(0)
    asked = await ali.recv("claim")
    assert claim["state"] == "waiting" and asked["state"] == "asked"
    vt.advance(CLAIM_TTL_MS)
    assert await first.closed() == 1008  # the phone reconnects by itself and asks again
    closed = await ali.recv("claim")
    assert closed["state"] == "closed" and closed["claim"] == asked["claim"]
    assert t.session.claims == () and t.session.snapshot.claims == ()


async def test_item2_a_refused_address_waits_before_asking_again(make_table: MakeTable) -> None:
    vt = VirtualTime()
    t = await make_table(seats=3, time=vt)
    await t.seat(0, name="Ali")
    phone = await t.connect("192.168.1.77")
    await phone.send("hello", token=t.session.table.seats[0].token, name="Sara")
    await phone.recv("claim")
    t.command("claim", id=t.session.claims[0].id, allow=False)
    assert (await phone.error())["code"] == "claim_refused"
    again = await t.connect("192.168.1.77")
    await again.send("hello", token=t.session.table.seats[0].token, name="Sara")
    error = await again.error()
    assert error["code"] == "rate_limited" and await again.closed() == 4003
    vt.advance(REFUSED_WAIT_MS[0])
    later = await t.connect("192.168.1.77")
    await later.send("hello", token=t.session.table.seats[0].token, name="Sara")
    assert (await later.recv("claim"))["state"] == "waiting"
