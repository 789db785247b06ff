"""Network noise: what other devices on the LAN do wrong, counted per kind and logged as one line
per kind per minute — never a traceback per connection, and never among the program's own errors
(the owner's "last errors").

* :class:`NetworkNoise` counts: :meth:`NetworkNoise.count` for each event, :meth:`NetworkNoise.flush`
  every second writes the lines that are due. :meth:`NetworkNoise.total` and
  :meth:`NetworkNoise.today` are what the owner's page and ``/metrics`` read.
* :func:`quiet_aiohttp_noise` installs the log filters that count aiohttp's and asyncio's records
  of such events on the active counters and drop them (a malformed request's "Error handling
  request" traceback, the ``AssertionError`` of a connection closed while it was being set up).
"""
from __future__ import annotations

import enum
import errno
import logging
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp.http_exceptions import HttpProcessingError

log = logging.getLogger(__name__)

LINE_EVERY_S = 60.0  # one log line per kind at most this often


class NoiseKind(enum.StrEnum):
    BAD_REQUEST = "bad_request"  # not HTTP, or HTTP the server cannot parse (answered 400, closed)
    OVER_CAP = "over_cap"  # a connection over its address's cap, or making room for others: closed
    HANDSHAKE_TIMEOUT = "handshake_timeout"  # no request headers, or no hello, within the deadline: closed
    DROPPED = "dropped"  # gone (or closed over a cap) before its WebSocket upgrade could be written


WORDS: dict[NoiseKind, str] = {
    NoiseKind.BAD_REQUEST: "bad requests",
    NoiseKind.OVER_CAP: "connections closed over a cap",
    NoiseKind.HANDSHAKE_TIMEOUT: "connections closed for silence (no headers or no hello in time)",
    NoiseKind.DROPPED: "connections gone before their upgrade was answered",
}


@dataclass(slots=True)
class _Tally:
    total: int = 0
    today: int = 0
    day: float = 0.0  # the local midnight ``today`` counts from
    unlogged: int = 0  # since the last line
    line_at: float | None = None  # monotonic time of the last line
    last_address: str = ""


def local_midnight(now: float) -> float:
    t = time.localtime(now)
    return float(int(now) - (t.tm_hour * 3600 + t.tm_min * 60 + t.tm_sec))


class NetworkNoise:
    """Counts of network noise per :class:`NoiseKind`: since start, and since local midnight.
    The first event of a kind is logged at once; later ones are summed into one WARNING line per
    kind per ``every_s`` (written by :meth:`count` or :meth:`flush`, whichever comes first)."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic, wall: Callable[[], float] = time.time,
                 midnight: Callable[[float], float] = local_midnight, every_s: float = LINE_EVERY_S,
                 logger: logging.Logger = log) -> None:
        self._clock, self._wall, self._midnight = clock, wall, midnight
        self._every_s = every_s
        self._log = logger
        self._tallies = {kind: _Tally() for kind in NoiseKind}

    def count(self, kind: NoiseKind, address: str = "") -> None:
        tally = self._tallies[kind]
        day = self._midnight(self._wall())
        if day != tally.day:
            tally.day, tally.today = day, 0
        tally.total += 1
        tally.today += 1
        tally.unlogged += 1
        tally.last_address = address or tally.last_address
        self._line_if_due(kind, tally)

    def flush(self, *, force: bool = False) -> None:
        """Write the lines that are due (``force``: every kind with something unlogged)."""
        for kind, tally in self._tallies.items():
            self._line_if_due(kind, tally, force=force)

    def total(self, kind: NoiseKind) -> int:
        return self._tallies[kind].total

    def today(self, kind: NoiseKind) -> int:
        """Since local midnight (0 when the last event was on an earlier day)."""
        tally = self._tallies[kind]
        return tally.today if tally.day == self._midnight(self._wall()) else 0

    def totals(self) -> dict[NoiseKind, int]:
        return {kind: tally.total for kind, tally in self._tallies.items()}

    def _line_if_due(self, kind: NoiseKind, tally: _Tally, *, force: bool = False) -> None:
        if tally.unlogged == 0:
            return
        now = self._clock()
        if not force and tally.line_at is not None and now - tally.line_at < self._every_s:
            return
        since = "" if tally.line_at is None else f" in the last {round(now - tally.line_at)} s"
        self._log.warning("network noise: %d %s%s (%d since start; the last from %s)", tally.unlogged,
                          WORDS[kind], since, tally.total, tally.last_address or "?")
        tally.unlogged, tally.line_at = 0, now


# ------------------------------------------------------------------------ aiohttp's records
_active: list[NetworkNoise] = []


class _NoiseFilter(logging.Filter):
    """Drops a record that is network noise (counting it on the active counters), and records
    below ``floor`` (the logger's own level before it was lowered to see aiohttp's debug-level
    record of a non-HTTP request)."""

    def __init__(self, classify: Callable[[logging.LogRecord], NoiseKind | None]) -> None:
        super().__init__()
        self._classify = classify
        self.floor = logging.NOTSET

    def filter(self, record: logging.LogRecord) -> bool:
        kind = self._classify(record)
        if kind is None:
            return record.levelno >= self.floor
        for noise in _active:
            noise.count(kind, _address(record))
        return False


def _address(record: logging.LogRecord) -> str:
    args = record.args
    return str(args[0]) if isinstance(args, tuple) and args else ""


def _bad_request_record(record: logging.LogRecord) -> NoiseKind | None:
    """aiohttp's "Error handling request from %s" for a request it could not parse (answered 400)."""
    exc = record.exc_info[1] if record.exc_info else None
    return NoiseKind.BAD_REQUEST if isinstance(exc, HttpProcessingError) else None


def _asyncio_record(record: logging.LogRecord) -> NoiseKind | None:
    """asyncio's "Task exception was never retrieved" for aiohttp's request handler task, whose
    connection was closed before the task started (an ``AssertionError`` in ``start()``); and its
    "socket.accept() out of system resource" (the open-file limit reached: the loop pauses
    accepting for a second)."""
    exc = record.exc_info[1] if record.exc_info else None
    if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM):
        return NoiseKind.OVER_CAP
    if not isinstance(exc, AssertionError):
        return None
    frames = traceback.extract_tb(exc.__traceback__)
    return NoiseKind.OVER_CAP if any(f.filename.endswith("web_protocol.py") for f in frames) else None


_FILTERS = {"aiohttp.server": _NoiseFilter(_bad_request_record), "asyncio": _NoiseFilter(_asyncio_record)}
_levels: dict[str, int] = {}  # the loggers' own levels, restored when the last counter goes


def quiet_aiohttp_noise(noise: NetworkNoise) -> Callable[[], None]:
    """Route aiohttp's and asyncio's noise records to ``noise`` (and out of the log and the owner's
    errors); returns the function that undoes it. aiohttp logs a request that is not HTTP at all
    at DEBUG: its logger is opened to DEBUG while installed, and the filter drops what the
    logger's own level would have."""
    _active.append(noise)
    for name, noise_filter in _FILTERS.items():
        logger = logging.getLogger(name)
        if noise_filter not in logger.filters:
            _levels[name] = logger.level
            noise_filter.floor = logger.getEffectiveLevel()
            logger.setLevel(logging.DEBUG)
            logger.addFilter(noise_filter)

    def undo() -> None:
        if noise in _active:
            _active.remove(noise)
        if not _active:
            for name, noise_filter in _FILTERS.items():
                logger = logging.getLogger(name)
                logger.removeFilter(noise_filter)
                logger.setLevel(_levels.pop(name, logger.level))

    return undo
