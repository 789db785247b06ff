"""What the session hands to the renderer (and spectators), and the one input type every source
(keyboard, phone, arcade button, bot, timer) becomes.

The session builds a new immutable :class:`TableSnapshot` after every change, on its own thread;
the renderer only ever reads the latest one. Game data inside it comes from ``view(state, None)``
and the engine's wire events, never from raw state.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any


class Mode(enum.Enum):
    TABLE = "table"
    COMPANION = "companion"
    KIOSK = "kiosk"


class TablePhase(enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatStatus(enum.Enum):
    FREE = "free"
    JOINED = "joined"  # a person holds the seat (phone connected or not: see ``connected``)
    BOT = "bot"


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    status: SeatStatus
    name: str
    colour: str
    symbol: str
    code: str  # short typed join code, for phones that cannot scan
    url: str  # the seat's join link (secret token inside): what its QR code encodes
    connected: bool = False
    language: str = "en"


@dataclass(frozen=True, slots=True)
class TimerInfo:
    key: str
    label: str
    duration_ms: int
    deadline_ms: int  # on the session clock (``TableSnapshot.clock_ms`` is "now" when built)


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    version: int
    mode: Mode
    language: str
    game: str
    preset: str | None
    settings: dict[str, Any]
    seats: tuple[SeatInfo, ...]
    phase: TablePhase
    public_view: dict[str, Any] | None
    events: tuple[dict[str, Any], ...] = ()  # wire events of the latest accepted action, to animate
    event_seq: int = 0  # increases with every batch of events
    timer: TimerInfo | None = None
    clock_ms: int = 0
    join_url: str = ""  # base address phones reach
    spectator_url: str = ""
    notices: tuple[str, ...] = ()  # i18n keys, e.g. "arcade_unplugged"
    extras: dict[str, Any] = field(default_factory=dict)


class InputSource(enum.Enum):
    KEYBOARD = "keyboard"
    PHONE = "phone"
    ARCADE = "arcade"
    BOT = "bot"
    TIMER = "timer"


class InputKind(enum.Enum):
    GAME_ACTION = "game_action"  # payload: {"action": wire action}
    HOST = "host"  # payload: {"command": str, ...}  (start, settings, add_bot, ...)
    PRESS = "press"  # a race press: payload {"race": race id}, t_ms = time of the press


@dataclass(frozen=True, slots=True)
class InputEvent:
    source: InputSource
    kind: InputKind
    seat: int | None
    payload: dict[str, Any]
    t_ms: float  # session clock, ms (float: arcade presses keep sub-millisecond device precision)
