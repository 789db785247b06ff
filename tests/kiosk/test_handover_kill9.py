"""A real kiosk in a subprocess, killed with SIGKILL while a game's final scores show: started
again on the same data, it hands the table to the next group when what was left of ``results_s``
has passed (the deadline is journaled like a game timer), not after ``idle_minutes``.

The game is played to its end by bots in this process first (on virtual time: seconds, not the
minutes real bots take), on the kiosk's own data directory and configuration; the real kiosk then
takes over at the results, is killed, and is started again."""
from __future__ import annotations

import asyncio
import json
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

RELIABILITY_TESTS = Path(__file__).resolve().parent.parent / "reliability"
if str(RELIABILITY_TESTS) not in sys.path:
    sys.path.insert(0, str(RELIABILITY_TESTS))

from flood_kit import PIN, table  # noqa: E402

from game.config import TableConfig  # noqa: E402
from game.kiosk.config import load_config  # noqa: E402
from game.session.journal import Journal  # noqa: E402
from game.session.scheduler import VirtualTime  # noqa: E402
from game.session.session import Session  # noqa: E402
from game.session.snapshot import RunMode, TablePhase  # noqa: E402

RESULTS_S = 20
KILL_AFTER_S = 4.0  # into the results
SLACK_S = 6.0  # the restarted kiosk's hand-over may come this much late (a loaded machine, a slow start)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def kiosk_file(tmp_path: Path, port: int) -> Path:
    path = tmp_path / "kiosk.toml"
    path.write_text(f'[table]\ngame = "collusion"\nidle_minutes = 10\nhow_to_play = false\n'
                    f'[timers]\nresults_s = {RESULTS_S}\n[house_rules.collusion]\ntarget_score = 6\n'
                    f'[server]\nport = {port}\n[admin]\npin = "{PIN}"\n', encoding="utf-8")
    return path


def play_to_the_end(config_file: Path, data_dir: Path) -> None:
    """A bots' game of the kiosk's table, to its final scores, journaled in ``data_dir``."""
    kiosk = load_config(config_file)
    config = TableConfig(mode=RunMode.KIOSK, game=kiosk.game, data_dir=data_dir, admin_pin=kiosk.admin_pin, seed=3,
                         kiosk=kiosk, new=True)
    journal, _, _ = Journal.open(data_dir)
    vt = VirtualTime()
    session = Session.boot(config, journal, None, clock=vt, scheduler=vt, bot_delay_scale=0.01)
    session.host_command({"command": "fill_bots", "kind": "heuristic"})
    session.host_command({"command": "start"})
    vt.run_until(lambda: session.phase is TablePhase.FINISHED)
    session.close()
    journal.close()


async def host_state(http: aiohttp.ClientSession, port: int, *commands: dict[str, Any],
                     until: str | None = None, limit_s: float = 120.0) -> dict[str, Any]:
    """The host console: sends ``commands``, then reads states until the phase is ``until``."""
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
    await ws.send_str(json.dumps({"v": 1, "kind": "hello", "role": "host", "pin": PIN}))
    for command in commands:
        await ws.send_str(json.dumps({"v": 1, "kind": "host", **command}))
    give_up = time.monotonic() + limit_s
    while True:
        msg = await asyncio.wait_for(ws.receive(), max(0.1, give_up - time.monotonic()))
        assert msg.type is aiohttp.WSMsgType.TEXT, msg
        data = json.loads(msg.data)
        if data["kind"] == "error":
            raise AssertionError(data)
        if data["kind"] == "state" and (until is None or data["phase"] == until):
            await ws.close()
            return data


@pytest.mark.timeout(240)
async def test_kill_9_at_the_results_hands_over_with_what_was_left_of_results_s(tmp_path: Path) -> None:
    port = free_port()
    options = ("--mode", "kiosk", "--config", str(kiosk_file(tmp_path, port)))
    play_to_the_end(tmp_path / "kiosk.toml", tmp_path / "data")
    finished_at = time.monotonic()
    async with aiohttp.ClientSession() as http:
        with table(tmp_path, options=options) as first:
            assert (await host_state(http, port))["phase"] == "finished"
            await asyncio.sleep(max(0.0, KILL_AFTER_S - (time.monotonic() - finished_at)))
            first.process.send_signal(signal.SIGKILL)
            first.process.wait(10)
        with table(tmp_path, options=options) as again:
            state = await host_state(http, port)
            assert state["phase"] == "finished"  # resumed at the results
            await host_state(http, port, until="lobby", limit_s=RESULTS_S + SLACK_S)
            handed_after = time.monotonic() - finished_at
            assert again.process.poll() is None
    assert RESULTS_S - 1.0 <= handed_after <= RESULTS_S + SLACK_S, handed_after
