"""The HTTP server's door: a connection must finish its first request's headers
within ``header_s`` or it is closed, and every address (the table's own machine, loopback, aside)
lives within budgets that nobody is exempt from — not the address of a seated phone or the host
either, since a seated guest is as able to flood as anyone:

- at most ``per_address`` connections at once that have not proved themselves;
- at most ``silent_per_address`` of them *silent* (no request yet: half-open); while it holds
  that many, a new one is reset at the door (a phone sends its request as it connects); without a
  door in front (tests' servers) the address's own oldest silent connection makes room instead;
- at most ``rate`` new connection attempts a second (a burst of ``burst``); over it the address is
  refused outright for a back-off that doubles while it keeps coming (:class:`Pace`), and the
  kernel drops its attempts meanwhile (:class:`_Listener`).

A connection *proves* itself when its WebSocket says hello as a seated phone (its device key) or
the host (the PIN): the hub tells the guard (:meth:`ConnectionGuard.prove`). A proven connection
leaves its address's budgets, is never evicted and draws on ``reserve``: the seated phone's own
socket is reserved by its device key, never by its address.

The table holds at most ``room`` connections (sized from the open-file limit, so accepting never
fails for want of a file); unproven connections share ``room − reserve``: when it is full, the
oldest silent connection of the address holding the most connections is closed to make room, so
many idle addresses each keep a fair few and a phone that has just connected (and is sending its
request) is never the one closed. Every connection closed this way, over a budget or for silence
is counted as network noise (:mod:`game.server.noise`), never logged one by one. A refused
connection is aborted on the next loop turn (no request read, no upgrade, no reply written).

aiohttp creates a connection handler per TCP connection and tells its ``web.Server`` about it
(``connection_made`` / ``connection_lost``); :meth:`ConnectionGuard.install` listens there.
Requests mark their connection through :func:`guard_middleware`. :meth:`ConnectionGuard.reap`
runs every second with the server's (injectable) clock.
"""
from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ipaddress
import logging
import socket
import struct
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from .heap import drop_cycles
from .noise import NetworkNoise, NoiseKind

log = logging.getLogger(__name__)

HEADER_DEADLINE_S = 10.0
CONNECTIONS_PER_ADDRESS = 32  # a phone's browser uses about six
SILENT_PER_ADDRESS = 8  # of them without a request yet (a browser opens about six at once, each asks at once)
RATE_PER_S = 20.0  # new connections a second from one address (a page load opens a handful)
RATE_BURST = 40.0
BACKOFF_S = (0.5, 30.0)  # an address over its rate is refused for the first, doubling up to the last
LOOPBACK = frozenset({"127.0.0.1", "::1"})
ROOM = 3800  # connections at once when the open-file limit is not known (capacity.connection_room)
TRUSTED_RESERVE = 128  # of the room, kept for proven sockets (seated phones, the host) and the table's own machine
LISTEN_BACKLOG = 4096  # connections the kernel queues for the loop (capped by net.core.somaxconn): a burst waits, never dropped
RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: close() sends a reset, nothing lingers
FILTER_EVERY_S = 0.25  # how often the kernel's filter is brought up to date (back-offs end)
FILTER_MOST = 200  # addresses the kernel's filter holds (a jump in classic BPF reaches 255 further at most)
SO_ATTACH_FILTER, SO_DETACH_FILTER = 26, 27  # Linux <asm-generic/socket.h>
BPF_LD_W_ABS, BPF_JEQ_K, BPF_RET_K = 0x20, 0x15, 0x06  # ld [k]; jeq #k; ret #k
SKF_NET_OFF = -0x100000 & 0xFFFFFFFF  # offsets from the network (IP) header, whatever the socket's layer


@dataclass(slots=True)
class Connection:
    address: str
    opened_at: float
    transport: Any
    requested: bool = False
    stranger: bool = True  # not proven (nor loopback): within its address's budgets and the shared room


