"""Bounded disk for a table that runs for weeks: finished games leave the journal for an archive,
and the archive is pruned by age and size (the operator's ``[disk]`` settings).

The archive (``archive.sqlite3`` beside the journal) keeps, per game: when it started and ended,
how it ended, seats, people and bots, and its game record (``docs/records.md``, zlib-compressed,
player names left out: the next group starts clean), so ``tabletop replay`` still tells any
archived game. It also keeps the program's runs (a run that never closed was a crash, a hang the
watchdog killed, or a power cut) and the last errors, for the owner's page.
"""
from __future__ import annotations

import json
import math
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.records import GameRecord, PlayerInfo, RecordedAction

from .config import DiskLimits

ARCHIVE_NAME = "archive.sqlite3"
KEEP_ERRORS = 200
DAY_S = 86_400

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT, game_no INTEGER NOT NULL, game TEXT NOT NULL, preset TEXT, started_at REAL NOT NULL,
    ended_at REAL, outcome TEXT, seats INTEGER NOT NULL, people INTEGER NOT NULL,
    record BLOB);
CREATE INDEX IF NOT EXISTS games_by_start ON games (started_at);
CREATE INDEX IF NOT EXISTS games_by_no ON games (game_no, id);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT, started_at REAL NOT NULL, last_seen REAL NOT NULL,
    stopped_at REAL);
