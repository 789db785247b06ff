"""Crash test for companion mode: kill -9 the server mid-race and mid-entry, restart it, and every
accepted call and penalty entry is still there (the journal is written before a result is shown)."""
from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from reliability.crash_kit import PIN, ServerProcess, free_port
from test_crash_resume import Phone

pytestmark = pytest.mark.timeout(120)


def companion_server(data_dir: Path, port: int) -> ServerProcess:
    """``python -m game.server --mode companion --game cheating_moth``."""
    return ServerProcess(data_dir, port, "--mode", "companion", "--game", "cheating_moth")


async def act(phone: Phone, action: dict, host: Phone) -> None:
    """The phone acts on the table's latest state (the host's socket has seen it)."""
    assert phone.state is not None and host.state is not None
    version = host.state["version"]
    if phone.state["version"] < version:
        await phone.next("state", lambda m: m["version"] >= version)
    await phone.send({"kind": "action", "action": action, "version": phone.state["version"]})


async def restart(server: ServerProcess, phones: list[Phone], host: Phone) -> None:
    server.kill9()
    for phone in (*phones, host):
        await phone.wait_closed()
    await server.start()
    for phone in (*phones, host):
        await phone.connect()


async def test_kill_9_mid_race_and_mid_entry_loses_no_accepted_entry(tmp_path: Path) -> None:
    port = free_port()
    server = companion_server(tmp_path / "data", port)
    url = f"http://127.0.0.1:{port}/ws"
    try:
        tokens = await server.start()
        async with aiohttp.ClientSession() as http:
            host = Phone(http, url, {"role": "host", "pin": PIN})
            await host.connect()
            assert host.state is not None and host.state["game"] == "cheating_moth_companion"
            await host.send({"kind": "host", "command": "set_seats", "args": {"count": 3}})
            await host.next("state", lambda m: m["lobby"]["seat_count"] == 3)
            phones = [Phone(http, url, {"token": tokens[i], "name": f"P{i}"}) for i in range(3)]
            for phone in phones:
                await phone.connect()
            await host.send({"kind": "host", "command": "start"})
            for phone in phones:
                await phone.next("state", lambda m: m["phase"] == "playing")

            await act(phones[0], {"type": "call", "kind": "mosquito"}, host)  # M14: the call is accepted ...
            await host.next("state", lambda m: bool(m["view"]) and m["view"]["race"] is not None)
            race = host.state["view"]["race"]["id"]
            await restart(server, phones, host)  # ... and the table dies mid-race
            assert host.state["view"]["race"]["id"] == race  # the race is open again after the restart
            for seat in (1, 2):
                await phones[seat].send({"kind": "press", "race": race, "t": 0})
            await host.next("state", lambda m: bool(m["view"]) and m["view"]["last_race"] is not None)
            assert sorted(host.state["view"]["last_race"]["order"]) == [1, 2]

            await act(phones[2], {"type": "round_over", "out": 2}, host)  # M17
            await host.next("state", lambda m: bool(m["view"]) and m["view"]["phase"] == "scoring")
            await act(phones[0], {"type": "enter_points", "seat": 0, "points": 7}, host)
            await host.next("state", lambda m: m["view"]["pad"]["rows"][0] == [7])
            await restart(server, phones, host)  # mid-entry: seat 1 has not sent its points yet
            view = host.state["view"]
            assert view["phase"] == "scoring" and view["pad"]["rows"] == [[7], [None], [0]]
            await act(phones[1], {"type": "enter_points", "seat": 1, "points": 4}, host)
            await host.next("state", lambda m: m["view"]["waiting_for"] == [])
            assert host.state["view"]["pad"]["totals"] == [7, 4, 0]
    finally:
        server.stop()
