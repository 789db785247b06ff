#!/usr/bin/env python3
"""Kiosk soak: a kiosk table runs bot games back to back — attract loop, three phones join, a game
against bots, the final scores, the hand-over to the next group — in virtual time, and prints RSS,
open file descriptors, journal and archive sizes every ``--every`` games.

    python3 bench/bench_kiosk_soak.py [--games 1000] [--every 100]

Virtual time: the session's asyncio loop runs on a clock that jumps to the next timer whenever
nothing is ready (no sleeping), so a day of play takes minutes. The real journal (sqlite, fsynced),
the keeper (archive, pruning, runs) and the attract reel's tapes are exercised; there is no server
socket. The phones act through ``Session.submit_action`` like the WebSocket hub does, choosing
with the games' heuristic bots. Goal: flat memory (≤ +10 MB after warm-up), no fd growth.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import selectors
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game import catalog
from game.bots import BotKind
from game.config import TableConfig
from game.kiosk.archive import Archive
from game.kiosk.attract import AttractReel, TapeOrders, record_tape
from game.kiosk.config import DiskLimits, KioskConfig, Timers
from game.kiosk.keeper import KioskKeeper
from game.rules.base import RulesError
from game.session.journal import JOURNAL_NAME, Journal
from game.session.session import HOUSEKEEPING_S, NoticeCode, Session
from game.session.snapshot import InputSource, RunMode, TablePhase

PHONES = 3
SEATS = 5  # every game takes five (Cheating Moth's one deck seats five at most)
NAMES = ("Sara", "Ali", "Nok")


class VirtualSelector(selectors.DefaultSelector):
    """Never waits: with nothing ready, the loop's clock jumps ahead by the wait it asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if not ready and timeout:
            self.now += timeout
        return ready


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self.selector = VirtualSelector()
        super().__init__(self.selector)

    def time(self) -> float:
        return self.selector.now


class Phones:
    """Three people's phones: they act when their seat has something to do (the hub's path)."""

    def __init__(self, session: Session, loop: asyncio.AbstractEventLoop) -> None:
        self.session, self.loop = session, loop
        self.bots: dict[int, Any] = {}
        self.pending: dict[int, asyncio.TimerHandle] = {}

    def updated(self, update: Any) -> None:
        run = self.session.run
        if run is None or self.session.phase is not TablePhase.PLAYING:
            return
        for seat, bot in self.bots.items():
            if seat not in self.pending and self.session.update.seat(seat).legal:
                self.pending[seat] = self.loop.call_later(max(0.2, bot.think_ms() / 1000), self.act, seat)

    def act(self, seat: int) -> None:
        self.pending.pop(seat, None)
        run, bot = self.session.run, self.bots.get(seat)
        if run is None or bot is None or self.session.phase is not TablePhase.PLAYING:
            return
        legal = list(run.engine.legal_actions(run.state, seat))
        if not legal:
            return
        action = bot.choose(run.engine.view(run.state, seat), legal)
        if action is None:
            return
        with contextlib.suppress(RulesError):  # refused: the phone shows the error, the next state asks again
            self.session.submit_action(seat, run.engine.action_to_wire(action), None, InputSource.PHONE)

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        handle = self.pending.pop(seat, None)
        if handle is not None:
            handle.cancel()
        self.bots.pop(seat, None)

    def notice(self, code: NoticeCode) -> None:
        pass

    def claim_answered(self, claim: Any, record: Any) -> None:
        pass

    def claim_ended(self, claim: Any, why: Any) -> None:
        pass

    def join(self, game: str, seed: int) -> None:
        desc = catalog.get(game)
        for seat, name in enumerate(NAMES[:PHONES]):
            self.session.join_seat(self.session.table.seats[seat].token, name)
            self.bots[seat] = desc.make_bot("heuristic", seat, seed + seat)


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def size_kb(*paths: Path) -> int:
    return sum(p.stat().st_size for p in paths if p.exists()) // 1024


async def soak(data: Path, games: int, every: int, out: Any) -> None:
    loop = asyncio.get_running_loop()
    kiosk = KioskConfig(timers=Timers(results_s=30), admin_pin="4821", disk=DiskLimits(keep_days=2, keep_mb=4))
    config = TableConfig(mode=RunMode.KIOSK, data_dir=data, admin_pin="4821", seed=1, kiosk=kiosk)
    clock = lambda: round(loop.time() * 1000)
    journal, saved, _ = Journal.open(data)
    session = Session.boot(config, journal, saved, clock=clock)
    archive = Archive.beside(data, clock=lambda: 1_764_547_200.0 + loop.time())
    keeper = KioskKeeper(session, journal, archive, kiosk.disk)
    keeper.attach()
    phones = Phones(session, loop)
    session.attach(phones)
    ids = [d.id for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots]
    # the soak records the reel's tapes in its own turn: heuristic tapes keep its time what it was
    # (the window's search tapes are recorded on a worker thread while a game plays)
    tapes = TapeOrders(record=partial(record_tape, kind=BotKind.HEURISTIC))
    reel = AttractReel(("fa", "th", "en"), ids, game_ms=30_000, tapes=tapes)
    reel.start(clock())

    def chores() -> None:
        session.housekeeping()
        keeper.chore()
        loop.call_later(HOUSEKEEPING_S, chores)

    chores()
    print(f"{'games':>6} {'virtual h':>9} {'wall s':>7} {'RSS MB':>7} {'fds':>4} {'journal KB':>10} {'archive KB':>10} "
          f"{'+wal KB':>8} {'archived':>8}", file=out, flush=True)
    started = time.perf_counter()
    for n in range(1, games + 1):
        for _ in range(20):  # the attract loop plays while nobody is at the table
            reel.tick(clock() + 60_000 * n, screen_busy=False)
        game = ids[n % len(ids)]
        if session.table.game != game:
            session.host_command({"command": "set_game", "game": game})
        if session.table.seat_count != SEATS:  # the hand-over gave the café's opening table: the group sets theirs
            session.host_command({"command": "set_seats", "count": SEATS})
        phones.join(game, n * 101)
        session.host_command({"command": "start"})
        while session.intro is not None:  # the how-to-play runs first (kiosk default)
            await asyncio.sleep(1)
        while session.phase is TablePhase.PLAYING:
            await asyncio.sleep(1)
        while session.phase is not TablePhase.LOBBY:  # the final scores, then the hand-over
            await asyncio.sleep(1)
        if n % every == 0 or n == games:
            print(f"{n:>6} {loop.time() / 3600:>9.1f} {time.perf_counter() - started:>7.1f} {rss_kb() / 1024:>7.1f} "
                  f"{open_fds():>4} {size_kb(data / JOURNAL_NAME, data / (JOURNAL_NAME + '-wal')):>10} "
                  f"{size_kb(archive.path):>10} {size_kb(Path(str(archive.path) + '-wal')):>8} {len(archive.games()):>8}",
                  file=out, flush=True)
    keeper.close()
    session.close()
    journal.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tabletop-soak-") as tmp:
        loop = VirtualLoop()
        try:
            loop.run_until_complete(soak(Path(tmp), args.games, args.every, sys.stdout))
        finally:
            loop.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
