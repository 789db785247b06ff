"""Hostile messages over the real WebSocket protocol: the strategies and the driver shared by
``tests/reliability/test_hostile.py`` (a few hundred messages) and ``bench/bench_hostile.py``
(10,000 and more).

One example is a fresh 4-seat Collusion table in play (no bots, no timer running out) behind the
real aiohttp app, with four senders: seat 0's phone, a spectator, the host link and a socket that
never said hello. Each hostile message is followed on the same socket by a marker ``ping`` (the
server answers in order, so the marker's answer closes the message's replies). For every message:

* the socket is still open, or it was closed with a documented code (``DOCUMENTED_CLOSES``);
* a message the server refused (an ``error`` reply) changed nothing: the table version, the lobby
  and every seat's own view and legal actions are the same as before it;
* every reply is one JSON object that parses (no lone surrogate leaks back out).

A message the server accepted (no error) is fine and becomes part of the table; its reply is
checked the same way. Valid messages of the example's seats are kept and replayed later.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import strategies as st

from game.config import TableConfig
from game.server.app import ServerSettings, make_app
from game.server.ratelimit import RateLimit
from game.session.journal import Journal
from game.session.session import HostCommand, Session

PIN = "2468"
SEATS = 4
FAST_DIR = "/dev/shm" if Path("/dev/shm").is_dir() else None  # journals here need no real fsync
SENDERS = ("seat", "spectator", "host", "stranger")
# closes that need no error reply first: 1009 frame over 64 KiB, 4001 taken over, 4004 kicked;
# 4003 (unknown token, wrong PIN) comes after its error
DOCUMENTED_CLOSES = {1009, 4001, 4003, 4004}
KINDS = ("hello", "set_name", "set_lang", "action", "ping", "host", "press", "sync_reply")
FIELDS = ("role", "token", "pin", "name", "lang", "last_version", "action", "version", "t", "command",
          "args", "race", "card", "s", "seat", "id", "type", "target")
ACTION_TYPES = ("vote", "ambush", "lock", "unlock", "take", "share", "dodge", "steal", "pass", "give", "cheat")
# host commands that would legitimately end the game or free seats: only sent with wrong arguments
DRASTIC = {"start", "next", "new_players", "abort", "kick", "set_bot", "fill_bots", "set_seats", "set_game", "map_buttons"}

# ----------------------------------------------------------------------------- strategies
huge_numbers = st.sampled_from([10**400, -(10**400), 2**53, 2**63, 2**64 + 1, 1e308, -1e308, 5e-324, -0.0, 10**18])
lone_surrogates = st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF)
odd_text = st.text(st.characters() | lone_surrogates, max_size=40)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), huge_numbers,
                    st.floats(allow_nan=False, allow_infinity=False), odd_text)
json_values = st.recursive(scalars, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                           st.dictionaries(st.sampled_from(FIELDS) | odd_text, kids, max_size=4)),
                           max_leaves=12)


@st.composite
def wrong_envelope(draw: st.DrawFn) -> dict[str, Any]:
    """A known kind with fields of the wrong type, missing, or foreign."""
    message: dict[str, Any] = {"v": draw(st.sampled_from([1, 1, 1, 2, 0, "1", True, None, 1.0])),
                               "kind": draw(st.sampled_from(KINDS) | odd_text)}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=4, unique=True)):
        message[name] = draw(json_values)
    return message


@st.composite
def other_seats_action(draw: st.DrawFn) -> dict[str, Any]:
    """An action acting for another seat, of a foreign game, out of turn, or on a stale version."""
    action: dict[str, Any] = {"type": draw(st.sampled_from(ACTION_TYPES) | odd_text)}
    for name in draw(st.lists(st.sampled_from(["target", "seat", "card", "to", "gold", "amount", "t_ms"]),
                              max_size=3, unique=True)):
        action[name] = draw(st.integers(-3, SEATS + 2) | huge_numbers | scalars)
    message = {"v": 1, "kind": "action", "action": action, "version": draw(st.integers(-2, 40) | huge_numbers)}
    if draw(st.booleans()):
        message["seat"] = draw(st.integers(0, SEATS - 1))
    return message


@st.composite
def host_message(draw: st.DrawFn) -> dict[str, Any]:
    command = draw(st.sampled_from([c.value for c in HostCommand]) | odd_text)
    args = draw(st.dictionaries(st.sampled_from(["seat", "count", "kind", "name", "value", "game", "preset",
                                                 "language", "mapping", "command"]), json_values, max_size=3))
    if command in DRASTIC:  # never a well-formed one: a wrong-typed argument for sure
        args["seat" if command != "set_seats" else "count"] = draw(odd_text | st.lists(st.integers(), max_size=2))
    return {"v": 1, "kind": "host", "command": command, "args": args}


@st.composite
def hello_message(draw: st.DrawFn) -> dict[str, Any]:
    """Second hellos, wrong tokens and PINs (a real token only ever of the sender's own seat)."""
    return {"v": 1, "kind": "hello", "role": draw(st.sampled_from(["seat", "host", "spectator"]) | odd_text),
            "token": draw(st.none() | odd_text | st.just("x" * 24)), "pin": draw(st.none() | st.sampled_from(["0000", "", "24680"]) | odd_text),
            "name": draw(scalars), "lang": draw(scalars), "last_version": draw(st.none() | st.integers() | huge_numbers)}


def _dumps(value: Any) -> str:
    # ensure_ascii: lone surrogates travel as \ud800 escapes, as a hostile client would write them
    return json.dumps(value, ensure_ascii=True, allow_nan=True)


deep = st.integers(50, 3000).map(lambda n: "[" * n + "]" * n) | st.integers(50, 1500).map(
    lambda n: '{"v":1,"kind":"ping","t":' + '{"a":' * n + "1" + "}" * n + "}")
raw_text = st.sampled_from(['{"v":1,"kind":"ping","t":NaN}', '{"v":1,"kind":"ping","t":Infinity}', "", " ", "{",
                            '{"v":1,"kind":"ping","t":1e999}', '{"v":1,"kind":"ping","t":1,"t":2}',
                            '{"v":1,"kind":"ping","t":-0}', '{"v":1,"kind":"action","action":{},"version":1e400}',
                            '"\\ud800"', '{"v":1,"kind":"set_name","name":"\\udfff\\ud800"}',
                            '{"v":1,"kind":"ping","t":1,"id":"\\ud83d"}', '{"v":1,"kind":"nope","id":"\\udc00"}'])


@dataclass(frozen=True)
class Frame:
    """One hostile frame: text, binary, or a replay of an earlier valid message."""

    text: str | None = None
    binary: bytes | None = None
    replay: int | None = None  # index into the example's valid messages


frames = st.one_of(
    json_values.map(lambda v: Frame(text=_dumps(v))),
    wrong_envelope().map(lambda m: Frame(text=_dumps(m))),
    other_seats_action().map(lambda m: Frame(text=_dumps(m))),
    host_message().map(lambda m: Frame(text=_dumps(m))),
    hello_message().map(lambda m: Frame(text=_dumps(m))),
    deep.map(lambda t: Frame(text=t)),
    raw_text.map(lambda t: Frame(text=t)),
    st.binary(max_size=64).map(lambda b: Frame(binary=b)),
    st.integers(9 * 1024, 20 * 1024).map(lambda n: Frame(text='{"v":1,"kind":"ping","t":1,"pad":"' + "x" * n + '"}')),
    st.just(Frame(text="x" * (70 * 1024))),  # over the hard limit: closed 1009
    st.integers(0, 50).map(lambda i: Frame(replay=i)),
)


def make_plans(min_size: int, max_size: int) -> st.SearchStrategy[list[tuple[str, Frame]]]:
    return st.lists(st.tuples(st.sampled_from(SENDERS), frames), min_size=min_size, max_size=max_size)


plans = make_plans(1, 50)


# --------------------------------------------------------------------------------- driver
class Breach(AssertionError):
    """The server broke a promise; the message says which, with the frame that did it."""


@dataclass
class Socket:
    role: str
    ws: aiohttp.ClientWebSocketResponse
    marker: int = 0


@dataclass
class Run:
    session: Session
    client: TestClient
    sockets: dict[str, Socket] = field(default_factory=dict)
    valid: list[str] = field(default_factory=list)  # earlier valid messages, for replays
    messages: int = 0
    refused: int = 0
    accepted: int = 0
    closes: dict[int, int] = field(default_factory=dict)

    def table_picture(self) -> str:
        """Everything a seat, the host or the screen could be shown, as one comparable text."""
        s = self.session
        picture = {"version": s.version, "common": s.update.common(host=True),
                   "seats": [s.update.seat(seat).to_json() for seat in range(s.table.seat_count)],
                   "public": s.update.seat(None).to_json(), "tokens": [r.token for r in s.table.seats]}
        return json.dumps(picture, sort_keys=True, default=str)

    async def open(self, role: str) -> None:
        ws = await self.client.ws_connect("/ws", max_msg_size=0)
        socket = Socket(role, ws)
        self.sockets[role] = socket
        hello: dict[str, Any] | None = {
            "seat": {"token": self.session.table.seats[0].token, "name": "P0"},
            "spectator": {"role": "spectator"},
            "host": {"role": "host", "pin": PIN},
            "stranger": None,
        }[role]
        if hello is not None:
            await ws.send_str(json.dumps({"v": 1, "kind": "hello", **hello}))
        await self.settle(socket, "(connect)")

    async def settle(self, socket: Socket, what: str) -> tuple[list[dict[str, Any]], int | None]:
        """Send the marker ping, read up to its answer: (replies before it, close code or None)."""
        socket.marker += 1
        mark = f"m{socket.marker}"
        with contextlib.suppress(ConnectionError, RuntimeError, aiohttp.ClientError):  # closing: read below
            await socket.ws.send_str(json.dumps({"v": 1, "kind": "ping", "t": socket.marker, "id": mark}))
        replies: list[dict[str, Any]] = []
        while True:
            msg = await asyncio.wait_for(socket.ws.receive(), 10)
            if msg.type is not aiohttp.WSMsgType.TEXT:
                code = msg.data if msg.type is aiohttp.WSMsgType.CLOSE else socket.ws.close_code
                return replies, int(code) if code is not None else None
            try:
                data = json.loads(msg.data)
            except ValueError as exc:
                raise Breach(f"{what}: a reply is not JSON ({exc}): {msg.data[:200]!r}") from None
            if not isinstance(data, dict) or "kind" not in data:
                raise Breach(f"{what}: a reply is not a message: {msg.data[:200]!r}")
            if (data["kind"] == "pong" and data.get("t") == socket.marker) or (
                    data["kind"] == "error" and data.get("id") == mark):
                return replies, None
            replies.append(data)

    async def send(self, role: str, frame: Frame) -> None:
        socket = self.sockets[role]
        text = frame.text
        if frame.replay is not None:
            if not self.valid:
                return
            text = self.valid[frame.replay % len(self.valid)]
        what = f"{role} sent {(text or repr(frame.binary))[:160]!r}"
        before = self.table_picture()
        try:
            if frame.binary is not None:
                await socket.ws.send_bytes(frame.binary)
            else:
                assert text is not None
                await socket.ws.send_str(text)
        except (ConnectionError, RuntimeError, aiohttp.ClientError) as exc:
            raise Breach(f"{what}: could not send on an open socket ({exc})") from None
        self.messages += 1
        replies, closed = await self.settle(socket, what)
        errors = [r for r in replies if r["kind"] == "error"]
        if errors:
            self.refused += 1
            after = self.table_picture()
            if after != before:
                raise Breach(f"{what}: refused with {errors[0]['code']} but the table changed")
        else:
            self.accepted += 1
        if closed is not None:
            self.closes[closed] = self.closes.get(closed, 0) + 1
            if closed not in DOCUMENTED_CLOSES:
                raise Breach(f"{what}: socket closed with {closed} (not a documented close)")
            if closed == 4003 and not errors:
                raise Breach(f"{what}: closed 4003 without an error first")
            await self.open(role)  # a new device takes its place

    async def valid_moves(self) -> None:
        """A few legal votes (kept for replays), so that old messages exist."""
        s = self.session
        for _ in range(3):
            legal = s.update.seat(0).legal
            if not legal:
                return
            text = json.dumps({"v": 1, "kind": "action", "action": legal[0], "version": s.version})
            await self.sockets["seat"].ws.send_str(text)
            replies, _ = await self.settle(self.sockets["seat"], "a legal move")
            if any(r["kind"] == "error" for r in replies):
                return
            self.valid.append(text)


async def play_hostile(plan: list[tuple[str, Frame]], data_dir: Path, game: str = "collusion") -> Run:
    config = TableConfig(data_dir=data_dir, admin_pin=PIN, seed=7, game=game, new=True)
    journal, saved, _ = Journal.open(config.data_dir, new=True)
    session = Session.boot(config, journal, saved, bot_delay_scale=0.0)
    server = TestServer(make_app(session, ServerSettings(rate=RateLimit(1_000_000, 1_000_000))))
    client = TestClient(server)
    await client.start_server()
    try:
        session.host_command({"command": "set_seats", "count": SEATS})
        if game == "collusion":
            session.host_command({"command": "set_setting", "name": "conspiracy_ms", "value": 3_600_000})
        for seat in range(1, SEATS):
            session.join_seat(session.table.seats[seat].token, f"P{seat}")
        run = Run(session, client)
        await run.open("seat")
        session.host_command({"command": "start"})
        for role in SENDERS[1:]:
            await run.open(role)
        await run.valid_moves()
        for role, frame in plan:
            await run.send(role, frame)
        for socket in run.sockets.values():
            await socket.ws.close()
        return run
    finally:
        await client.close()
        session.close()
        journal.close()
