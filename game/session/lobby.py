"""The host's commands, typed, and the lobby's rules as a pure function.

:func:`parse_host_command` is the one place a host payload (``{"command": "set_seats", "count": 5}``
from the host console, the TV's keys or the kiosk) becomes a command: one frozen dataclass per
command, or :class:`MalformedAction`. :func:`apply_lobby` applies a :data:`LobbyCommand` (a change
of the lobby record: game, mode, preset, language, settings, seats, bots) to a table:
``(table, command, rules) -> table``, raising a :class:`RulesError` and changing nothing on a bad
one. The other commands (start, next, abort, kick, claims, the arcade wizard, the host acting as
the table) move more than the record, so the session carries them out.
"""
from __future__ import annotations

import enum
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from game import catalog
from game.bots import kind_choices
from game.config import LANGUAGES, TableConfig
from game.rules.base import BadSettings, GameEngine, IllegalAction, MalformedAction, UnknownSeat
from game.seating import MAX_SEATS

from .policy import TablePolicy
from .seats import MIN_OFFERED_SEATS, BotKind, SeatRecord, fresh_seats
from .snapshot import RunMode, TablePhase
from .table import TableRecord, TableSettings

DEFAULT_SEATS = 6
ADMIN_PIN_DIGITS = 6  # a million PINs: with the server's backoffs, guessing one takes weeks

__all__ = [
    "Abort", "AnswerClaim", "FillBots", "HostCommand", "Kick", "LobbyCommand", "LobbyRules", "MapButtons", "NewPlayers", "Next",
    "SetBot", "SetGame", "SetLanguage", "SetMode", "SetPreset", "SetSeats", "SetSetting", "SkipIntro", "Start",
    "TableAction", "apply_lobby", "check_seat_range", "has_bots", "kicked", "new_table", "parse_host_command", "play_modes",
]


class NoBots(IllegalAction):
    """This game has no bots (its cards are real, its clues describe the people at the table):
    every seat needs a person."""

    code = "no_bots"


class SeatsFree(IllegalAction):
    """A game without bots cannot start while offered seats are free (``free``: how many)."""

    code = "seats_free"

    def __init__(self, free: int) -> None:
        super().__init__(f"{free} seat(s) free: every seat of this game needs a person (remove the free seats)")
        self.free = free


def has_bots(table: TableRecord, engine: GameEngine) -> bool:
    """Whether bots can play ``table``'s game with its settings (``engine``: that game's): the
    catalog entry has bots (companion games with real cards have none) and the settings let a bot
    play (:meth:`GameEngine.bots_can_play`: no real bars a bot would have to hold)."""
    return catalog.get(table.game).has_bots and \
        engine.bots_can_play(engine.settings_from_wire(table.settings, table.preset))


def without_bots(table: TableRecord) -> TableRecord:
    """``table`` with every bot off its seat (a game or setting bots cannot play: the seats wait for people)."""
    for record in table.seats:
        if record.bot is not None:
            table = table.with_seat(record.with_bot(None))
    return table


def free_seats(table: TableRecord) -> int:
    """Offered seats with neither a person nor a bot."""
    return sum(1 for r in table.offered if r.bot is None and not r.joined)


def ready_to_start(table: TableRecord, engine: GameEngine) -> TableRecord:
    """The table a game starts with: free seats get the default bot where the game has bots; a game
    without bots with free seats raises :class:`SeatsFree` (the TV and the host page say so). A bot
    left over on a table bots cannot play leaves its seat first (that seat is free, then)."""
    if has_bots(table, engine):
        return filled(table, table.table_settings.default_bot)
    table = without_bots(table)
    if free_seats(table):
        raise SeatsFree(free_seats(table))
    return table


