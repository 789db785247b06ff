"""What kind of trouble an error was, for the owner's page: the page shows a translated sentence
per kind (``owner.kind.<kind>`` in the web strings) and the raw log message as a detail line.

Errors come from the program's ERROR log records (classified here by the module that logged
them and the message's template) and from events the keeper sees itself (the arcade board
unplugged, a journal moved aside at start-up).
"""
from __future__ import annotations

import enum
import logging


class ErrorKind(enum.StrEnum):
    JOURNAL_MOVED = "journal_moved"  # the saved table could not be read: kept aside, the table started fresh
    JOURNAL_WRITE = "journal_write"  # the table could not save (disk full or failing)
    WATCHDOG = "watchdog"  # the screen or the server stopped answering: systemd restarts the table
    ARCADE_UNPLUGGED = "arcade_unplugged"  # the arcade board went away: races on phones and keyboard
    BOT = "bot"  # a computer player failed: the game went on
    GAME = "game"  # a timer, race result or input the game could not apply
    PROGRAM = "program"  # anything else: the details are for support


def error_kind(record: logging.LogRecord) -> ErrorKind:
    """The kind of an ERROR log record (``PROGRAM`` when nothing here knows its template)."""
    template = str(record.msg)
    if record.name == "game.kiosk.supervise":
        return ErrorKind.WATCHDOG
    if record.name in ("game.session.journal", "game.server.runtime") and "moved" in template:
        return ErrorKind.JOURNAL_MOVED
    if "journal" in record.getMessage() or template.startswith("button mapping not saved"):
        return ErrorKind.JOURNAL_WRITE
    if template.startswith("bot at seat"):
        return ErrorKind.BOT
    if record.name.startswith("game.session."):
        return ErrorKind.GAME
    return ErrorKind.PROGRAM
