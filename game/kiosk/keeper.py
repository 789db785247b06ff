"""The kiosk's housekeeper: a session listener that writes each game's start and end to the
archive, moves finished games out of the journal, prunes the archive, rotates the log files and
keeps the last errors for the owner's page.

Everything touching the journal or the archive runs on the session's loop thread (as listener
calls and a periodic chore); log records from other threads are queued and written from there.
"""
from __future__ import annotations

import collections
import json
import logging
import logging.handlers
from pathlib import Path
from typing import Any

from game.records import HUMAN, UNKNOWN
from game.session.api import ARCADE_UNPLUGGED, Journal, NoticeCode, Session, prune_set_aside

from .archive import Archive, Outcome, archived_record
from .config import DiskLimits
from .incidents import ErrorKind, error_kind

log = logging.getLogger(__name__)

LOG_NAME = "tabletop.log"
SEEN_EVERY_S = 60.0  # how often the run's "last seen" time is saved (crash times on the owner's page)


class ErrorQueue(logging.Handler):
    """Keeps ERROR records (from any thread), as (kind, message), until the keeper writes them to
    the archive."""

    def __init__(self, capacity: int = 50) -> None:
        super().__init__(logging.ERROR)
        self.pending: collections.deque[tuple[ErrorKind, str]] = collections.deque(maxlen=capacity)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.pending.append((error_kind(record), record.getMessage()))
        except Exception:  # a logging handler must never raise into the caller
            self.handleError(record)


