"""The HTTP server's door: a connection must finish its first request's headers
within ``header_s`` or it is closed, and one address holds at most ``per_address`` connections at
once. Without these, a device on the LAN that opens a thousand idle connections fills the table's
open-file limit and nobody can join. The table's own machine (loopback) is never capped.

aiohttp creates a connection handler per TCP connection and tells its ``web.Server`` about it
(``connection_made`` / ``connection_lost``); :meth:`ConnectionGuard.install` listens there.
Requests mark their connection through :func:`guard_middleware`. :meth:`ConnectionGuard.reap`
runs every second with the server's (injectable) clock.
"""
from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

HEADER_DEADLINE_S = 10.0
CONNECTIONS_PER_ADDRESS = 32  # a phone's browser uses about six
LOOPBACK = frozenset({"127.0.0.1", "::1"})


@dataclass(slots=True)
class Connection:
    address: str
    opened_at: float
    transport: Any
    requested: bool = False


class ConnectionGuard:
    def __init__(self, clock: Callable[[], float], *, header_s: float = HEADER_DEADLINE_S,
                 per_address: int = CONNECTIONS_PER_ADDRESS, exempt: frozenset[str] = LOOPBACK) -> None:
        self._clock = clock
        self.header_s, self.per_address, self.exempt = header_s, per_address, exempt
        self._open: dict[object, Connection] = {}
        self._per_address: Counter[str] = Counter()
        self.refused = 0
        self.reaped = 0

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

    def opened(self, handler: object, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self._open[handler] = Connection(address, self._clock(), transport)
        self._per_address[address] += 1
        if address not in self.exempt and self._per_address[address] > self.per_address:
            self.refused += 1
            if self.refused == 1 or self.refused % 100 == 0:
                log.warning("too many connections from %s: closing the newest (%d refused so far)", address, self.refused)
            transport.close()

    def closed(self, handler: object) -> None:
        conn = self._open.pop(handler, None)
        if conn is not None:
            self._per_address[conn.address] -= 1
            if self._per_address[conn.address] <= 0:
                del self._per_address[conn.address]

    def requested(self, handler: object) -> None:
        conn = self._open.get(handler)
        if conn is not None:
            conn.requested = True

    def reap(self) -> int:
        """Close the connections that have not sent a whole request's headers in time."""
        now = self._clock()
        late = [c for c in self._open.values() if not c.requested and now - c.opened_at >= self.header_s]
        for conn in late:
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
