"""The crash-safe journal: sqlite3 in WAL mode with ``synchronous=FULL``.

It holds the table record (seats, tokens, names, settings, phase), one row per game (game, preset,
settings, seed, seats) and every accepted action, each committed *before* the session broadcasts
its result. After a crash or power cut the session rebuilds the table from it and replays the
actions of the game in play.

Durability (see docs/architecture.md, "The journal and power cuts"): a commit returns only after
the WAL is fsynced, so an acknowledged action survives a power cut; a torn WAL tail is dropped by
sqlite's frame checksums, leaving the last whole action. Every row also carries a CRC-32 (the
actions' chained game by game), so damage sqlite cannot see inside a page (a flipped byte in a
vote) is caught at start-up instead of replaying a different game.

A journal that cannot be read is moved aside (``journal.sqlite3.corrupt-<time>``), never deleted at
once: a kiosk prunes journals set aside like its archive (:func:`prune_set_aside`, by ``keep_days``
and ``keep_mb``).
"""
from __future__ import annotations

import calendar
import json
import logging
import re
import sqlite3
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .table import TableRecord

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
JOURNAL_NAME = "journal.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS table_record (
    id INTEGER PRIMARY KEY CHECK (id = 1), data TEXT NOT NULL, version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    game_no INTEGER PRIMARY KEY AUTOINCREMENT, game TEXT NOT NULL, preset TEXT,
    settings TEXT NOT NULL, seed INTEGER NOT NULL, n_seats INTEGER NOT NULL,
    start_version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY, game_no INTEGER NOT NULL REFERENCES games(game_no),
    seat INTEGER, action TEXT NOT NULL, version INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS actions_by_game ON actions (game_no, id);
"""
# Actions' ids are a plain rowid, not AUTOINCREMENT: that would also rewrite sqlite_sequence's page in
# every action's commit (12 KB of WAL in place of 8, a quarter more time to fsync). Only order within a
# game matters (the CRC chain), and a new row's id is always above the game's last. Journals made
# before keep their AUTOINCREMENT table: both read and write the same.
# CRC-32 columns, added to journals written before them (their old rows stay unchecked: NULL)
_CHECKSUMS = (("table_record", "crc"), ("games", "crc"), ("actions", "crc"))


class JournalError(Exception):
    """The journal could not be written (disk full, read-only, ...)."""


class CorruptJournal(Exception):
    """The journal exists but cannot be read back."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    game_no: int
    game: str
    preset: str | None
    settings: dict[str, Any]
    seed: int
    n_seats: int
    start_version: int  # the table version the game started at


@dataclass(frozen=True, slots=True)
class ActionRecord:
    seat: int | None
    action: dict[str, Any]
    version: int


@dataclass(frozen=True, slots=True)
class SavedTimer:
    """The running game timer when it started: its key and its deadline on the wall clock (epoch
    ms), so a restarted table resumes it with the time that is left, not a fresh one."""

    game_no: int
    key: str
    deadline_wall_ms: int


