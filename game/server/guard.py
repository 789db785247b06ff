"""The HTTP server's door: a connection must finish its first request's headers
within ``header_s`` or it is closed, and one address holds at most ``per_address`` connections at
once. Without these, a device on the LAN that opens a thousand idle connections fills the table's
open-file limit and nobody can join. The table's own machine (loopback) is never capped.

The table holds at most ``room`` connections (sized from the open-file limit, so accepting never
fails for want of a file). Trusted addresses (loopback, and the addresses of seated phones and the
host: ``trusted``) always get in: ``reserve`` of the room is theirs. Strangers share the rest: when
it is full, the oldest connection that has not sent a request yet, from the address holding the
most connections, is closed to make room, so many idle addresses each keep a fair few and a phone
that has just connected (and is sending its request) is never the one closed. Every connection
closed this way, over an address's cap or for silence is counted as network noise
(:mod:`game.server.noise`), never logged one by one.

aiohttp creates a connection handler per TCP connection and tells its ``web.Server`` about it
(``connection_made`` / ``connection_lost``); :meth:`ConnectionGuard.install` listens there.
Requests mark their connection through :func:`guard_middleware`. :meth:`ConnectionGuard.reap`
runs every second with the server's (injectable) clock.
"""
from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .noise import NetworkNoise, NoiseKind

log = logging.getLogger(__name__)

HEADER_DEADLINE_S = 10.0
CONNECTIONS_PER_ADDRESS = 32  # a phone's browser uses about six
LOOPBACK = frozenset({"127.0.0.1", "::1"})
ROOM = 3800  # connections at once when the open-file limit is not known (capacity.connection_room)
TRUSTED_RESERVE = 128  # of the room, kept for seated phones, the host and the table's own machine


@dataclass(slots=True)
class Connection:
    address: str
    opened_at: float
    transport: Any
    requested: bool = False
    stranger: bool = True


def _nobody(address: str) -> bool:
    return False


class ConnectionGuard:
    def __init__(self, clock: Callable[[], float], *, header_s: float = HEADER_DEADLINE_S,
                 per_address: int = CONNECTIONS_PER_ADDRESS, exempt: frozenset[str] = LOOPBACK,
                 room: int = ROOM, reserve: int = TRUSTED_RESERVE, trusted: Callable[[str], bool] = _nobody,
                 noise: NetworkNoise | None = None) -> None:
        self._clock = clock
        self.header_s, self.per_address, self.exempt = header_s, per_address, exempt
        self.room, self.reserve = room, min(reserve, room // 2)
        self._trusted = trusted
        self.noise = noise or NetworkNoise()
        self._open: dict[object, Connection] = {}  # in the order they opened
        self._per_address: Counter[str] = Counter()
        self._strangers = 0  # open connections from addresses neither exempt nor trusted when they opened
        self._silent: dict[str, dict[object, Connection]] = {}  # strangers' connections with no request yet, oldest first
        self.refused = 0
        self.reaped = 0
        self.evicted = 0

    def install(self, server: web.Server) -> None:
        """Listen to ``server``'s connections (call once, after the runner's setup)."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: Any) -> None:
            made(handler, transport)
            self.opened(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self.closed(handler)
            lost(handler, exc)

        setattr(server, "connection_made", connection_made)  # noqa: B010 (an instance's hook, not a class's)
        setattr(server, "connection_lost", connection_lost)  # noqa: B010

    def trusts(self, address: str) -> bool:
        """Loopback, or the address of a seated phone or the host (never capped, never evicted)."""
        return address in self.exempt or self._trusted(address)

    def opened(self, handler: object, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        trusted = self.trusts(address)
        conn = Connection(address, self._clock(), transport, stranger=not trusted)
        self._open[handler] = conn
        self._per_address[address] += 1
        self._strangers += conn.stranger
        if conn.stranger:
            self._silent.setdefault(address, {})[handler] = conn
        if not trusted and self._per_address[address] > self.per_address:
            self._refuse(conn)
            return
        full = len(self._open) > self.room or (not trusted and self._strangers > self.room - self.reserve)
        if full and not self._make_room(conn) and not trusted:
            self._refuse(conn)

    def _refuse(self, conn: Connection) -> None:
        """Close a connection being set up: after aiohttp has started its handler (closing it inside
        ``connection_made`` fails the handler's task with an ``AssertionError``)."""
        self.refused += 1
        self.noise.count(NoiseKind.OVER_CAP, conn.address)
        self._heard(conn)  # never evicted or reaped again: it is closing
        asyncio.get_running_loop().call_soon(conn.transport.close)

    def _make_room(self, newcomer: Connection) -> bool:
        """Close the oldest silent stranger connection of the address holding the most connections
        (not ``newcomer``); False when there is none."""
        candidates = [a for a, conns in self._silent.items()
                      if len(conns) > 1 or (conns and newcomer not in conns.values())]
        if not candidates:
            return False
        busiest = max(candidates, key=lambda a: self._per_address[a])
        victim = next(c for c in self._silent[busiest].values() if c is not newcomer)
        self.evicted += 1
        self.noise.count(NoiseKind.OVER_CAP, victim.address)
        self._heard(victim)
        victim.transport.close()
        return True

    def _heard(self, conn: Connection) -> None:
        """``conn`` is no longer silent (it sent a request, or it is closing)."""
        conn.requested = True
        conns = self._silent.get(conn.address)
        if conns is not None:
            for handler, c in conns.items():
                if c is conn:
                    del conns[handler]
                    break
            if not conns:
                del self._silent[conn.address]

    def closed(self, handler: object) -> None:
        conn = self._open.pop(handler, None)
        if conn is not None:
            self._heard(conn)
            self._strangers -= conn.stranger
            self._per_address[conn.address] -= 1
            if self._per_address[conn.address] <= 0:
                del self._per_address[conn.address]

    def requested(self, handler: object) -> None:
        conn = self._open.get(handler)
        if conn is not None and not conn.requested:
            self._heard(conn)

    def reap(self) -> int:
        """Close the connections that have not sent a whole request's headers in time."""
        now = self._clock()
        late = [c for c in self._open.values() if not c.requested and now - c.opened_at >= self.header_s]
        for conn in late:
            self.noise.count(NoiseKind.HANDSHAKE_TIMEOUT, conn.address)
            conn.transport.close()
        self.reaped += len(late)
        return len(late)

    def connections(self, address: str) -> int:
        return self._per_address.get(address, 0)


def guard_middleware(guard: ConnectionGuard) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Marks a request's connection as one that finished its headers (it is not reaped)."""

    @web.middleware
    async def mark(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        guard.requested(request.protocol)
        return await handler(request)

    return mark

