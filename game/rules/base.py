"""Types every game engine shares: seats, typed errors, the wire codec, timers, the engine contract.

An engine is pure: ``new_game`` / ``legal_actions`` / ``apply`` / ``view`` take values and return
values; no I/O, no clock, no global random (the seeded :class:`~game.rules.rng.Rng` lives in the
state). ``apply`` never mutates the state it is given; on bad input it raises a
:class:`RulesError` and the caller still holds the unchanged old state.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar, Union

from game.errors import TableError
from game.rules.schema import SettingSpec, settings_schema

Seat = int
"""A seat index, 0-based. ``None`` as the acting seat means the table itself (timers, race judge)."""

JSON = Any


# ---------------------------------------------------------------------------------------- errors
class RulesError(TableError):
    """Base of the rules' typed errors (see :mod:`game.errors` for the whole tree); ``code`` is the
    wire error code the server sends."""

    code = "illegal_action"


class MalformedAction(RulesError):
    code = "malformed"


class IllegalAction(RulesError):
    code = "illegal_action"


class NotYourTurn(IllegalAction):
    code = "not_your_turn"


class UnknownSeat(RulesError):
    code = "unknown_seat"


class StaleState(RulesError):
    code = "stale_state"


class GameOver(IllegalAction):
    code = "game_over"


class BadSettings(RulesError):
    code = "bad_settings"


# ------------------------------------------------------------------------------------ wire codec
def _decode_value(hint: Any, value: Any, where: str) -> Any:
    """Check and convert one JSON value against a type hint; raise MalformedAction when it does not fit."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode_value(option, value, where)
            except MalformedAction:
                continue
        raise MalformedAction(f"{where}: {value!r} is not a valid value")
    if origin is typing.Literal:
        if value in typing.get_args(hint):
            return value
        raise MalformedAction(f"{where}: {value!r} is not one of {typing.get_args(hint)}")
    if origin in (tuple, list):
        if not isinstance(value, (list, tuple)):
            raise MalformedAction(f"{where}: expected a list")
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode_value(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise MalformedAction(f"{where}: expected {len(args)} items")
        return tuple(_decode_value(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(value)
        except ValueError:
            raise MalformedAction(f"{where}: {value!r} is not one of {[m.value for m in hint]}") from None
    if hint is bool:
        if isinstance(value, bool):
            return value
        raise MalformedAction(f"{where}: expected true or false")
    if hint is int:
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63:
            return value
        raise MalformedAction(f"{where}: expected a whole number")
    if hint is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise MalformedAction(f"{where}: expected a number")
    if hint is str:
        if isinstance(value, str):
            return value
        raise MalformedAction(f"{where}: expected text")
    raise TypeError(f"unsupported wire type {hint!r} at {where}")


def _encode_value(value: Any) -> JSON:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_encode_value(v) for v in value]
    return value


def encode_fields(obj: Any) -> dict[str, JSON]:
    return {f.name: _encode_value(getattr(obj, f.name)) for f in dataclasses.fields(obj)}


@functools.cache
def _field_types(cls: type) -> dict[str, Any]:
    """``cls``'s resolved field annotations (``get_type_hints`` evaluates them: done once per class)."""
    return typing.get_type_hints(cls)


def decode_fields(cls: type, data: Mapping[str, Any], *, partial: bool = False, where: str = "") -> dict[str, Any]:
    """Decode ``data`` into constructor kwargs for dataclass ``cls``; unknown or missing keys are errors."""
    hints = _field_types(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(data) - names
    if unknown:
        raise MalformedAction(f"{where or cls.__name__}: unknown field(s) {sorted(unknown)}")
    out: dict[str, Any] = {}
    for f in dataclasses.fields(cls):
        if f.name in data:
            out[f.name] = _decode_value(hints[f.name], data[f.name], f"{where or cls.__name__}.{f.name}")
        elif not partial and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise MalformedAction(f"{where or cls.__name__}: missing field {f.name!r}")
    return out


T = TypeVar("T")


class WireCodec(Generic[T]):
    """Round-trips tagged frozen dataclasses (actions or events) to ``{"type": tag, ...fields}``.

    Usage::

        ACTIONS = WireCodec("action")

        @ACTIONS.register("vote")
        @dataclass(frozen=True, slots=True)
        class Vote:
            target: int
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._by_tag: dict[str, type] = {}
        self._by_cls: dict[type, str] = {}

    def register(self, tag: str):
        def deco(cls: type) -> type:
            if tag in self._by_tag:
                raise ValueError(f"{self.kind} tag {tag!r} registered twice")
            self._by_tag[tag] = cls
            self._by_cls[cls] = tag
            return cls

        return deco

    @property
    def tags(self) -> tuple[str, ...]:
        return tuple(self._by_tag)

    @property
    def classes(self) -> tuple[type, ...]:
        return tuple(self._by_tag.values())

    def tag_of(self, obj: T) -> str:
        return self._by_cls[type(obj)]

    def to_wire(self, obj: T) -> dict[str, JSON]:
        return {"type": self._by_cls[type(obj)], **encode_fields(obj)}

    def from_wire(self, data: Any) -> T:
        if not isinstance(data, Mapping):
            raise MalformedAction(f"{self.kind} must be an object")
        tag = data.get("type")
        cls = self._by_tag.get(tag) if isinstance(tag, str) else None
        if cls is None:
            raise MalformedAction(f"unknown {self.kind} type {tag!r}")
        fields = {k: v for k, v in data.items() if k != "type"}
        return cls(**decode_fields(cls, fields, where=f"{self.kind} {tag!r}"))


def settings_from_wire(base: T, overrides: Mapping[str, Any]) -> T:
    """Apply type-checked overrides to a settings dataclass; bad keys or values raise BadSettings."""
    if not isinstance(overrides, Mapping):
        raise BadSettings("settings must be an object")
    try:
        changes = decode_fields(type(base), overrides, partial=True, where="settings")
    except MalformedAction as exc:
        raise BadSettings(str(exc)) from None
    value = dataclasses.replace(base, **changes)  # type: ignore[type-var]
    check = getattr(value, "validate", None)
    if check is not None:
        check()
    return value


# ---------------------------------------------------------------------------------------- timers
@dataclass(frozen=True, slots=True)
class TimerRequest:
    """What the session must time now. ``key`` names this timer instance: while the engine keeps
    returning the same key the running timer continues; a new key restarts it; ``None`` cancels.
    When it runs out the session applies ``on_expiry`` as the table (seat ``None``)."""

    key: str
    duration_ms: int
    on_expiry: Any
    label: str = ""


# ----------------------------------------------------------------------------------------- races
class RaceMode(enum.Enum):
    """How a race is decided (Cheating Moth M14/M15; any game with a slap or a buzzer)."""

    SLOWEST_LOSES = "slowest_loses"  # every eligible seat must press; the slowest (or one who never presses) loses
    FASTEST_WINS = "fastest_wins"  # the first press wins; the others need not press


@dataclass(frozen=True, slots=True)
class RacePress:
    """One seat's counted press, as the session's judge hands it to the engine."""

    seat: Seat
    t_ms: float  # ms since the race opened, on the session clock, full device precision (never negative)
    error_ms: float  # the press's error bound (arcade < phone < keyboard)
    clock: str = ""  # the shared clock that stamped it (one arcade board): see game.rules.race
    resolution_ms: float = 0.0  # that clock's step: presses on one clock compare to within it


@dataclass(frozen=True, slots=True)
class RaceRequest:
    """A race the session must judge now, beside :class:`TimerRequest`. ``key`` names this race
    instance: while the engine keeps returning the same key the race runs on; a new key is a new
    race; ``None`` (no request) means no race. The session collects presses from every source and
    applies ``on_result(presses)`` (fastest first) as the table (seat ``None``); the engine fills in
    what only it knows (e.g. which card a seat raced).

    ``eligible``: the seats whose presses count (empty: nobody can press; the timeout ends it).
    ``secret``: ``eligible`` is private (a Beetle's holders): the session shows nobody's
    eligibility, who has pressed while it runs, or who stayed still — only presses made.
    ``settle_ms``: how long a race stays open after the press that could decide it, for a later
    (or more precise) press to count (``None``: the session's default)."""

    key: str
    mode: RaceMode
    eligible: frozenset[Seat]
    timeout_ms: int
    on_result: Callable[[tuple[RacePress, ...]], Any]
    label: str = ""
    secret: bool = False
    settle_ms: float | None = None


# ------------------------------------------------------------------------------------ the engine
class GameEngine(Generic[T]):
    """The contract every game module implements (as a module-level ``ENGINE`` instance)."""

    name: str = ""
    min_seats: int = 1
    max_seats: int = 12
    actions: WireCodec[Any]
    events: WireCodec[Any]

    settings_presets: ClassVar[Mapping[str, Any]] = {}
    """Preset name -> its (frozen) settings, in menu order. An engine with fixed presets sets this
    and inherits ``default_settings`` and ``presets``; one with computed presets overrides both."""
    fallback_preset: ClassVar[str | None] = None
    """The preset ``default_settings()`` gives when none is named (None: the first)."""
    setting_words: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Text settings whose value is one of a few words (a deck's language): setting -> the words."""
    seat_settings: ClassVar[frozenset[str]] = frozenset()
    """Int settings whose value is a seat (its 0-based index, e.g. the first guard): every editor
    shows and picks them as the seat people see (name, colour; numbers from 1), never the index."""

    # settings
    def default_settings(self, preset: str | None = None) -> Any:
        if not self.settings_presets:
            raise NotImplementedError
        name = preset or self.fallback_preset or next(iter(self.settings_presets))
        if name not in self.settings_presets:
            raise BadSettings(f"unknown preset {name!r}; choose one of {', '.join(self.settings_presets)}")
        return self.settings_presets[name]

    def presets(self) -> tuple[str, ...]:
        return tuple(self.settings_presets)

    def default_preset(self, language: str) -> str | None:
        """The preset a table in ``language`` starts with (and follows while nobody chose one): a
        preset named after the language (a deck per language), else the game's first."""
        presets = self.presets()
        if language in presets:
            return language
        return presets[0] if presets else None

    def settings_schema(self) -> tuple[SettingSpec, ...]:
        """What the host may set and to what (the TV's settings screen and the host console read
        it): derived from the fields of the default settings' type, :attr:`setting_words` and
        :attr:`seat_settings`."""
        return settings_schema(type(self.default_settings()), self.setting_words, self.seat_settings)

    def settings_to_wire(self, settings: Any) -> dict[str, JSON]:
        return encode_fields(settings)

    def settings_from_wire(self, data: Mapping[str, Any], preset: str | None = None) -> Any:
        return settings_from_wire(self.default_settings(preset), data)

    # play
    def new_game(self, settings: Any, n_seats: int, seed: int) -> T:
        raise NotImplementedError

    def legal_actions(self, state: T, seat: Seat) -> list[Any]:
        raise NotImplementedError

    def apply(self, state: T, seat: Seat | None, action: Any) -> tuple[T, list[Any]]:
        raise NotImplementedError

    def view(self, state: T, seat: Seat | None) -> dict[str, JSON]:
        raise NotImplementedError

    def is_over(self, state: T) -> bool:
        raise NotImplementedError

    def start_events(self, state: T) -> list[Any]:
        """Events that tell the story of ``new_game`` (a deal, the first clue); none by default."""
        return []

    def timer(self, state: T) -> TimerRequest | None:
        return None

    def table_actions(self, state: T) -> list[Any]:
        """What the table itself (seat ``None``: the host as referee, a companion game's score pad)
        may do now. None by default: table-mode games act as the table only through timers and races."""
        return []

    def legal_form(self, action: Any) -> Any:
        """The form ``action`` has in :meth:`legal_actions` once its ``t_ms`` is zeroed (the session
        zeroes that). An engine may zero more (a companion's entered points, which ``apply`` checks);
        by default the action itself."""
        return action

    def button_action(self, state: T, seat: Seat, presses: int) -> Any | None:
        """The action a seat's arcade-button gesture (``presses`` quick presses while no race runs)
        makes now, or ``None``. Engines without gestures keep this default: gestures do nothing."""
        return None

    def race(self, state: T) -> RaceRequest | None:
        """The race the session must judge now (none by default; see :class:`RaceRequest`)."""
        return None

    def seats_to_act(self, state: T) -> tuple[Seat, ...]:
        """Seats that have at least one legal action now (the session asks their bots)."""
        return tuple(s for s in range(self.n_seats(state)) if self.legal_actions(state, s))

    def n_seats(self, state: T) -> int:
        """``state.n`` when the state keeps its seat count there, else ``len(state.seats)``."""
        n = getattr(state, "n", None)
        return n if isinstance(n, int) else len(getattr(state, "seats"))  # noqa: B009 (T is unbounded)

    def _check_apply(self, state: T, seat: Seat | None) -> None:
        """What every ``apply`` checks first: a seat of this table (or the table), a game not over."""
        check_seat(seat, self.n_seats(state))
        if self.is_over(state):
            raise GameOver("the game is over")

    # wire helpers
    def action_from_wire(self, data: Any) -> Any:
        return self.actions.from_wire(data)

    def action_to_wire(self, action: Any) -> dict[str, JSON]:
        return self.actions.to_wire(action)

    def event_to_wire(self, event: Any) -> dict[str, JSON]:
        return self.events.to_wire(event)

    def events_to_wire(self, events: Iterable[Any]) -> list[dict[str, JSON]]:
        return [self.events.to_wire(e) for e in events]

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        """One plain-English line for a wire event (replay logs); games override with their own words."""
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k != "type")
        return f"{event.get('type', '?')}: {fields}" if fields else str(event.get("type", "?"))


def check_seat(seat: Seat | None, n_seats: int) -> None:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < n_seats):
        raise UnknownSeat(f"no seat {seat!r} at this table")


def pairs(items: Sequence[T]) -> Iterable[tuple[T, T]]:
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            yield a, b
