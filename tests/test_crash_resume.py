"""Crash test: kill -9 the server mid-vote, restart it, and the same votes and state are there;
the phones' sockets reconnect to the same seats."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
from reliability.crash_kit import PIN, ServerProcess, free_port


class Phone:
    """A phone that reconnects by itself, like the phone app: the key its welcome gave it, its last version."""

    def __init__(self, http: aiohttp.ClientSession, url: str, hello: dict[str, Any]) -> None:
        self.http, self.url, self.hello = http, url, hello
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.state: dict[str, Any] | None = None
        self.connects = 0

    async def open_socket(self, tries: int = 200) -> None:
        """A socket to the table, trying again while the server starts."""
        for _ in range(tries):
            try:
                self.ws = await self.http.ws_connect(self.url)
                return
            except (aiohttp.ClientError, OSError):
                await asyncio.sleep(0.05)
        raise AssertionError("the phone could not reconnect")

    async def connect(self, tries: int = 200) -> dict[str, Any]:
        await self.open_socket(tries)
        self.connects += 1
        last = {"last_version": self.state["version"]} if self.state else {}
        await self.send({"kind": "hello", **self.hello, **last})
        welcome = await self.next("welcome")
        self.hello["token"] = welcome["token"]  # the seat's own key from now on (the link only asks the host)
        await self.next("state")
        return welcome

    async def send(self, message: dict[str, Any]) -> None:
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"v": 1, **message}))

    async def next(self, kind: str, where: Any = lambda m: True) -> dict[str, Any]:
        assert self.ws is not None
        while True:
            msg = await asyncio.wait_for(self.ws.receive(), 10)
            assert msg.type is aiohttp.WSMsgType.TEXT, f"socket closed: {msg}"
            data = json.loads(msg.data)
            if data["kind"] == "state":
                self.state = data
            if data["kind"] == kind and where(data):
                return data

    async def wait_closed(self) -> None:
        assert self.ws is not None
        while (await asyncio.wait_for(self.ws.receive(), 10)).type is aiohttp.WSMsgType.TEXT:
            pass


async def test_kill_9_mid_vote_loses_nothing(tmp_path: Path) -> None:
    port = free_port()
    server = ServerProcess(tmp_path / "data", port)
    url = f"http://127.0.0.1:{port}/ws"
    try:
        tokens = await server.start()
        async with aiohttp.ClientSession() as http:
            host = Phone(http, url, {"role": "host", "pin": PIN})
            await host.connect()
            await host.send({"kind": "host", "command": "set_seats", "args": {"count": 3}})
            await host.next("state", lambda m: m["lobby"]["seat_count"] == 3)
            phones = [Phone(http, url, {"token": tokens[i], "name": f"P{i}"}) for i in range(3)]
            for phone in phones:
                await phone.connect()
            await host.send({"kind": "host", "command": "start"})
            for phone in phones:
                await phone.next("state", lambda m: m["phase"] == "playing")
            votes = [{"type": "vote", "target": 1}, {"type": "vote", "target": 0}, {"type": "ambush"}]
            for phone, vote in zip(phones, votes):
                await phone.send({"kind": "action", "action": vote, "version": phone.state["version"]})
                await phone.next("state", lambda m: m["view"]["me"]["card"] is not None)
            await phones[0].send({"kind": "action", "action": {"type": "lock"}, "version": phones[0].state["version"]})
            await phones[0].next("state", lambda m: m["view"]["me"]["locked"])
            await host.next("state", lambda m: m["view"] is not None and m["view"]["seats"][0]["locked"])
            before = {"version": host.state["version"], "public": host.state["view"],
                      "me": [p.state["view"]["me"] for p in phones]}
            assert before["public"]["phase"] == "vote"

            server.kill9()  # mid-vote: cards down, one locked
            for phone in (*phones, host):
                await phone.wait_closed()

            new_tokens = await server.start()
            assert new_tokens == {i: tokens[i] for i in range(3)}  # same seats, same links
            for phone in phones:
                welcome = await phone.connect()  # reconnects by itself with its own key
                assert welcome["name"] == phone.hello["name"]
            await host.connect()
            assert host.state["version"] == before["version"]
            assert host.state["view"] == before["public"]
            assert host.state["timer"]["key"] == "vote:1:1"  # the conspiracy timer runs again
            for phone, me in zip(phones, before["me"]):
                assert phone.state["view"]["me"] == me  # same card, same lock, same gold
                assert phone.connects == 2
            # and the game goes on from there
            await phones[1].send({"kind": "action", "action": {"type": "lock"}, "version": phones[1].state["version"]})
            await phones[1].next("state", lambda m: m["view"]["me"]["locked"])
    finally:
        server.stop()