class Pace:
    """New connections per address: a token bucket (``rate`` a second, ``burst`` at once); an
    address that runs it dry is refused for ``BACKOFF_S[0]``, twice as long each time it comes
    back too soon, up to ``BACKOFF_S[1]``, and starts again from an empty bucket (a flood that
    waited out its back-off gets no burst); forgiven once it has been within its rate for a while."""

    def __init__(self, clock: Callable[[], float], rate: float = RATE_PER_S, burst: float = RATE_BURST,
                 keep: int = 4096) -> None:
        self._clock, self.rate, self.burst, self._keep = clock, rate, burst, keep
        self._buckets: dict[str, tuple[float, float, float, int]] = {}  # address: (tokens, at, blocked until, strikes)

    def allow(self, address: str) -> bool:
        """Spend one of ``address``'s connections; False: refuse it (it is over its rate or backing off)."""
        now = self._clock()
        tokens, at, until, strikes = self._buckets.pop(address, (self.burst, now, 0.0, 0))
        tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
        if now < until or tokens < 1.0:
            if now >= until:  # a fresh over-run: the back-off starts, longer after each
                strikes += 1
                until = now + min(BACKOFF_S[1], BACKOFF_S[0] * 2.0 ** (strikes - 1))
            # empty until the back-off ends, then refilling at its rate: no burst the moment it ends
            self._keep_entry(address, (0.0, until, until, strikes))
            return False
        if tokens >= self.burst - 1.0 and now - at > BACKOFF_S[1]:
            strikes = 0  # within its rate for a while: forgiven
        self._keep_entry(address, (tokens - 1.0, now, until, strikes))
        return True

    def _keep_entry(self, address: str, entry: tuple[float, float, float, int]) -> None:
        self._buckets[address] = entry  # newest last: the oldest are forgotten first
        while len(self._buckets) > self._keep:
            del self._buckets[next(iter(self._buckets))]

    def forget_idle(self) -> int:
        """Drop the addresses a fresh entry would stand for (bucket full again, back-off over,
        strikes forgiven): after a flood the table shrinks back instead of keeping its thousands of
        addresses (and the memory they pin) until others push them out. Returns how many went."""
        now = self._clock()
        idle = [a for a, (tokens, at, until, _) in self._buckets.items()
                if now >= until and now - at > BACKOFF_S[1] and tokens + (now - at) * self.rate >= self.burst]
        for address in idle:
            del self._buckets[address]
        return len(idle)

    def wait_s(self, address: str) -> float:
        entry = self._buckets.get(address)
        return max(0.0, entry[2] - self._clock()) if entry is not None else 0.0

    def blocked(self, most: int) -> frozenset[str]:
        """The addresses backing off now (the ``most`` longest), for the kernel's filter."""
        now = self._clock()
        waiting = sorted(((until, a) for a, (_, _, until, _) in self._buckets.items() if until > now), reverse=True)
        return frozenset(a for _, a in waiting[:most])


class _Door(asyncio.Protocol):
    """A connection the door let in, until aiohttp's handler takes it over (from then on the handler
    gets every event of the transport)."""

    def __init__(self, guard: ConnectionGuard, server: Callable[[], asyncio.Protocol]) -> None:
        self._guard, self._server = guard, server

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        handler = self._server()
        transport.set_protocol(handler)
        self._guard.through_door(handler, transport)


class _Listener:
    """The listening socket, read by the loop: each connection the kernel queued is accepted at
    once and asked at the guard's door; a refused one is reset on the spot (no transport, no task,
    nothing read or written). An address backing off is also kept out by the kernel: a socket
    filter on the listening socket drops its new connections' first packets (:func:`syn_filter`),
    so a flood costs the loop nothing while it lasts and the kernel's queue never overflows (an
    overflow drops a phone's connection attempt for a second or more)."""

    BATCH = 2048  # accepts per turn of the loop, then the loop's other work

    def __init__(self, sock: socket.socket, guard: ConnectionGuard, server: Callable[[], asyncio.Protocol]) -> None:
        self.sockets = [sock]
        self._guard, self._server = guard, server
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(sock.fileno(), self._accept)
        self._filtered: frozenset[str] = frozenset()
        self._refresh: asyncio.TimerHandle | None = self._loop.call_later(FILTER_EVERY_S, self._keep_filter)

    def _accept(self) -> None:
        sock = self.sockets[0]
        for _ in range(self.BATCH):
            try:
                conn, peer = sock.accept()
            except (BlockingIOError, InterruptedError):
                break
            except OSError as exc:  # out of files (EMFILE) or the like: the kernel keeps the rest queued
                log.warning("accept failed: %s", exc)
                break
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if not self._guard.door(address):
                conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
                conn.close()
                continue
            conn.setblocking(False)
            self._loop.create_task(self._loop.connect_accepted_socket(lambda: _Door(self._guard, self._server), conn))
        self._filter()

    def _keep_filter(self) -> None:
        self._filter()
        self._refresh = self._loop.call_later(FILTER_EVERY_S, self._keep_filter)

    def _filter(self) -> None:
        """Keep the kernel's filter to the addresses backing off now (none: no filter)."""
        blocked = self._guard.pace.blocked(FILTER_MOST)
        if blocked == self._filtered or self.sockets[0].family != socket.AF_INET:  # the filter reads IPv4 headers
            return
        self._filtered = blocked
        with contextlib.suppress(OSError, ValueError):  # no socket filters here: the door alone still holds
            sock = self.sockets[0]
            if blocked:
                program = syn_filter(blocked)  # alive until the kernel has copied it
                sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, program.fprog)
            else:
                sock.setsockopt(socket.SOL_SOCKET, SO_DETACH_FILTER, 0)

    def close(self) -> None:
        sock = self.sockets[0]
        if self._refresh is not None:
            self._refresh.cancel()
        self._loop.remove_reader(sock.fileno())
        sock.close()


