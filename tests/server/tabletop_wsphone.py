"""Test helpers for the server tests: a protocol-speaking phone and a table handle."""
from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType
from aiohttp.test_utils import TestClient

from game.session.journal import Journal
from game.session.session import Session

PIN = "2468"
ADDRESS_HEADER = "X-Test-Address"  # the server tests' stand-in for another device's address
WAIT_S = 5.0


class Phone:
    """A test WebSocket client speaking the protocol; keeps every message it received."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.seen: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self._pending: list[dict[str, Any]] = []

    async def send(self, kind: str, /, **fields: Any) -> None:
        await self.ws.send_str(json.dumps({"v": 1, "kind": kind, **fields}))

    async def send_raw(self, text: str) -> None:
        await self.ws.send_str(text)

    async def _next(self) -> dict[str, Any]:
        if self._pending:
            return self._pending.pop(0)
        msg = await asyncio.wait_for(self.ws.receive(), WAIT_S)
        if msg.type is not WSMsgType.TEXT:
            # the close frame's own code (aiohttp's close_code reads 1006 when receive() ran in wait_for)
            code = msg.data if msg.type is WSMsgType.CLOSE else self.ws.close_code
            return {"kind": "_closed", "type": msg.type, "code": code}
        self.raw.append(msg.data)
        data = json.loads(msg.data)
        self.seen.append(data)
        return data

    async def recv(self, kind: str, where: Callable[[dict[str, Any]], bool] = lambda m: True) -> dict[str, Any]:
        """The next message of ``kind`` matching ``where`` (skipping others)."""
        while True:
            message = await self._next()
            if message["kind"] == "_closed":
                raise AssertionError(f"socket closed while waiting for {kind}: {message}")
            if message["kind"] == kind and where(message):
                return message

    async def closed(self) -> int | None:
        """Read until the socket closes; its close code."""
        while True:
            message = await self._next()
            if message["kind"] == "_closed":
                return message["code"]

    async def quiet(self, seconds: float = 0.15) -> list[dict[str, Any]]:
        """Whatever arrives in the next moment (for 'nothing else happened' checks)."""
        got = []
        try:
            while True:
                got.append(await asyncio.wait_for(self._next(), seconds))
        except TimeoutError:
            return got

    async def state(self) -> dict[str, Any]:
        return await self.recv("state")

    async def error(self) -> dict[str, Any]:
        return await self.recv("error")


@dataclass
class Table:
    session: Session
    client: TestClient
    journal: Journal
    phones: list[Phone] = field(default_factory=list)

    async def connect(self, address: str | None = None) -> Phone:
        """A new socket; ``address``: as if from that device on the LAN."""
        headers = {ADDRESS_HEADER: address} if address else None
        phone = Phone(await self.client.ws_connect("/ws", headers=headers))
        self.phones.append(phone)
        return phone

    async def seat(self, seat: int, **hello: Any) -> tuple[Phone, dict[str, Any], dict[str, Any]]:
        """A phone in ``seat``: the seat's own phone (its device key) once held, else its link."""
        record = self.session.table.seats[seat]
        phone = await self.connect()
        await phone.send("hello", token=record.device or record.token, **hello)
        welcome = await phone.recv("welcome")
        state = await phone.state()
        return phone, welcome, state

    async def ask(self, seat: int, **hello: Any) -> tuple[Phone, dict[str, Any]]:
        """A new phone opening ``seat``'s link: its ``claim`` answer (waiting or name_needed)."""
        phone = await self.connect()
        await phone.send("hello", token=self.session.table.seats[seat].token, **hello)
        return phone, await phone.recv("claim")

    async def claimed(self, seat: int, **hello: Any) -> tuple[Phone, dict[str, Any], dict[str, Any]]:
        """A new phone asks for ``seat`` and the host allows it: its welcome and first state."""
        phone, claim = await self.ask(seat, **hello)
        assert claim["state"] == "waiting", claim
        self.command("claim", id=self.session.claims[-1].id, allow=True)
        welcome = await phone.recv("welcome")
        return phone, welcome, await phone.state()

    async def host(self) -> Phone:
        phone = await self.connect()
        await phone.send("hello", role="host", pin=PIN)
        await phone.recv("welcome")
        await phone.state()
        return phone

    def command(self, command: str, **fields: Any) -> None:
        self.session.host_command({"command": command, **fields})
