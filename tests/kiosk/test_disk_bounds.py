"""The disk is fully bounded (journals set aside as damaged are pruned by
keep_days/keep_mb like the archive) and archived records keep who was a bot across a restart."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import tabletop_fakegame as fake
from test_archive import MONDAY_NOON, Clock, kiosk_session

from game.config import TableConfig
from game.kiosk.archive import DAY_S, Archive
from game.kiosk.config import DiskLimits
from game.kiosk.keeper import KioskKeeper
from game.session.journal import JOURNAL_NAME, Journal, move_aside, prune_set_aside, set_aside_journals
from game.session.session import Session
from game.session.snapshot import InputSource, RunMode, TablePhase

MB = 1024 * 1024


def one_round(session: Session, seats: range) -> None:
    for seat in seats:
        session.submit_action(seat, {"type": "pick", "value": 2}, None, InputSource.BOT)


@pytest.mark.parametrize("archive_kept_kinds", [True, False], ids=["kinds_in_archive", "archive_before_kinds"])
async def test_archived_records_keep_the_bots_after_a_mid_game_restart(tmp_path: Path, archive_kept_kinds: bool) -> None:
    """Without the kinds in the archive (one written before it kept them), they come from the
    table the journal rebuilt, never "human" for every seat."""
    clock = Clock()
    session, journal = kiosk_session(tmp_path)
    keeper = KioskKeeper(session, journal, Archive(tmp_path / "archive.sqlite3", clock), DiskLimits())
    keeper.attach()
    seats = session.table.offered
    session.join_seat(seats[0].token, "Sara")
    session.join_seat(seats[1].token, "Tom")
    session.host_command({"command": "fill_bots", "kind": "random"})
    kinds = ["human" if r.bot is None else f"bot:{r.bot.value}" for r in session.table.offered]
    assert kinds.count("human") == 2 and len(kinds) == 6
    session.host_command({"command": "start"})
    one_round(session, range(6))
    if not archive_kept_kinds:
        keeper.archive.db.execute("UPDATE games SET kinds = NULL")
    keeper.archive.db.close()  # kill -9: nothing is closed
    session.close()
    journal.close()

    clock.now += 30
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path / "data", admin_pin="2468", seed=3)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, engines=fake.engines, bot_factory=fake.bot_factory)
    assert session.phase is TablePhase.PLAYING  # resumed mid-game
    keeper = KioskKeeper(session, journal, Archive(tmp_path / "archive.sqlite3", clock), DiskLimits())
    keeper.attach()
    one_round(session, range(6))
    session.host_command({"command": "next"})
    session.host_command({"command": "fill_bots", "kind": "random"})
    session.host_command({"command": "start"})  # the next game: the first leaves the journal
    record = keeper.archive.record(1)
    assert record is not None and [p["kind"] for p in record["players"]] == kinds
    assert keeper.archive.games()[0].people == 2
    keeper.close()
    session.close()
    journal.close()


def damaged(data: Path, when: float, size: int) -> Path:
    """A journal set aside as damaged at ``when`` (its name carries the time), ``size`` bytes."""
    data.mkdir(parents=True, exist_ok=True)
    (data / JOURNAL_NAME).write_bytes(b"x" * size)
    (data / (JOURNAL_NAME + "-wal")).write_bytes(b"w" * 10)
    moved = move_aside(data / JOURNAL_NAME, "corrupt", now=when)
    return moved


def test_set_aside_journals_older_than_keep_days_are_deleted_with_their_wal(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = damaged(data, MONDAY_NOON - 31 * DAY_S, 100)
    recent = damaged(data, MONDAY_NOON - 29 * DAY_S, 100)
    (data / JOURNAL_NAME).write_bytes(b"the table's own journal")
    (data / (JOURNAL_NAME + "-wal")).write_bytes(b"its wal")
    deleted = prune_set_aside(data, keep_days=30, keep_mb=200, now=MONDAY_NOON)
    assert deleted == [old]
    assert not old.exists() and not Path(f"{old}-wal").exists()
    assert recent.exists() and Path(f"{recent}-wal").exists()
    assert (data / JOURNAL_NAME).exists() and (data / (JOURNAL_NAME + "-wal")).exists()  # never the live one


def test_set_aside_journals_over_keep_mb_go_oldest_first(tmp_path: Path) -> None:
    data = tmp_path / "data"
    aside = [damaged(data, MONDAY_NOON - (5 - i) * 3600, MB - 10) for i in range(5)]  # 1 MB with its WAL
    assert [s.path for s in set_aside_journals(data)] == aside
    deleted = prune_set_aside(data, keep_days=30, keep_mb=2, now=MONDAY_NOON)
    assert deleted == aside[:3]
    assert [s.path for s in set_aside_journals(data)] == aside[3:]
    assert sum(s.size for s in set_aside_journals(data)) == 2 * MB


async def test_the_keeper_prunes_set_aside_journals_with_the_archive(tmp_path: Path) -> None:
    data = tmp_path / "data"
    old = damaged(data, MONDAY_NOON - 40 * DAY_S, 100)
    session, journal = kiosk_session(tmp_path)  # opens data/journal.sqlite3 afresh
    keeper = KioskKeeper(session, journal, Archive(tmp_path / "archive.sqlite3", Clock()), DiskLimits(keep_days=30))
    keeper.attach()
    assert not old.exists() and set_aside_journals(data) == []
    assert (data / JOURNAL_NAME).exists()
    keeper.close()
    session.close()
    journal.close()


def test_a_name_without_a_time_counts_from_its_file_time(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    odd = data / f"{JOURNAL_NAME}.corrupt-unknown"
    odd.write_bytes(b"x")
    os.utime(odd, (MONDAY_NOON - 60 * DAY_S, MONDAY_NOON - 60 * DAY_S))
    assert prune_set_aside(data, keep_days=30, keep_mb=200, now=MONDAY_NOON) == [odd]
