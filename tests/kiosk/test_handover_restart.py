"""The links a hand-over retired are journaled: after a restart (a crash, a power cut, the unit
restarted) an old group's phone still hears "this table has a new game", not "not valid"; the
journal keeps only the newest ``RETIRED_TOKENS`` digests, never a token itself."""
from __future__ import annotations

from pathlib import Path

import pytest
import tabletop_fakegame as fake
from tabletop_sessionkit import FakeClock, Recorder

from game.config import TableConfig
from game.kiosk.config import KioskConfig, Timers
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import RETIRED_TOKENS, HandedOver, NoticeCode, Session, UnknownSeat
from game.session.snapshot import InputSource, RunMode, TablePhase


def boot(tmp_path: Path) -> Session:
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="2468", seed=4,
                         kiosk=KioskConfig(admin_pin="2468", how_to_play=False))
    journal, saved, _ = Journal.open(tmp_path)
    return Session.boot(config, journal, saved, engines=fake.engines, bot_factory=fake.bot_factory, clock=FakeClock())


def restart(session: Session, tmp_path: Path) -> Session:
    session.close()
    return boot(tmp_path)


async def test_an_old_groups_link_is_told_of_the_new_game_after_a_restart(tmp_path: Path) -> None:
    session = boot(tmp_path)
    old = session.table.seats[1]
    device = session.join_seat(old.token, "Sara").device
    session.hand_over()
    session = restart(session, tmp_path)
    for link in (old.token, device):  # the seat's link and the phone's own key
        with pytest.raises(HandedOver):
            session.join_seat(link, "Sara")
    with pytest.raises(UnknownSeat) as stranger:
        session.join_seat("x" * 24, "Mallory")
    assert not isinstance(stranger.value, HandedOver)
    assert session.join_seat(session.table.seats[1].token, "Mina").name == "Mina"  # the next group's link works
    session.close()


async def test_the_journal_keeps_only_the_newest_retired_digests_never_a_token(tmp_path: Path) -> None:
    session = boot(tmp_path)
    first = session.table.seats[0].token
    tokens: list[str] = []
    for _ in range(RETIRED_TOKENS // len(session.table.seats) + 2):
        tokens += [s.token for s in session.table.seats]
        session.hand_over()
    session = restart(session, tmp_path)
    journal, saved, _ = Journal.open(tmp_path)
    assert saved is not None and len(saved.retired) == RETIRED_TOKENS
    row = journal.db.execute("SELECT value FROM meta WHERE key = 'retired'").fetchone()[0]
    journal.close()
    assert not any(t in row for t in tokens)  # digests only
    with pytest.raises(HandedOver):
        session.join_seat(tokens[-1], "Sara")  # the last group's link: remembered
    with pytest.raises(UnknownSeat) as oldest:
        session.join_seat(first, "Sara")  # the first group's: long forgotten
    assert not isinstance(oldest.value, HandedOver)
    session.close()


class Wall:
    """The wall clock (epoch ms) the journal keeps deadlines on; moved by hand."""

    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


def kiosk_on(tmp_path: Path, vt: VirtualTime, wall: Wall) -> Session:
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="2468", seed=4,
                         kiosk=KioskConfig(timers=Timers(results_s=45), admin_pin="2468", how_to_play=False))
    journal, saved, _ = Journal.open(tmp_path)
    return Session.boot(config, journal, saved, engines=fake.engines, bot_factory=fake.bot_factory, clock=vt,
                        scheduler=vt, wall=wall, bot_delay_scale=1000.0)


async def test_a_restart_at_the_results_hands_over_with_what_was_left_of_results_s(tmp_path: Path) -> None:
    vt, wall = VirtualTime(), Wall()
    session = kiosk_on(tmp_path, vt, wall)
    session.host_command({"command": "set_seats", "count": 3})
    session.join_seat(session.table.seats[0].token, "Sara")
    session.host_command({"command": "start"})
    for _ in range(2):
        for seat in range(3):
            session.submit_action(seat, {"type": "pick", "value": 1}, None, InputSource.BOT)
    assert session.phase is TablePhase.FINISHED
    session.screen_shows("game_over")  # the TV shows the final scores: their 45 s start now
    vt.advance(30_000)
    wall.now += 30_000
    session.close()  # the process dies 30 s into the 45 s of results; it is back 5 s later
    wall.now += 5_000
    vt = VirtualTime(start_ms=7)  # a new process: its own session clock
    session = kiosk_on(tmp_path, vt, wall)
    rec = Recorder()
    session.attach(rec)
    assert session.phase is TablePhase.FINISHED and session.table.seats[0].name == "Sara"
    vt.advance(9_999)
    assert session.phase is TablePhase.FINISHED and NoticeCode.NEW_GROUP not in rec.notices
    vt.advance(1)  # 45 s after the game ended, not idle_minutes
    assert session.phase is TablePhase.LOBBY and NoticeCode.NEW_GROUP in rec.notices
    assert not session.table.seats[0].name
    session.close()

