"""The owner's page words each error for a café owner (a kind the page translates in en/fa/th)
and keeps the program's raw message as a detail: errors logged by the table, the arcade board
unplugged, a journal moved aside at start-up; archives from before kinds still read."""
from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import tabletop_fakegame as fake

from game.config import TableConfig
from game.kiosk.archive import Archive
from game.kiosk.config import DiskLimits
from game.kiosk.incidents import ErrorKind
from game.kiosk.keeper import KioskKeeper
from game.kiosk.owner import owner_report
from game.session.arcade import ARCADE_UNPLUGGED
from game.session.journal import Journal
from game.session.session import Session
from game.session.snapshot import RunMode

WEB_STRINGS = Path(__file__).resolve().parents[2] / "game" / "i18n"


@pytest.fixture
def keeper(tmp_path: Path) -> Iterator[KioskKeeper]:
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="2468", seed=3)
    journal, saved, _ = Journal.open(tmp_path)
    session = Session.boot(config, journal, saved, engines=fake.engines, bot_factory=fake.bot_factory)
    keeper = KioskKeeper(session, journal, Archive.beside(tmp_path), DiskLimits())
    keeper.attach("The journal could not be read (file is not a database); it was moved to journal.sqlite3.corrupt-1")
    yield keeper
    keeper.close()
    session.close()
    journal.close()


def report_errors(keeper: KioskKeeper) -> list[tuple[str, str]]:
    keeper.flush_errors()
    return [(e["kind"], e["text"]) for e in reversed(owner_report(keeper.archive)["errors"])]


def test_a_journal_moved_aside_at_start_up_is_on_the_owners_page(keeper: KioskKeeper) -> None:
    [(kind, text)] = report_errors(keeper)
    assert kind == "journal_moved" and "corrupt-1" in text


@pytest.mark.parametrize("logger, template, args, kind", [
    ("game.kiosk.supervise", "watchdog: no ping, the %s loop is not running", ("render",), ErrorKind.WATCHDOG),
    ("game.server.hub", "%s", ("cannot write the journal /var/lib/t/journal.sqlite3: disk I/O error",),
     ErrorKind.JOURNAL_WRITE),
    ("game.session.session", "button mapping not saved: %s", ("disk full",), ErrorKind.JOURNAL_WRITE),
    ("game.session.session", "bot at seat %d failed", (3,), ErrorKind.BOT),
    ("game.session.session", "timer %s: not applied: %s", ("vote", "illegal"), ErrorKind.GAME),
    ("game.session.race_floor", "race %s: the engine made no result of %s: %s", ("r1", "{}", "x"), ErrorKind.GAME),
    ("aiohttp.server", "Error handling request", (), ErrorKind.PROGRAM),
])
def test_logged_errors_get_their_kind_and_keep_the_raw_message(keeper: KioskKeeper, logger: str, template: str,
                                                              args: tuple[object, ...], kind: ErrorKind) -> None:
    logging.getLogger(logger).error(template, *args)
    assert report_errors(keeper)[-1] == (kind.value, template % args)


def test_an_unplugged_arcade_board_is_recorded_once_per_unplug(keeper: KioskKeeper) -> None:
    session = keeper.session
    session.add_notice(ARCADE_UNPLUGGED)
    session.add_notice("journal_moved_aside")  # another change while still unplugged: no second entry
    kinds = [kind for kind, _ in report_errors(keeper)]
    assert kinds.count("arcade_unplugged") == 1
    session._clear_notice(ARCADE_UNPLUGGED)  # the board is back ...
    session.add_notice(ARCADE_UNPLUGGED)  # ... and unplugged again
    assert [kind for kind, _ in report_errors(keeper)].count("arcade_unplugged") == 2


def test_an_archive_from_before_kinds_reads_its_errors_as_program_errors(tmp_path: Path) -> None:
    db = sqlite3.connect(tmp_path / "archive.sqlite3")
    db.execute("CREATE TABLE errors (id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, text TEXT NOT NULL)")
    db.execute("INSERT INTO errors (at, text) VALUES (1.0, 'old trouble')")
    db.commit()
    db.close()
    archive = Archive.beside(tmp_path)
    archive.add_error("new trouble", ErrorKind.BOT)
    assert [(kind, text) for _, kind, text in archive.errors()] == [("bot", "new trouble"), ("program", "old trouble")]
    archive.close()


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_every_kind_has_a_sentence_for_the_owner(lang: str) -> None:
    strings = json.loads((WEB_STRINGS / f"web_{lang}.json").read_text(encoding="utf-8"))
    for kind in ErrorKind:
        sentence = strings.get(f"owner.kind.{kind.value}", "")
        assert len(sentence) > 20, kind
        assert "·" not in sentence
