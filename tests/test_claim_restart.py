"""A phone waiting for the host to hand it a held seat, through kill -9 and a restart on the same
data: the phone's hello on reconnect is its request again (the phone app says hello on every
reconnect), so it is waiting again, the host (and the TV) see the request again, the seated phone
is asked again whichever phone is back first, and allowing it seats the waiting phone."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from reliability.crash_kit import PIN, ServerProcess, free_port
from test_crash_resume import Phone


class Asker(Phone):
    """A new phone on a held seat's link: it waits for the host (a ``claim`` message, no welcome)."""

    async def ask(self) -> dict[str, Any]:
        await self.open_socket()
        await self.send({"kind": "hello", **self.hello})
        return await self.next("claim", lambda m: m["state"] == "waiting")


@pytest.fixture
async def server(tmp_path: Path) -> AsyncIterator[ServerProcess]:
    """The table as a real process (kill -9 needs one); stopped after the test."""
    process = ServerProcess(tmp_path / "data", free_port())
    yield process
    process.stop()


def claims(host: Phone) -> list[dict[str, Any]]:
    assert host.state is not None
    return list(host.state["lobby"].get("claims", []))


async def test_a_waiting_phone_still_waits_after_kill_9_and_the_seat_is_asked_again(server: ServerProcess) -> None:
    tokens = await server.start()
    url = f"http://127.0.0.1:{server.port}/ws"
    async with aiohttp.ClientSession() as http:
        ali = Phone(http, url, {"token": tokens[0], "name": "Ali"})
        await ali.connect()
        stranger = Asker(http, url, {"token": tokens[0]})  # Ali's old link, on another phone
        waiting = await stranger.ask()
        assert waiting["seat"]["seat"] == 0
        await ali.next("claim", lambda m: m["state"] == "asked")
        host = Phone(http, url, {"role": "host", "pin": PIN})
        await host.connect()
        [before] = claims(host)

        server.kill9()
        for phone in (ali, stranger, host):
            await phone.wait_closed()
        await server.start()

        await stranger.ask()  # back first: waiting again, nothing typed again
        await host.connect()
        [again] = claims(host)  # the host console and the TV show the request again
        assert again["seat"] == 0 and again["seat_name"] == "Ali"
        assert again["id"] != before["id"]  # an answer meant for the old request cannot land on a new one
        await ali.connect()  # Ali's phone is back after the waiting one: it is asked again
        asked = await asyncio.wait_for(ali.next("claim", lambda m: m["state"] == "asked"), 10)
        assert asked["claim"] == again["id"]

        await host.send({"kind": "host", "command": "claim", "args": {"id": again["id"], "allow": True}})
        welcome = await stranger.next("welcome")
        assert welcome["seat"] == 0 and welcome["token"] != tokens[0]