def rotating_log(data_dir: Path, limits: DiskLimits) -> logging.Handler:
    """The kiosk's log file: ``logs/tabletop.log``, rotated at ``log_mb``, ``log_files`` kept."""
    folder = data_dir / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(folder / LOG_NAME, maxBytes=limits.log_mb * 1024 * 1024,
                                                   backupCount=limits.log_files, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler


class KioskKeeper:
    """See module docs. ``attach()`` once the session is booted; ``close()`` when the table stops."""

    def __init__(self, session: Session, journal: Journal | None, archive: Archive, limits: DiskLimits) -> None:
        self.session = session
        self.journal = journal
        self.archive = archive
        self.limits = limits
        self.errors = ErrorQueue()
        self._kinds: dict[int, list[str]] = {}  # game_no -> "human" / "bot:<kind>" per seat
        self._unplugged = False  # the screen's "arcade board unplugged" notice is up

    def attach(self, journal_moved: str | None = None) -> None:
        """``journal_moved``: the message of a journal moved aside at start-up (logged before this)."""
        self.archive.open_run()
        if journal_moved:
            self.archive.add_error(journal_moved, ErrorKind.JOURNAL_MOVED)
        logging.getLogger().addHandler(self.errors)
        self._close_lost_games()
        self._resumed_kinds()
        self.tidy()
        self.session.attach(self)

    def close(self) -> None:
        self.session.detach(self)
        logging.getLogger().removeHandler(self.errors)
        self.flush_errors()
        self.archive.close_run()
        self.archive.close()

    # ------------------------------------------------------------------ session listener
    def table_changed(self) -> None:
        unplugged = ARCADE_UNPLUGGED in self.session.notices
        if unplugged and not self._unplugged:
            self.errors.pending.append((ErrorKind.ARCADE_UNPLUGGED, "arcade board lost: races use phones and keyboard"))
        self._unplugged = unplugged

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        pass

    def notice(self, code: NoticeCode) -> None:
        if code is NoticeCode.GAME_STARTED:
            self._started()
        elif code is NoticeCode.GAME_FINISHED:
            self._ended(Outcome.FINISHED)
        elif code is NoticeCode.TABLE_RESET:
            self._ended(Outcome.ABORTED)
        elif code is NoticeCode.NEW_GROUP:  # handed over: after the results, or idle mid-game
            self._ended(Outcome.IDLE)

    # --------------------------------------------------------------------------- chores
    def chore(self) -> None:
        """Periodic: the run is alive, queued errors saved, the archive's WAL folded in."""
        self.archive.seen()
        self.flush_errors()
        self.archive.checkpoint()

    def flush_errors(self) -> None:
        while self.errors.pending:
            kind, text = self.errors.pending.popleft()
            self.archive.add_error(text, kind)

    def tidy(self) -> None:
        """Move every game but the table's own out of the journal into the archive, then prune the
        archive and the journals set aside as damaged."""
        if self.journal is not None:
            for game_no in _journal_games(self.journal):
                if game_no != self.session.table.game_no:
                    self._archive_from_journal(game_no)
        self.archive.prune(self.limits)
        if self.journal is not None:
            prune_set_aside(self.journal.path.parent, self.limits.keep_days, self.limits.keep_mb, self.archive.clock())

    # ------------------------------------------------------------------------- internals
    def _started(self) -> None:
        run, table = self.session.run, self.session.table
        if run is None:
            return
        kinds = self._kinds[run.game_no] = _seat_kinds(self.session)
        self.archive.game_started(run.game_no, table.game, table.preset, run.n_seats, kinds.count(HUMAN), kinds)
        self.tidy()

    def _resumed_kinds(self) -> None:
        """A game resumed after a restart: its seats' kinds from the table the journal rebuilt (the
        archive has them too, unless it started before it kept them)."""
        run = self.session.run
        if run is not None and run.game_no == self.session.table.game_no:
            self._kinds[run.game_no] = self.archive.kinds(run.game_no) or _seat_kinds(self.session)

    def _ended(self, outcome: str) -> None:
        """The latest open game ends with ``outcome``; any older open one was lost in a crash."""
        open_games = self.archive.open_games()
        for game_no in open_games:
            self.archive.game_ended(game_no, outcome if game_no == open_games[-1] else Outcome.CRASHED)

    def _close_lost_games(self) -> None:
        """Games the archive saw start but never end, and the journal no longer plays: the program
        stopped during them (crash, power cut) and the table did not resume them."""
        for game_no in self.archive.open_games():
            if game_no != self.session.table.game_no:
                self.archive.game_ended(game_no, Outcome.CRASHED)

    def _archive_from_journal(self, game_no: int) -> None:
        assert self.journal is not None
        db = self.journal.db
        row = db.execute("SELECT game, preset, settings, seed, n_seats FROM games WHERE game_no = ?",
                         (game_no,)).fetchone()
        if row is None:
            return
        actions = [(None if seat is None else int(seat), json.loads(action)) for seat, action in
                   db.execute("SELECT seat, action FROM actions WHERE game_no = ? ORDER BY id", (game_no,))]
        kinds = self._kinds.pop(game_no, None) or self.archive.kinds(game_no) or [UNKNOWN] * int(row[4])
        record = archived_record(str(row[0]), row[1], json.loads(row[2]), int(row[4]), int(row[3]), actions, kinds)
        if not self.archive.knows(game_no):  # played before the keeper ran
            self.archive.game_started(game_no, str(row[0]), row[1], int(row[4]), kinds.count(HUMAN), kinds)
        self.archive.game_ended(game_no, Outcome.CRASHED, record)  # the outcome is kept if already set
        _forget_game(self.journal, game_no)


def _seat_kinds(session: Session) -> list[str]:
    """Each seat's player kind in the game in play: "human", or "bot:<kind>"."""
    run, table = session.run, session.table
    seats = table.offered[: run.n_seats] if run is not None else table.offered
    return [f"bot:{r.bot.value}" if r.bot is not None else HUMAN for r in seats]


def _journal_games(journal: Journal) -> list[int]:
    return [int(r[0]) for r in journal.db.execute("SELECT game_no FROM games ORDER BY game_no")]


def _forget_game(journal: Journal, game_no: int) -> None:
    """Delete a game (now archived) from the journal, in one transaction."""
    db: Any = journal.db
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("DELETE FROM actions WHERE game_no = ?", (game_no,))
        db.execute("DELETE FROM games WHERE game_no = ?", (game_no,))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")
