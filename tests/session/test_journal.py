from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

from game.session.journal import JOURNAL_NAME, Journal
from game.session.seats import fresh_seats
from game.session.snapshot import TablePhase
from game.session.table import TableRecord


def _table() -> TableRecord:
    return TableRecord.fresh("collusion", "tabani", {"a": 1}, "fa", 5, "1234")


def test_wal_and_full_sync(tmp_path: Path) -> None:
    journal, saved, message = Journal.open(tmp_path)
    assert saved is None and message is None
    assert journal.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    journal.close()


def test_round_trip_of_table_game_and_actions(tmp_path: Path) -> None:
    journal, _, _ = Journal.open(tmp_path)
    table = _table()
    journal.save_table(table, 3)
    game_no = journal.begin_game(table, "collusion", "tabani", {"a": 1}, 99, 5, 4)
    journal.append_action(game_no, 2, {"type": "vote", "target": 1}, 5)
    journal.append_action(game_no, None, {"type": "timeout", "key": "k"}, 6)
    journal.close()

    again, saved, _ = Journal.open(tmp_path)
    assert saved is not None
    assert saved.table.seats == table.seats and saved.table.game_no == game_no
    assert saved.version == 6
    assert saved.game is not None and (saved.game.seed, saved.game.n_seats) == (99, 5)
    assert [(a.seat, a.action) for a in saved.actions] == [(2, {"type": "vote", "target": 1}),
                                                          (None, {"type": "timeout", "key": "k"})]
    again.close()


def test_garbage_file_is_moved_aside_not_deleted(tmp_path: Path) -> None:
    path = tmp_path / JOURNAL_NAME
    path.write_bytes(b"this is not a database" * 100)
    journal, saved, message = Journal.open(tmp_path)
    assert saved is None and message is not None and "moved" in message
    kept = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not a database")
    journal.save_table(_table(), 1)  # the fresh journal works
    journal.close()


def test_unreadable_record_is_moved_aside(tmp_path: Path) -> None:
    journal, _, _ = Journal.open(tmp_path)
    journal.save_table(_table(), 1)
    journal.db.execute("UPDATE table_record SET data = '{\"seats\": []}'")
    journal.close()
    journal, saved, message = Journal.open(tmp_path)
    assert saved is None and message and "could not be read" in message
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())
    journal.close()


def test_new_moves_the_old_journal_aside(tmp_path: Path) -> None:
    journal, _, _ = Journal.open(tmp_path)
    journal.save_table(_table(), 1)
    journal.close()
    journal, saved, message = Journal.open(tmp_path, new=True)
    assert saved is None and message and "--new" in message
    assert any(".old-" in p.name for p in tmp_path.iterdir())
    journal.close()


def test_table_record_json_round_trip() -> None:
    table = TableRecord("speakeasy", None, {"x": [1, 2]}, "th", 12, fresh_seats(), phase=TablePhase.FINISHED,
                        game_no=4, admin_pin="0007")
    assert TableRecord.from_json(table.to_json()) == table


def test_commit_is_durable_for_a_second_reader(tmp_path: Path) -> None:
    journal, _, _ = Journal.open(tmp_path)
    table = _table()
    journal.save_table(table, 1)
    game_no = journal.begin_game(table, "collusion", "tabani", {}, 1, 5, 2)
    journal.append_action(game_no, 0, {"type": "ambush"}, 3)
    other = sqlite3.connect(tmp_path / JOURNAL_NAME)
    assert other.execute("SELECT count(*) FROM actions").fetchone()[0] == 1
    other.close()
    journal.close()


def test_an_action_commit_writes_no_sequence_page_and_older_journals_still_append(tmp_path: Path) -> None:
    """New journals number actions by rowid (no sqlite_sequence page in each commit); a journal made
    with the AUTOINCREMENT table of before reads and appends as ever, its chain unbroken."""
    journal, _, _ = Journal.open(tmp_path / "new")
    table = _table()
    game_no = journal.begin_game(table, "collusion", "tabani", {"a": 1}, 7, 5, 1)
    journal.append_action(game_no, 0, {"type": "vote", "target": 1}, 2)
    sequences = dict(journal.db.execute("SELECT name, seq FROM sqlite_sequence").fetchall())
    assert "actions" not in sequences and "games" in sequences
    journal.close()

    old = tmp_path / "old"
    old.mkdir()
    db = sqlite3.connect(old / JOURNAL_NAME)
    db.execute("CREATE TABLE actions (id INTEGER PRIMARY KEY AUTOINCREMENT, game_no INTEGER NOT NULL "
               "REFERENCES games(game_no), seat INTEGER, action TEXT NOT NULL, version INTEGER NOT NULL)")
    db.close()
    journal, _, _ = Journal.open(old)
    game_no = journal.begin_game(table, "collusion", "tabani", {"a": 1}, 7, 5, 1)
    journal.save_table(replace(table, phase=TablePhase.PLAYING, game_no=game_no), 1)
    for version in (2, 3):
        journal.append_action(game_no, 0, {"type": "vote", "target": version}, version)
    assert dict(journal.db.execute("SELECT name, seq FROM sqlite_sequence").fetchall())["actions"] == 2
    journal.close()
    again, saved, message = Journal.open(old)
    assert message is None and saved is not None
    assert [a.action["target"] for a in saved.actions] == [2, 3]
    again.close()