@dataclass(frozen=True)
class SynFilter:
    """A classic BPF program for ``SO_ATTACH_FILTER`` and the buffer it lives in."""

    buffer: Any
    fprog: bytes


def syn_filter(addresses: frozenset[str]) -> SynFilter:
    """A socket filter that drops packets from ``addresses`` (IPv4, at most :data:`FILTER_MOST`) and
    keeps all others: load the source address from the IP header, compare it with each, drop on
    a match. On a listening socket the kernel runs it on each new connection's first packet."""
    ips = [int(ipaddress.IPv4Address(a)) for a in sorted(addresses) if _ipv4(a)][:FILTER_MOST]
    n = len(ips)
    code = [struct.pack("HBBI", BPF_LD_W_ABS, 0, 0, SKF_NET_OFF + 12)]
    code += [struct.pack("HBBI", BPF_JEQ_K, n - i, 0, ip) for i, ip in enumerate(ips)]  # on a match: the drop below
    code += [struct.pack("HBBI", BPF_RET_K, 0, 0, 0xFFFFFFFF), struct.pack("HBBI", BPF_RET_K, 0, 0, 0)]
    buffer = ctypes.create_string_buffer(b"".join(code))
    return SynFilter(buffer, struct.pack("HL", len(code), ctypes.addressof(buffer)))


def _ipv4(address: str) -> bool:
    try:
        ipaddress.IPv4Address(address)
    except ValueError:
        return False
    return True


class GuardedSite(web.TCPSite):
    """A TCP site whose connections pass the guard's door first (:meth:`ConnectionGuard.door`), with
    a listen backlog deep enough for a burst of phones."""

    def __init__(self, runner: web.BaseRunner, guard: ConnectionGuard, host: str | None, port: int, **kwargs: Any) -> None:
        super().__init__(runner, host, port, backlog=LISTEN_BACKLOG, **kwargs)
        self._guard = guard

    async def start(self) -> None:
        await web.BaseSite.start(self)  # registers the site with its runner
        server = self._runner.server
        assert server is not None
        host = self._host or "0.0.0.0"
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.create_server((host, self._port), family=family, backlog=self._backlog,
                                    reuse_port=bool(self._reuse_port))
        sock.setblocking(False)
        # the runner only calls close() and reads sockets
        self._server = _Listener(sock, self._guard, server)  # type: ignore[assignment]
        self._bound_port = sock.getsockname()[1]


