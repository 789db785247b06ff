"""The WebSocket side of the table: one :class:`Client` per socket, and the :class:`Hub` that routes
client messages into the session and pushes each client its own ``state`` after every change.

All of it runs on the session's loop thread; message handling is synchronous (the session is),
sending goes through a per-client :class:`Outbox` task so a slow phone never holds up the table.
Seats and host links get every change at once; spectators get the :class:`SpectatorFeed`, the
newest public state at most ``SPECTATOR_HZ`` times a second, sent after the seats' own updates.
"""
from __future__ import annotations

import asyncio
import collections
import enum
import logging
import math
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

from game.errors import TableError
from game.rules.base import MalformedAction, StaleState, UnknownSeat
from game.seating import MAX_SEATS
from game.session.api import (
    AskHost,
    Claim,
    ClaimEnd,
    ClaimRank,
    HandedOver,
    JournalError,
    NameNeeded,
    NoticeCode,
    PressSource,
    SeatRecord,
    Session,
    TableUpdate,
    UpdateKind,
)

from .errors import BadPin, ClaimRefused, Forbidden, GalleryFull, RateLimited, ServerFault, TakenOver
from .noise import NetworkNoise, NoiseKind
from .phoneclock import EVERY_S, PhoneClock
from .protocol import (
    Act,
    ClientKind,
    ClientMessage,
    CloseCode,
    FreeAway,
    GiveSeat,
    Hello,
    HostCmd,
    MessageId,
    Ping,
    PressMsg,
    Role,
    SetLang,
    SetName,
    SyncReply,
    claim_message,
    encode,
    error_message,
    framed,
    id_of,
    notice_message,
    parse_message,
    pong_message,
    press_result_message,
    sync_message,
)
from .ratelimit import Backoff, PinGuard, RateLimit, TokenBucket

log = logging.getLogger(__name__)
audit = logging.getLogger("game.audit")  # the admin PIN's use: one line each, never the PIN

MAX_PIN_TRIES = 3
TOKEN_FREE_FAILURES = 10  # unknown seat tokens from one address before it backs off
RATE_ERROR_EVERY_S = 1.0
SPECTATOR_HZ = 10.0  # the crowd's feed: at most this many public states a second
SPECTATOR_CHUNK = 20  # spectators written to at a time (a phone's message waits behind one chunk at most)
SPECTATOR_STEP_S = 0.001  # pause between chunks: the crowd's round is spread out, never one long burst
SPECTATOR_STALL_S = 3.0  # a spectator that has taken nothing for this long is not reading: closed
SEATS_FIRST_TURNS = 8  # loop turns the crowd's feed waits at most for the seats' frames to be written
SPECTATOR_AFTER_S = 0.010  # and the table still this long: the crowd goes after the players' burst
TOO_SLOW_CLOSE = 4008  # close code for a spectator that stopped reading (documented in docs/protocol.md)

NOTICE_TEXT: dict[NoticeCode, str] = {
    NoticeCode.KICKED: "The host freed this seat.",
    NoticeCode.TABLE_RESET: "The table went back to the lobby.",
    NoticeCode.GAME_STARTED: "The game has started.",
    NoticeCode.GAME_FINISHED: "The game is over.",
    NoticeCode.NEW_TABLE: "This is a new table: the previous one was closed.",
    NoticeCode.NEW_GROUP: "This table has a new game. Thanks for playing!",
    NoticeCode.SEAT_MOVED: "The host moved your seat to another phone.",
    NoticeCode.SEAT_GIVEN: "You gave this seat to another phone.",
}
REVOKE_CLOSE: dict[NoticeCode, tuple[CloseCode, str]] = {
    NoticeCode.KICKED: (CloseCode.KICKED, "kicked"),
    NoticeCode.NEW_GROUP: (CloseCode.NEW_GROUP, "new group"),
    NoticeCode.SEAT_MOVED: (CloseCode.TAKEN_OVER, "seat moved"),
    NoticeCode.SEAT_GIVEN: (CloseCode.TAKEN_OVER, "seat given"),
}


CARD_GAP_S = 2.0  # a seated phone's "give your seat?" card: the next one at least this long after the last
HELLO_LESS_PER_ADDRESS = 4  # sockets from one address that have not said hello yet (a phone says it at once)
# ... and from every address together: each holds its request, parsers and buffers (~10 KB of small
# objects), and a flood's peak is what pymalloc keeps after it. A slow flood is held to this; a wave
# faster than HELLO_GRACE_S only to the shared room (the grace keeps a phone's socket from being cut)
HELLO_LESS_AT_ONCE = 128
# a socket closed for never saying hello gets its close frame, and this long to answer it, before
# its connection is cut: a flood never answers, and each one waited for (aiohttp's 10 s) holds its
# request, parser and buffers, so a wave of thousands piled up in memory while they closed
SILENT_CLOSE_S = 0.1
# ... but a socket this young is not cut to keep to HELLO_LESS_AT_ONCE: a seated phone says hello
# at once, yet under a flood its hello may wait behind hundreds of upgrades (182 ms at p99 in the
# hello-less flood bench); cut for being the oldest of 128, 2 of its 10 reconnects failed there
HELLO_GRACE_S = 1.0
SEAT_RESERVE = 2 * MAX_SEATS + 8  # seated phones (one reconnecting while its old socket closes) and host links
MAX_SPECTATORS = 1000  # the gallery: /watch sockets at once, if the open-file limit allows


