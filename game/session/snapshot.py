"""What the session hands to the renderer (and spectators), and the one input type every source
(keyboard, phone, arcade button, bot, timer) becomes.

The session builds a new immutable :class:`TableSnapshot` after every change, on its own thread;
the renderer only ever reads the latest one. Game data inside it comes from ``view(state, None)``
and the engine's wire events, never from raw state. Everything else the screen shows (the lobby's
limits and errors, the arcade board, the races, seat requests, the how-to-play) is typed here:
:class:`LobbyInfo`, :class:`ArcadeInfo`, :class:`RaceInfo`, :class:`ClaimInfo`, :class:`HowToPlayInfo`.
"""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game.config import RunMode  # the snapshot carries the table's mode (declared with the configuration)


class TablePhase(enum.Enum):
    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"


class SeatStatus(enum.Enum):
    FREE = "free"
    JOINED = "joined"  # a person holds the seat (phone connected or not: see ``connected``)
    BOT = "bot"


class ExtendedTimers(enum.Enum):
    """More time on every timed step (votes, the conspiracy, pointing, any game's step timer) for
    players who need it; the session stretches the engine's timers, the rules never see it."""

    NORMAL = "normal"
    HALF_AGAIN = "x1_5"
    DOUBLE = "x2"

    @property
    def factor(self) -> float:
        return {"normal": 1.0, "x1_5": 1.5, "x2": 2.0}[self.value]


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
    bot: str | None = None  # the bot kind playing the seat (a BotKind value: "heuristic", "search", ...), None for a person


@dataclass(frozen=True, slots=True)
class TimerInfo:
    key: str
    label: str
    duration_ms: int
    deadline_ms: int  # on the session clock (``TableSnapshot.clock_ms`` is "now" when built)


@dataclass(frozen=True, slots=True)
class HostError:
    """Why the host's last command was refused (shown on the lobby until the next one)."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class LobbyInfo:
    """The lobby's facts besides the seats: how many seats the game allows, whether it can start,
    what can be chosen, and the host's last error."""

    seat_count: int = 0
    min_seats: int = 3
    max_seats: int = 12
    can_start: bool = False
    has_bots: bool = True  # bots can play this game with these settings (else every seat needs a person)
    presets: tuple[str, ...] = ()
    games: tuple[str, ...] = ()  # the games of the current play mode
    play_mode: str = "table"  # catalog.PlayMode value: "table" (phones as hands) or "companion" (a boxed game)
    play_modes: tuple[str, ...] = ("table",)  # the modes this table offers
    table_settings: Mapping[str, Any] = field(default_factory=dict)  # idle reset, default bot kind
    host_url: str = ""
    host_error: HostError | None = None


@dataclass(frozen=True, slots=True)
class ArcadeInfo:
    """The arcade board: present and connected, the mapping wizard's progress, the saved mapping."""

    present: bool = False
    connected: bool = False
    mapping_in_progress: bool = False
    waiting_for: int | None = None  # the seat whose button the wizard waits for
    done: tuple[tuple[int, int], ...] = ()  # (seat, button) pressed so far in the wizard
    mapping: tuple[tuple[int, int], ...] | None = None  # the saved (seat, button) mapping
    pads: bool = False  # USB arcade encoders or game pads are plugged in (the wizard maps them without a board)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ArcadeInfo:
        """From the board's JSON (``ArcadeBoard.to_json``, also what the host console reads)."""
        mapping = data.get("mapping")
        return cls(bool(data.get("present")), bool(data.get("connected")), bool(data.get("mapping_in_progress")),
                   _seat_or_none(data.get("waiting_for")), _pairs(data.get("done")),
                   _pairs(mapping) if isinstance(mapping, Mapping) else None, bool(data.get("pads", False)))


@dataclass(frozen=True, slots=True)
class FalseStartInfo:
    seat: int
    early_by_ms: float
    source: str  # "arcade", "phone", "keyboard", "bot"


