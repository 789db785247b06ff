"""A seat-claim flood from several loopback addresses (127.0.0.2 …), shared by
``tests/server/test_claim_flood.py`` and ``bench/bench_hostile.py``.

Each request is a new socket saying hello with a held seat's link (the table answers "waiting"
and asks the host); the previous socket of the same address stays open until the table closes it.
:func:`claim_flood` runs it against a table at ``url`` while the seat's phone and the host's console
watch: how many requests waited at once, how many "give your seat?" cards the seat's phone got
(and never two at once), how many states it got; then the seat's phone dies and its player asks from
a new phone, and the host allows the request the table shows first.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

PHONE_ADDRESS = "127.0.0.200"  # the seat's phone
HOST_ADDRESS = "127.0.0.201"  # the host's console
NEW_PHONE_ADDRESS = "127.0.0.202"  # the same player's new phone ("my phone died")
WAIT_S = 10.0


def attacker(i: int) -> str:
    return f"127.0.0.{2 + i}"


def hello_text(**fields: Any) -> str:
    return json.dumps({"v": 1, "kind": "hello", **fields})


async def ask_for_seat(url: str, address: str, token: str, count: int, first: int = 0) -> tuple[int, int]:
    """``count`` requests for the seat of ``token``, each on a new socket from ``address``; how
    many were told "waiting", and how many connections the table refused (over the address's
    rate of new connections: reset before any upgrade)."""
    waiting = refused = 0
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as http:
        previous: aiohttp.ClientWebSocketResponse | None = None
        for i in range(count):
            try:
                ws = await http.ws_connect(url)
                await ws.send_str(hello_text(token=token, name=f"Sara {first + i}"))
                reply = await ws.receive(timeout=WAIT_S)
            except (aiohttp.ClientError, OSError):
                refused += 1
                continue
            if reply.type == aiohttp.WSMsgType.TEXT and json.loads(reply.data).get("state") == "waiting":
                waiting += 1
            if previous is not None:
                await previous.close()
            previous = ws
        if previous is not None:
            await previous.close()
    return waiting, refused


@dataclass
class Watcher:
    """A socket from ``address`` that keeps every message it receives."""

    ws: aiohttp.ClientWebSocketResponse
    seen: list[dict[str, Any]] = field(default_factory=list)
    task: asyncio.Task[None] | None = None

    async def read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.seen.append(json.loads(msg.data))

    async def first(self, kind: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            found = [m for m in self.seen if m["kind"] in (kind, "error")]
            if found:
                return found[0]
            await asyncio.sleep(0.01)
        raise AssertionError(f"no {kind} within {WAIT_S} s")


@contextlib.asynccontextmanager
async def watcher(url: str, address: str, **hello: Any) -> Any:
    connector = aiohttp.TCPConnector(local_addr=(address, 0), force_close=True)
    async with aiohttp.ClientSession(connector=connector) as http, http.ws_connect(url) as ws:
        watch = Watcher(ws)
        watch.task = asyncio.create_task(watch.read())
        await ws.send_str(hello_text(**hello))
        try:
            yield watch
        finally:
            await ws.close()
            await asyncio.gather(watch.task, return_exceptions=True)


async def host_list(host: Watcher, until: Any) -> list[dict[str, Any]]:
    """The host console's newest list of waiting requests once ``until(list)`` holds (or after WAIT_S)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        states = [m for m in host.seen if m["kind"] == "state"]
        claims: list[dict[str, Any]] = states[-1]["lobby"].get("claims", []) if states else []
        if until(claims) or time.monotonic() > deadline:
            return claims
        await asyncio.sleep(0.005)


@dataclass
class ClaimFlood:
    sent: int = 0
    waiting: int = 0  # requests told "waiting"
    refused: int = 0  # connections refused over their address's rate (never upgraded)
    seconds: float = 0.0
    pending_max: int = 0  # requests waiting at once, as the host's console listed them
    prompts: int = 0  # "give your seat?" cards the seat's phone got
    prompts_open_max: int = 0  # cards open at once on the seat's phone
    holder_states: int = 0  # states the seat's phone got during the flood
    real_claim_s: float | None = None  # "my phone died": asked to seated, the host allowing the first shown
    problems: list[str] = field(default_factory=list)


def open_cards_max(messages: list[dict[str, Any]]) -> int:
    open_now = most = 0
    for m in messages:
        if m["kind"] == "claim":
            open_now += 1 if m["state"] == "asked" else -1 if m["state"] == "closed" else 0
            most = max(most, open_now)
    return most


async def claim_flood(url: str, seat_token: str, pin: str, *, claims: int = 1000, addresses: int = 4) -> ClaimFlood:
    """See the module's docs; ``seat_token``: a seat's link (a phone takes it first)."""
    out = ClaimFlood(sent=claims)
    async with watcher(url, PHONE_ADDRESS, token=seat_token, name="Ali") as holder, \
            watcher(url, HOST_ADDRESS, role="host", pin=pin) as host:
        await holder.first("welcome")
        await host.first("welcome")
        await asyncio.sleep(0.2)
        states_before = sum(1 for m in holder.seen if m["kind"] == "state")
        started = time.monotonic()
        per = claims // addresses
        told = await asyncio.gather(*(ask_for_seat(url, attacker(a), seat_token, per, a * per) for a in range(addresses)))
        out.seconds = time.monotonic() - started
        out.waiting = sum(w for w, _ in told)
        out.refused = sum(r for _, r in told)
        await asyncio.sleep(0.3)
        out.prompts = sum(1 for m in holder.seen if m["kind"] == "claim" and m["state"] == "asked")
        out.prompts_open_max = open_cards_max(holder.seen)
        out.holder_states = sum(1 for m in holder.seen if m["kind"] == "state") - states_before
        out.pending_max = max((len(m["lobby"].get("claims", [])) for m in host.seen if m["kind"] == "state"), default=0)
        await holder.ws.close()  # the seat's phone dies
        await asyncio.sleep(0.2)
        asked = time.monotonic()
        async with watcher(url, NEW_PHONE_ADDRESS, token=seat_token) as mine:
            reply = await mine.first("claim")
            if reply.get("state") != "waiting":
                out.problems.append(f"the real claim was not heard: {reply}")
                return out
            shown = await host_list(host, lambda claims: any(c["name"] == "" for c in claims))
            if not shown or shown[0]["name"] != "":
                out.problems.append(f"the real claim is not shown first: {shown[:2]}")
                return out
            await host.ws.send_str(json.dumps({"v": 1, "kind": "host", "command": "claim",
                                               "args": {"id": shown[0]["id"], "allow": True}}))
            welcome = await mine.first("welcome")
            if welcome["kind"] != "welcome":
                out.problems.append(f"the real claim was refused: {welcome}")
                return out
            out.real_claim_s = time.monotonic() - asked
    return out