class HostCommand(enum.Enum):
    """The names of the host's commands on the wire (``{"command": ...}``)."""

    SET_GAME = "set_game"
    SET_PRESET = "set_preset"
    SET_LANGUAGE = "set_language"
    SET_SETTING = "set_setting"
    SET_SEATS = "set_seats"
    SET_BOT = "set_bot"
    FILL_BOTS = "fill_bots"
    START = "start"
    NEXT = "next"  # the final screen's Play again, same players: the lobby with the same seats
    NEW_PLAYERS = "new_players"  # the final screen's New players: the hand-over to a new group
    ABORT = "abort"
    KICK = "kick"
    MAP_BUTTONS = "map_buttons"
    CLAIM = "claim"  # allow or refuse a phone asking for a held seat
    SKIP_INTRO = "skip_intro"  # the how-to-play before the first round: start the game now
    SET_MODE = "set_mode"  # table or companion: the lobby switches to the game's variant of that mode
    TABLE_ACTION = "table_action"  # the host acts as the table (seat None): a referee's correction


# ------------------------------------------------------------------------- lobby record commands
@dataclass(frozen=True, slots=True)
class SetGame:
    game: str


@dataclass(frozen=True, slots=True)
class SetMode:
    """Table or companion: the current game's variant of that mode (``mode``: as asked)."""

    mode: str


@dataclass(frozen=True, slots=True)
class SetPreset:
    preset: str


@dataclass(frozen=True, slots=True)
class SetLanguage:
    language: str


@dataclass(frozen=True, slots=True)
class SetSetting:
    """A game setting (lobby only) or a table setting (``TableSettings``: any time)."""

    name: str
    value: Any


@dataclass(frozen=True, slots=True)
class SetSeats:
    count: int


@dataclass(frozen=True, slots=True)
class SetBot:
    seat: int
    kind: str | None  # as asked; None: the seat becomes free


@dataclass(frozen=True, slots=True)
class FillBots:
    kind: str


# ------------------------------------------------------------------------- session commands
@dataclass(frozen=True, slots=True)
class Start:
    pass


@dataclass(frozen=True, slots=True)
class SkipIntro:
    pass


@dataclass(frozen=True, slots=True)
class Next:
    pass


@dataclass(frozen=True, slots=True)
class NewPlayers:
    pass


@dataclass(frozen=True, slots=True)
class Abort:
    pass


@dataclass(frozen=True, slots=True)
class Kick:
    seat: int


@dataclass(frozen=True, slots=True)
class MapButtons:
    cancel: bool  # True: stop the wizard


@dataclass(frozen=True, slots=True)
class AnswerClaim:
    id: int
    allow: bool


@dataclass(frozen=True, slots=True)
class TableAction:
    action: Any  # the wire action (the engine in play parses it)


LobbyCommand = SetGame | SetMode | SetPreset | SetLanguage | SetSetting | SetSeats | SetBot | FillBots
Command = LobbyCommand | Start | SkipIntro | Next | NewPlayers | Abort | Kick | MapButtons | AnswerClaim | TableAction


def _field(payload: Mapping[str, Any], name: str, kind: type | tuple[type, ...], *, optional: bool = False) -> Any:
    """A typed field of a host command; wrong type or missing: MalformedAction."""
    if name not in payload:
        if optional:
            return None
        raise MalformedAction(f"missing field {name!r}")
    value = payload[name]
    if value is None and optional:
        return None
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise MalformedAction(f"field {name!r} has the wrong type")
    if not isinstance(value, kind):
        raise MalformedAction(f"field {name!r} has the wrong type")
    return value


def command_name(payload: Any) -> HostCommand:
    """The command a host payload names; not an object or an unknown name: MalformedAction."""
    if not isinstance(payload, Mapping):
        raise MalformedAction("a host command must be an object")
    name = _field(payload, "command", str)
    try:
        return HostCommand(name)
    except ValueError:
        raise MalformedAction(f"unknown host command {name!r}") from None


