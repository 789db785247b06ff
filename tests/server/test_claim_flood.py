"""A claim flood from other devices on the LAN (real sockets bound to 127.0.0.2 … 127.0.0.5): one
address holds at most one waiting request, the seated phone is asked about one phone at a time and
gets no new state for a request, the TV shows one request, and a real "my phone died" request from
a new address is shown first and goes through (the rules: ``game/session/claims.py``)."""
from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop_wsphone import PIN

RELIABILITY_TESTS = Path(__file__).resolve().parent.parent / "reliability"
if str(RELIABILITY_TESTS) not in sys.path:
    sys.path.insert(0, str(RELIABILITY_TESTS))

from claim_flood_kit import claim_flood  # noqa: E402

from game.session.claims import CLAIM_TTL_MS, MAX_CLAIMS, REFUSED_WAIT_MS  # noqa: E402
from game.session.scheduler import VirtualTime  # noqa: E402

MakeTable = Callable[..., Any]
FLOOD = 1000
ATTACKERS = 4  # 127.0.0.2 … 127.0.0.5


class Watch:
    """What the table shows while the flood runs: the most waiting requests, the most the TV shows."""

    def __init__(self, session: Any) -> None:
        self.session, self.pending_max, self.tv_max = session, 0, 0

    def updated(self, update: Any) -> None:
        self.pending_max = max(self.pending_max, len(self.session.claims))
        self.tv_max = max(self.tv_max, len(self.session.snapshot.claims))

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        pass

    def notice(self, code: Any) -> None:
        pass


async def test_item2_a_claim_flood_from_four_addresses_never_blocks_my_phone_died(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    watch = Watch(t.session)
    t.session.attach(watch)
    flood = await claim_flood(str(t.client.make_url("/ws")), t.session.table.seats[0].token, PIN,
                              claims=FLOOD, addresses=ATTACKERS)
    assert not flood.problems and flood.real_claim_s is not None  # "my phone died" went through
    assert flood.waiting == FLOOD  # every request was heard (each address renewing its own)
    assert flood.prompts_open_max == 1 and 1 <= flood.prompts <= 4, flood  # one card at a time, not 400
    assert flood.holder_states == 0  # no new state for a request
    assert flood.pending_max <= ATTACKERS < MAX_CLAIMS
    assert watch.pending_max <= ATTACKERS and watch.tv_max == 1  # the TV: one request at a time
    assert t.session.table.seats[0].name == "Ali" and t.session.claims == ()  # Ali plays on from the new phone


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


async def test_item2_asking_again_from_the_same_address_keeps_one_request(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    ali, _, _ = await t.seat(0, name="Ali")
    token = t.session.table.seats[0].token
    first = await t.connect("192.168.1.40")
    await first.send("hello", token=token, name="Sam")
    await first.recv("claim")
    card = await ali.recv("claim")
    second = await t.connect("192.168.1.40")
    await second.send("hello", token=token, name="Sam")
    assert (await second.recv("claim"))["state"] == "waiting"
    assert await first.closed() == 4001  # its request lives on in the newer page
    assert [c.id for c in t.session.claims] == [card["claim"]]  # the same request: the card still holds
    assert await ali.quiet() == []


async def test_item2_a_full_queue_lets_a_new_address_in_and_the_oldest_asks_again(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    await t.seat(0, name="Ali")
    token = t.session.table.seats[0].token
    waiting = []
    for i in range(MAX_CLAIMS + 1):
        phone = await t.connect(f"192.168.1.{50 + i}")
        await phone.send("hello", token=token)
        assert (await phone.recv("claim"))["state"] == "waiting"  # never "too many phones are asking"
        waiting.append(phone)
    assert await waiting[0].closed() == 1008  # pushed out: it reconnects by itself and asks again
    assert len(t.session.claims) == MAX_CLAIMS