@dataclass(frozen=True, slots=True)
class RaceNow:
    """The race being run: public facts only (a secret race shows no eligible seats, no presses)."""

    key: str
    mode: str  # RaceMode value
    armed_at_ms: int
    timeout_ms: int
    label: str
    eligible: tuple[int, ...]
    pressed: tuple[int, ...]
    false_starts: tuple[FalseStartInfo, ...]
    closes_at_ms: float | None = None  # a fastest-wins race with a press: when it closes (a public race only)
    window_ms: float = 0.0  # how long it stays open after its first press
    waiting: bool = False  # asked for, not open yet: the TV shows its signal and reports the flip (InputKind.SIGNAL)


@dataclass(frozen=True, slots=True)
class RaceDone:
    """The judge's outcome of the latest race (a secret race's leaves out ``missing`` and
    ``timed_out``: None)."""

    key: str
    mode: str
    order: tuple[int, ...]  # fastest first
    reaction_ms: tuple[float, ...]  # per entry of ``order``
    margins_ms: tuple[float, ...]
    sources: tuple[str, ...]  # per entry of ``order``
    error_bound_ms: float
    ties: tuple[tuple[int, ...], ...]
    false_starts: tuple[FalseStartInfo, ...]
    missing: tuple[int, ...] | None
    timed_out: bool | None
    clamped: tuple[int, ...] = ()  # seats whose claimed press time was held to the server's bound (M16)


@dataclass(frozen=True, slots=True)
class RaceInfo:
    current: RaceNow | None = None
    last: RaceDone | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RaceInfo:
        """From the race floor's JSON (``RaceFloor.to_json``: ``current`` and ``last``)."""
        now, last = data.get("current"), data.get("last")
        return cls(_race_now(now) if isinstance(now, Mapping) else None,
                   _race_done(last) if isinstance(last, Mapping) else None)


@dataclass(frozen=True, slots=True)
class AttractInfo:
    """Kiosk attract loop: the real table's free seats (their codes invite people in)."""

    seats: tuple[SeatInfo, ...] = ()
    join_url: str = ""


@dataclass(frozen=True, slots=True)
class ClaimInfo:
    """A new phone asks for a held seat (or a bot's): the host allows or refuses it on the TV."""

    id: int
    seat: int
    name: str  # the asker's name ("" when they gave none)
    seat_name: str  # the seat holder's name as shown
    bot: bool  # the seat is a bot's
    others: int = 0  # more phones asking for the same seat (the host sees one card per seat)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClaimInfo:
        others = data.get("others", 0)
        return cls(int(data["id"]), int(data["seat"]), str(data.get("name") or ""), str(data.get("seat_name") or ""),
                   bool(data.get("bot", False)), others if isinstance(others, int) and not isinstance(others, bool) else 0)


@dataclass(frozen=True, slots=True)
class HowToPlayInfo:
    """The how-to-play running on the TV before the first round (``game/howto`` has the slides)."""

    game: str
    started_ms: int  # on the session clock
    duration_ms: int


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    version: int
    mode: RunMode
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
    lobby: LobbyInfo = LobbyInfo()
    arcade: ArcadeInfo = ArcadeInfo()
    race: RaceInfo = RaceInfo()
    attract: AttractInfo | None = None  # only on the kiosk's demo snapshots
    claims: tuple[ClaimInfo, ...] = ()  # the one open request the TV shows (the queue shows one at a time)
    how_to_play: HowToPlayInfo | None = None