class ConnectionGuard:
    def __init__(self, clock: Callable[[], float], *, header_s: float = HEADER_DEADLINE_S,
                 per_address: int = CONNECTIONS_PER_ADDRESS, silent_per_address: int = SILENT_PER_ADDRESS,
                 exempt: frozenset[str] = LOOPBACK, room: int = ROOM, reserve: int = TRUSTED_RESERVE,
                 pace: Pace | None = None, noise: NetworkNoise | None = None) -> None:
        self._clock = clock
        self.header_s, self.per_address, self.exempt = header_s, per_address, exempt
        self.silent_per_address = silent_per_address
        self.room, self.reserve = room, min(reserve, room // 2)
        self.pace = pace or Pace(clock)
        self.noise = noise or NetworkNoise()
        self._open: dict[object, Connection] = {}  # in the order they opened
        self._per_address: Counter[str] = Counter()  # unproven connections per address
        self._strangers = 0  # open unproven connections (loopback aside)
        self._silent: dict[str, dict[object, Connection]] = {}  # strangers' connections with no request yet, oldest first
        self.refused = 0
        self.reaped = 0
        self.evicted = 0
        self._doored = False  # the connection being set up came through the door (already counted)

    def install(self, server: web.Server) -> None:
        """Listen to ``server``'s connections (call once, after the runner's setup)."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: Any, transport: Any) -> None:
            made(handler, transport)
            self.opened(handler, transport)

        def connection_lost(handler: Any, exc: BaseException | None = None) -> None:
            self.closed(handler)
            lost(handler, exc)
            drop_cycles(handler, getattr(handler, "transport", None))  # freed now, not at a full pass

        setattr(server, "connection_made", connection_made)  # noqa: B010 (an instance's hook, not a class's)
        setattr(server, "connection_lost", connection_lost)  # noqa: B010

    def door(self, address: str) -> bool:
        """May a new connection from ``address`` come in? Not when it is over its rate (or backing
        off) or holds its ``per_address`` connections already; a refusal is counted."""
        if address in self.exempt:
            return True
        paced = self.pace.allow(address)  # every attempt spends from its rate: a hammering address backs off
        if paced and self._per_address[address] < self.per_address and len(self._silent.get(address, ())) < self.silent_per_address:
            return True
        self.refused += 1
        self.noise.count(NoiseKind.OVER_CAP, address)
        return False

    def through_door(self, handler: Any, transport: Any) -> None:
        """aiohttp's ``handler`` takes over a connection the door let in."""
        self._doored = True
        try:
            handler.connection_made(transport)
        finally:
            self._doored = False

    def opened(self, handler: object, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        stranger = address not in self.exempt
        if stranger and not self._doored and not self.door(address):  # no door in front (tests' servers)
            self._refuse(Connection(address, self._clock(), transport))
            return
        conn = Connection(address, self._clock(), transport, stranger=stranger)
        self._open[handler] = conn
        if not stranger:
            return
        self._per_address[address] += 1
        self._strangers += 1
        self._silent.setdefault(address, {})[handler] = conn
        own = self._silent[address]
        if len(own) > self.silent_per_address:  # its own oldest silent connection makes room
            self._evict(next(c for c in own.values() if c is not conn))
        full = len(self._open) > self.room or self._strangers > self.room - self.reserve
        if full and not self._make_room(conn):
            self._refuse(conn)

    def prove(self, handler: object) -> None:
        """``handler``'s connection carries a seated phone's or the host's socket: out of its
        address's budgets and the shared room, never evicted (it draws on the reserve)."""
        conn = self._open.get(handler)
        if conn is None or not conn.stranger:
            return
        self._heard(conn)
        conn.stranger = False
        self._strangers -= 1
        self._uncount(conn.address)

    def _uncount(self, address: str) -> None:
        self._per_address[address] -= 1
        if self._per_address[address] <= 0:
            del self._per_address[address]

    def _refuse(self, conn: Connection) -> None:
        """Drop a connection being set up, cheaply: aborted (no FIN handshake, nothing written)
        after aiohttp has started its handler (closing it inside ``connection_made`` fails the
        handler's task with an ``AssertionError``). Counted by :meth:`door` when it refused."""
        if conn.stranger and conn in self._open.values():
            self.refused += 1
            self.noise.count(NoiseKind.OVER_CAP, conn.address)
        self._heard(conn)  # never evicted or reaped again: it is closing
        asyncio.get_running_loop().call_soon(conn.transport.abort)

    def _make_room(self, newcomer: Connection) -> bool:
        """Close the oldest silent stranger connection of the address holding the most connections
        (not ``newcomer``); False when there is none."""
        candidates = [a for a, conns in self._silent.items()
                      if len(conns) > 1 or (conns and newcomer not in conns.values())]
        if not candidates:
            return False
        busiest = max(candidates, key=lambda a: self._per_address[a])
        self._evict(next(c for c in self._silent[busiest].values() if c is not newcomer))
        return True

    def _evict(self, victim: Connection) -> None:
        self.evicted += 1
        self.noise.count(NoiseKind.OVER_CAP, victim.address)
        self._heard(victim)
        victim.transport.abort()

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
        if conn is not None and conn.stranger:
            self._heard(conn)
            self._strangers -= 1
            self._uncount(conn.address)

    def requested(self, handler: object) -> None:
        conn = self._open.get(handler)
        if conn is not None and not conn.requested:
            self._heard(conn)

    def reap(self) -> int:
        """Close the connections that have not sent a whole request's headers in time (and let
        the pace forget the addresses it no longer needs)."""
        self.pace.forget_idle()
        now = self._clock()
        late = [c for c in self._open.values() if not c.requested and now - c.opened_at >= self.header_s]
        for conn in late:
            self.noise.count(NoiseKind.HANDSHAKE_TIMEOUT, conn.address)
            conn.transport.abort()
        self.reaped += len(late)
        return len(late)

    def connections(self, address: str) -> int:
        """``address``'s unproven connections open now."""
        return self._per_address.get(address, 0)

    def silent(self, address: str) -> int:
        """``address``'s connections with no request yet."""
        return len(self._silent.get(address, {}))


def guard_middleware(guard: ConnectionGuard) -> Callable[..., Awaitable[web.StreamResponse]]:
    """Marks a request's connection as one that finished its headers (it is not reaped)."""

    @web.middleware
    async def mark(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        guard.requested(request.protocol)
        return await handler(request)

    return mark

