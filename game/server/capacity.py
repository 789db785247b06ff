"""How many WebSockets the table can hold, from the process's open-file limit.

Every socket is an open file. At start-up :func:`raise_fd_limit` lifts the soft ``RLIMIT_NOFILE``
towards the hard one (never failing if it cannot), and :func:`size_sockets` shares what the limit
allows: seated phones and host links always keep their reserve, sockets that have not said hello
yet get a little room, and spectators get the rest up to ``MAX_SPECTATORS``, after a headroom for
the journal, HTTP requests being served, fonts, logs and the arcade serial port.
"""
from __future__ import annotations

import logging
import resource
from collections.abc import Callable

from .hub import MAX_SPECTATORS, SEAT_RESERVE, SocketLimits

log = logging.getLogger(__name__)

HELLO_ROOM = 64  # sockets that have not said hello yet (a phone says it at once)
FD_HEADROOM = 200  # the journal (db, -wal, -shm), HTTP requests in flight, fonts, logs, serial port, stdio
ACCEPT_BURST = 2 * 128  # connections the loop accepts before the guard hears of them (2 turns of the backlog)
FD_WANTED = 4096  # the soft limit asked for: comfortably above everything above

GetLimit = Callable[[int], tuple[int, int]]
SetLimit = Callable[[int, tuple[int, int]], None]


def raise_fd_limit(wanted: int = FD_WANTED, *, get: GetLimit = resource.getrlimit,
                   set_: SetLimit = resource.setrlimit) -> int:
    """Raise the soft open-file limit to ``wanted`` (or the hard limit, if lower); returns the soft
    limit in force afterwards. Never raises: a limit that cannot be changed is logged and kept."""
    soft, hard = get(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            set_(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError) as exc:
            log.warning("open-file limit stays at %d (could not raise it to %d: %s)", soft, target, exc)
            return soft
        log.info("open-file limit raised from %d to %d (hard limit %s)", soft, target, _shown(hard))
        return target
    log.info("open-file limit is %s (hard limit %s)", _shown(soft), _shown(hard))
    return soft


def current_fd_limit(get: GetLimit = resource.getrlimit) -> int:
    soft, _ = get(resource.RLIMIT_NOFILE)
    return FD_WANTED if soft == resource.RLIM_INFINITY else soft


def size_sockets(fd_limit: int, *, spectators: int = MAX_SPECTATORS, seat_reserve: int = SEAT_RESERVE,
                 hello_room: int = HELLO_ROOM, headroom: int = FD_HEADROOM) -> SocketLimits:
    """The socket caps an open-file limit of ``fd_limit`` allows. The seat reserve and the hello
    room are kept whatever the limit; spectators get what is left after ``headroom``, at most
    ``spectators``."""
    room = fd_limit - headroom - seat_reserve - hello_room
    gallery = max(0, min(spectators, room))
    return SocketLimits(total=seat_reserve + hello_room + gallery, spectators=gallery, seat_reserve=seat_reserve)


def connection_room(fd_limit: int, headroom: int = FD_HEADROOM, burst: int = ACCEPT_BURST) -> int:
    """TCP connections the table holds at once (WebSockets included) under an open-file limit of
    ``fd_limit``: what ``headroom`` and an accept ``burst`` leave. The connection guard makes room
    within it, so accepting a connection never fails for want of a file."""
    return max(2 * HELLO_ROOM, fd_limit - headroom - burst)


def _shown(limit: int) -> str:
    return "unlimited" if limit == resource.RLIM_INFINITY else str(limit)