def _value(p: Mapping[str, Any]) -> Any:
    if "value" not in p:
        raise MalformedAction("missing field 'value'")
    return p["value"]


_PARSERS: dict[HostCommand, Callable[[Mapping[str, Any]], Command]] = {
    HostCommand.SET_GAME: lambda p: SetGame(_field(p, "game", str)),
    HostCommand.SET_MODE: lambda p: SetMode(_field(p, "mode", str)),
    HostCommand.SET_PRESET: lambda p: SetPreset(_field(p, "preset", str)),
    HostCommand.SET_LANGUAGE: lambda p: SetLanguage(_field(p, "language", str)),
    HostCommand.SET_SETTING: lambda p: SetSetting(_field(p, "name", str), _value(p)),
    HostCommand.SET_SEATS: lambda p: SetSeats(_field(p, "count", int)),
    HostCommand.SET_BOT: lambda p: SetBot(_field(p, "seat", int), _field(p, "kind", str, optional=True)),
    HostCommand.FILL_BOTS: lambda p: FillBots(_field(p, "kind", str)),
    HostCommand.START: lambda p: Start(),
    HostCommand.SKIP_INTRO: lambda p: SkipIntro(),
    HostCommand.NEXT: lambda p: Next(),
    HostCommand.NEW_PLAYERS: lambda p: NewPlayers(),
    HostCommand.ABORT: lambda p: Abort(),
    HostCommand.KICK: lambda p: Kick(_field(p, "seat", int)),
    HostCommand.MAP_BUTTONS: lambda p: MapButtons(bool(_field(p, "cancel", bool, optional=True))),
    HostCommand.CLAIM: lambda p: AnswerClaim(_field(p, "id", int), _field(p, "allow", bool)),
    HostCommand.TABLE_ACTION: lambda p: TableAction(p.get("action")),
}


def parse_host_command(payload: Any, name: HostCommand | None = None) -> Command:
    """A host payload as its typed command (``name``: its :func:`command_name`, when the caller
    read it already); anything malformed raises :class:`MalformedAction`."""
    return _PARSERS[name if name is not None else command_name(payload)](payload)


# ------------------------------------------------------------------------------- the lobby rules
@dataclass(frozen=True, slots=True)
class LobbyRules:
    """What the lobby's rules consult besides the table: the engines and the table's policy."""

    engines: Callable[[str], GameEngine]
    policy: TablePolicy

    def engine(self, game: str) -> GameEngine:
        try:
            return self.engines(game)
        except (KeyError, ImportError, AttributeError) as exc:
            raise BadSettings(f"{game} is not available: {exc}") from None

    def is_default(self, table: TableRecord, engine: GameEngine) -> bool:
        """The table plays its language's edition with its settings untouched."""
        return table.preset == engine.default_preset(table.language) and \
            table.settings == self.policy.game_settings(engine, table.game, table.preset)


def play_modes() -> tuple[catalog.PlayMode, ...]:
    """The modes the catalog has games for."""
    return tuple(m for m in catalog.PlayMode if catalog.games(m))


def check_seat_range(engine: GameEngine, count: int) -> None:
    low, high = max(MIN_OFFERED_SEATS, engine.min_seats), min(MAX_SEATS, engine.max_seats)
    if not low <= count <= high:
        raise BadSettings(f"{engine.name or 'this game'} takes {low} to {high} seats")


def check_startable(engine: GameEngine, table: TableRecord) -> None:
    """Start may begin (the how-to-play, then the game): the seats in the engine's range, no free
    seat in a game without bots, and the game can be dealt for this table as it is. What the
    engine's own rules refuse (a setting that seats fewer than the engine's most, such as one deck
    of cards) is said on Start, not after the how-to-play, when the table stayed in its lobby with
    no word why. Pure: the engine's ``new_game`` is only asked, nothing is kept."""
    check_seat_range(engine, table.seat_count)
    ready_to_start(table, engine)  # a game without bots and free seats: SeatsFree, said on every screen
    engine.new_game(engine.settings_from_wire(table.settings, table.preset), table.seat_count, 0)


