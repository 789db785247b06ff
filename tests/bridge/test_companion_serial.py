"""Companion Cheating Moth through the real serial path: ``tools/arcade_sim.py`` on a pty drives a
whole round with the arcade board as the race judge — a Mosquito with a false start (M14), a Beetle
won by a button and passed on by one tap (M15), a Mosquito during which the board is unplugged (the
phones finish it and the big screen says so, M16), then the round's points (M17) and the next
guard (M18)."""
from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))

from tabletop_racekit import seat_people

from game import i18n
from game.config import TableConfig
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.server.runtime import start_arcade
from game.session.journal import Journal
from game.session.race_floor import PressSource
from game.session.session import ARCADE_UNPLUGGED, Session
from game.session.snapshot import RunMode

pytestmark = pytest.mark.timeout(90)


async def until(predicate: Any, timeout_s: float = 8.0) -> None:
    end = time.monotonic() + timeout_s
    while not predicate():
        assert time.monotonic() < end, "condition not reached in time"
        await asyncio.sleep(0.01)


def device_at(sim: Any, armed_at_ms: float, after_ms: float) -> int:
    """The board's clock ``after_ms`` after the race was armed (session clock)."""
    now_ms = time.monotonic_ns() / 1e6
    return round(sim.device_us() - (now_ms - armed_at_ms) * 1000 + after_ms * 1000)


def last_race(session: Session, race: int) -> dict[str, Any] | None:
    last = session.snapshot.public_view["last_race"]
    return last if last is not None and last["race"] == race else None


async def call(session: Session, sim: Any, seat: int | None, kind: str) -> tuple[dict[str, Any], float]:
    """The player in turn calls the race (seat None: the host's key); the eligible lamps light."""
    action = {"type": "call", "kind": kind}
    if seat is None:
        session.host_command({"command": "table_action", "action": action})
    else:
        session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    await until(lambda: sim.lit_lamps() == set(race["eligible"]))
    return race, session.snapshot.race.current.armed_at_ms


def drawn_texts(session: Session) -> list[str]:
    """Every text the big screen draws for the session's snapshot now."""
    pygame.font.init()
    texts: list[str] = []
    screen = Screen(ctx=RenderContext(TextRenderer(lambda text, *_: texts.append(text)), QrCache(),
                                      SoundBank(enabled=False)))
    screen.sync(session.snapshot)
    screen.advance(0.1, (1280, 720))
    screen.draw(pygame.Surface((1280, 720)))
    return texts


@pytest.fixture
async def table(sim: Any, tmp_path: Path):
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=9, game="cheating_moth",
                         mode=RunMode.COMPANION, serial=sim.port)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved)
    bridge = await start_arcade(config, session, poll_s=0.05, silence_s=1.5, sync_every_s=0.2)
    await bridge.wait_connected(5)
    await until(lambda: bridge.sync.ready)
    seat_people(session, 4)
    yield session, bridge
    await bridge.stop()
    session.close()
    journal.close()


async def test_a_companion_round_judged_by_the_arcade_board(table: Any, sim: Any) -> None:
    session, _ = table
    assert session.table.game == "cheating_moth_companion"
    session.host_command({"command": "start"})

    # M14: seat 0's Mosquito; seat 1 jumps the gun, then everyone slaps on the buttons
    race, armed = await call(session, sim, 0, "mosquito")
    sim.press(1, at_us=device_at(sim, armed, -120.0))
    await until(lambda: session.snapshot.race.current.false_starts)
    assert session.snapshot.race.current.false_starts[0].seat == 1
    for seat, after in ((2, 200.0), (1, 251.0), (3, 302.0)):
        sim.press(seat, at_us=device_at(sim, armed, after))
    await until(lambda: last_race(session, race["id"]) is not None)
    last = last_race(session, race["id"])
    assert last["order"] == [2, 1, 3] and last["loser"] == 3
    assert all(abs(m - e) <= 2 for m, e in zip(last["margins_ms"], (51, 51)))
    outcome = session.snapshot.race.last
    assert outcome.sources == ("arcade",) * 3 and [f.seat for f in outcome.false_starts] == [1]
    await until(lambda: not sim.lit_lamps())
    assert any("false start" in t for t in drawn_texts(session))  # the screen shows it, not counted

    # M15: seat 1 ends the turn, seat 2 puts down a Beetle; seat 0's button is fastest but the card is wrong
    session.submit_action(1, {"type": "end_turn"}, None)
    race, armed = await call(session, sim, 2, "beetle")
    for seat, after in ((0, 150.0), (3, 181.0)):
        sim.press(seat, at_us=device_at(sim, armed, after))
    await until(lambda: last_race(session, race["id"]) is not None)
    assert last_race(session, race["id"])["winner"] == 0
    session.host_command({"command": "table_action", "action": {"type": "wrong_win"}})  # the host's one tap
    assert last_race(session, race["id"])["winner"] == 3 and session.snapshot.public_view["turn"] == 0

    # M16: unplugged mid-race: the phones finish it and the screen says the races use the phones
    race, armed = await call(session, sim, None, "mosquito")
    sim.press(1, at_us=device_at(sim, armed, 40.0))
    await until(lambda: 1 in session.snapshot.race.current.pressed)
    sim.unplug()
    await until(lambda: ARCADE_UNPLUGGED in session.snapshot.notices)
    assert i18n.text("en", "screen", f"notice.{ARCADE_UNPLUGGED}") in drawn_texts(session)
    for i, seat in enumerate((2, 3)):
        session.press(seat, armed + 90 + 30 * i, PressSource.PHONE, error_ms=4.0, race=race["id"])
    await until(lambda: last_race(session, race["id"]) is not None)
    assert last_race(session, race["id"])["order"] == [1, 2, 3]
    assert session.snapshot.race.last.sources == ("arcade", "phone", "phone",)
    sim.replug()
    await until(lambda: ARCADE_UNPLUGGED not in session.snapshot.notices)

    # M17, M18: seat 2 is out; the others enter their points (one by the host); round two, next guard
    session.submit_action(2, {"type": "round_over", "out": 2}, None)
    session.submit_action(0, {"type": "enter_points", "seat": 0, "points": 9}, None)
    session.submit_action(1, {"type": "enter_points", "seat": 1, "points": 14}, None)
    session.host_command({"command": "table_action", "action": {"type": "enter_points", "seat": 3, "points": 5}})
    session.submit_action(3, {"type": "next_round"}, None)
    view = session.snapshot.public_view
    assert view["round"] == 2 and view["guard"] == 1 and view["pad"]["totals"] == [9, 14, 0, 5]


async def test_M14_a_double_press_of_the_players_button_calls_the_mosquito(table: Any, sim: Any) -> None:
    session, _ = table
    session.host_command({"command": "start"})
    sim.press(2)  # not seat 2's turn: its double-press calls nothing
    await asyncio.sleep(0.1)
    sim.press(2)
    await asyncio.sleep(0.3)
    assert session.snapshot.public_view["race"] is None
    sim.press(0)  # the player in turn, right after putting the Mosquito down
    await asyncio.sleep(0.1)
    sim.press(0)
    await until(lambda: session.snapshot.public_view["race"] is not None)
    race = session.snapshot.public_view["race"]
    assert race["kind"] == "mosquito" and race["caller"] == 0
    await until(lambda: sim.lit_lamps() == {1, 2, 3})
    current = session.snapshot.race.current
    assert current is not None and {f.seat for f in current.false_starts} == {2}  # the caller's presses are none
