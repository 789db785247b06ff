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
import math
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, Union

from game.errors import TableError
from game.rules.schema import SettingSpec, settings_schema

if TYPE_CHECKING:
    from babel.plural import PluralRule

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
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):  # a value inside a view's copy (a score line)
        return from_fields(hint, value, where)
    raise TypeError(f"unsupported wire type {hint!r} at {where}")


# Values that are their own wire form, tested by exact type (an enum mixing in int or str is not
# one of them): views and records encode a value per field of every action and of the settings.
_PLAIN = frozenset({int, str, bool, float, type(None)})


def _encode_value(value: Any) -> JSON:
    if type(value) in _PLAIN:
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _PLAIN else _encode_value(v) for v in value]
    return value


@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    """A dataclass's field names (``dataclasses.fields`` walks the class's fields each call)."""
    return tuple(f.name for f in dataclasses.fields(cls))


def encode_fields(obj: Any) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    cls: type = type(obj)  # mypy: a type[Any] is no Hashable to functools.cache
    for name in _field_names(cls):
        value = getattr(obj, name)
        out[name] = value if type(value) in _PLAIN else _encode_value(value)
    return out


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


# ---------------------------------------------------------------------------------- typed fields
Check = Callable[[Any], bool]


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_bool(value: Any) -> bool:
    return value is True or value is False


def _tuple_check(hint: Any) -> Check:
    args = typing.get_args(hint)
    if len(args) == 2 and args[1] is Ellipsis:
        item = field_check(args[0])
        return lambda v: isinstance(v, tuple) and all(item(x) for x in v)
    items = tuple(field_check(a) for a in args)
    return lambda v: isinstance(v, tuple) and len(v) == len(items) and all(c(x) for c, x in zip(items, v))


_SCALARS: dict[Any, Check] = {int: _is_int, float: _is_number, bool: _is_bool, type(None): lambda v: v is None,
                              Any: lambda v: True}


def field_check(hint: Any) -> Check:
    """A predicate for values of type ``hint`` as a field holds them: ints are never bools, floats
    are finite numbers, sequences are tuples (a frozen value is hashable), enums their members."""
    if hint in _SCALARS:
        return _SCALARS[hint]
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = tuple(field_check(o) for o in typing.get_args(hint))
        return lambda v: any(c(v) for c in options)
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        return lambda v: any(type(v) is type(a) and v == a for a in allowed)
    if origin is tuple:
        return _tuple_check(hint)
    if origin in (frozenset, set, list, dict):
        return lambda v: isinstance(v, origin)  # not met in actions or events; type only, items unchecked
    if isinstance(hint, type):
        return lambda v: isinstance(v, hint)
    raise TypeError(f"no check for field type {hint!r}")


@functools.cache
def _field_checks(cls: type) -> tuple[tuple[str, Any, Check], ...]:
    hints = _field_types(cls)
    return tuple((f.name, hints[f.name], field_check(hints[f.name])) for f in dataclasses.fields(cls))


# The common field types as one inline test each, so a class's whole check is one generated
# function (as dataclasses builds __init__): events are built on every move of every bot's search.
_FAST: dict[Any, str] = {int: "(type(v) is int)", bool: "(v is True or v is False)", str: "(type(v) is str)",
                         float: "(type(v) is float and v - v == 0.0 or type(v) is int)",
                         int | None: "(v is None or type(v) is int)", tuple[int, ...]: "(v == () or type(v) is tuple "
                         "and all([type(x) is int for x in v]))"}


@functools.cache
def _compiled_check(cls: type) -> Callable[[Any], bool]:
    """One function testing every field of ``cls`` at once (True: all fit). A value the inline test
    refuses goes to the exact predicate, which alone decides (an int subclass, an enum's member)."""
    lines = ["def check(obj):"]
    names: dict[str, Any] = {}
    for i, (name, hint, ok) in enumerate(_field_checks(cls)):
        names[f"ok{i}"] = ok
        fast = _FAST.get(hint)
        if fast is None and isinstance(hint, type):
            names[f"t{i}"] = hint
            fast = f"isinstance(v, t{i})"
        lines += [f"    v = obj.{name}", f"    if not ({fast or 'False'} or ok{i}(v)): return False"]
    lines.append("    return True")
    exec("\n".join(lines), names)  # the source is built above from field names only
    check: Callable[[Any], bool] = names["check"]
    return check


