"""A claim flood from other devices on the LAN (real sockets bound to 127.0.0.2 … 127.0.0.5): one
address holds at most one waiting request, the seated phone is asked about one phone at a time and
gets no new state for a request, the TV shows one request, and a real "my phone died" request from
a new address is shown first and goes through (the rules: ``game/session/claims.py``)."""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tabletop_wsphone import PIN

RELIABILITY_TESTS = Path(__file__).resolve().parent.parent / "reliability"
if str(RELIABILITY_TESTS) not in sys.path:
    sys.path.insert(0, str(RELIABILITY_TESTS))

from claim_flood_kit import claim_flood  # noqa: E402

from game.session.claims import CLAIM_TTL_MS, MAX_CLAIMS, MAX_PER_SEAT, REFUSED_WAIT_MS, ClaimRank, first_per_seat  # noqa: E402
from game.session.scheduler import VirtualTime  # noqa: E402

MakeTable = Callable[..., Any]
FLOOD = 1000
ATTACKERS = 4  # 127.0.0.2 … 127.0.0.5


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


async def test_a_claim_flood_from_four_addresses_never_blocks_my_phone_died(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    watch = Watch(t.session)
    t.session.attach(watch)
    flood = await claim_flood(str(t.client.make_url("/ws")), t.session.table.seats[0].token, PIN,
                              claims=FLOOD, addresses=ATTACKERS)
    assert not flood.problems and flood.real_claim_s is not None  # "my phone died" went through
    assert flood.waiting + flood.refused == FLOOD and flood.waiting >= ATTACKERS  # heard, or refused over the rate
    assert flood.refused > 0  # four addresses opening 1,000 connections at once: over their rate, reset
    assert flood.prompts_open_max == 1 and 1 <= flood.prompts <= 4, flood  # one card at a time, not 400
    assert flood.holder_states == 0  # no new state for a request
    assert flood.pending_max <= ATTACKERS < MAX_CLAIMS
    assert watch.pending_max <= ATTACKERS and watch.tv_max == 1  # the TV: one request at a time
    assert t.session.table.seats[0].name == "Ali" and t.session.claims == ()  # Ali plays on from the new phone


async def test_a_request_nobody_answers_expires_and_its_phone_asks_again_at_the_back(make_table: MakeTable) -> None:
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


async def test_a_refused_address_waits_before_asking_again(make_table: MakeTable) -> None:
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


async def test_asking_again_from_the_same_address_keeps_one_request(make_table: MakeTable) -> None:
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


async def test_a_full_seat_lets_a_new_address_in_and_the_oldest_after_the_first_asks_again(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    await t.seat(0, name="Ali")
    token = t.session.table.seats[0].token
    waiting = []
    for i in range(MAX_PER_SEAT + 1):
        phone = await t.connect(f"192.168.1.{50 + i}")
        await phone.send("hello", token=token)
        assert (await phone.recv("claim"))["state"] == "waiting"  # never "too many phones are asking"
        waiting.append(phone)
    assert await waiting[1].closed() == 1008  # pushed out: it reconnects by itself and asks again
    assert len(t.session.claims) == MAX_PER_SEAT and t.session.claims[0] == first_per_seat(t.session.claims)[0][0]


async def seated_then_away(t: Any, address: str) -> None:
    """Seat 0 held by a phone at ``address`` whose socket then died."""
    phone = await t.connect(address)
    await phone.send("hello", token=t.session.table.seats[0].token, name="Sara")
    await phone.recv("welcome")
    await phone.ws.close()
    while t.session.is_connected(0):
        await asyncio.sleep(0.01)


async def away_flood(t: Any, count: int) -> tuple[str, list[Any]]:
    """``count`` addresses read ``/api/away`` and ask for seat 0 through its away link."""
    listed = await (await t.client.get("/api/away")).json()
    url = listed["seats"][0]["url"]
    phones = []
    for i in range(count):
        phone = await t.connect(f"10.0.9.{i}")
        await phone.send("hello", token=url.removeprefix("/s/"), name="Sara")
        phones.append(phone)
    for phone in phones:
        await phone._next()  # its "waiting" or its refusal
    return url, phones


async def test_the_away_list_gives_a_link_that_only_asks_never_the_seats_own(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    await seated_then_away(t, "10.0.0.5")
    url, _ = await away_flood(t, 1)
    assert url != f"/s/{t.session.table.seats[0].token}" and t.session.claims[0].rank is ClaimRank.OTHER
    assert t.session.table.seats[0].name == "Sara"  # it asked; nothing moved


@pytest.mark.parametrize("evidence", ["holder", "own_link"])
async def test_a_lost_phone_gets_back_through_a_flood_of_twenty_addresses(make_table: MakeTable, evidence: str) -> None:
    t = await make_table(seats=3)
    await seated_then_away(t, "10.0.0.5")
    own_link = t.session.table.seats[0].token
    await away_flood(t, 20)
    # the player's new browser on the same phone (its address held the seat), or the seat's own link
    address = "10.0.0.5" if evidence == "holder" else "10.0.0.77"
    away = (await (await t.client.get("/api/away")).json())["seats"][0]["url"].removeprefix("/s/")
    mine = await t.connect(address)
    await mine.send("hello", token=own_link if evidence == "own_link" else away)
    assert (await mine.recv("claim"))["state"] == "waiting"
    await away_flood(t, 20)  # the flood goes on: it never pushes out the first
    first = t.session.claims[0]
    assert first.asker == address and len(t.session.claims) == MAX_PER_SEAT
    host = await t.host()
    cards = [m for m in host.seen if m["kind"] == "state"][-1]["lobby"]["claims"]
    assert cards == [{"id": first.id, "seat": 0, "name": "", "seat_name": "Sara", "bot": False,
                      "others": MAX_PER_SEAT - 1}]  # one card for the seat, not eight "Sara"s
    t.command("claim", id=first.id, allow=True)
    assert (await mine.recv("welcome"))["seat"] == 0
