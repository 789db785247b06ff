"""Bounded disk: finished games leave the journal for the archive; the archive is pruned by age
and size exactly as the [disk] settings say; log files rotate. And the owner's figures."""
from __future__ import annotations

import base64
import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest
import tabletop_fakegame as fake
from aiohttp.test_utils import TestClient

from game.config import TableConfig
from game.kiosk.archive import CRASHES, DAY_S, GAMES, NO_WORD, STARTS, Archive, Outcome
from game.kiosk.config import DiskLimits
from game.kiosk.keeper import KioskKeeper, rotating_log
from game.kiosk.owner import owner_report, report_csv
from game.kiosk.web import install_kiosk
from game.records import GameRecord, RecordedAction
from game.server.app import make_app
from game.session.journal import Journal
from game.session.session import Session
from game.session.snapshot import InputSource, RunMode, TablePhase

MONDAY_NOON = 1_764_590_400.0  # 2025-12-01 12:00 UTC, a Monday


class Clock:
    def __init__(self, now: float = MONDAY_NOON) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def kiosk_session(tmp_path: Path) -> tuple[Session, Journal]:
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path / "data", admin_pin="2468", seed=3)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, engines=fake.engines, bot_factory=fake.bot_factory)
    return session, journal


def play(session: Session, clock: Clock, minutes: float = 10) -> None:
    """One whole game of the fake game (two rounds, every seat picks), then back to the lobby."""
    session.host_command({"command": "start"})
    clock.now += minutes * 60
    for _ in range(2):
        for seat in range(session.table.seat_count):
            session.submit_action(seat, {"type": "pick", "value": 2}, None, InputSource.BOT)
    assert session.phase is TablePhase.FINISHED
    session.host_command({"command": "next"})


def journal_games(journal: Journal) -> list[int]:
    return [r[0] for r in journal.db.execute("SELECT game_no FROM games ORDER BY game_no")]


async def test_finished_games_leave_the_journal_for_the_archive(tmp_path: Path) -> None:
    session, journal = kiosk_session(tmp_path)
    clock = Clock()
    keeper = KioskKeeper(session, journal, Archive(tmp_path / "archive.sqlite3", clock), DiskLimits())
    keeper.attach()
    for _ in range(3):
        play(session, clock)
    session.host_command({"command": "start"})  # a fourth game in play
    assert journal_games(journal) == [4]  # only the game in play stays in the journal
    games = keeper.archive.games()
    assert [(g.game_no, g.outcome) for g in games] == [(1, "finished"), (2, "finished"), (3, "finished"), (4, None)]
    assert all(g.length_s == 600 for g in games[:3]) and games[0].people == 0 and games[0].seats == 6
    record = keeper.archive.record(2)
    assert record is not None and record["format"] == "tabletop-record" and len(record["actions"]) == 12
    assert all(p["name"] == "" for p in record["players"])  # names never reach the archive
    session.host_command({"command": "abort"})
    assert keeper.archive.games()[-1].outcome == Outcome.ABORTED
    keeper.close()
    session.close()
    journal.close()


async def test_a_game_the_program_never_finished_counts_as_a_crash(tmp_path: Path) -> None:
    clock = Clock()
    archive = Archive(tmp_path / "archive.sqlite3", clock)
    archive.open_run()  # this run dies without close_run()
    archive.game_started(7, "speakeasy", "fa", 6, 4)
    clock.now += 300
    archive.seen()
    archive.db.close()
    clock.now += 60
    session, journal = kiosk_session(tmp_path)  # a fresh journal: game 7 is not resumed
    keeper = KioskKeeper(session, journal, Archive(tmp_path / "archive.sqlite3", clock), DiskLimits())
    keeper.attach()
    assert keeper.archive.games()[0].outcome == Outcome.CRASHED
    report = owner_report(keeper.archive, localtime=time.gmtime)
    assert report["week"]["crashes"] == 1 and report["week"]["restarts"] == 1
    assert report["crashes"] == [{"last_seen": MONDAY_NOON + 300, "restarted": MONDAY_NOON + 360, "cause": NO_WORD}]
    assert keeper.archive.counter(CRASHES) == 1 and keeper.archive.counter(STARTS) == 2
    keeper.close()
    session.close()
    journal.close()