def require_phase(table: TableRecord, phase: TablePhase, message: str) -> None:
    if table.phase is not phase:
        raise IllegalAction(message)


def require_lobby(table: TableRecord) -> None:
    require_phase(table, TablePhase.LOBBY, "only in the lobby")


def any_seat(table: TableRecord, seat: Any) -> SeatRecord:
    """One of the table's seats, offered or not (a phone's own seat when the host shrank the table)."""
    if not (isinstance(seat, int) and 0 <= seat < MAX_SEATS):
        raise UnknownSeat(f"no seat {seat!r}")
    return table.seats[seat]


def offered_seat(table: TableRecord, seat: int) -> SeatRecord:
    if not 0 <= seat < table.seat_count:
        raise UnknownSeat(f"no seat {seat} at this table")
    return table.seats[seat]


def bot_kind(value: Any) -> BotKind:
    try:
        return BotKind(value)
    except ValueError:
        raise BadSettings(f"bot kind must be {kind_choices()}") from None


def filled(table: TableRecord, kind: BotKind) -> TableRecord:
    """Every free offered seat gets a bot of ``kind``."""
    for record in table.offered:
        if record.bot is None and not record.joined:
            table = table.with_seat(record.with_bot(kind))
    return table


def switch_game(table: TableRecord, game: str, rules: LobbyRules) -> TableRecord:
    if game not in catalog.ids():
        raise BadSettings(f"unknown game {game!r}")
    engine = rules.engine(game)
    check_seat_range(engine, table.seat_count)
    preset = engine.default_preset(table.language)
    return replace(table, game=game, preset=preset, settings=rules.policy.game_settings(engine, game, preset))


def apply_lobby(table: TableRecord, command: LobbyCommand, rules: LobbyRules) -> TableRecord:
    """``table`` after ``command``; a bad command raises a :class:`RulesError` (nothing changes:
    the table is a value). Switching to the mode in play returns ``table`` itself. A game or a
    setting bots cannot play (:func:`has_bots`) sends the seated bots off their seats."""
    new = _applied(table, command, rules)
    if new is table or has_bots(new, rules.engine(new.game)):
        return new
    return without_bots(new)


def _applied(table: TableRecord, command: LobbyCommand, rules: LobbyRules) -> TableRecord:
    match command:
        case SetGame(game):
            require_lobby(table)
            return switch_game(table, game, rules)
        case SetMode(mode):
            require_lobby(table)
            try:
                game = catalog.variant(table.game, catalog.PlayMode(mode)).id
            except (ValueError, catalog.UnknownGame):
                raise BadSettings(f"mode must be one of {', '.join(m.value for m in play_modes())}") from None
            return switch_game(table, game, rules) if game != table.game else table
        case SetPreset(preset):
            require_lobby(table)
            engine = rules.engine(table.game)
            if preset not in engine.presets():
                raise BadSettings(f"unknown preset {preset!r} for {table.game}")
            return replace(table, preset=preset, settings=rules.policy.game_settings(engine, table.game, preset))
        case SetLanguage(language):
            return _set_language(table, language, rules)
        case SetSetting(name, value):
            if name in TableSettings.names():
                return replace(table, table_settings=table.table_settings.with_setting(name, value))
            require_lobby(table)
            engine = rules.engine(table.game)
            obj = engine.settings_from_wire({**table.settings, name: value}, table.preset)
            return replace(table, settings=engine.settings_to_wire(obj))
        case SetSeats(count):
            return _set_seats(table, count, rules)
        case SetBot(seat, kind):
            require_lobby(table)
            if kind is not None and not has_bots(table, rules.engine(table.game)):
                raise NoBots(f"{table.game} has no bots with these settings: every seat needs a person")
            record = offered_seat(table, seat)
            if record.joined:
                raise IllegalAction(f"seat {record.seat + 1} is held by a player; kick them first")
            return table.with_seat(record.with_bot(bot_kind(kind) if kind is not None else None))
        case FillBots(kind):
            require_lobby(table)
            if not has_bots(table, rules.engine(table.game)):
                raise NoBots(f"{table.game} has no bots with these settings: every seat needs a person")
            return filled(table, bot_kind(kind))