def check_fields(obj: Any, error: type[RulesError] = MalformedAction) -> None:
    """Raise ``error`` naming the first field of dataclass ``obj`` whose value does not fit its annotation."""
    if _compiled_check(obj.__class__)(obj):
        return
    for name, hint, ok in _field_checks(obj.__class__):
        value = getattr(obj, name)
        if not ok(value):
            shown = hint.__name__ if isinstance(hint, type) else str(hint).replace("typing.", "")
            raise error(f"{type(obj).__name__}.{name}: {value!r} does not fit {shown}")


def typed_fields(cls: type) -> type:
    """Make dataclass ``cls`` refuse wrong field values at construction with :class:`MalformedAction`
    (``Accuse('1')``, a missing or unknown argument), never TypeError: an action or event built in
    Python (a bot, a tool, a plug-in) is checked as strictly as one decoded from the wire. Checks
    are compiled from the annotations on first use (they may name types defined later)."""
    if getattr(cls, "__typed_fields__", None) is cls:
        return cls
    init = cls.__init__  # type: ignore[misc]
    fits: list[Callable[[Any], bool]] = []  # the compiled check, once the annotations resolve

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        try:
            init(self, *args, **kwargs)
        except TypeError as exc:  # a missing, extra or unknown argument
            raise MalformedAction(f"{cls.__name__}: {exc}") from None
        if not fits:
            fits.append(_compiled_check(cls))
        if not fits[0](self):
            check_fields(self)  # says which field

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    __init__.__doc__ = init.__doc__
    cls.__init__ = __init__  # type: ignore[misc]
    cls.__typed_fields__ = cls  # type: ignore[attr-defined]
    return cls


T = TypeVar("T")


def from_fields(cls: type[T], data: Any, where: str = "") -> T:
    """A dataclass ``cls`` decoded from its wire fields (``encode_fields``'s inverse): a view's copy
    of an engine value is read back as that value, never re-typed by its reader."""
    if not isinstance(data, Mapping):
        raise MalformedAction(f"{where or cls.__name__} must be an object")
    return cls(**decode_fields(cls, data, where=where))


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
            if self.kind != "event":
                # an action is input (a phone, a bot, a tool, a plug-in): checked when built. An
                # event is the engine's own output, built on every move of every bot's search
                # (checking each cost ~15% of a search bot's throughput); from_wire checks it on the way in
                typed_fields(cls)
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

    def holds(self, obj: Any) -> bool:
        """Whether ``obj`` is an instance of one of this codec's classes (exactly: no subclasses)."""
        return type(obj) in self._by_cls

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
@functools.cache
def _english_plural() -> PluralRule:
    """CLDR's English rule, through Babel as the screens' plurals; made on first use: only the
    event log asks, and Babel is not imported for it at the table's start."""
    from babel.plural import PluralRule

    return PluralRule({"one": "i = 1 and v = 0"})


def english_plural(n: int, one: str, other: str) -> str:
    """``one`` or ``other``, the form English takes for ``n`` (Babel's CLDR rule): the plain-English
    event log (``describe_event``, ``simulate --watch``, ``replay``); the screens pick theirs from
    their strings through :mod:`game.i18n`."""
    return one if _english_plural()(n) == "one" else other


def counted(n: int, one: str, other: str) -> str:
    """``n`` and its noun: ``counted(1, "bar", "bars")`` is "1 bar", ``counted(0, ...)`` "0 bars"."""
    return f"{n} {english_plural(n, one, other)}"