def record_of_size(seed: int, n_bytes: int) -> GameRecord:
    """A record that does not compress (random text), about ``n_bytes`` in the archive."""
    noise = base64.b64encode(random.Random(seed).randbytes(n_bytes * 3 // 4)).decode()
    return GameRecord("collusion", None, {"x": 1}, 6, seed, (RecordedAction(0, {"type": "say", "text": noise}),))


def test_pruning_deletes_games_older_than_keep_days(tmp_path: Path) -> None:
    clock = Clock()
    archive = Archive(tmp_path / "a.sqlite3", clock)
    for day in range(10):  # one game a day for ten days
        clock.now = MONDAY_NOON + day * DAY_S
        archive.game_started(day + 1, "collusion", None, 6, 3)
        archive.game_ended(day + 1, Outcome.FINISHED)
    clock.now = MONDAY_NOON + 9 * DAY_S  # game 7 started exactly 3 days ago
    assert archive.prune(DiskLimits(keep_days=3)) == 6
    assert [g.game_no for g in archive.games()] == [7, 8, 9, 10]  # started within the last 3 days
    assert archive.prune(DiskLimits(keep_days=3)) == 0


def test_pruning_keeps_the_archive_under_keep_mb_newest_first(tmp_path: Path) -> None:
    clock = Clock()
    archive = Archive(tmp_path / "a.sqlite3", clock)
    for n in range(1, 121):
        clock.now += 60
        archive.game_started(n, "collusion", None, 6, 3)
        archive.game_ended(n, Outcome.FINISHED, record_of_size(n, 20_000))
    before = archive.size_bytes()
    assert before > 1024 * 1024
    deleted = archive.prune(DiskLimits(keep_mb=1))
    left = [g.game_no for g in archive.games()]
    assert archive.size_bytes() <= 1024 * 1024
    assert deleted == 120 - len(left) and left == list(range(121 - len(left), 121))  # the newest stay
    assert len(left) >= 120 * (1024 * 1024) // before - 1  # no more deleted than needed
    assert (tmp_path / "a.sqlite3").stat().st_size < before  # the file shrank too


def test_unfinished_games_are_never_pruned(tmp_path: Path) -> None:
    clock = Clock()
    archive = Archive(tmp_path / "a.sqlite3", clock)
    archive.game_started(1, "collusion", None, 6, 3)
    clock.now += 100 * DAY_S
    archive.prune(DiskLimits(keep_days=1))
    assert [g.game_no for g in archive.games()] == [1]


def test_the_log_file_rotates_and_keeps_log_files(tmp_path: Path) -> None:
    handler = rotating_log(tmp_path, DiskLimits(log_mb=1, log_files=2))
    logger = logging.getLogger("tabletop.test.rotate")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for i in range(4_000):
            logger.warning("line %d %s", i, "x" * 900)
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(p.name for p in (tmp_path / "logs").iterdir())
    assert files == ["tabletop.log", "tabletop.log.1", "tabletop.log.2"]
    assert all((tmp_path / "logs" / f).stat().st_size <= 1024 * 1024 for f in files)


def test_owner_report_counts_today_and_this_week_per_game(tmp_path: Path) -> None:
    clock = Clock(MONDAY_NOON + 2 * DAY_S)  # Wednesday noon
    archive = Archive(tmp_path / "a.sqlite3", clock)
    plays = [(-DAY_S * 3, "collusion", 8, 900), (-DAY_S, "speakeasy", 5, 1200), (-3600, "collusion", 6, 600),
             (-1800, "collusion", 4, 1200), (-600, "cheating_moth", 3, None)]
    for n, (ago, game, people, length) in enumerate(plays, 1):
        clock.now = MONDAY_NOON + 2 * DAY_S + ago
        archive.game_started(n, game, None, 8, people)
        if length is not None:
            clock.now += length
            archive.game_ended(n, Outcome.FINISHED)
    clock.now = MONDAY_NOON + 2 * DAY_S
    archive.add_error("the arcade board stopped answering")
    report = owner_report(archive, localtime=time.gmtime)
    today = {g["game"]: g for g in report["today"]["games"]}
    assert today["collusion"] == {"game": "collusion", "played": 2, "finished": 2, "players": 10, "average_s": 900}
    assert today["cheating_moth"]["finished"] == 0 and today["cheating_moth"]["average_s"] is None
    week = {g["game"]: g for g in report["week"]["games"]}
    assert week["collusion"]["played"] == 2  # the one on Sunday was last week
    assert week["speakeasy"] == {"game": "speakeasy", "played": 1, "finished": 1, "players": 5, "average_s": 1200}
    assert report["errors"][0]["text"] == "the arcade board stopped answering"
    rows = report_csv(archive, localtime=time.gmtime).splitlines()
    assert rows[0] == "game_no,game,preset,started,ended,length_s,outcome,seats,people"
    assert rows[1] == "1,collusion,,2025-11-30 12:00:00,2025-11-30 12:15:00,900,finished,8,8"
    assert rows[5] == "5,cheating_moth,,2025-12-03 11:50:00,,,,8,3"


@pytest.fixture
async def owner_client(tmp_path: Path, aiohttp_client: Any) -> Any:
    session, journal = kiosk_session(tmp_path)
    app = make_app(session)
    install_kiosk(app, session, journal, session.config)
    client: TestClient = await aiohttp_client(app)
    yield client
    session.close()
    journal.close()


async def test_the_owners_page_needs_the_pin(owner_client: Any) -> None:
    assert (await owner_client.get("/api/owner")).status == 403
    assert (await owner_client.get("/api/owner.csv", headers={"X-Admin-Pin": "1111"})).status == 403
    ok = await owner_client.get("/api/owner", headers={"X-Admin-Pin": "2468"})
    assert ok.status == 200 and set(await ok.json()) >= {"today", "week", "errors", "crashes"}
    csv = await owner_client.get("/api/owner.csv", headers={"X-Admin-Pin": "2468"})
    assert csv.headers["Content-Type"].startswith("text/csv") and (await csv.text()).startswith("game_no,")


async def test_wrong_pins_are_limited(owner_client: Any) -> None:
    for _ in range(5):
        await owner_client.get("/api/owner", headers={"X-Admin-Pin": "0000"})
    assert (await owner_client.get("/api/owner", headers={"X-Admin-Pin": "2468"})).status == 429




async def test_a_right_pin_clears_the_devices_wrong_tries(owner_client: Any) -> None:
    """The owner's page uses the console's PIN guard: a right PIN forgets this device's wrong tries
    (a typo now and then never adds up to a lockout); a real lockout says how long to wait."""
    for _ in range(2):
        for _ in range(4):
            assert (await owner_client.get("/api/owner", headers={"X-Admin-Pin": "0000"})).status == 403
        assert (await owner_client.get("/api/owner", headers={"X-Admin-Pin": "2468"})).status == 200
    for _ in range(6):
        await owner_client.get("/api/owner", headers={"X-Admin-Pin": "0000"})
    locked = await owner_client.get("/api/owner", headers={"X-Admin-Pin": "2468"})
    assert locked.status == 429 and int(locked.headers["Retry-After"]) >= 1


def test_a_run_closed_with_a_cause_is_a_crash_counted_once_with_its_cause(tmp_path: Path) -> None:
    clock = Clock()
    archive = Archive(tmp_path / "archive.sqlite3", clock)
    archive.open_run()
    clock.now += 30
    archive.close_run("the TV's process (pid 7) ended without stopping the table")
    archive.open_run()
    clock.now += 30
    archive.close_run()  # a clean stop
    archive.open_run()  # neither run is counted again
    assert archive.counter(CRASHES) == 1 and archive.counter(STARTS) == 3
    report = owner_report(archive, localtime=time.gmtime)
    assert report["crashes"] == [{"last_seen": MONDAY_NOON + 30, "restarted": MONDAY_NOON + 30,
                                  "cause": "the TV's process (pid 7) ended without stopping the table"}]


def test_the_crash_and_game_counters_never_go_down_when_old_runs_are_pruned(tmp_path: Path) -> None:
    clock = Clock()
    archive = Archive(tmp_path / "archive.sqlite3", clock)
    archive.open_run()
    archive.game_started(1, "collusion", None, 5, 3)
    archive.game_ended(1, Outcome.FINISHED)
    archive.close_run("killed")
    clock.now += 40 * DAY_S
    archive.open_run()
    archive.prune(DiskLimits(keep_days=30))
    assert archive.runs(since=0)[0].started_at == MONDAY_NOON + 40 * DAY_S  # the old run is gone
    assert archive.counter(CRASHES) == 1 and archive.counters(GAMES) == {"collusion": 1}