def _seat_or_none(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _pairs(data: Any) -> tuple[tuple[int, int], ...]:
    """``{"seat": button}`` as sorted (seat, button) pairs (anything else: none)."""
    if not isinstance(data, Mapping):
        return ()
    out = []
    for seat, button in data.items():
        if str(seat).isdigit() and _seat_or_none(button) is not None:
            out.append((int(seat), int(button)))
    return tuple(sorted(out))


def _ints(data: Any) -> tuple[int, ...]:
    return tuple(x for x in data if _seat_or_none(x) is not None) if isinstance(data, list) else ()


def _floats(data: Any) -> tuple[float, ...]:
    return tuple(float(x) for x in data if isinstance(x, (int, float)) and not isinstance(x, bool)) \
        if isinstance(data, list) else ()


def _false_starts(data: Any) -> tuple[FalseStartInfo, ...]:
    if not isinstance(data, list):
        return ()
    return tuple(FalseStartInfo(int(f["seat"]), float(f.get("early_by_ms", 0) or 0), str(f.get("source", "")))
                 for f in data if isinstance(f, Mapping) and _seat_or_none(f.get("seat")) is not None)


def _race_now(d: Mapping[str, Any]) -> RaceNow:
    return RaceNow(str(d.get("race", "")), str(d.get("mode", "")), int(d.get("armed_at_ms", 0) or 0),
                   int(d.get("timeout_ms", 0) or 0), str(d.get("label", "")), _ints(d.get("eligible")),
                   _ints(d.get("pressed")), _false_starts(d.get("false_starts")),
                   float(c) if isinstance(c := d.get("closes_at_ms"), (int, float)) else None,
                   float(d.get("window_ms", 0) or 0), bool(d.get("waiting", False)))


def _race_done(d: Mapping[str, Any]) -> RaceDone:
    ties = tuple(_ints(t) for t in d.get("ties", []) if isinstance(t, list)) if isinstance(d.get("ties"), list) else ()
    missing = d.get("missing")
    return RaceDone(str(d.get("race", "")), str(d.get("mode", "")), _ints(d.get("order")), _floats(d.get("reaction_ms")),
                    _floats(d.get("margins_ms")), tuple(str(x) for x in d.get("sources", []) or []),
                    float(d.get("error_bound_ms", 0) or 0), ties, _false_starts(d.get("false_starts")),
                    _ints(missing) if isinstance(missing, list) else None,
                    bool(d["timed_out"]) if "timed_out" in d else None, _ints(d.get("clamped")))


class InputSource(enum.Enum):
    KEYBOARD = "keyboard"
    PHONE = "phone"
    ARCADE = "arcade"
    BOT = "bot"
    TIMER = "timer"
    SCREEN = "screen"  # the TV itself (its race signals)
    PAD = "pad"  # a USB arcade encoder or game pad read by the TV's loop (game/render/pads.py)


FINAL_SCENE = "game_over"  # the TV's scene of a game's final scores (an InputKind.SHOWN payload names it)


class InputKind(enum.Enum):
    GAME_ACTION = "game_action"  # payload: {"action": wire action}
    HOST = "host"  # payload: {"command": str, ...}  (start, settings, add_bot, ...)
    PRESS = "press"  # a race press: payload {"race": race id}, t_ms = time of the press
    SCREEN = "screen"  # the TV is up and shows races' signals: payload {"on": bool}
    SIGNAL = "signal"  # the TV flipped a race's first frame: payload {"race": race key}, t_ms = the flip
    PAD_PLUGGED = "pad_plugged"  # a USB pad came or went: payload {"pad": id, "name": str, "on": bool}
    PAD_DOWN = "pad_down"  # a USB pad's button: payload {"pad": id, "button": int, "error_ms": float}, t_ms
    SHOWN = "shown"  # the TV now shows a scene, its beats done: payload {"scene": its name} ("game_over")
    TOLD = "told"  # the TV's progress with the news: payload {"seen": event_seq, "told": event_seq} (news.py)


@dataclass(frozen=True, slots=True)
class InputEvent:
    source: InputSource
    kind: InputKind
    seat: int | None
    payload: dict[str, Any]
    t_ms: float  # session clock, ms (float: arcade presses keep sub-millisecond device precision)