class GameEngine(Generic[T]):
    """The contract every game module implements (as a module-level ``ENGINE`` instance).

    Its entry points check their arguments' types before the engine sees them (see
    :func:`_guard`): a subclass's ``new_game``, ``apply``, ``view``… are wrapped when the class is
    made, so an engine is written for well-typed values and a caller's wrong ones (``view(state,
    True)``, ``new_game(settings, '4', seed)``, another game's state) get typed errors."""

    state_type: ClassVar[type] = object
    """The engine's state class, read from ``GameEngine[State]`` (``object``: not checked)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            args = typing.get_args(base)
            if args and args[0] is not Any and isinstance(args[0], type) and issubclass(typing.get_origin(base) or object, GameEngine):
                cls.state_type = args[0]
        _guard_entry_points(cls)

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
    news_events: ClassVar[frozenset[str]] = frozenset()
    """The events (wire tags) that are public news: an outcome the TV tells with a beat of its own (a
    reveal and its deaths, a verdict, a round's scores, the winner). While a TV is up, the phones
    wait for it to show a batch holding one (``game/session/news.py``); name only events the
    game's screen makes a beat for, or the phones blink "Look at the screen" for nothing.
    Default: none (no batch waits)."""

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

    def bots_can_play(self, settings: Any) -> bool:
        """Whether a bot can hold a seat of a game played with ``settings``. A setting that puts
        something physical in a player's hands (real gold bars on the table) makes a seat a bot can
        neither hold nor answer for: the lobby then offers, seats and keeps no bot and every seat
        needs a person. (A whole game without bots says so in its descriptor: ``bots=None``.)
        By default bots can play any settings."""
        return True

    # play
    def new_game(self, settings: Any, n_seats: int, seed: int) -> T:
        raise NotImplementedError

    def legal_actions(self, state: T, seat: Seat) -> list[Any]:
        raise NotImplementedError

    def apply(self, state: T, seat: Seat | None, action: Any) -> tuple[T, list[Any]]:
        raise NotImplementedError

    def view(self, state: T, seat: Seat | None) -> dict[str, JSON]:
        raise NotImplementedError

    def own_view(self, state: T, seat: Seat) -> dict[str, JSON] | None:
        """The keys a seat's view adds to the public view, when ``view(state, seat)`` is
        ``{**view(state, None), **own_view(state, seat)}``: the session then builds the public view
        once per change and shares it with every seat. ``None`` (the default): build ``view`` whole."""
        return None

    def seat_view(self, state: T, seat: Seat,
                  public: Callable[[], dict[str, JSON] | None]) -> tuple[dict[str, JSON], dict[str, JSON] | None]:
        """``view(state, seat)`` from a public view the caller keeps for the state (``public()``, asked
        only when :meth:`own_view` offers the seat's part), and that part (``None``: the view was built
        whole). The session and ``simulate`` both build seats' views so."""
        own = self.own_view(state, seat)
        shared = public() if own is not None else None
        if own is None or shared is None:
            return self.view(state, seat), None
        return {**shared, **own}, own

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
        legal = _unguarded(type(self), "legal_actions")  # this call's guard checked the state; seats are in range
        return tuple(s for s in range(self.n_seats(state)) if legal(self, state, s))

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


# ------------------------------------------------------------------------ the entry points' guards
def _check_state(engine: GameEngine[Any], state: Any) -> None:
    if type(state) is not engine.state_type and not isinstance(state, engine.state_type):
        raise MalformedAction(f"{engine.name or type(engine).__name__}: a {type(state).__name__} is not its state")


def _check_state_seat(engine: GameEngine[Any], state: Any, seat: Any) -> None:
    # flat on purpose: apply and legal_actions pass here on every move of every bot's search
    if type(state) is not engine.state_type:
        _check_state(engine, state)
    if seat is not None and (type(seat) is not int or not 0 <= seat < engine.n_seats(state)):
        check_seat(seat, engine.n_seats(state))  # an int subclass passes; anything else is UnknownSeat


def _check_preset(preset: Any) -> None:
    if preset is not None and not isinstance(preset, str):
        raise BadSettings(f"a preset is named by text, not {preset!r}")


def _check_new_game(engine: GameEngine[Any], settings: Any, n_seats: Any, seed: Any) -> None:
    if not _is_int(n_seats):
        raise BadSettings(f"the number of players is a whole number, not {n_seats!r}")
    if not _is_int(seed):
        raise BadSettings(f"the seed is a whole number, not {seed!r}")
    try:
        expected = type(engine.default_settings())
    except NotImplementedError:
        expected = object
    if not isinstance(settings, expected):
        raise BadSettings(f"{engine.name} needs its {expected.__name__}, not a {type(settings).__name__}")
    if dataclasses.is_dataclass(settings):
        check_fields(settings, BadSettings)


def _check_action(engine: GameEngine[Any], action: Any) -> None:
    if not engine.actions.holds(action):
        raise MalformedAction(f"{type(action).__name__} is not a {engine.name} action")


def _check_apply(engine: GameEngine[Any], state: Any, seat: Any, action: Any) -> None:
    _check_state_seat(engine, state, seat)
    if type(action) not in engine.actions._by_cls:
        _check_action(engine, action)


def _check_button(engine: GameEngine[Any], state: Any, seat: Any, presses: Any) -> None:
    _check_state_seat(engine, state, seat)
    if seat is None or not _is_int(presses):
        raise MalformedAction("a button gesture is a seat's whole number of presses")


def _check_wire_settings(engine: GameEngine[Any], data: Any, preset: Any = None) -> None:
    _check_preset(preset)


def _check_default_settings(engine: GameEngine[Any], preset: Any = None) -> None:
    _check_preset(preset)


# each entry point's check: called with the entry point's own arguments (a missing or extra one
# is a MalformedAction too); plain functions, not ``inspect`` binding: ``apply`` is hot in bots
_CHECKS: dict[str, Callable[..., None]] = {
    "new_game": _check_new_game, "settings_from_wire": _check_wire_settings,
    "default_settings": _check_default_settings, "legal_form": _check_action,
    "legal_actions": _check_state_seat, "view": _check_state_seat, "apply": _check_apply,
    "button_action": _check_button, "is_over": _check_state, "timer": _check_state, "race": _check_state,
    "table_actions": _check_state, "start_events": _check_state, "seats_to_act": _check_state,
}


class _Missing:
    """An entry point's argument its caller left out (the guard's check then says so)."""

    def __repr__(self) -> str:
        return "(missing)"


_MISSING = _Missing()


def _guard_state(method: Callable[..., Any]) -> Callable[..., Any]:
    """The guard of an entry point taking ``(state)``, inlined: bots call these on every move."""

    @functools.wraps(method)
    def guarded(self: GameEngine[Any], state: Any = _MISSING, *args: Any, **kwargs: Any) -> Any:
        if type(state) is not self.state_type:
            _check_state(self, state)
        return method(self, state, *args, **kwargs)

    return guarded


def _guard_state_seat(method: Callable[..., Any]) -> Callable[..., Any]:
    """The guard of ``legal_actions(state, seat)`` and ``view(state, seat)``, inlined (see above)."""

    @functools.wraps(method)
    def guarded(self: GameEngine[Any], state: Any = _MISSING, seat: Any = _MISSING, *args: Any, **kwargs: Any) -> Any:
        if type(state) is not self.state_type or (seat is not None and type(seat) is not int):
            _check_state_seat(self, state, seat)
        return method(self, state, seat, *args, **kwargs)  # an int seat: the engine checks its range

    return guarded


def _guard_apply(method: Callable[..., Any]) -> Callable[..., Any]:
    """The guard of ``apply(state, seat, action)``, inlined (see above)."""

    @functools.wraps(method)
    def guarded(self: GameEngine[Any], state: Any = _MISSING, seat: Any = _MISSING, action: Any = _MISSING,
                *args: Any, **kwargs: Any) -> Any:
        if (type(state) is not self.state_type or (seat is not None and type(seat) is not int)
                or type(action) not in self.actions._by_cls):
            _check_apply(self, state, seat, action)
        return method(self, state, seat, action, *args, **kwargs)  # an int seat: the engine checks its range

    return guarded


_INLINE: dict[str, Callable[[Callable[..., Any]], Callable[..., Any]]] = {
    "apply": _guard_apply,
    "is_over": _guard_state, "timer": _guard_state, "race": _guard_state, "table_actions": _guard_state,
    "seats_to_act": _guard_state, "legal_actions": _guard_state_seat, "view": _guard_state_seat,
}


def _guard(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
    if name in _INLINE:
        guarded_inline = _INLINE[name](method)
        guarded_inline.__guarded__ = True  # type: ignore[attr-defined]
        return guarded_inline
    check = _CHECKS[name]

    @functools.wraps(method)
    def guarded(self: GameEngine[Any], *args: Any, **kwargs: Any) -> Any:
        try:
            check(self, *args, **kwargs)
        except TypeError as exc:  # a missing, extra or misnamed argument
            raise MalformedAction(str(exc).replace(f"{check.__name__}()", f"{name}()")) from None
        return method(self, *args, **kwargs)

    guarded.__guarded__ = True  # type: ignore[attr-defined]
    return guarded


def _unguarded(cls: type, name: str) -> Callable[..., Any]:
    method = getattr(cls, name)
    return getattr(method, "__wrapped__", method)


def _guard_entry_points(cls: type) -> None:
    for name in _CHECKS:
        method = cls.__dict__.get(name)
        if isinstance(method, types.FunctionType) and not getattr(method, "__guarded__", False):
            setattr(cls, name, _guard(name, method))


def check_seat(seat: Seat | None, n_seats: int) -> None:
    """``seat`` is one of this table's seats or ``None`` (the table); ``True`` is not seat 1."""
    if seat is None or (type(seat) is int and 0 <= seat < n_seats):  # the common case first: every view and move asks
        return
    if not (_is_int(seat) and 0 <= seat < n_seats):
        raise UnknownSeat(f"no seat {seat!r} at this table")


def pairs(items: Sequence[T]) -> Iterable[tuple[T, T]]:
    for i, a in enumerate(items):
        for b in items[i + 1 :]:
            yield a, b


_guard_entry_points(GameEngine)  # the defaults too: GameEngine.timer(another game's state) is refused
