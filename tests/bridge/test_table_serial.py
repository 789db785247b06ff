"""The live table with the arcade board: a Mosquito decided by simulated buttons through
the session's one judge, unplugged mid-race (phones decide, the notice shows), found again, and
``tabletop --headless --serial <pty>`` starting on the simulator."""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))

from tabletop_racekit import move_until_playable, seat_people, wait_decided

from firmware_bridge import framing as fr
from game.config import TableConfig
from game.server.runtime import start_arcade
from game.session.journal import Journal
from game.session.race_floor import PressSource
from game.session.session import ARCADE_UNPLUGGED, Session

pytestmark = pytest.mark.timeout(60)
ROOT = Path(__file__).resolve().parents[2]


async def until(predicate: Any, timeout_s: float = 5.0) -> None:
    end = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < end, "condition not reached in time"
        await asyncio.sleep(0.01)


@pytest.fixture
async def table(sim: Any, tmp_path: Path):
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=9, game="cheating_moth", serial=sim.port)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved)
    bridge = await start_arcade(config, session, poll_s=0.05, silence_s=1.5, sync_every_s=0.2)
    await bridge.wait_connected(5)
    await until(lambda: bridge.sync.ready)
    seat_people(session)
    yield session, bridge
    await bridge.stop()
    session.close()
    journal.close()


async def armed_mosquito(session: Session, sim: Any, seed: int) -> tuple[dict[str, Any], float]:
    seat, action = await move_until_playable(session, "mosquito", seed)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    await until(lambda: sim.lit_lamps() == set(race["eligible"]))  # M14: the slappers' lamps light
    return race, session.snapshot.race.current.armed_at_ms


def device_at(sim: Any, armed_at_ms: float, after_ms: float) -> int:
    """The board's clock ``after_ms`` after the race was armed (session clock)."""
    now_ms = time.monotonic_ns() / 1e6
    return round(sim.device_us() - (now_ms - armed_at_ms) * 1000 + after_ms * 1000)


async def test_mosquito_decided_by_buttons_1_ms_apart_in_true_order(table: Any, sim: Any) -> None:
    session, _ = table
    session.host_command({"command": "start"})
    race, armed = await armed_mosquito(session, sim, 0)
    a, b, c = race["eligible"]
    for seat, after in ((a, 302.0), (b, 300.0), (c, 301.0)):  # pressed 1 ms apart, in the future
        sim.press(seat, at_us=device_at(sim, armed, after))
    last = await wait_decided(session, race["id"])
    assert last["order"] == [b, c, a] and last["slowest"] == a
    outcome = session.snapshot.race.last
    assert outcome.sources == ("arcade",) * 3 and outcome.error_bound_ms < 5
    assert all(abs(m - 1.0) < 0.2 for m in outcome.margins_ms)
    await until(lambda: not sim.lit_lamps())  # end_race put the lamps out


async def test_unplugged_mid_race_phones_decide_and_the_board_comes_back(table: Any, sim: Any) -> None:
    session, bridge = table
    session.host_command({"command": "start"})
    race, armed = await armed_mosquito(session, sim, 1)
    first = race["eligible"][0]
    sim.press(first, at_us=device_at(sim, armed, 10.0))
    await until(lambda: first in session.snapshot.race.current.pressed)
    sim.unplug()
    await until(lambda: ARCADE_UNPLUGGED in session.snapshot.notices)
    for i, seat in enumerate(race["eligible"][1:]):  # the phones take over
        session.press(seat, armed + 40 + 10 * i, PressSource.PHONE, error_ms=3.0)
    last = await wait_decided(session, race["id"])
    assert last["order"] == list(race["eligible"])
    assert session.snapshot.race.last.sources == ("arcade", "phone", "phone")
    sim.replug()
    await until(lambda: ARCADE_UNPLUGGED not in session.snapshot.notices)
    assert session.snapshot.arcade.connected is True
    await asyncio.sleep(0.2)
    assert not sim.lit_lamps()  # the race ended while unplugged: no stale lamps come back


async def test_button_mapping_wizard_saves_to_the_journal(table: Any, sim: Any) -> None:
    session, bridge = table
    session.host_command({"command": "map_buttons"})
    assert session.snapshot.arcade.waiting_for == 0
    for button in (3, 2, 1, 0):
        sim.press(button)
        await asyncio.sleep(0.08)
    await until(lambda: session.table.arcade_map == ((0, 3), (1, 2), (2, 1), (3, 0)))
    assert bridge.mapping == {0: 3, 1: 2, 2: 1, 3: 0}
    assert session.snapshot.arcade.mapping == ((0, 3), (1, 2), (2, 1), (3, 0))


def test_tabletop_headless_starts_on_the_simulated_board(sim: Any, tmp_path: Path) -> None:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "game", "--headless", "--serial", sim.port, "--game", "cheating_moth",
           "--data", str(tmp_path / "data"), "--port", "0"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.append(line)
            if line.startswith("Listening on port"):
                break
        assert any(line.startswith("Listening on port") for line in lines), "".join(lines)
        deadline = time.monotonic() + 10
        while not any(isinstance(c, fr.ClockRequest) for c in list(sim.received)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(isinstance(c, fr.HelloRequest) for c in sim.received)  # the table found the board ...
        assert any(isinstance(c, fr.ClockRequest) for c in sim.received)  # ... and syncs its clock
        assert proc.poll() is None
    finally:
        proc.terminate()
        proc.wait(10)
    assert proc.returncode == 0
