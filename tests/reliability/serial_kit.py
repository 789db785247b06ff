"""Serial faults mid-race, through the simulated board (``tools/arcade_sim.py``) on a real pty: 1 MB
of garbage, a 2 MB line without a newline, 8 unplug/replug cycles, a hung board. The race must end
fairly (the buttons pressed before the fault count; the phones decide the rest, and the big screen
says the board is gone while it is), the bridge must be back after a replug, and nothing may log a
traceback. Shared by ``tests/reliability/test_serial_faults.py`` and ``bench/bench_serial.py``
(which prints how long the bridge took to come back, on the session clock).
"""
from __future__ import annotations

import asyncio
import enum
import logging
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "session")]

from tabletop_racekit import move_until_playable, seat_people, wait_decided  # noqa: E402

from game.config import TableConfig  # noqa: E402
from game.server.runtime import start_arcade  # noqa: E402
from game.session.journal import Journal  # noqa: E402
from game.session.race_floor import PressSource  # noqa: E402
from game.session.session import ARCADE_UNPLUGGED, Session  # noqa: E402
from tools.arcade_sim import ArcadeSimulator  # noqa: E402

SILENCE_S = 1.5  # the bridge declares a silent board lost after this


class Fault(enum.Enum):
    GARBAGE = "1 MB of garbage"
    LONG_LINE = "a 2 MB line without a newline"
    REPLUGS = "8 unplug/replug cycles"
    HUNG = "a hung board"


@dataclass
class Outcome:
    fault: Fault
    order: list[int]
    expected: list[int]
    sources: tuple[str, ...]
    said_unplugged: bool
    back_ms: list[float] = field(default_factory=list)  # replug -> bridge connected, session clock
    tracebacks: list[str] = field(default_factory=list)


class Tracebacks(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.seen.append(f"{record.name}: {record.getMessage()[:200]}")


async def until(predicate: Any, timeout_s: float = 10.0) -> None:
    end = time.monotonic() + timeout_s
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.005)


async def _back_after_replug(session: Session, bridge: Any, sim: ArcadeSimulator) -> float:
    replugged = session.clock()
    sim.replug()
    await until(lambda: bridge.connected and ARCADE_UNPLUGGED not in session.snapshot.notices)
    return float(session.clock() - replugged)


async def run_fault(fault: Fault, work: Path, seed: int = 1) -> Outcome:
    catcher = Tracebacks()
    logging.getLogger().addHandler(catcher)
    loop = asyncio.get_running_loop()
    errors: list[str] = []
    loop.set_exception_handler(lambda _loop, ctx: errors.append(str(ctx.get("exception") or ctx.get("message"))))
    sim = ArcadeSimulator(link=work / "arcade").start()
    config = TableConfig(data_dir=work / "data", admin_pin="2468", seed=9, game="cheating_moth", serial=sim.port)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved)
    bridge = await start_arcade(config, session, poll_s=0.05, silence_s=SILENCE_S, sync_every_s=0.2)
    try:
        await bridge.wait_connected(10)
        await until(lambda: bridge.sync.ready)
        seat_people(session)
        session.host_command({"command": "set_setting", "name": "race_timeout_ms", "value": 60_000})
        session.host_command({"command": "start"})
        seat, action = await move_until_playable(session, "mosquito", seed)
        session.submit_action(seat, action, None)
        race = session.snapshot.public_view["race"]
        eligible = list(race["eligible"])
        first = eligible[0]
        await until(lambda: sim.lit_lamps() == set(eligible))  # armed on the board too (M14: lamps lit)
        sim.press(first)  # on the board, before the fault
        await until(lambda: first in session.snapshot.race.current.pressed)
        said_unplugged = False
        back: list[float] = []
        if fault is Fault.GARBAGE:
            await asyncio.to_thread(sim.flood(os.urandom(1 << 20)).join)
        elif fault is Fault.LONG_LINE:
            await asyncio.to_thread(sim.flood(b"P" * (2 << 20)).join)
        elif fault is Fault.REPLUGS:
            for _ in range(8):
                sim.unplug()
                await until(lambda: ARCADE_UNPLUGGED in session.snapshot.notices)
                said_unplugged = True
                back.append(await _back_after_replug(session, bridge, sim))
            sim.unplug()  # and gone for the rest of the race
        elif fault is Fault.HUNG:
            sim.hang()
        if fault in (Fault.REPLUGS, Fault.HUNG):
            await until(lambda: ARCADE_UNPLUGGED in session.snapshot.notices)
            said_unplugged = True
        now = session.clock()
        for i, other in enumerate(eligible[1:]):  # the phones decide the rest
            session.press(other, now + 10 * i, PressSource.PHONE, error_ms=3.0)
        last = await wait_decided(session, race["id"])
        outcome = Outcome(fault, list(last["order"]), eligible, tuple(session.snapshot.race.last.sources),
                          said_unplugged, back)
        if fault in (Fault.REPLUGS, Fault.HUNG):
            outcome.back_ms.append(await _back_after_replug(session, bridge, sim))
        else:
            await until(lambda: bridge.connected)
        outcome.tracebacks = catcher.seen + errors
        return outcome
    finally:
        logging.getLogger().removeHandler(catcher)
        await bridge.stop()
        session.close()
        journal.close()
        sim.close()