CREATE TABLE IF NOT EXISTS errors (
    id INTEGER PRIMARY KEY AUTOINCREMENT, at REAL NOT NULL, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""
NO_WORD = "no word from it: killed (kill -9, out of memory), the power cut, or the table's process died"
DEFAULT_KIND = "program"  # incidents.ErrorKind.PROGRAM: errors written before kinds were recorded, or of no known kind


CRASHES = "crashes"  # runs that ended without a clean stop (counters: kept for good, for /metrics)
STARTS = "starts"  # runs started
GAMES = "games:"  # + a game's id: games started
PLAYERS = "players:"  # + a game's id: people (not bots) at the start of its games


class Outcome:
    FINISHED = "finished"  # played to the end
    ABORTED = "aborted"  # stopped by the host
    IDLE = "idle"  # nobody played on: handed to the next group
    CRASHED = "crashed"  # the program stopped during the game and the game was not resumed


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    game_no: int
    game: str
    preset: str | None
    started_at: float
    ended_at: float | None
    outcome: str | None
    seats: int
    people: int

    @property
    def length_s(self) -> float | None:
        return None if self.ended_at is None else max(0.0, self.ended_at - self.started_at)


@dataclass(frozen=True, slots=True)
class Run:
    started_at: float
    last_seen: float
    stopped_at: float | None  # None: the run ended without a clean stop
    cause: str | None = None  # why it ended without one (None: running, or stopped cleanly)


class Archive:
    def __init__(self, path: Path, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA auto_vacuum=INCREMENTAL")  # takes effect on a new file
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(_SCHEMA)
        if "kind" not in {row[1] for row in self.db.execute("PRAGMA table_info(errors)")}:
            self.db.execute(f"ALTER TABLE errors ADD COLUMN kind TEXT NOT NULL DEFAULT '{DEFAULT_KIND}'")
        if "cause" not in {row[1] for row in self.db.execute("PRAGMA table_info(runs)")}:
            self.db.execute("ALTER TABLE runs ADD COLUMN cause TEXT")
        if "kinds" not in {row[1] for row in self.db.execute("PRAGMA table_info(games)")}:
            self.db.execute("ALTER TABLE games ADD COLUMN kinds TEXT")  # JSON: each seat's player kind
        self.run_id: int | None = None

    @classmethod
    def beside(cls, data_dir: Path, clock: Callable[[], float] = time.time) -> Archive:
        return cls(data_dir / ARCHIVE_NAME, clock)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --------------------------------------------------------------------------- runs
    def open_run(self) -> list[Run]:
        """This program's run. Earlier runs left open ended without a clean stop and without a word
        (killed, a power cut): each is counted as a crash now, once. Returns those runs."""
        now = self.clock()
        with self._tx() as db:
            rows = db.execute("SELECT started_at, last_seen FROM runs WHERE stopped_at IS NULL AND cause IS NULL").fetchall()
            db.execute("UPDATE runs SET cause = ? WHERE stopped_at IS NULL AND cause IS NULL", (NO_WORD,))
            _add(db, CRASHES, len(rows))
            _add(db, STARTS, 1)
            cur = db.execute("INSERT INTO runs (started_at, last_seen) VALUES (?, ?)", (now, now))
        self.run_id = int(cur.lastrowid or 0)
        return [Run(float(a), float(b), None, NO_WORD) for a, b in rows]

    def seen(self) -> None:
        """The run is alive now (called now and then: the owner's page tells when a crash happened)."""
        if self.run_id is not None:
            self.db.execute("UPDATE runs SET last_seen = ? WHERE id = ?", (self.clock(), self.run_id))

    def close_run(self, crash: str | None = None) -> None:
        """The run ends: a clean stop, or (``crash``: its cause) a crash, counted now."""
        if self.run_id is not None:
            now = self.clock()
            with self._tx() as db:
                if crash is None:
                    db.execute("UPDATE runs SET last_seen = ?, stopped_at = ? WHERE id = ?", (now, now, self.run_id))
                else:
                    db.execute("UPDATE runs SET last_seen = ?, cause = ? WHERE id = ?", (now, crash[:500], self.run_id))
                    _add(db, CRASHES, 1)
            self.run_id = None

    def counter(self, name: str) -> int:
        """A count kept for good (pruning never lowers it): :data:`CRASHES`, :data:`STARTS`,
        :data:`GAMES` + a game's id."""
        row = self.db.execute("SELECT value FROM counters WHERE name = ?", (name,)).fetchone()
        return int(row[0]) if row else 0

    def counters(self, prefix: str) -> dict[str, int]:
        rows = self.db.execute("SELECT name, value FROM counters WHERE substr(name, 1, ?) = ?",
                               (len(prefix), prefix)).fetchall()
        return {str(name)[len(prefix):]: int(value) for name, value in rows}

    def runs(self, since: float) -> list[Run]:
        rows = self.db.execute("SELECT started_at, last_seen, stopped_at, cause FROM runs WHERE last_seen >= ? ORDER BY id",
                               (since,)).fetchall()
        return [Run(float(a), float(b), None if c is None else float(c), d) for a, b, c, d in rows]

    # -------------------------------------------------------------------------- games
    def game_started(self, game_no: int, game: str, preset: str | None, seats: int, people: int,
                     kinds: Sequence[str] = ()) -> None:
        """A game began (``game_no``: the journal's number; a fresh journal counts from 1 again).
        ``kinds``: each seat's player kind at the start ("human" or "bot:<kind>"), kept for its record."""
        with self._tx() as db:
            db.execute("INSERT INTO games (game_no, game, preset, started_at, seats, people, kinds) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (game_no, game, preset, self.clock(), seats, people, json.dumps(list(kinds)) if kinds else None))
            _add(db, GAMES + game, 1)
            _add(db, PLAYERS + game, people)

    def kinds(self, game_no: int) -> list[str] | None:
        """The seats' player kinds saved when the latest game numbered ``game_no`` started (None: not saved)."""
        row = self.db.execute("SELECT kinds FROM games WHERE game_no = ? ORDER BY id DESC", (game_no,)).fetchone()
        if row is None or row[0] is None:
            return None
        return [str(kind) for kind in json.loads(row[0])]

    def game_ended(self, game_no: int, outcome: str, record: GameRecord | None = None) -> None:
        """The latest game numbered ``game_no`` is over (a first outcome and end time stay);
        ``record``: its game record, stored compressed."""
        blob = zlib.compress(record.dumps().encode()) if record is not None else None
        with self._tx() as db:
            db.execute("UPDATE games SET ended_at = COALESCE(ended_at, ?), outcome = COALESCE(outcome, ?), "
                       "record = COALESCE(?, record) WHERE id = (SELECT MAX(id) FROM games WHERE game_no = ?)",
                       (self.clock(), outcome, blob, game_no))

    def knows(self, game_no: int) -> bool:
        return self.db.execute("SELECT 1 FROM games WHERE game_no = ?", (game_no,)).fetchone() is not None

    def open_games(self) -> list[int]:
        return [int(r[0]) for r in self.db.execute("SELECT game_no FROM games WHERE ended_at IS NULL ORDER BY id")]

    def games(self, since: float = 0.0) -> list[ArchivedGame]:
        rows = self.db.execute("SELECT game_no, game, preset, started_at, ended_at, outcome, seats, people "
                               "FROM games WHERE started_at >= ? ORDER BY started_at, id", (since,)).fetchall()
        return [ArchivedGame(int(r[0]), r[1], r[2], float(r[3]), None if r[4] is None else float(r[4]), r[5],
                             int(r[6]), int(r[7])) for r in rows]

    def record(self, game_no: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT record FROM games WHERE game_no = ? ORDER BY id DESC", (game_no,)).fetchone()
        if row is None or row[0] is None:
            return None
        data: dict[str, Any] = json.loads(zlib.decompress(row[0]))
        return data

    def checkpoint(self) -> None:
        """Fold the WAL back into the file and truncate it (the keeper's periodic chore)."""
        self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    # ------------------------------------------------------------------------- errors
    def add_error(self, text: str, kind: str = DEFAULT_KIND) -> None:
        """Keep an error: its kind (``incidents.ErrorKind``: the owner's page words it) and the raw text."""
        with self._tx() as db:
            db.execute("INSERT INTO errors (at, text, kind) VALUES (?, ?, ?)", (self.clock(), text[:500], kind))
            db.execute("DELETE FROM errors WHERE id <= (SELECT MAX(id) FROM errors) - ?", (KEEP_ERRORS,))

    def errors(self, limit: int = 10) -> list[tuple[float, str, str]]:
        """The newest errors first: (when, kind, raw text)."""
        rows = self.db.execute("SELECT at, kind, text FROM errors ORDER BY id DESC LIMIT ?", (limit,)).fetchall()
        return [(float(at), str(kind), str(text)) for at, kind, text in rows]

    # -------------------------------------------------------------------------- prune
    def size_bytes(self) -> int:
        pages = self.db.execute("PRAGMA page_count").fetchone()[0]
        free = self.db.execute("PRAGMA freelist_count").fetchone()[0]
        size = self.db.execute("PRAGMA page_size").fetchone()[0]
        return int((pages - free) * size)

    def prune(self, limits: DiskLimits) -> int:
        """Delete games older than ``keep_days``, then the oldest while the archive is bigger than
        ``keep_mb``; old runs go with the games. Returns how many games were deleted."""
        cutoff = self.clock() - limits.keep_days * DAY_S
        with self._tx() as db:
            deleted = db.execute("DELETE FROM games WHERE started_at < ? AND ended_at IS NOT NULL", (cutoff,)).rowcount
            db.execute("DELETE FROM runs WHERE last_seen < ? AND id != ?", (cutoff, self.run_id or -1))
            db.execute("DELETE FROM errors WHERE at < ?", (cutoff,))
        budget = limits.keep_mb * 1024 * 1024
        while (size := self.size_bytes()) > budget:
            count = self._count()
            share = math.ceil((size - budget) / (size / count)) if count else 0  # about as many as the excess holds
            oldest = self.db.execute("SELECT id FROM games WHERE ended_at IS NOT NULL "
                                     "ORDER BY started_at, id LIMIT ?", (max(1, share),)).fetchall()
            if not oldest:
                break
            with self._tx() as db:
                db.executemany("DELETE FROM games WHERE id = ?", oldest)
            deleted += len(oldest)
        if deleted:
            self.db.execute("PRAGMA incremental_vacuum")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return deleted

    def _count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM games").fetchone()[0])


def _add(db: sqlite3.Connection, name: str, n: int) -> None:
    if n:
        db.execute("INSERT INTO counters (name, value) VALUES (?, ?) "
                   "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value", (name, n))


def archived_record(game: str, preset: str | None, settings: dict[str, Any], seats: int, seed: int,
                    actions: list[tuple[int | None, dict[str, Any]]], players: list[str]) -> GameRecord:
    """A game record for the archive: kinds of players, never their names."""
    return GameRecord(game, preset, settings, seats, seed,
                      tuple(RecordedAction(seat, action) for seat, action in actions),
                      tuple(PlayerInfo(i, "", kind) for i, kind in enumerate(players)))