@dataclass(frozen=True, slots=True)
class Saved:
    """Everything a restarted session needs."""

    table: TableRecord
    version: int
    game: GameRecord | None
    actions: tuple[ActionRecord, ...]
    timer: SavedTimer | None = None
    retired: tuple[bytes, ...] = ()  # digests of links earlier groups were handed over from, oldest first


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Journal:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._chain_game: int | None = None  # the game whose last action CRC is in _chain
        self._chain = 0

    # -------------------------------------------------------------------------- open / close
    @classmethod
    def open(cls, data_dir: Path, *, new: bool = False) -> tuple[Journal, Saved | None, str | None]:
        """Open (or create) the journal in ``data_dir``. Returns the journal, what it held (None when
        fresh) and a message for the operator when a journal was moved aside."""
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / JOURNAL_NAME
        message = None
        if new and path.exists():
            moved = move_aside(path, "old")
            message = f"--new: the previous journal was moved to {moved.name}"
        journal = cls(path)
        try:
            journal._connect()
            saved = journal.load()
        except (sqlite3.DatabaseError, CorruptJournal, UnicodeDecodeError) as exc:  # garbage text: damaged too
            journal.close()
            moved = move_aside(path, "corrupt")
            message = (f"The journal {path} could not be read ({exc}); it was moved to {moved.name} "
                       "and the table starts fresh.")
            log.error(message)
            journal = cls(path)
            journal._connect()
            saved = None
        return journal, saved, message

    def _connect(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise CorruptJournal(f"cannot use WAL mode (got {mode})")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA wal_autocheckpoint=0")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise CorruptJournal(f"integrity check failed: {check}")
            db.executescript(_SCHEMA)
            _add_checksum_columns(db)
            db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            schema = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0]
            if schema != str(SCHEMA_VERSION):
                raise CorruptJournal(f"journal schema {schema}, this program reads {SCHEMA_VERSION}")
        except BaseException:
            db.close()
            raise
        self._db = db

    def close(self) -> None:
        if self._db is not None:
            self.checkpoint()
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        if self._db is None:
            raise JournalError("the journal is closed")
        return self._db

    # ---------------------------------------------------------------------------------- read
    def load(self) -> Saved | None:
        row = self.db.execute("SELECT data, version, crc FROM table_record WHERE id = 1").fetchone()
        if row is None:
            return None
        _check(row[2], _table_crc(row[0], row[1]), "the table record")
        try:
            table = TableRecord.from_json(json.loads(row[0]))
            version = int(row[1])
            game = self._load_game(table.game_no) if table.game_no is not None else None
            actions = self._load_actions(game.game_no) if game else ()
        except (ValueError, KeyError, TypeError) as exc:
            raise CorruptJournal(f"unreadable record: {exc}") from exc
        if actions:
            version = max(version, actions[-1].version)
        if game is not None:
            log.info("journal: game %d (%s) resumes after its action %d, table version %d",
                     game.game_no, game.game, len(actions), version)
        return Saved(table, version, game, actions, self._load_timer(), self._load_retired())

    def _load_retired(self) -> tuple[bytes, ...]:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'retired'").fetchone()
        try:
            return tuple(bytes.fromhex(h) for h in json.loads(row[0])) if row is not None else ()
        except (ValueError, TypeError):
            log.warning("journal: the retired links are unreadable; old groups' links get the generic page")
            return ()

    def _load_timer(self) -> SavedTimer | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'timer'").fetchone()
        try:
            data = json.loads(row[0]) if row is not None else None
            return SavedTimer(int(data["game_no"]), str(data["key"]), int(data["deadline_wall_ms"])) if data else None
        except (ValueError, KeyError, TypeError):
            log.warning("journal: the saved timer is unreadable; a resumed timer starts afresh")
            return None

    def _load_game(self, game_no: int) -> GameRecord:
        row = self.db.execute(
            "SELECT game_no, game, preset, settings, seed, n_seats, start_version, crc FROM games WHERE game_no = ?",
            (game_no,),
        ).fetchone()
        if row is None:
            raise CorruptJournal(f"game {game_no} is missing")
        _check(row[7], _game_crc(*row[:7]), f"game {game_no}")
        return GameRecord(int(row[0]), str(row[1]), row[2], json.loads(row[3]), int(row[4]), int(row[5]), int(row[6]))

    def _load_actions(self, game_no: int) -> tuple[ActionRecord, ...]:
        rows = self.db.execute(
            "SELECT seat, action, version, crc FROM actions WHERE game_no = ? ORDER BY id", (game_no,)
        ).fetchall()
        chain = 0
        for n, (seat, action, version, crc) in enumerate(rows, 1):
            if crc is None:  # written before checksums: the chain starts again after it
                chain = 0
                continue
            chain = _action_crc(chain, game_no, seat, action, version)
            _check(crc, chain, f"action {n} of game {game_no}")
        return tuple(ActionRecord(None if r[0] is None else int(r[0]), json.loads(r[1]), int(r[2])) for r in rows)

    # --------------------------------------------------------------------------------- write
    def save_table(self, table: TableRecord, version: int) -> None:
        self._write(lambda db: self._put_table(db, table, version))

    def begin_game(self, table_without_game: TableRecord, game: str, preset: str | None,
                   settings: dict[str, Any], seed: int, n_seats: int, version: int) -> int:
        """Record a new game and the table that plays it, in one transaction; returns its number."""
        box: list[int] = []

        def work(db: sqlite3.Connection) -> None:
            cur = db.execute(
                "INSERT INTO games (game, preset, settings, seed, n_seats, start_version) VALUES (?,?,?,?,?,?)",
                (game, preset, _dumps(settings), seed, n_seats, version))
            game_no = int(cur.lastrowid or 0)
            db.execute("UPDATE games SET crc = ? WHERE game_no = ?",
                       (_game_crc(game_no, game, preset, _dumps(settings), seed, n_seats, version), game_no))
            box.append(game_no)
            self._put_table(db, replace(table_without_game, game_no=game_no), version)

        self._write(work)
        return box[0]

    def append_action(self, game_no: int, seat: int | None, action: dict[str, Any], version: int) -> None:
        # one small row per action (the table's version is the newest action's: see load()); its CRC
        # chains the previous action's, so a lost, doubled or reordered row is seen too
        text = _dumps(action)

        def work(db: sqlite3.Connection) -> None:
            if self._chain_game != game_no:
                last = db.execute("SELECT crc FROM actions WHERE game_no = ? ORDER BY id DESC LIMIT 1", (game_no,)).fetchone()
                self._chain = int(last[0]) if last and last[0] is not None else 0
            crc = _action_crc(self._chain, game_no, seat, text, version)
            db.execute("INSERT INTO actions (game_no, seat, action, version, crc) VALUES (?,?,?,?,?)",
                       (game_no, seat, text, version, crc))
            self._chain_game, self._chain = game_no, crc

        try:
            self._write(work)
        except JournalError:
            self._chain_game = None  # re-read the chain from the journal next time
            raise

    def save_timer(self, timer: SavedTimer) -> None:
        """Remember the game timer that just started (one row, replaced by the next)."""
        data = _dumps({"game_no": timer.game_no, "key": timer.key, "deadline_wall_ms": timer.deadline_wall_ms})
        self._write(lambda db: db.execute("INSERT INTO meta (key, value) VALUES ('timer', ?) "
                                          "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (data,)))

    def save_retired(self, digests: tuple[bytes, ...]) -> None:
        """Remember the digests of retired links (one row, replaced: the caller keeps it bounded)."""
        data = _dumps([d.hex() for d in digests])
        self._write(lambda db: db.execute("INSERT INTO meta (key, value) VALUES ('retired', ?) "
                                          "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (data,)))

    def checkpoint(self) -> None:
        """Fold the WAL into the database (automatic checkpoints are off so that no action's commit
        pays for one); the session calls this when the table is quiet."""
        try:
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as exc:
            log.warning("journal checkpoint failed: %s", exc)

    @staticmethod
    def _put_table(db: sqlite3.Connection, table: TableRecord, version: int) -> None:
        data = _dumps(table.to_json())
        db.execute("INSERT INTO table_record (id, data, version, crc) VALUES (1, ?, ?, ?) "
                   "ON CONFLICT(id) DO UPDATE SET data = excluded.data, version = excluded.version, crc = excluded.crc",
                   (data, version, _table_crc(data, version)))

    def _write(self, work: Any) -> None:
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            try:
                work(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
        except sqlite3.Error as exc:
            raise JournalError(f"cannot write the journal {self.path}: {exc}") from exc


def _crc(*parts: Any, start: int = 0) -> int:
    return zlib.crc32("\x1f".join("" if p is None else str(p) for p in parts).encode("utf-8", "surrogatepass"), start)


def _table_crc(data: str, version: int) -> int:
    return _crc(data, int(version))


def _game_crc(game_no: int, game: str, preset: str | None, settings: str, seed: int, n_seats: int, start_version: int) -> int:
    return _crc(int(game_no), game, preset, settings, int(seed), int(n_seats), int(start_version))


def _action_crc(previous: int, game_no: int, seat: int | None, action: str, version: int) -> int:
    return _crc(int(game_no), seat, action, int(version), start=previous)


def _check(stored: Any, computed: int, what: str) -> None:
    """A row written with a CRC must still match it (rows from before CRCs have none)."""
    if stored is not None and int(stored) != computed:
        raise CorruptJournal(f"{what} does not match its checksum (damaged on disk)")


def _add_checksum_columns(db: sqlite3.Connection) -> None:
    for table, column in _CHECKSUMS:
        columns = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER")


SIDECARS = ("-wal", "-shm")
ASIDE_STAMP = "%Y%m%d-%H%M%S"  # UTC, in the name of a journal set aside
_ASIDE_TIME = re.compile(r"\.[a-z]+-(\d{8}-\d{6})(?:-\d+)?$")


def move_aside(path: Path, why: str, now: float | None = None) -> Path:
    """Rename the journal (and its -wal / -shm files) to ``<name>.<why>-<UTC time>``."""
    stamp = time.strftime(ASIDE_STAMP, time.gmtime(now))
    target = path.with_name(f"{path.name}.{why}-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.{why}-{stamp}-{n}")
    for suffix in ("", *SIDECARS):
        part = Path(str(path) + suffix)
        if part.exists():
            part.rename(Path(str(target) + suffix))
    return target


@dataclass(frozen=True, slots=True)
class SetAside:
    """A journal moved aside: its file and -wal/-shm files, their size, and when it was set aside."""

    path: Path
    files: tuple[Path, ...]
    size: int
    at: float  # from the time in its name; the files' time when the name has none


def set_aside_journals(data_dir: Path, name: str = JOURNAL_NAME) -> list[SetAside]:
    """The journals set aside in ``data_dir``, oldest first (never the journal in use)."""
    groups: dict[str, list[Path]] = {}
    try:
        entries = list(data_dir.iterdir())
    except OSError:
        return []
    for entry in entries:
        if entry.name.startswith(name + ".") and entry.is_file():
            base = entry.name[:-len(SIDECARS[0])] if entry.name.endswith(SIDECARS) else entry.name
            groups.setdefault(base, []).append(entry)
    found = [_set_aside(data_dir / base, files) for base, files in groups.items()]
    return sorted((s for s in found if s is not None), key=lambda s: (s.at, s.path.name))


def _set_aside(path: Path, files: list[Path]) -> SetAside | None:
    try:
        stats = [f.stat() for f in files]
    except OSError:  # gone meanwhile
        return None
    match = _ASIDE_TIME.search(path.name)
    at = float(calendar.timegm(time.strptime(match.group(1), ASIDE_STAMP))) if match else \
        max(st.st_mtime for st in stats)
    return SetAside(path, tuple(sorted(files)), sum(st.st_size for st in stats), at)


def prune_set_aside(data_dir: Path, keep_days: int, keep_mb: int, now: float | None = None) -> list[Path]:
    """Delete journals set aside more than ``keep_days`` ago, then the oldest while together they
    take more than ``keep_mb``, as the archive is pruned. Returns the journals deleted."""
    now = time.time() if now is None else now
    aside = set_aside_journals(data_dir)
    total = sum(s.size for s in aside)
    deleted = []
    for entry in aside:  # oldest first
        if entry.at >= now - keep_days * 86_400 and total <= keep_mb * 1024 * 1024:
            continue
        for part in entry.files:
            part.unlink(missing_ok=True)
        total -= entry.size
        deleted.append(entry.path)
        log.info("a journal set aside on %s was deleted (keep_days %d, keep_mb %d)",
                 time.strftime("%Y-%m-%d", time.gmtime(entry.at)), keep_days, keep_mb)
    return deleted

QUIET_MS = 2_000  # no journal write for this long: a good moment for a checkpoint


class TableWrites:
    """The session's writes to its journal (nothing without one), and whether a quiet moment has
    come for a checkpoint (:data:`QUIET_MS` since the last write, with writes not yet folded in)."""

    def __init__(self, journal: Journal | None, clock: Callable[[], int]) -> None:
        self._journal = journal
        self._clock = clock
        self._last_ms = clock()
        self._unfolded = False  # writes since the last checkpoint

    def table(self, table: TableRecord, version: int, *, counts: bool = True) -> None:
        """Journal ``table`` as ``version`` (``counts``: a write that waits for a checkpoint)."""
        if self._journal is not None:
            self._journal.save_table(table, version)
            if counts:
                self._wrote()

    def action(self, game_no: int, seat: int | None, action: dict[str, Any], version: int) -> None:
        if self._journal is not None:
            self._journal.append_action(game_no, seat, action, version)
            self._wrote()

    def begin_game(self, table: TableRecord, seed: int, n: int, version: int) -> int:
        """The new game's number (without a journal: the one after the table's last)."""
        if self._journal is None:
            return (table.game_no or 0) + 1
        return self._journal.begin_game(table, table.game, table.preset, table.settings, seed, n, version)

    def checkpoint_if_quiet(self) -> None:
        if self._journal is not None and self._clock() - self._last_ms >= QUIET_MS and self._unfolded:
            self._journal.checkpoint()
            self._unfolded = False

    def _wrote(self) -> None:
        self._last_ms = self._clock()
        self._unfolded = True
