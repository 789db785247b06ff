"""The WebSocket protocol, version 1 (see ``docs/protocol.md``): parsing client messages into
typed values and building server messages."""
from __future__ import annotations

import enum
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

import orjson

from game.errors import TableError
from game.rules.base import MalformedAction

from .errors import TooLarge, UnknownKind

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8 * 1024  # larger: error too_large, message ignored
HARD_MAX_MESSAGE_BYTES = 64 * 1024  # larger: the socket is closed (1009)
MAX_ID_CHARS = 64

MessageId = Union[str, int, None]


class Role(enum.Enum):
    SEAT = "seat"
    SPECTATOR = "spectator"
    HOST = "host"


class ClientKind(enum.Enum):
    HELLO = "hello"
    SET_NAME = "set_name"
    SET_LANG = "set_lang"
    ACTION = "action"
    PING = "ping"
    HOST = "host"
    PRESS = "press"
    SYNC_REPLY = "sync_reply"
    GIVE_SEAT = "give_seat"
    FREE_AWAY = "free_away"


class CloseCode(enum.IntEnum):
    POLICY = 1008  # no hello in time, or room made for others: the phone reconnects by itself
    TAKEN_OVER = 4001
    REFUSED = 4003  # unknown token, wrong PIN
    KICKED = 4004
    NEW_GROUP = 4005  # kiosk: the table was handed to the next group; this seat's link is over
    GALLERY_FULL = 4009  # a spectator over the gallery's cap: try again later


@dataclass(frozen=True, slots=True)
class Hello:
    role: Role
    token: str | None
    pin: str | None
    name: str | None
    lang: str | None
    last_version: int | None


@dataclass(frozen=True, slots=True)
class SetName:
    name: Any  # checked by the session (seats.clean_name)


@dataclass(frozen=True, slots=True)
class SetLang:
    lang: Any  # checked by the session


@dataclass(frozen=True, slots=True)
class Act:
    action: Any  # decoded by the game's codec
    version: int


@dataclass(frozen=True, slots=True)
class Ping:
    t: float | int


@dataclass(frozen=True, slots=True)
class HostCmd:
    payload: Mapping[str, Any]  # {"command": ..., **args}: the InputKind.HOST payload; checked by the session


@dataclass(frozen=True, slots=True)
class PressMsg:
    """A race press: ``t`` is the phone's own clock (ms) at the touch. ``card`` is still accepted
    from older phones and ignored: the engine's race request knows what each seat holds."""

    race: int | str  # the view's race id: a game's race key, a number or a short text
    t: float | int
    card: int | None


@dataclass(frozen=True, slots=True)
class SyncReply:
    """The answer to the server's ``sync {s}``: ``t`` is the phone's clock when it answered."""

    s: int
    t: float | int


@dataclass(frozen=True, slots=True)
class GiveSeat:
    """The seated phone agrees that the phone asking for its seat (claim ``id``) takes it."""

    id: int


@dataclass(frozen=True, slots=True)
class FreeAway:
    """The seated phone agrees to free ``seat``, whose phone has been away too long (session/away.py)."""

    seat: int


Body = Union[Hello, SetName, SetLang, Act, Ping, HostCmd, PressMsg, SyncReply, GiveSeat, FreeAway]


@dataclass(frozen=True, slots=True)
class ClientMessage:
    kind: ClientKind
    body: Body
    id: MessageId = None


def _reject_constant(name: str) -> Any:
    raise MalformedAction(f"{name} is not valid JSON here")