@dataclass(frozen=True, slots=True)
class SocketLimits:
    """How many WebSockets the table holds: ``total``; ``per_address`` from one device (the table's
    own machine is exempt); at most ``hello_less`` that have not said hello yet from everyone (see
    :meth:`Hub.admit`); ``seat_reserve`` kept for seated phones and host links (silent sockets
    and spectators share the rest); at most ``spectators`` of them watching (the gallery); a socket
    says hello within ``hello_s`` or is closed. :func:`game.server.capacity.size_sockets` sizes
    them from the open-file limit."""

    total: int = 500
    per_address: int = 16
    seat_reserve: int = SEAT_RESERVE
    spectators: int = MAX_SPECTATORS
    hello_s: float = 10.0
    hello_less: int = HELLO_LESS_AT_ONCE
    exempt: frozenset[str] = frozenset({"127.0.0.1", "::1"})

    def shared(self) -> int:
        """Room for silent sockets and spectators together."""
        return max(1, self.total - min(self.seat_reserve, self.total // 2))

    def gallery(self) -> int:
        """Spectators at once (never more than the shared room)."""
        return min(self.spectators, self.shared())


def text_frame(payload: bytes) -> bytes:
    """``payload`` as one server-to-client WebSocket text frame: final, unmasked, uncompressed
    (RFC 6455 section 5.2; the server offers no permessage-deflate). Built once per change and
    written as-is to every spectator's socket."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


class Offer(enum.Enum):
    """What became of a feed frame offered to one spectator."""

    WRITTEN = "written"  # straight onto the socket
    QUEUED = "queued"  # behind messages already waiting for this socket
    SKIPPED = "skipped"  # the peer has not taken the previous frame yet: this one is dropped


class Outbox:
    """What one socket is sent, in order. Messages are queued, consecutive pending ``state``
    messages collapsing into the newest (a phone only needs the latest state), and written at the
    end of the loop turn straight onto the socket while the peer keeps up; a peer that lags is
    written to by the outbox's task as it takes them. A spectator's feed frames take
    :meth:`offer`: never queued up behind a peer that does not read."""

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.Transport | None = None) -> None:
        self._ws = ws
        self._transport = transport
        self._items: collections.deque[tuple[bool, bytes]] = collections.deque()
        self._wake = asyncio.Event()
        self._close: tuple[int, str] | None = None
        self._loop = asyncio.get_running_loop()
        self.waiting_since: float | None = None  # loop time the oldest unwritten frame was queued
        self.behind_since: float | None = None  # loop time the peer first had not taken an offered frame
        self._flush_due = False
        self._task = self._loop.create_task(self._run())

    @property
    def busy(self) -> bool:
        """Something queued for this socket is not written yet."""
        return self.waiting_since is not None

    def put(self, data: bytes, *, state: bool = False) -> None:
        """Queue one UTF-8 encoded JSON text frame; what is queued goes out at the end of this loop
        turn (a state superseded within the turn is never sent)."""
        if self._close is not None:
            return
        if state and self._items and self._items[-1][0]:
            self._items[-1] = (True, data)
        else:
            self._items.append((state, data))
        if self.waiting_since is None:
            self.waiting_since = self._loop.time()
        if not self._flush_due:
            self._flush_due = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        """Write what is queued straight onto the socket while the peer keeps up (no task switch);
        the rest waits for the outbox's task, which writes as the peer takes it."""
        self._flush_due = False
        while self._items and self._writable():
            self._write(text_frame(self._items.popleft()[1]))
        if self._items or self._close is not None:
            self._wake.set()
        else:
            self.waiting_since = None

    def offer(self, payload: bytes, frame: bytes) -> Offer:
        """A feed ``state`` (``payload``, and ``frame``: the same as a :func:`text_frame`, shared by
        every spectator). With nothing queued and the socket's send buffer empty, ``frame`` is
        written at once; behind queued messages it waits its turn; when the peer has not taken the
        previous frame yet, it is dropped (the next one carries everything)."""
        if self._close is not None:
            return Offer.SKIPPED
        if self._items or self._transport is None or self._transport.is_closing() or self._ws.closed:
            self.put(payload, state=True)
            return Offer.QUEUED
        if not self._writable():
            if self.behind_since is None:
                self.behind_since = self._loop.time()
            return Offer.SKIPPED
        self._write(frame)
        return Offer.WRITTEN

    def _writable(self) -> bool:
        """The peer has taken everything written so far (nothing waits in the send buffer)."""
        transport = self._transport
        return (transport is not None and not self._ws.closed and not transport.is_closing()
                and transport.get_write_buffer_size() == 0)

    def _write(self, frame: bytes) -> None:
        assert self._transport is not None
        self._transport.write(frame)  # a whole frame: aiohttp's own frames (pings) never interleave
        self.behind_since = None

    def stalled(self, now: float, limit_s: float) -> bool:
        """True when a frame has waited, or the peer has not taken what was written, longer than
        ``limit_s`` (the peer is not reading)."""
        since = [t for t in (self.waiting_since, self.behind_since) if t is not None]
        return bool(since) and now - min(since) > limit_s

    def abandon(self, code: int, reason: str, grace_s: float = 1.0) -> None:
        """Stop writing at once (a peer that does not read) and close the socket with ``code``:
        the close frame is tried for ``grace_s``, then the connection is cut."""
        self._close = (code, reason)
        self._items.clear()
        self._task.cancel()
        self._task = self._loop.create_task(self._close_now(code, reason, grace_s))

    async def _close_now(self, code: int, reason: str, grace_s: float) -> None:
        try:
            await asyncio.wait_for(self._ws.close(code=code, message=reason.encode()), grace_s)
        except (TimeoutError, ConnectionError, RuntimeError) as exc:
            log.debug("closing a stalled socket: %s", exc)
        finally:
            if not self._ws.closed and self._transport is not None:  # the peer never read the close frame
                self._transport.abort()

    def close_after(self, code: int, reason: str) -> None:
        """Send what is queued, then close the socket with ``code``."""
        if self._close is None:
            self._close = (code, reason)
            self._wake.set()

    async def _run(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._items:
                    _, data = self._items.popleft()
                    await self._send(data)
                    if not self._items:
                        self.waiting_since = None
                if self._close is not None:
                    await self._ws.close(code=self._close[0], message=self._close[1].encode())
                    return
        except (ConnectionError, RuntimeError) as exc:  # the peer went away mid-send
            log.debug("socket writer stopped: %s", exc)

    async def _send(self, data: bytes) -> None:
        await self._ws.send_frame(data, WSMsgType.TEXT)

    async def stop(self) -> None:
        if not self._task.done():
            self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


class StateFrames:
    """The encoded ``state`` frames of one :class:`TableUpdate`: the part an audience shares (and
    the timer, read once at ``now_ms``) is encoded once and joined with each seat's own ``view``
    and ``legal``; the public frame is encoded once."""

    def __init__(self, update: TableUpdate, now_ms: int) -> None:
        self._update = update
        self._timer = update.timer_json(now_ms)
        self._common: dict[bool, bytes] = {}
        self._public: dict[bool, bytes] = {}
        self._public_view: bytes | None = None

    def get(self, seat: int | None, *, host: bool) -> bytes:
        if seat is None and host in self._public:
            return self._public[host]
        common = self._common.get(host)
        if common is None:
            common = encode({**framed("state", self._update.common(host=host)), "timer": self._timer})
            self._common[host] = common
        personal = self._personal(seat)
        frame = common[:-1] + b"," + personal[1:]  # two JSON objects with distinct keys, joined
        if seat is None:
            self._public[host] = frame
        return frame


    def _personal(self, seat: int | None) -> bytes:
        """``{"view": ..., "legal": ...}`` of a seat: when its view is the public one plus its own
        keys, the public view's bytes (encoded once per change) are joined with its own."""
        part = self._update.seat(seat)
        public = self._update.public_view
        if part.own is None or not public or not part.own or not public.keys().isdisjoint(part.own):
            return encode(part.to_json())
        if self._public_view is None:
            self._public_view = encode(public)
        return (b'{"view":' + self._public_view[:-1] + b"," + encode(part.own)[1:]
                + b',"legal":' + encode({"legal": part.legal})[len(b'{"legal":'):])


class SpectatorFeed:
    """The public table for the crowd (``/watch``): the newest public state, at most
    ``SPECTATOR_HZ`` times a second. A change only marks the feed dirty; the feed's task waits until
    every seat's and host's own frame of it is written and the table has been still for
    ``SPECTATOR_AFTER_S`` (players first), encodes the public state once, frames it once, and
    writes it ``SPECTATOR_CHUNK`` spectators at a time, so a phone's message is never stuck
    behind the crowd. A spectator that has not taken the previous frame
    skips this one (nothing queues up); one that has taken nothing for ``SPECTATOR_STALL_S`` is
    closed (4008 too slow)."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub
        self._dirty = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self._task = self._loop.create_task(self._run())
        self.sent = 0  # frames written or queued (for tests and the bench)
        self.skipped = 0  # frames a spectator missed because it had not taken the previous one
        self.dropped_slow = 0  # spectators closed for not reading
        self._changed_at = self._loop.time()

    def changed(self) -> None:
        self._changed_at = self._loop.time()
        self._dirty.set()

    async def _run(self) -> None:
        while True:
            period = 1.0 / SPECTATOR_HZ
            await self._dirty.wait()
            started = self._loop.time()
            await self._after_the_players(started + period)
            self._dirty.clear()  # this round sends the newest state: what changed while waiting too
            try:
                await self.flush()
            except Exception:  # one bad round must not end the crowd's feed for good
                log.exception("spectator feed round failed")
            await asyncio.sleep(max(0.0, period - (self._loop.time() - started)))

    async def _after_the_players(self, deadline: float) -> None:
        """Wait until the seats' and hosts' frames of the change are written, and the table has been
        still for ``SPECTATOR_AFTER_S`` (until ``deadline`` at most, so a busy table still feeds
        its crowd): right after a change the players' devices read it, bots think and the TV
        (drawn by this process) redraws; the crowd's writes go after that burst, not into it."""
        for _ in range(SEATS_FIRST_TURNS):
            await asyncio.sleep(0)
            if not any(c.outbox.busy for c in self._hub.clients if c.role in (Role.SEAT, Role.HOST)):
                break
        while (now := self._loop.time()) < deadline:
            still_at = self._changed_at + SPECTATOR_AFTER_S
            if now >= still_at:
                return
            await asyncio.sleep(min(still_at, deadline) - now)

    async def flush(self) -> None:
        """Write the newest public state to every spectator, a chunk at a time with a short pause
        between chunks: the table's machine also draws the TV, and the players' next messages and
        frames go between them (1,000 spectators take about half the feed's period)."""
        watchers = self._watchers()
        if not watchers:
            return
        payload = self._hub.frames().get(None, host=False)
        frame = text_frame(payload)
        for start in range(0, len(watchers), SPECTATOR_CHUNK):
            if start:
                await asyncio.sleep(SPECTATOR_STEP_S)
            self._offer(watchers[start:start + SPECTATOR_CHUNK], payload, frame)

    def catch_up(self) -> None:
        """Before a notice: queue the pending state now, so that spectators read them in order."""
        if self._dirty.is_set():
            self._dirty.clear()
            payload = self._hub.frames().get(None, host=False)
            self._offer(self._watchers(), payload, text_frame(payload))

    def _watchers(self) -> list[Client]:
        return [c for c in self._hub.clients if c.role is Role.SPECTATOR and not c.closing]

    def _offer(self, watchers: list[Client], payload: bytes, frame: bytes) -> None:
        now = self._loop.time()
        for client in watchers:
            if client.closing:
                continue
            if client.outbox.stalled(now, SPECTATOR_STALL_S):
                self.dropped_slow += 1
                log.info("spectator %s closed: not reading its feed", client.address)
                client.abandon(TOO_SLOW_CLOSE, "too slow: the feed was not read")
                continue
            if client.outbox.offer(payload, frame) is Offer.SKIPPED:
                self.skipped += 1
            else:
                self.sent += 1

    async def stop(self) -> None:
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)


class Client:
    def __init__(self, ws: web.WebSocketResponse, address: str, bucket: TokenBucket,
                 clock: Callable[[], float], transport: asyncio.Transport | None = None, connection: object = None) -> None:
        self.ws = ws
        self.address = address
        self.connection = connection  # its HTTP connection's handler: what the connection guard knows it by
        self.bucket = bucket
        self.transport = transport
        self.outbox = Outbox(ws, transport)
        self.role: Role | None = None
        self.seat: int | None = None
        self.pin_failures = 0
        self.closing = False
        self.told_malformed = False  # its first malformed message was logged (later ones are not)
        self.claim: Claim | None = None  # waiting for the host to hand this phone a held seat
        self.hello: Hello | None = None
        self.phone = PhoneClock()
        self.sync_handle: asyncio.TimerHandle | None = None
        self._clock = clock
        self.opened_at = clock()
        self._last_rate_error = float("-inf")

    @property
    def greeted(self) -> bool:
        return self.role is not None

    @property
    def silent(self) -> bool:
        """Open, and neither said hello nor waits on a claim: what a flood holds, and what makes room."""
        return not self.closing and self.role is None and self.claim is None

    def send(self, message: Mapping[str, Any]) -> None:
        self.outbox.put(encode(message))

    def send_error(self, exc: TableError, message_id: MessageId = None) -> None:
        self.send(error_message(exc, message_id))

    def rate_error_due(self) -> bool:
        now = self._clock()
        if now - self._last_rate_error < RATE_ERROR_EVERY_S:
            return False
        self._last_rate_error = now
        return True

    def close(self, code: CloseCode, reason: str) -> None:
        self.closing = True
        self.stop_sync()
        self.outbox.close_after(int(code), reason)

    def abandon(self, code: int, reason: str, grace_s: float = 1.0) -> None:
        """Close a socket that stopped reading, without waiting for what is queued."""
        self.closing = True
        self.stop_sync()
        self.outbox.abandon(code, reason, grace_s)

    def stop_sync(self) -> None:
        if self.sync_handle is not None:
            self.sync_handle.cancel()
            self.sync_handle = None


def _oldest_of_the_busiest(silent: list[Client]) -> Client:
    """The socket to cut when everyone's silent sockets are too many: the oldest of the address
    holding the most, so a phone's one socket, about to say hello, is not the one a flood pushes out."""
    counts = collections.Counter(c.address for c in silent)
    most = max(counts.values())
    return min((c for c in silent if counts[c.address] == most), key=lambda c: c.opened_at)


class Hub:
    """Every socket of the table; the session's listener."""

    def __init__(self, session: Session, limit: RateLimit, clock: Callable[[], float],
                 pin_failures: PinGuard, sockets: SocketLimits | None = None, noise: NetworkNoise | None = None) -> None:
        self.session = session
        self.noise = noise or NetworkNoise()
        self.prove: Callable[[object], None] = lambda connection: None  # the connection guard's (app.py)
        self.limit = limit
        self.sockets = sockets or SocketLimits()
        self.clock = clock
        self.pin_failures = pin_failures
        self.token_failures = Backoff(clock, free=TOKEN_FREE_FAILURES)
        self.clients: set[Client] = set()
        self.opened = 0  # sockets ever added (heap.py trims once a flood of them has gone)
        self.by_seat: dict[int, Client] = {}
        self._held_from: dict[int, str] = {}  # seat -> the address of the phone that last held it
        self._cards: dict[int, int | None] = {}  # seat: the claim its phone is asked about (None: a pause)
        self.update = session.update  # the latest change: every frame, welcome and seat card is built from it
        self.feed = SpectatorFeed(self)
        session.attach(self)

    # ---------------------------------------------------------------------- registration
    def admit(self, address: str) -> str | None:
        """Room for a new socket from ``address``, or why not (the caller answers without an
        upgrade). No address is exempt but the table's own: at most ``per_address`` sockets, and
        of them at most :data:`HELLO_LESS_PER_ADDRESS` that have not said hello — one more and the
        address's own oldest silent socket makes room, so a seated phone's socket (it says hello
        at once with its device key) always gets in, whatever its address holds. Sockets that have
        not said hello and spectators share what the seat reserve leaves, and at most ``hello_less``
        of everyone's have not said hello; when either is full, the oldest silent socket (for
        ``hello_less``: of the address holding the most, among those older than :data:`HELLO_GRACE_S`)
        makes room (a phone says hello at once, a flood never does), so seated phones' reconnects and
        the host are never refused by a flood. A silent socket that makes room is cut at once
        (:data:`SILENT_CLOSE_S`)."""
        limits, live = self.sockets, [c for c in self.clients if not c.closing]
        mine = [c for c in live if c.address == address] if address not in limits.exempt else []
        silent = [c for c in mine if c.silent]
        if len(silent) >= HELLO_LESS_PER_ADDRESS:
            self._make_room(min(silent, key=lambda c: c.opened_at))
        elif len(mine) >= limits.per_address:
            self.noise.count(NoiseKind.OVER_CAP, address)
            return "too many connections from this device"
        waiting = [c for c in live if c.silent]
        if len(waiting) >= limits.hello_less:
            now = self.clock()
            due = [c for c in waiting if now - c.opened_at >= HELLO_GRACE_S]
            if due:  # else every one may still say hello: the shared room below still bounds them
                self._make_room(_oldest_of_the_busiest(due))
        shared = [c for c in live if c.role in (None, Role.SPECTATOR) and not c.closing]
        if len(shared) >= limits.shared() or len(live) >= limits.total:
            silent = [c for c in shared if c.silent]
            if not silent:
                if len(live) < limits.total:
                    return None
                self.noise.count(NoiseKind.OVER_CAP, address)
                return "the table has too many connections"
            self._make_room(min(silent, key=lambda c: c.opened_at))
        return None

    def _make_room(self, victim: Client) -> None:
        self.noise.count(NoiseKind.OVER_CAP, victim.address)
        victim.abandon(CloseCode.POLICY, "making room", SILENT_CLOSE_S)

    def reap(self) -> int:
        """Close the sockets that have not said hello within the hello deadline."""
        now = self.clock()
        late = [c for c in self.clients if c.silent and now - c.opened_at >= self.sockets.hello_s]
        for client in late:
            self.noise.count(NoiseKind.HANDSHAKE_TIMEOUT, client.address)
            client.abandon(CloseCode.POLICY, "no hello", SILENT_CLOSE_S)
        return len(late)

    def add(self, ws: web.WebSocketResponse, address: str, transport: asyncio.Transport | None = None,
            connection: object = None) -> Client:
        """A new socket; ``transport`` (the request's) lets the crowd's feed write frames straight to
        it; ``connection`` (the request's handler) is what the connection guard knows it by."""
        client = Client(ws, address, TokenBucket(self.limit, self.clock), self.clock, transport, connection)
        self.clients.add(client)
        self.opened += 1
        return client

    async def remove(self, client: Client) -> None:
        self.clients.discard(client)
        client.stop_sync()
        if client.claim is not None:
            claim, client.claim = client.claim, None
            self.session.drop_claim(claim.id)  # its end (ClaimEnd.GONE) takes the holder's card away
        seat = client.seat
        if client.role is Role.SEAT and seat is not None and self.by_seat.get(seat) is client:
            del self.by_seat[seat]
            self.session.set_connected(seat, False)
        await client.outbox.stop()

    async def close_all(self, code: int, reason: str) -> None:
        """Close every socket at once (server shutdown)."""
        await self.feed.stop()
        closing = [client.ws.close(code=code, message=reason.encode()) for client in list(self.clients)]
        await asyncio.gather(*closing, return_exceptions=True)

    # ------------------------------------------------------------------ session listener
    def frames(self) -> StateFrames:
        """The latest update's frames, its timer read now."""
        return StateFrames(self.update, self.session.clock())

    def updated(self, update: TableUpdate) -> None:
        """Queue every seat and host link its new state now (the shared part encoded once); the
        spectators' feed only learns that there is something new (it sends later, coalesced).
        Only the open claims changed: the host consoles list them (the TV reads the snapshot)."""
        self.update = update
        frames = self.frames()
        if update.kind is UpdateKind.CLAIMS:
            self._to_hosts(frames)
            return
        for client in list(self.by_seat.values()):
            if not client.closing:
                client.outbox.put(frames.get(client.seat, host=False), state=True)
        self._to_hosts(frames)
        self.feed.changed()

    def _to_hosts(self, frames: StateFrames) -> None:
        for client in list(self.clients):
            if client.role is Role.HOST and not client.closing:
                client.outbox.put(frames.get(None, host=True), state=True)

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        client = self.by_seat.pop(seat, None)
        if client is None:
            return
        client.send(notice_message(reason.value, NOTICE_TEXT[reason]))
        client.close(*REVOKE_CLOSE.get(reason, REVOKE_CLOSE[NoticeCode.KICKED]))

    def claim_answered(self, claim: Claim, record: SeatRecord | None) -> None:
        """The host answered a waiting phone: it is seated (the old phone was told), or refused."""
        client = next((c for c in self.clients if c.claim is not None and c.claim.id == claim.id), None)
        if client is None or client.closing:
            return
        client.claim = None
        self._claim_closed(claim)
        if record is None:
            client.send_error(ClaimRefused("the host did not allow this phone to take the seat"))
            client.close(CloseCode.REFUSED, "refused by the host")
            return
        self._seat_client(client, record.seat, client.hello)

    def claim_ended(self, claim: Claim, why: ClaimEnd) -> None:
        """A waiting phone's request left unanswered: expired or the table handed over (the phone
        reconnects and asks again: at the back of the queue, or hears of the new group), replaced
        by its own newer request, pushed out, or its phone went away."""
        client = next((c for c in self.clients if c.claim is not None and c.claim.id == claim.id), None)
        self._claim_closed(claim)
        if client is None or client.closing:
            return
        client.claim = None
        if why is ClaimEnd.REPLACED:
            client.close(CloseCode.TAKEN_OVER, "asked again from another page")
        else:  # the phone reconnects by itself and asks again (or hears of the new group)
            client.close(CloseCode.POLICY, "pushed out by other requests" if why is ClaimEnd.PUSHED_OUT else "nobody answered")

    def notice(self, code: NoticeCode) -> None:
        self.feed.catch_up()
        data = encode(notice_message(code.value, NOTICE_TEXT[code]))
        for client in self.clients:
            if client.greeted and not client.closing:
                client.outbox.put(data)

    def send_state(self, client: Client) -> None:
        seat = client.seat if client.role is Role.SEAT else None
        client.outbox.put(self.frames().get(seat, host=client.role is Role.HOST), state=True)

    # -------------------------------------------------------------------------- messages
    def handle_text(self, client: Client, text: str) -> None:
        if client.closing:
            return
        if not client.bucket.take():
            if client.rate_error_due():
                client.send_error(RateLimited("too many messages; slow down"), id_of(text))
            return
        message_id: MessageId = None
        try:
            message = parse_message(text)
            message_id = message.id
            self._dispatch(client, message)
        except StaleState as exc:
            client.send_error(exc, message_id)
            self.send_state(client)
        except TableError as exc:
            if isinstance(exc, MalformedAction) and not client.told_malformed:
                client.told_malformed = True
                log.info("malformed message from %s (logged once per socket): %s", client.address, exc)
            client.send_error(exc, message_id if message_id is not None else id_of(text))
        except JournalError as exc:
            log.error("%s", exc)
            client.send_error(ServerFault("the table could not save this; nothing changed"), message_id)

    def handle_binary(self, client: Client) -> None:
        if not client.closing and client.bucket.take():
            client.send_error(MalformedAction("binary frames are not part of this protocol"))

    def _dispatch(self, client: Client, message: ClientMessage) -> None:
        body = message.body
        if message.kind is ClientKind.HELLO:
            assert isinstance(body, Hello)
            self._hello(client, body)
            return
        if not client.greeted and not (client.claim is not None and isinstance(body, Ping)):
            raise MalformedAction("send hello first")
        if isinstance(body, Ping):
            client.send(pong_message(body.t, self.session.clock()))
        elif isinstance(body, SyncReply):
            if client.phone.reply(body.s, body.t, self.session.clock()):
                self._probe(client)
        elif isinstance(body, HostCmd):
            if client.role is not Role.HOST and not (client.role is Role.SEAT and body.payload.get("command") == "skip_intro"):
                raise Forbidden("host commands need the host link and its PIN")
            self.session.host_command(body.payload)
        else:
            self._seat_message(client, body, message.id)

    def _seat_message(self, client: Client, body: Any, message_id: MessageId = None) -> None:
        seat = client.seat
        if client.role is not Role.SEAT or seat is None:
            raise Forbidden("only a seat can do this")
        if isinstance(body, SetName):
            self.session.set_name(seat, body.name)
        elif isinstance(body, SetLang):
            self.session.set_lang(seat, body.lang)
        elif isinstance(body, Act):
            self.session.submit_action(seat, body.action, body.version, t_ms=self._gesture_time(client, body.action))
        elif isinstance(body, PressMsg):
            self._press(client, seat, body, message_id)
        elif isinstance(body, GiveSeat):
            self.session.give_seat(seat, body.id)
        elif isinstance(body, FreeAway):
            self.session.away.agree(seat, body.seat)  # the room frees it through the session

    def _gesture_time(self, client: Client, action: Any) -> float | None:
        """A timed action's own ``t_ms`` (the phone's clock, ms) on the session clock; None: arrival."""
        t = action.get("t_ms") if isinstance(action, dict) else None
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not t or not client.phone.sync.ready:
            return None
        return client.phone.to_session(t, self.session.clock())[0]

    def _press(self, client: Client, seat: int, body: PressMsg, message_id: MessageId) -> None:
        stamp = client.phone.stamp(body.t, self.session.clock())
        verdict = self.session.press(seat, stamp.t_ms, PressSource.PHONE, error_ms=stamp.error_ms, race=body.race,
                                     clamped=stamp.clamped)
        client.send(press_result_message(body.race, verdict.value, stamp.t_ms, stamp.error_ms, message_id,
                                         clamped=stamp.clamped))

    # ------------------------------------------------------------------------ clock sync
    def _probe(self, client: Client) -> None:
        """Send the next clock-sync probe; after a burst, the next burst in EVERY_S."""
        if client.closing:
            return
        client.send(sync_message(client.phone.probe(self.session.clock())["s"]))
        if client.sync_handle is None:  # the next burst (also restarts a burst a lost answer stalled)
            client.sync_handle = asyncio.get_running_loop().call_later(EVERY_S, self._refresh_sync, client)

    def _refresh_sync(self, client: Client) -> None:
        client.sync_handle = None
        if client.closing or client not in self.clients:
            return
        client.phone.new_burst()
        self._probe(client)

    # ----------------------------------------------------------------------------- hello
    def _hello(self, client: Client, hello: Hello) -> None:
        if client.greeted or client.claim is not None:
            raise MalformedAction("hello was already sent on this socket")
        client.hello = hello
        if hello.role is Role.SEAT:
            self._hello_seat(client, hello)
        elif hello.role is Role.HOST:
            self._hello_host(client, hello)
        elif sum(1 for c in self.clients if c.role is Role.SPECTATOR and not c.closing) >= self.sockets.gallery():
            # the table's language too: this page gets no welcome to learn it from
            client.send({**error_message(GalleryFull("the gallery is full; try again later")),
                         "table_lang": self.session.table.language})
            client.close(CloseCode.GALLERY_FULL, "gallery full")
        else:
            self._greet(client, Role.SPECTATOR, None, hello)

    def _hello_seat(self, client: Client, hello: Hello) -> None:
        token = hello.token or ""
        known = self.session.seat_by_device(token) or self.session.seat_by_token(token)
        wait = self.token_failures.wait_s(client.address)
        if known is None and wait > 0:  # a right token (144 bits: never a guess) is never held back
            client.send_error(RateLimited(f"too many unknown seat links from this device; try again in {math.ceil(wait)} s"))
            client.close(CloseCode.REFUSED, "too many unknown seat links")
            return
        try:
            record = self.session.join_seat(token, hello.name, hello.lang)
        except UnknownSeat as exc:
            self.token_failures.failed(client.address)
            client.send_error(exc)
            client.close(CloseCode.NEW_GROUP if isinstance(exc, HandedOver) else CloseCode.REFUSED, "unknown seat")
            return
        except NameNeeded as exc:  # a bot's seat: the phone asks for a name, then says hello again
            client.send(claim_message("name_needed", self._seat_card(exc.seat)))
            return
        except AskHost as exc:
            self._ask_host(client, exc.seat, hello)
            return
        self._seat_client(client, record.seat, hello)

    def _ask_host(self, client: Client, seat: int, hello: Hello) -> None:
        """A held seat's link or code on a new phone: it waits until the host allows or refuses."""
        try:
            claim = client.claim = self.session.request_claim(seat, hello.name, hello.lang, client.address,
                                                              self._claim_rank(client, seat, hello))
        except TableError as exc:
            client.send_error(exc)
            client.close(CloseCode.REFUSED, "cannot ask now")
            return
        for earlier in [c for c in self.clients if c is not client and c.claim is not None and c.claim.id == claim.id]:
            earlier.claim = None  # the same phone asked again: its request lives on in this socket
            earlier.close(CloseCode.TAKEN_OVER, "asked again from another page")
        client.send(claim_message("waiting", self._seat_card(seat)))
        self._ask_holder(seat)

    def _claim_rank(self, client: Client, seat: int, hello: Hello) -> ClaimRank:
        """What this asking phone shows of being the seat's own player: the address that held the
        seat, then the seat's own link (not the public away link)."""
        if self._held_from.get(seat) == client.address:
            return ClaimRank.HOLDER
        return ClaimRank.OWN_LINK if hello.token == self.session.table.seats[seat].token else ClaimRank.OTHER

    def _ask_holder(self, seat: int) -> None:
        """The seated phone may give its seat itself: it is asked about one waiting phone at a time
        (the first for its seat), and the next one only :data:`CARD_GAP_S` after the last card went."""
        holder, claim = self.by_seat.get(seat), next((c for c in self.session.claims if c.seat == seat), None)
        if seat in self._cards or holder is None or holder.closing or claim is None:
            return
        self._cards[seat] = claim.id
        holder.send(self._asked(claim))

    def _asked(self, claim: Claim) -> dict[str, Any]:
        """The seated phone's "another phone asks for your seat: give it?" message."""
        return {**claim_message("asked", self._seat_card(claim.seat)), "claim": claim.id, "name": claim.name}

    def _claim_closed(self, claim: Claim) -> None:
        """The seated phone's "give my seat?" card goes away (the request was answered or dropped);
        after a pause, it is asked about the next waiting phone, if any."""
        if self._cards.get(claim.seat) != claim.id:
            return  # its phone was never asked about this one
        self._cards[claim.seat] = None
        holder = self.by_seat.get(claim.seat)
        if holder is not None and not holder.closing:
            holder.send({**claim_message("closed", self._seat_card(claim.seat)), "claim": claim.id})
        asyncio.get_running_loop().call_later(CARD_GAP_S, self._next_card, claim.seat)

    def _next_card(self, seat: int) -> None:
        if seat in self._cards and self._cards[seat] is None:
            del self._cards[seat]
            self._ask_holder(seat)

    def _seat_card(self, seat: int) -> dict[str, Any]:
        """What a waiting phone shows of the seat it asks for (public: colour, symbol, name)."""
        return self.update.seat_card(seat)

    def _seat_client(self, client: Client, seat: int, hello: Hello | None) -> None:
        previous = self.by_seat.get(seat)
        if previous is not None and previous is not client:
            previous.send_error(TakenOver("this seat was opened on another device"))
            previous.close(CloseCode.TAKEN_OVER, "taken over")
        self.by_seat[seat] = client
        self._held_from[seat] = client.address  # its player asking again from this device ranks first
        self._greet(client, Role.SEAT, seat, hello)
        self.session.set_connected(seat, True)
        self._probe(client)  # the join burst of clock-sync round trips
        if self._cards.get(seat) is not None:
            del self._cards[seat]  # a new page: asked afresh
        self._ask_holder(seat)

    def _hello_host(self, client: Client, hello: Hello) -> None:
        device = hello.token  # the staff key this console got with its last right PIN, if any
        wait = self.pin_failures.wait_s(client.address, device)
        if wait > 0:
            client.send_error(BadPin(f"too many wrong PINs from this device; wait {math.ceil(wait)} s"))
            client.close(CloseCode.REFUSED, "too many wrong PINs")
            return
        if not self.session.check_pin(hello.pin):
            self.pin_failures.failed(client.address, device)
            client.pin_failures += 1
            audit.warning("wrong admin PIN from %s on the host console", client.address)
            client.send_error(BadPin("wrong PIN"))
            if client.pin_failures >= MAX_PIN_TRIES:
                client.close(CloseCode.REFUSED, "wrong PIN")
            return
        key = self.pin_failures.succeeded(client.address, device)
        audit.info("host console opened from %s with the PIN", client.address)
        self._greet(client, Role.HOST, None, hello, staff_key=key)

    def _greet(self, client: Client, role: Role, seat: int | None, hello: Hello | None, *,
               staff_key: str | None = None) -> None:
        client.role, client.seat = role, seat
        if role is not Role.SPECTATOR:
            self.prove(client.connection)  # a seated phone's or the host's socket: out of its address's budgets
        welcome = self.update.welcome_json(seat, role.value, self.session.clock())
        client.send(framed("welcome", welcome if staff_key is None else {**welcome, "staff_key": staff_key}))
        if hello is not None and hello.last_version is not None and hello.last_version > self.session.version:
            client.send(notice_message(NoticeCode.NEW_TABLE.value, NOTICE_TEXT[NoticeCode.NEW_TABLE]))
        self.send_state(client)