def _set_language(table: TableRecord, language: str, rules: LobbyRules) -> TableRecord:
    """The table's language; in the lobby the game's edition follows it, unless the host chose
    another preset or changed its settings."""
    if language not in LANGUAGES:
        raise BadSettings(f"language must be one of {', '.join(LANGUAGES)}")
    new = replace(table, language=rules.policy.offered_language(language))
    engine = rules.engine(table.game)
    preset = engine.default_preset(new.language)
    if table.phase is not TablePhase.LOBBY or not rules.is_default(table, engine) or preset == table.preset:
        return new
    return replace(new, preset=preset, settings=rules.policy.game_settings(engine, new.game, preset))


def _set_seats(table: TableRecord, count: int, rules: LobbyRules) -> TableRecord:
    require_lobby(table)
    check_seat_range(rules.engine(table.game), count)
    for record in table.seats[count:]:
        if record.joined:
            raise BadSettings(f"seat {record.seat + 1} is held by a player; kick them first")
        if record.bot is not None:
            table = table.with_seat(record.with_bot(None))
    return replace(table, seat_count=count)


def new_table(config: TableConfig, engines: Callable[[str], GameEngine],
              policy: TablePolicy) -> tuple[TableConfig, TableRecord]:
    """A brand-new table for ``config`` (a companion table plays its game's companion variant):
    the language's edition of the game with the house rules, six seats where the game allows, the
    configured admin PIN or a random one. Returns the config it was made for."""
    if config.mode is RunMode.COMPANION and catalog.get(config.game).mode is not catalog.PlayMode.COMPANION:
        config = replace(config, game=catalog.variant(config.game, catalog.PlayMode.COMPANION).id)
    engine = engines(config.game)
    language = config.language if config.language in LANGUAGES else LANGUAGES[0]
    preset = policy.start_preset(engine, language)
    settings = policy.game_settings(engine, config.game, preset)
    count = max(MIN_OFFERED_SEATS, engine.min_seats, min(DEFAULT_SEATS, engine.max_seats, MAX_SEATS))
    pin = config.admin_pin or f"{secrets.randbelow(10 ** ADMIN_PIN_DIGITS):0{ADMIN_PIN_DIGITS}d}"
    return config, policy.fresh_table(TableRecord.fresh(config.game, preset, settings, language, count, pin))


def kicked(table: TableRecord, engine: GameEngine, record: SeatRecord, playing_seats: int) -> SeatRecord:
    """``record``'s seat after the host kicks its player: free with a new link and code, or —
    when it plays in the game in play (one of its first ``playing_seats``) and the game has bots —
    the default bot's. A game without bots keeps the seat in play, waiting for a person to scan its
    new code (its points stay; the host may act for it meanwhile)."""
    freed = record.freed(table.codes())
    playing = record.seat < playing_seats and has_bots(table, engine)
    return freed.with_bot(table.table_settings.default_bot) if playing else freed


def next_group_table(config: TableConfig, engines: Callable[[str], GameEngine], policy: TablePolicy,
                     table: TableRecord) -> TableRecord:
    """The table a kiosk's next group finds: the café's as it opens (language, game, rules:
    :meth:`TablePolicy.next_group`), every seat a new link and code that none of the last group's
    codes repeats; names, bots and scores cleared."""
    _, opening = new_table(config, engines, policy)
    opening = replace(opening, seats=fresh_seats(avoid=table.codes()))
    return policy.next_group(table, opening)