def _load(text: str) -> Any:
    if len(text) > MAX_MESSAGE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise TooLarge(f"messages are limited to {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise MalformedAction(f"not JSON: {exc}") from None
    if "\\u" in text and has_lone_surrogate(data):
        raise MalformedAction("the message holds a lone UTF-16 surrogate: not Unicode text")
    return data


def _is_broken(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def has_lone_surrogate(data: Any) -> bool:
    """Whether any string (a key or a value) in decoded JSON holds a lone surrogate (a JSON escape
    such as ``\\ud800`` that is not half of a pair): such text cannot be encoded, compared or shown."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _is_broken(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _opt(data: Mapping[str, Any], name: str, kind: type) -> Any:
    value = data.get(name)
    if value is None:
        return None
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise MalformedAction(f"{name!r} has the wrong type")
    return value


def _need(data: Mapping[str, Any], name: str) -> Any:
    if name not in data:
        raise MalformedAction(f"missing field {name!r}")
    return data[name]


def _message_id(data: Mapping[str, Any]) -> MessageId:
    value = data.get("id")
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise MalformedAction("'id' must be text or a whole number")
    if isinstance(value, str) and len(value) > MAX_ID_CHARS:
        raise MalformedAction(f"'id' is limited to {MAX_ID_CHARS} characters")
    if isinstance(value, str) and _is_broken(value):
        raise MalformedAction("'id' is not Unicode text")
    if isinstance(value, int) and abs(value) >= 2**53:
        raise MalformedAction("'id' is too big")
    return value


def _hello(d: Mapping[str, Any]) -> Hello:
    role_text = _opt(d, "role", str) or Role.SEAT.value
    try:
        role = Role(role_text)
    except ValueError:
        raise MalformedAction(f"unknown role {role_text!r}") from None
    token = _opt(d, "token", str)
    if role is Role.SEAT and not token:
        raise MalformedAction("a seat hello needs its token")
    return Hello(role, token, _opt(d, "pin", str), d.get("name"), d.get("lang"), _opt(d, "last_version", int))


def _act(d: Mapping[str, Any]) -> Act:
    version = _need(d, "version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise MalformedAction("'version' must be a whole number")
    return Act(_need(d, "action"), version)


def _ping(d: Mapping[str, Any]) -> Ping:
    t = _need(d, "t")
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t):
        raise MalformedAction("'t' must be a number")
    return Ping(t)


def _number(d: Mapping[str, Any], name: str) -> float | int:
    value = _need(d, name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise MalformedAction(f"{name!r} must be a number")
    return value


def _whole(d: Mapping[str, Any], name: str) -> int:
    value = _need(d, name)
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 2**53:
        raise MalformedAction(f"{name!r} must be a whole number")
    return value


def _press(d: Mapping[str, Any]) -> PressMsg:
    card = d.get("card")
    if card is not None and (isinstance(card, bool) or not isinstance(card, int)):
        raise MalformedAction("'card' must be a card id")
    return PressMsg(_race_key(d), _number(d, "t"), card)


RACE_KEY_CHARS = 64


def _race_key(d: Mapping[str, Any]) -> int | str:
    """A press's race: a whole number, or a game's text key (``"buzz:3"``) as its view names it."""
    race = _need(d, "race")
    if isinstance(race, str) and 0 < len(race) <= RACE_KEY_CHARS and race.isprintable():
        return race
    if isinstance(race, bool) or not isinstance(race, int):
        raise MalformedAction(f"'race' must be the view's race id: a whole number or a text of 1-{RACE_KEY_CHARS} characters")
    return _whole(d, "race")  # and within the whole numbers a message may carry


def _host(d: Mapping[str, Any]) -> HostCmd:
    command = _need(d, "command")
    if not isinstance(command, str):
        raise MalformedAction("'command' must be text")
    args = d.get("args", {})
    if not isinstance(args, dict):
        raise MalformedAction("'args' must be an object")
    if "command" in args:
        raise MalformedAction("'args' cannot hold 'command'")
    return HostCmd({"command": command, **args})


_FIELDS: dict[ClientKind, frozenset[str]] = {
    ClientKind.HELLO: frozenset({"role", "token", "pin", "name", "lang", "last_version"}),
    ClientKind.SET_NAME: frozenset({"name"}),
    ClientKind.SET_LANG: frozenset({"lang"}),
    ClientKind.ACTION: frozenset({"action", "version"}),
    ClientKind.PING: frozenset({"t"}),
    ClientKind.HOST: frozenset({"command", "args"}),
    ClientKind.PRESS: frozenset({"race", "t", "card"}),
    ClientKind.SYNC_REPLY: frozenset({"s", "t"}),
    ClientKind.GIVE_SEAT: frozenset({"claim"}),
    ClientKind.FREE_AWAY: frozenset({"seat"}),
}
_ENVELOPE = frozenset({"v", "kind", "id"})

_BODIES: dict[ClientKind, Callable[[Mapping[str, Any]], Body]] = {
    ClientKind.HELLO: _hello,
    ClientKind.SET_NAME: lambda d: SetName(_need(d, "name")),
    ClientKind.SET_LANG: lambda d: SetLang(_need(d, "lang")),
    ClientKind.ACTION: _act,
    ClientKind.PING: _ping,
    ClientKind.HOST: _host,
    ClientKind.PRESS: _press,
    ClientKind.SYNC_REPLY: lambda d: SyncReply(_whole(d, "s"), _number(d, "t")),
    ClientKind.GIVE_SEAT: lambda d: GiveSeat(_whole(d, "claim")),
    ClientKind.FREE_AWAY: lambda d: FreeAway(_whole(d, "seat")),
}


def parse_message(text: str) -> ClientMessage:
    """A client message, or a TableError: TooLarge, MalformedAction, UnknownKind."""
    data = _load(text)
    if not isinstance(data, dict):
        raise MalformedAction("a message must be a JSON object")
    if data.get("v") != PROTOCOL_VERSION or isinstance(data.get("v"), bool):
        raise MalformedAction(f"unsupported protocol version {data.get('v')!r}; this server speaks {PROTOCOL_VERSION}")
    kind_text = data.get("kind")
    if not isinstance(kind_text, str):
        raise MalformedAction("'kind' must be text")
    try:
        kind = ClientKind(kind_text)
    except ValueError:
        raise UnknownKind(f"unknown message kind {kind_text[:40]!r}") from None
    message_id = _message_id(data)
    unknown = set(data) - _ENVELOPE - _FIELDS[kind]
    if unknown:
        raise MalformedAction(f"unknown field(s) for {kind.value}: {', '.join(sorted(unknown))[:80]}")
    return ClientMessage(kind, _BODIES[kind](data), message_id)


def id_of(text: str) -> MessageId:
    """Best effort: the ``id`` of a message that failed to parse (for the error reply)."""
    try:
        data = json.loads(text) if len(text) <= HARD_MAX_MESSAGE_BYTES else None  # a too_large one's id too
        return _message_id(data) if isinstance(data, dict) else None
    except (ValueError, RecursionError, TableError):
        return None


def error_message(exc: TableError, message_id: MessageId = None) -> dict[str, Any]:
    out: dict[str, Any] = {**exc.wire_fields(), "v": PROTOCOL_VERSION, "kind": "error", "code": exc.code,
                           "message": str(exc)}
    if message_id is not None:
        out["id"] = message_id
    return out


def notice_message(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "kind": "notice", "code": code, "message": message, **extra}


def claim_message(state: str, seat: Mapping[str, Any]) -> dict[str, Any]:
    """A phone that asked for a seat it cannot take by itself: ``name_needed`` (a bot's seat: say
    hello again with a name) or ``waiting`` (the host allows or refuses on the TV or host console)."""
    return {"v": PROTOCOL_VERSION, "kind": "claim", "state": state, "seat": dict(seat)}


def pong_message(t: float | int, server_ms: int) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "kind": "pong", "t": t, "server_ms": server_ms}


def framed(kind: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """A server message: the protocol version and its kind, then its fields (the session gives the
    fields of ``state`` and ``welcome``; every frame is made here)."""
    return {"v": PROTOCOL_VERSION, "kind": kind, **fields}


def encode(message: Mapping[str, Any]) -> bytes:
    """One server message as the UTF-8 bytes of a text frame (compact JSON, keys in order).
    orjson encodes a state about nine times faster than ``json`` (every change encodes one frame
    per seat before the phones hear of it); what it refuses — a key that is not text, or text that
    is not Unicode (a lone surrogate never reaches here from a client: ``parse_message`` refuses
    it) — takes the ``json`` path, a lone surrogate sent as "?" instead of failing the send."""
    try:
        return orjson.dumps(message)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "replace")


def sync_message(s: int) -> dict[str, Any]:
    """Clock sync probe: the phone answers ``sync_reply {s, t}`` at once with its own clock."""
    return {"v": PROTOCOL_VERSION, "kind": "sync", "s": s}


def press_result_message(race: int | str, verdict: str, t_ms: float, error_ms: float,
                         message_id: MessageId = None, *, clamped: bool = False) -> dict[str, Any]:
    """The judge's verdict on a phone's press (``accepted``, ``false_start``, ``too_late``, ...);
    ``clamped``: its claimed time was held to the server's bound (M16)."""
    out: dict[str, Any] = {"v": PROTOCOL_VERSION, "kind": "press_result", "race": race, "verdict": verdict,
                           "t_ms": round(t_ms, 1), "error_ms": round(error_ms, 1), "clamped": clamped}
    if message_id is not None:
        out["id"] = message_id
    return out
