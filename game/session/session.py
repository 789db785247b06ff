"""The table session: the one writer of the table's state.

Everything here runs on the asyncio loop thread. The session holds the lobby record (seats,
tokens, names, settings), the game state of the game in play, the game timer and the bots. Every
input (a phone's action, a host command, a bot's choice, a timer running out) goes through
:meth:`Session.submit_action` / :meth:`Session.host_command` / :meth:`Session.handle_input`; an
accepted change is written to the journal first, then a new :class:`TableSnapshot` is built and the
listeners (the WebSocket hub) are told. Races run on the session's :class:`RaceFloor`
(``race_floor.py``), the arcade board on its :class:`ArcadeBoard` (``arcade.py``), both on this loop.
"""
from __future__ import annotations

import collections
import dataclasses
import enum
import hashlib
import logging
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, runtime_checkable

from game import catalog, howto
from game.config import LANGUAGES, TableConfig
from game.rules import get_engine
from game.rules.base import (
    BadSettings,
    GameEngine,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RaceRequest,
    RulesError,
    StaleState,
    TimerRequest,
    UnknownSeat,
    check_seat,
)
from game.seating import MAX_SEATS, bot_name, look

from .arcade import ARCADE_UNPLUGGED, ArcadeBoard, ArcadeLink
from .bots import MAX_BOT_STREAK, Bot, BotFactory, NoBotForGame, bot_seed, default_bot_factory
from .journal import Journal, JournalError, Saved, SavedTimer
from .race_floor import BoardButton, PressInput, PressSource, PressVerdict, RaceFloor, race_timer_key
from .scheduler import Handle, LoopScheduler, Scheduler, session_ms, wall_ms
from .seats import MIN_OFFERED_SEATS, AskHost, BotKind, NameNeeded, SeatRecord, clean_name, fresh_seats, seat_public_json
from .snapshot import (
    ArcadeInfo,
    ClaimInfo,
    HostError,
    HowToPlayInfo,
    InputEvent,
    InputKind,
    InputSource,
    LobbyInfo,
    Mode,
    RaceInfo,
    SeatInfo,
    SeatStatus,
    TablePhase,
    TableSnapshot,
)
from .table import TableRecord, TableSettings
from .timers import GameTimer, RunningTimer

log = logging.getLogger(__name__)

DEFAULT_SEATS = 6
HOUSEKEEPING_S = 5.0
QUIET_MS = 2_000  # no journal write for this long: a good moment for a checkpoint
GESTURE_MS = 400  # two presses of one arcade button this close, while no race runs, are a gesture
ADMIN_PIN_DIGITS = 6  # a million PINs: with the server's backoffs, guessing one takes weeks
MAX_CLAIMS = 8  # phones waiting at once for the host to hand them a held seat
# Claim ids start anywhere below this (and stay below 2**53 for the phones' JavaScript): a request
# made again after a restart gets a new id, so an answer to the old one (a stale host console, a
# seated phone's old "give my seat?" card) can never land on another phone's request.
CLAIM_ID_START = 1 << 40

__all__ = ["ARCADE_UNPLUGGED", "HOUSEKEEPING_S", "HostCommand", "NoticeCode", "Session", "SessionListener"]


class NoticeCode(enum.Enum):
    KICKED = "kicked"
    TABLE_RESET = "table_reset"
    GAME_STARTED = "game_started"
    GAME_FINISHED = "game_finished"
    NEW_TABLE = "new_table"
    NEW_GROUP = "new_group"  # kiosk: the table was handed to the next group (fresh links and codes)
    SEAT_MOVED = "seat_moved"  # the host handed this seat to another phone
    SEAT_GIVEN = "seat_given"  # the seated phone itself gave its seat to the phone asking for it


class HostCommand(enum.Enum):
    SET_GAME = "set_game"
    SET_PRESET = "set_preset"
    SET_LANGUAGE = "set_language"
    SET_SETTING = "set_setting"
    SET_SEATS = "set_seats"
    SET_BOT = "set_bot"
    FILL_BOTS = "fill_bots"
    START = "start"
    NEXT = "next"
    ABORT = "abort"
    KICK = "kick"
    MAP_BUTTONS = "map_buttons"
    CLAIM = "claim"  # allow or refuse a phone asking for a held seat
    SKIP_INTRO = "skip_intro"  # the how-to-play before the first round: start the game now
    SET_MODE = "set_mode"  # table or companion: the lobby switches to the game's variant of that mode
    TABLE_ACTION = "table_action"  # the host acts as the table (seat None): a referee's correction


class SessionListener(Protocol):
    def table_changed(self) -> None: ...

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None: ...

    def notice(self, code: NoticeCode) -> None: ...


@runtime_checkable
class ClaimListener(Protocol):
    """A listener that also seats or sends away phones waiting for the host (the WebSocket hub)."""

    def claim_answered(self, claim: Claim, record: SeatRecord | None) -> None: ...


@dataclass(frozen=True, slots=True)
class Claim:
    """A new phone asking for a held seat (its link or code was used on another device, or a bot
    seat mid-game): the host allows or refuses it on the TV or the host console."""

    id: int
    seat: int
    name: str  # the asking phone's name; "" : the seat's own player on a new phone
    lang: str | None

    def to_json(self, table: TableRecord) -> dict[str, Any]:
        record = table.seats[self.seat]
        holder = _shown_name(record, table.language)
        return {"id": self.id, "seat": self.seat, "name": self.name, "seat_name": holder,
                "bot": record.bot is not None}


@dataclass(frozen=True, slots=True)
class GameRun:
    game_no: int
    engine: GameEngine
    seed: int
    n_seats: int
    state: Any


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


def _zero_time(action: Any) -> Any:
    """The form ``legal_actions`` lists an action in: with ``t_ms`` = 0."""
    if dataclasses.is_dataclass(action) and any(f.name == "t_ms" for f in dataclasses.fields(action)):
        return replace(action, t_ms=0)  # type: ignore[type-var]
    return action


def _default_preset(engine: GameEngine, language: str) -> str | None:
    """The game's edition for the table's language (``GameEngine.default_preset``)."""
    return engine.default_preset(language)


def _game_settings(config: TableConfig, engine: GameEngine, game: str, preset: str | None) -> dict[str, Any]:
    """A game's settings for ``preset``, with the kiosk operator's house rules on top."""
    settings = engine.settings_to_wire(engine.default_settings(preset))
    house = config.kiosk.house_rules.get(game, {}) if config.kiosk is not None else {}
    return {**settings, **house}


def partial_view(run: GameRun) -> Callable[[int], Any]:
    """A seat's view of the game in play (what its bot may read)."""
    return partial(run.engine.view, run.state)


def _no_view(seat: int) -> Any:
    return None


def _shown_name(record: SeatRecord, lang: str) -> str:
    """A seat's name as the big screen and every phone show it: the player's own, or its bot's."""
    return record.name or (bot_name(record.seat, lang) if record.bot is not None else "")


def _bot_kind(value: Any) -> BotKind:
    try:
        return BotKind(value)
    except ValueError:
        raise BadSettings("bot kind must be 'random' or 'heuristic'") from None


class HandedOver(UnknownSeat):
    """A link of a group the table was handed over from (kiosk): it shows nothing any more."""

    code = "new_group"


RETIRED_TOKENS = 256  # links of earlier groups recognised (to tell them kindly), newest kept


def _token_digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()[:16]


class Session:
    """One table. Create it with :meth:`boot` on the running loop."""

    def __init__(self, config: TableConfig, journal: Journal | None, table: TableRecord, *,
                 engines: Callable[[str], GameEngine] = get_engine, bot_factory: BotFactory = default_bot_factory,
                 clock: Callable[[], int] = session_ms, scheduler: Scheduler | None = None,
                 wall: Callable[[], int] = wall_ms,
                 bot_delay_scale: float = 1.0) -> None:
        self.config = config
        self.mode: Mode = config.mode
        self.clock = clock
        self.base_url = ""
        self.table = table
        self.engine = engines(table.game)
        self.run: GameRun | None = None
        self.version = 1
        self.event_seq = 0
        self.last_events: tuple[dict[str, Any], ...] = ()
        self.notices: tuple[str, ...] = ()
        self.host_error: dict[str, str] | None = None
        self._journal = journal
        self._engines = engines
        self._bot_factory = bot_factory
        self._bot_delay_scale = bot_delay_scale
        self._scheduler = scheduler if scheduler is not None else LoopScheduler()
        self._wall = wall
        self._resumed_timer: SavedTimer | None = None  # the journaled timer a restarted game picks up
        self._timer = GameTimer(clock, self._scheduler, self._timer_expired)
        self._listeners: list[SessionListener] = []
        self._legal: dict[int, list[Any]] = {}
        self._legal_wire: dict[int, list[dict[str, Any]]] = {}
        self._legal_version: dict[int, int] = {}
        self._connected: set[int] = set()
        self._claims: dict[int, Claim] = {}
        self._claim_seq = secrets.randbelow(CLAIM_ID_START)  # random: a restarted table starts elsewhere
        self._bots: dict[int, Bot] = {}
        self._bot_handles: dict[int, Handle] = {}
        self._bot_streak: dict[int, int] = {}
        self._last_input_ms = clock()
        self._finished_ms: int | None = None  # when the game in play ended (kiosk: hand-over after results_s)
        self._handover_handle: Handle | None = None  # kiosk: the hand-over results_s after a game ended
        self._retired: collections.deque[bytes] = collections.deque(maxlen=RETIRED_TOKENS)
        self.intro: dict[str, Any] | None = None  # the how-to-play on the TV before the game starts
        self._intro_handle: Handle | None = None
        self._last_write_ms = clock()
        self._unfolded = False  # journal writes since the last checkpoint
        self._cache: dict[tuple[str, int | bool | None], dict[str, Any]] = {}
        self._gestures: dict[int, float] = {}  # seat -> its button's last press outside a race (session ms)
        self._board = ArcadeBoard(changed=self._publish, pressed=self._button_down, notice_on=self.add_notice,
                                  notice_off=self._clear_notice, mapped=self._save_button_map)
        self._races = RaceFloor(clock, self._scheduler, self._board, touched=self._touch, changed=self._publish,
                                decided=self._race_decided, bot_delay_scale=bot_delay_scale)
        self.snapshot: TableSnapshot = self._build_snapshot()

    # ---------------------------------------------------------------------------- creation
    @classmethod
    def boot(cls, config: TableConfig, journal: Journal | None, saved: Saved | None, **kw: Any) -> Session:
        """A fresh table, or the table ``saved`` in the journal with its game replayed.
        Raises (RulesError, KeyError, ValueError, ImportError) when ``saved`` cannot be replayed."""
        if saved is None:
            return cls._fresh(config, journal, **kw)
        session = cls(config, journal, saved.table, **kw)
        session._resume(saved)
        return session

    @classmethod
    def _fresh(cls, config: TableConfig, journal: Journal | None, **kw: Any) -> Session:
        if config.mode is Mode.COMPANION and catalog.get(config.game).mode is not catalog.Mode.COMPANION:
            config = replace(config, game=catalog.variant(config.game, catalog.Mode.COMPANION).id)
        engines = kw.get("engines", get_engine)
        engine = engines(config.game)
        language = config.language if config.language in LANGUAGES else LANGUAGES[0]
        kiosk = config.kiosk
        preset = kiosk.preset if kiosk is not None and kiosk.preset else _default_preset(engine, language)
        settings = _game_settings(config, engine, config.game, preset)
        count = max(MIN_OFFERED_SEATS, engine.min_seats, min(DEFAULT_SEATS, engine.max_seats, MAX_SEATS))
        pin = config.admin_pin or f"{secrets.randbelow(10 ** ADMIN_PIN_DIGITS):0{ADMIN_PIN_DIGITS}d}"
        table = TableRecord.fresh(config.game, preset, settings, language, count, pin)
        if kiosk is not None:
            table = replace(table, table_settings=replace(table.table_settings, idle_reset_minutes=kiosk.idle_minutes,
                                                          how_to_play=kiosk.how_to_play))
        session = cls(config, journal, table, **kw)
        if journal is not None:
            journal.save_table(table, session.version)
        return session

    def _resume(self, saved: Saved) -> None:
        table = saved.table
        self.version = saved.version
        if self.config.admin_pin and self.config.admin_pin != table.admin_pin:
            table = replace(table, admin_pin=self.config.admin_pin)
            if self._journal is not None:
                self._journal.save_table(table, self.version)
        self.table = table
        self._retired.extend(saved.retired)
        if saved.game is not None and table.phase is not TablePhase.LOBBY:
            self._replay(saved)
            self._resumed_timer = saved.timer
        elif table.phase is not TablePhase.LOBBY:
            self.table = replace(table, phase=TablePhase.LOBBY, game_no=None)
        self._refresh(bump=False)

    def _replay(self, saved: Saved) -> None:
        """Rebuild the game in play from its seed and the journaled actions."""
        g = saved.game
        assert g is not None
        engine = self._engines(g.game)
        state = engine.new_game(engine.settings_from_wire(g.settings, g.preset), g.n_seats, g.seed)
        events, self.event_seq = self._start_events(engine, state), g.start_version
        for record in saved.actions:
            state, events = engine.apply(state, record.seat, engine.action_from_wire(record.action))
            self.event_seq = record.version
        self.engine = engine
        self.run = GameRun(g.game_no, engine, g.seed, g.n_seats, state)
        self.last_events = tuple(engine.events_to_wire(events))
        self._bots = self._new_bots(self.table, g.seed)

    @staticmethod
    def _start_events(engine: GameEngine, state: Any) -> list[Any]:
        """The events telling the story of ``new_game`` (engines may offer ``start_events``)."""
        start_events = getattr(engine, "start_events", None)
        return list(start_events(state)) if callable(start_events) else []

    def attach(self, listener: SessionListener) -> None:
        self._listeners.append(listener)

    def detach(self, listener: SessionListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def add_notice(self, key: str) -> None:
        """An i18n key the big screen shows (e.g. ``journal_moved_aside``)."""
        if key not in self.notices:
            self.notices = (*self.notices, key)
            self._publish()

    def set_base_url(self, url: str) -> None:
        self.base_url = url.rstrip("/")
        self._cache.clear()
        self.snapshot = self._build_snapshot()

    def close(self) -> None:
        """Stop the timer and the bots (the loop is going away)."""
        if self._intro_handle is not None:
            self._intro_handle.cancel()
        self._cancel_handover()
        self._timer.cancel()
        self._cancel_bots()
        self._races.close()

    # ------------------------------------------------------------------------------ queries
    @property
    def phase(self) -> TablePhase:
        return self.table.phase

    @property
    def timer(self) -> RunningTimer | None:
        return self._timer.running

    def seat_url(self, record: SeatRecord) -> str:
        return f"{self.base_url}/s/{record.token}"

    def seat_by_token(self, token: str) -> SeatRecord | None:
        return self.table.seat_by_token(token) if isinstance(token, str) and token else None

    def check_pin(self, pin: Any) -> bool:
        if not isinstance(pin, str) or not pin:
            return False
        try:
            typed = pin.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate is never the PIN
            return False
        return secrets.compare_digest(typed, self.table.admin_pin.encode())

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(self._claims.values())

    def seat_card(self, seat: int) -> dict[str, Any]:
        """A seat's public face for a phone asking for it: colour, symbol, who holds it."""
        record, seat_look = self.table.seats[seat], look(seat)
        return {"seat": seat, "colour": seat_look.colour, "colour_name": seat_look.colour_name,
                "symbol": seat_look.symbol, "name": record.name,
                "bot": record.bot.value if record.bot is not None else None}

    def legal_wire(self, seat: int) -> list[dict[str, Any]]:
        return self._legal_wire.get(seat, [])

    def is_connected(self, seat: int) -> bool:
        return seat in self._connected

    # ------------------------------------------------------------------------ phone inputs
    def join_seat(self, token: str, name: Any = None, lang: Any = None) -> SeatRecord:
        """A phone says hello with ``token``. Its own device key: back in its seat. The link of a
        free seat: the seat becomes this phone's (a new device key). The link of a bot seat: with a
        name, in the lobby, the bot steps aside. Anything else (a held seat, a bot mid-game) raises
        :class:`AskHost`: only the host hands it over (:meth:`request_claim`)."""
        if not isinstance(token, str) or not token:
            raise UnknownSeat("this seat link is not valid at this table")
        record = self.table.seat_by_device(token)
        if record is not None:
            return self._take_seat(record, record, name, lang)
        record = self.seat_by_token(token)
        if record is None:
            if isinstance(token, str) and _token_digest(token) in self._retired:
                raise HandedOver("this table has a new game: scan the big screen to play again")
            raise UnknownSeat("this seat link is not valid at this table")
        if record.bot is None and not record.joined:
            return self._take_seat(record, record.held_by(), name, lang)
        if record.bot is not None and name is None:
            raise NameNeeded("a bot plays this seat: type your name to take it", record.seat)
        if record.bot is not None and self.phase is TablePhase.LOBBY:
            return self._take_seat(record, record.held_by(), name, lang)
        raise AskHost("this seat is taken: the host must allow this phone", record.seat)

    def _take_seat(self, record: SeatRecord, updated: SeatRecord, name: Any, lang: Any) -> SeatRecord:
        if name is not None:
            updated = replace(updated, name=clean_name(name, self._names_beside(record.seat)))
        if lang is not None:
            updated = replace(updated, lang=self._check_lang(lang))
        self._touch()
        if updated != record:
            self._save(self.table.with_seat(updated))
            self._drop_bot(record.seat)  # a bot held the seat: the person plays on from here
            self.table = self.table.with_seat(updated)
            self._refresh()
        return updated

    def set_name(self, seat: int, name: Any) -> None:
        record = self._seat(seat)
        name = clean_name(name, self._names_beside(seat))
        if name == record.name:
            return  # the same name again: no version, no journal row, no broadcast
        self._touch()
        self._lobby_change(self.table.with_seat(replace(record, name=name)))

    def _names_beside(self, seat: int) -> list[str]:
        """The other seats' names (a new name must be told apart from them: game.session.names)."""
        return [r.name for r in self.table.seats if r.seat != seat]

    def set_lang(self, seat: int, lang: Any) -> None:
        record = self._seat(seat)
        self._touch()
        self._lobby_change(self.table.with_seat(replace(record, lang=self._check_lang(lang))))

    def set_connected(self, seat: int, connected: bool) -> None:
        """Presence only: not journaled and does not grow the version."""
        if connected == (seat in self._connected):
            return
        (self._connected.add if connected else self._connected.discard)(seat)
        self._publish()

    def submit_action(self, seat: int, wire: Any, version: int | None,
                      source: InputSource = InputSource.PHONE, t_ms: float | None = None) -> None:
        """Check and apply a seat's wire action; raises a RulesError and changes nothing on bad input.
        ``t_ms``: when the gesture happened on the session clock (a phone's own time mapped by its
        clock sync); timed actions (``t_ms`` field) get it, else the arrival time."""
        run = self._require_play()
        check_seat(seat, run.n_seats)
        action = run.engine.action_from_wire(wire)
        if version is not None:
            self._check_version(seat, version)
        self._check_legal(seat, action)
        if source is not InputSource.BOT:
            self._touch()
        self._accept(seat, action, t_ms)

    # ------------------------------------------------------------------------ other inputs
    def handle_input(self, event: InputEvent) -> None:
        """An input from the renderer's thread (keyboard, arcade), delivered on the loop."""
        try:
            if event.kind is InputKind.HOST:
                self.host_command(event.payload)
            elif event.kind is InputKind.GAME_ACTION:
                if event.seat is None:
                    raise UnknownSeat("a game action needs a seat")
                self.submit_action(event.seat, event.payload.get("action"), None, event.source)
            elif event.kind is InputKind.PRESS:
                self._press_input(PressInput.of(event))
            else:
                raise IllegalAction(f"{event.kind.value} inputs are not handled by this table")
            self.host_error = None
        except RulesError as exc:
            log.info("input %s refused: %s (%s)", event.kind.value, exc, exc.code)
            self.host_error = {"code": exc.code, "message": str(exc)}
            self._publish()
        except JournalError as exc:
            log.error("input %s not applied: %s", event.kind.value, exc)
            self.host_error = {"code": "server_error", "message": str(exc)}
            self._publish()

    def host_command(self, payload: Mapping[str, Any]) -> None:
        if not isinstance(payload, Mapping):
            raise MalformedAction("a host command must be an object")
        name = _field(payload, "command", str)
        try:
            command = HostCommand(name)
        except ValueError:
            raise MalformedAction(f"unknown host command {name!r}") from None
        self._touch()
        handler: Callable[[Mapping[str, Any]], None] = getattr(self, f"_host_{command.value}")
        handler(payload)

    def housekeeping(self) -> None:
        """Called every few seconds by the server: journal checkpoint when quiet, kiosk idle reset."""
        if self._journal is not None and self.clock() - self._last_write_ms >= QUIET_MS and self._unfolded:
            self._journal.checkpoint()
            self._unfolded = False
        self.check_idle()

    def check_idle(self) -> None:
        """Kiosk: after ``idle_reset_minutes`` without input, or ``results_s`` after a game ended,
        the table is handed to the next group (:meth:`hand_over`). The scheduler hands over on
        time after the results (:meth:`_schedule_handover`); this periodic check is the backstop."""
        if self.mode is not Mode.KIOSK:
            return
        now = self.clock()
        idle_ms = now - self._last_input_ms
        if self.phase is TablePhase.FINISHED and self._finished_ms is not None and \
                now - self._finished_ms >= self._results_ms():
            log.info("kiosk: the final scores were shown; the table is handed to the next group")
            self.hand_over()
            return
        if idle_ms < self.table.table_settings.idle_reset_minutes * 60_000:
            return
        if self.phase is TablePhase.LOBBY and not any(r.joined or r.name for r in self.table.offered):
            return
        log.info("kiosk idle for %d s: the table is handed to the next group", idle_ms // 1000)
        self.hand_over()

    def _results_ms(self) -> int:
        kiosk = self.config.kiosk
        return (kiosk.timers.results_s if kiosk is not None else 60) * 1000

    def hand_over(self) -> None:
        """The next group starts clean: the game (if any) ends, every seat gets a new link and code,
        names, bots and scores are cleared; the old group's phones are told kindly and closed, and
        their links only ever say "this table has a new game"."""
        self.intro = None  # an explanation for the last group is not the next group's game
        if self._intro_handle is not None:
            self._intro_handle.cancel()
            self._intro_handle = None
        self._cancel_handover()
        for record in self.table.seats:
            self._retired.append(_token_digest(record.token))
            if record.device:  # the phone's own key: its reconnects are told kindly too
                self._retired.append(_token_digest(record.device))
        self._save_retired()
        table = replace(self.table, seats=fresh_seats())
        self._end_game(table)
        for seat in range(MAX_SEATS):
            self._revoke(seat, NoticeCode.NEW_GROUP)
        self._connected.clear()
        self._bot_streak.clear()
        self._notify(NoticeCode.NEW_GROUP)
        self._touch()
        self._publish()

    def _save_retired(self) -> None:
        """Journal the retired links' digests before the new links replace them, so that after a
        restart an old group's phone still hears "this table has a new game"."""
        if self._journal is None:
            return
        try:
            self._journal.save_retired(tuple(self._retired))
        except JournalError as exc:
            log.warning("retired links not journaled (after a restart they get the generic page): %s", exc)

    # ------------------------------------------------------------------------ host commands
    def _host_set_game(self, p: Mapping[str, Any]) -> None:
        self._require_lobby()
        self._switch_game(_field(p, "game", str))

    def _host_set_mode(self, p: Mapping[str, Any]) -> None:
        """Table or companion: the current game's variant of that mode (else the mode's first game)."""
        self._require_lobby()
        try:
            mode = catalog.Mode(_field(p, "mode", str))
            game = catalog.variant(self.table.game, mode).id
        except (ValueError, catalog.UnknownGame):
            raise BadSettings(f"mode must be one of {', '.join(m.value for m in self.play_modes())}") from None
        if game != self.table.game:
            self._switch_game(game)

    @staticmethod
    def play_modes() -> tuple[catalog.Mode, ...]:
        """The modes the catalog has games for."""
        return tuple(m for m in catalog.Mode if catalog.games(m))

    @property
    def play_mode(self) -> catalog.Mode:
        """Table or companion: the mode of the game chosen (the lobby offers that mode's games)."""
        return catalog.get(self.table.game).mode if self.table.game in catalog.ids() else catalog.Mode.TABLE

    def _host_table_action(self, p: Mapping[str, Any]) -> None:
        """The host acts as the table itself (seat ``None``): whatever the engine lets the table do
        now (a companion game's referee: enter points for a player, undo a wrong win)."""
        run = self._require_play()
        action = run.engine.action_from_wire(p.get("action"))
        legal = [self._legal_form(run.engine, a) for a in self._table_actions(run)]
        if self._legal_form(run.engine, action) not in legal:
            raise IllegalAction("the table cannot do that now")
        self._accept(None, action)

    def _switch_game(self, game: str) -> None:
        if game not in catalog.ids():
            raise BadSettings(f"unknown game {game!r}")
        try:
            engine = self._engines(game)
        except (KeyError, ImportError, AttributeError) as exc:
            raise BadSettings(f"{game} is not available: {exc}") from None
        self._check_seat_range(engine, self.table.seat_count)
        preset = _default_preset(engine, self.table.language)
        settings = _game_settings(self.config, engine, game, preset)
        table = replace(self.table, game=game, preset=preset, settings=settings)
        self._save(table)
        self.table, self.engine = table, engine
        self._refresh()

    def _host_set_preset(self, p: Mapping[str, Any]) -> None:
        self._require_lobby()
        preset = _field(p, "preset", str)
        if preset not in self.engine.presets():
            raise BadSettings(f"unknown preset {preset!r} for {self.table.game}")
        settings = _game_settings(self.config, self.engine, self.table.game, preset)
        self._lobby_change(replace(self.table, preset=preset, settings=settings))

    def _host_set_language(self, p: Mapping[str, Any]) -> None:
        language = _field(p, "language", str)
        if language not in LANGUAGES:
            raise BadSettings(f"language must be one of {', '.join(LANGUAGES)}")
        language = self._offered_language(language)
        self._lobby_change(self._follow_language(replace(self.table, language=language)))

    def _offered_language(self, language: str) -> str:
        """Kiosk: the café offers some languages; asked for another (the TV's L key steps through
        all), the next offered one after it."""
        offered = self.config.kiosk.languages if self.config.kiosk is not None else LANGUAGES
        start = LANGUAGES.index(language)
        ring = LANGUAGES[start:] + LANGUAGES[:start]
        return next((lang for lang in ring if lang in offered), language)

    def _follow_language(self, table: TableRecord) -> TableRecord:
        """The game's edition follows the table language in
        the lobby, unless the host chose another preset or changed its settings."""
        old, engine = self.table, self.engine
        untouched = old.preset == _default_preset(engine, old.language) and old.settings == \
            _game_settings(self.config, engine, old.game, old.preset)
        preset = _default_preset(engine, table.language)
        if self.phase is not TablePhase.LOBBY or not untouched or preset == old.preset:
            return table
        return replace(table, preset=preset, settings=_game_settings(self.config, engine, table.game, preset))

    def _host_set_setting(self, p: Mapping[str, Any]) -> None:
        name = _field(p, "name", str)
        if "value" not in p:
            raise MalformedAction("missing field 'value'")
        value = p["value"]
        if name in TableSettings.names():
            self._lobby_change(replace(self.table, table_settings=self.table.table_settings.with_setting(name, value)))
            return
        self._require_lobby()
        obj = self.engine.settings_from_wire({**self.table.settings, name: value}, self.table.preset)
        self._lobby_change(replace(self.table, settings=self.engine.settings_to_wire(obj)))

    def _host_set_seats(self, p: Mapping[str, Any]) -> None:
        self._require_lobby()
        count = _field(p, "count", int)
        self._check_seat_range(self.engine, count)
        table = self.table
        for record in table.seats[count:]:
            if record.joined:
                raise BadSettings(f"seat {record.seat + 1} is held by a player; kick them first")
            if record.bot is not None:
                table = table.with_seat(record.with_bot(None))
        self._lobby_change(replace(table, seat_count=count))

    def _host_set_bot(self, p: Mapping[str, Any]) -> None:
        self._require_lobby()
        record = self._offered_seat(_field(p, "seat", int))
        kind = _field(p, "kind", str, optional=True)
        if record.joined:
            raise IllegalAction(f"seat {record.seat + 1} is held by a player; kick them first")
        self._lobby_change(self.table.with_seat(record.with_bot(_bot_kind(kind) if kind is not None else None)))

    def _host_fill_bots(self, p: Mapping[str, Any]) -> None:
        self._require_lobby()
        kind = _bot_kind(_field(p, "kind", str))
        self._lobby_change(self._filled(self.table, kind))

    def _host_start(self, p: Mapping[str, Any]) -> None:
        self._require_lobby()
        self._check_seat_range(self.engine, self.table.seat_count)
        length = howto.duration_ms(self.table.game) if self.table.table_settings.how_to_play else 0
        if self.intro is not None or not length:
            self._start_game()
            return
        self.intro = {"game": self.table.game, "started_ms": self.clock(), "duration_ms": length}
        self._intro_handle = self._scheduler.call_later(length, self._intro_over)
        self._publish()

    def _host_skip_intro(self, p: Mapping[str, Any]) -> None:
        if self.intro is None:
            raise IllegalAction("no how-to-play is running")
        self._intro_over()

    def _intro_over(self) -> None:
        """The explanation ended (or was skipped): the game starts."""
        if self._intro_handle is not None:
            self._intro_handle.cancel()
            self._intro_handle = None
        if self.intro is None or self.phase is not TablePhase.LOBBY:
            self.intro = None
            return
        try:
            self._start_game()
        except (RulesError, JournalError) as exc:
            log.error("the game could not start after the how-to-play: %s", exc)
            self.intro = None
            self._publish()

    def _start_game(self) -> None:
        self.intro = None
        engine = self.engine
        table = self._filled(self.table, self.table.table_settings.default_bot)
        settings = engine.settings_from_wire(table.settings, table.preset)
        seed = self._next_seed()
        n = table.seat_count
        state = engine.new_game(settings, n, seed)
        bots = self._new_bots(table, seed)
        table = replace(table, phase=TablePhase.PLAYING)
        game_no = self._begin_game(table, seed, n)
        self.table = replace(table, game_no=game_no)
        self.run = GameRun(game_no, engine, seed, n, state)
        self._bot_streak.clear()
        self._bots = bots
        self._refresh(events=engine.events_to_wire(self._start_events(engine, state)))
        self._notify(NoticeCode.GAME_STARTED)

    def _host_next(self, p: Mapping[str, Any]) -> None:
        if self.phase is not TablePhase.FINISHED:
            raise IllegalAction("'next' is for after the game is over")
        self._end_game(self.table)

    def _host_abort(self, p: Mapping[str, Any]) -> None:
        if self.phase is not TablePhase.PLAYING:
            raise IllegalAction("no game is in play")
        self._end_game(self.table)
        self._notify(NoticeCode.TABLE_RESET)

    def _host_kick(self, p: Mapping[str, Any]) -> None:
        record = self._offered_seat(_field(p, "seat", int))
        seat, freed, bot = record.seat, record.freed(self.table.codes()), None
        if self.run is not None and self.phase is TablePhase.PLAYING and seat < self.run.n_seats:
            freed = freed.with_bot(self.table.table_settings.default_bot)  # the game goes on
            bot = self._new_bot(seat, self.table.table_settings.default_bot, self.run.seed)
        table = self.table.with_seat(freed)
        self._save(table)
        self._connected.discard(seat)
        self._drop_bot(seat)
        if bot is not None:
            self._bots[seat] = bot
        self._revoke(seat)
        self.table = table
        self._refresh()

    def request_claim(self, seat: int, name: Any = None, lang: Any = None) -> Claim:
        """A phone asks for a held seat; the TV and the host console show the request."""
        if len(self._claims) >= MAX_CLAIMS:
            raise IllegalAction("too many phones are asking for seats; try again in a moment")
        self._offered_seat(seat)
        self._claim_seq += 1
        claim = Claim(self._claim_seq, seat, clean_name(name, self._names_beside(seat)) if name is not None else "",
                      self._check_lang(lang) if lang is not None else None)
        self._claims[claim.id] = claim
        self._publish()
        return claim

    def drop_claim(self, claim_id: int) -> None:
        """The asking phone went away: its request disappears from the TV."""
        if self._claims.pop(claim_id, None) is not None:
            self._publish()

    def give_seat(self, seat: int, claim_id: int) -> None:
        """The seated phone agrees: the phone asking for its seat takes it (as if the host allowed)."""
        claim = self._claims.get(claim_id)
        if claim is None or claim.seat != seat:
            raise IllegalAction("no phone is asking for this seat")
        self._touch()
        self._give_seat(claim, NoticeCode.SEAT_GIVEN)

    def _host_claim(self, p: Mapping[str, Any]) -> None:
        claim = self._claims.get(_field(p, "id", int))
        if claim is None:
            raise IllegalAction("this phone is no longer asking")
        if not _field(p, "allow", bool):
            del self._claims[claim.id]
            self._answer(claim, None)
            self._publish()
            return
        self._give_seat(claim)

    def _give_seat(self, claim: Claim, reason: NoticeCode = NoticeCode.SEAT_MOVED) -> None:
        """The host allowed ``claim``: the seat moves to the new phone with a new link, code and
        device key; its old phone is told, the other requests for it are refused."""
        record = self.table.seats[claim.seat]
        updated = record.rotated(self.table.codes()).held_by()
        if claim.name:
            updated = replace(updated, name=claim.name)
        if claim.lang is not None:
            updated = replace(updated, lang=claim.lang)
        table = self.table.with_seat(updated)
        self._save(table)
        was_bot = record.bot is not None
        self._drop_bot(claim.seat)
        self.table = table
        others = [c for c in self._claims.values() if c.seat == claim.seat and c.id != claim.id]
        self._claims = {i: c for i, c in self._claims.items() if c.seat != claim.seat}
        if not was_bot:
            self._revoke(claim.seat, reason)
        self._answer(claim, updated)
        for other in others:
            self._answer(other, None)
        self._refresh()

    def _answer(self, claim: Claim, record: SeatRecord | None) -> None:
        for listener in list(self._listeners):
            if isinstance(listener, ClaimListener):
                listener.claim_answered(claim, record)

    # ----------------------------------------------------------------------------- checks
    def _seat(self, seat: int) -> SeatRecord:
        if not (isinstance(seat, int) and 0 <= seat < MAX_SEATS):
            raise UnknownSeat(f"no seat {seat!r}")
        return self.table.seats[seat]

    def _offered_seat(self, seat: int) -> SeatRecord:
        if not 0 <= seat < self.table.seat_count:
            raise UnknownSeat(f"no seat {seat} at this table")
        return self.table.seats[seat]

    @staticmethod
    def _check_lang(lang: Any) -> str:
        if not isinstance(lang, str) or lang not in LANGUAGES:
            raise MalformedAction(f"lang must be one of {', '.join(LANGUAGES)}")
        return lang

    @staticmethod
    def _check_seat_range(engine: GameEngine, count: int) -> None:
        low, high = max(MIN_OFFERED_SEATS, engine.min_seats), min(MAX_SEATS, engine.max_seats)
        if not low <= count <= high:
            raise BadSettings(f"{engine.name or 'this game'} takes {low} to {high} seats")

    def _require_lobby(self) -> None:
        if self.phase is not TablePhase.LOBBY:
            raise IllegalAction("only in the lobby")

    def _require_play(self) -> GameRun:
        if self.phase is TablePhase.FINISHED:
            raise GameOver("the game is over")
        if self.run is None or self.phase is not TablePhase.PLAYING:
            raise IllegalAction("no game is in play")
        return self.run

    def _check_version(self, seat: int, version: Any) -> None:
        if not isinstance(version, int) or isinstance(version, bool):
            raise MalformedAction("version must be a whole number")
        if not self._legal_version.get(seat, 0) <= version <= self.version:
            raise StaleState("the table has moved on since this choice; here is the current state")

    def _check_legal(self, seat: int, action: Any) -> None:
        legal = self._legal.get(seat, [])
        if not legal:
            raise NotYourTurn("nothing to do for this seat now")
        run = self.run
        if run is None or self._legal_form(run.engine, action) not in legal:
            raise IllegalAction("this action is not allowed now")

    @staticmethod
    def _legal_form(engine: GameEngine, action: Any) -> Any:
        """The form an action has in ``legal_actions``: ``t_ms`` zeroed, and an engine may zero
        more (``legal_form``: a companion's points, which its score pad checks in ``apply``)."""
        form = getattr(engine, "legal_form", None)
        return form(_zero_time(action)) if callable(form) else _zero_time(action)

    # ---------------------------------------------------------------------------- changes
    def _accept(self, seat: int | None, action: Any, t_ms: float | None = None) -> None:
        run = self._require_play()
        if dataclasses.is_dataclass(action) and any(f.name == "t_ms" for f in dataclasses.fields(action)):
            now = self.clock()
            action = replace(action, t_ms=now if t_ms is None else min(now, round(t_ms)))  # type: ignore[type-var]
        new_state, events = run.engine.apply(run.state, seat, action)
        if self._journal is not None:
            self._journal.append_action(run.game_no, seat, run.engine.action_to_wire(action), self.version + 1)
            self._wrote()
        self.run = replace(run, state=new_state)
        self._count_streak(seat)
        self._refresh(events=run.engine.events_to_wire(events), actor=seat)

    def _lobby_change(self, table: TableRecord) -> None:
        self._save(table)
        self.table = table
        self._refresh()

    def _save(self, table: TableRecord) -> None:
        """Journal the table as the next version (before anything changes in memory)."""
        if self._journal is not None:
            self._journal.save_table(table, self.version + 1)
            self._wrote()

    def _begin_game(self, table: TableRecord, seed: int, n: int) -> int:
        if self._journal is None:
            return (self.table.game_no or 0) + 1
        return self._journal.begin_game(table, table.game, table.preset, table.settings, seed, n, self.version + 1)

    def _end_game(self, table: TableRecord) -> None:
        """Back to the lobby with ``table``'s seats: the game is dropped, bots stay seated."""
        lobby = replace(table, phase=TablePhase.LOBBY, game_no=None)
        self._save(lobby)
        self._timer.cancel()
        self._cancel_bots()
        self._bots.clear()
        self.run = None
        self.last_events = ()
        self.table = lobby
        self._refresh()

    def _refresh(self, *, events: list[dict[str, Any]] | None = None, bump: bool = True,
                 actor: int | None = None) -> None:
        """After a change: version, events, finish, legal actions, timer, bots, snapshot, listeners.
        ``actor``: the seat whose own action made the change."""
        if bump:
            self.version += 1
        if events is not None:
            self.event_seq = self.version  # the version that produced this batch
            self.last_events = tuple(events)
        finished = self._check_finished()
        run = self.run if self.phase is TablePhase.PLAYING else None
        race = run.engine.race(run.state) if run is not None else None
        request = self._timer_request(run, race)
        previous = self._timer.running
        new_step = request is not None and (previous is None or previous.request.key != request.key)
        self._refresh_legal(actor, new_step)
        if run is not None:
            self._races.sync(race, self._bots, partial_view(run))
        else:
            self._races.sync(None, {}, _no_view)
        self._sync_timer(run, request)
        self._schedule_bots()
        self._publish()
        if finished:
            self._notify(NoticeCode.GAME_FINISHED)

    def _sync_timer(self, run: GameRun | None, request: TimerRequest | None) -> None:
        """Follow the timer request; a new game timer's deadline is journaled on the wall clock, so
        after a restart the same timer resumes with what was left of it (issue 11 item 20)."""
        running = self._timer.running
        if run is None or request is None or request.on_expiry is None or (
                running is not None and running.request.key == request.key):
            self._timer.sync(request)
            return
        resumed, self._resumed_timer = self._resumed_timer, None
        if resumed is not None and (resumed.game_no, resumed.key) == (run.game_no, request.key):
            self._timer.sync(request, min(request.duration_ms, max(0, resumed.deadline_wall_ms - self._wall())))
            return
        self._timer.sync(request)
        if self._journal is not None:
            try:
                self._journal.save_timer(SavedTimer(run.game_no, request.key, self._wall() + request.duration_ms))
            except JournalError as exc:
                log.warning("timer deadline not journaled (a restart would give it afresh): %s", exc)

    @staticmethod
    def _timer_request(run: GameRun | None, race: RaceRequest | None) -> TimerRequest | None:
        """The one timer the table shows: a running race's timeout, else the engine's timer."""
        if race is not None:
            return TimerRequest(race_timer_key(race), race.timeout_ms, None, race.label)
        return run.engine.timer(run.state) if run is not None else None

    def _check_finished(self) -> bool:
        run = self.run
        if run is None or self.phase is not TablePhase.PLAYING or not run.engine.is_over(run.state):
            return False
        self.table = replace(self.table, phase=TablePhase.FINISHED)
        self._finished_ms = self.clock()
        if self._journal is not None:
            self._journal.save_table(self.table, self.version)
        self._schedule_handover()
        return True

    def _schedule_handover(self) -> None:
        """Kiosk: the final scores stay ``results_s``, then the table goes to the next group (on
        the scheduler, to the millisecond; :meth:`check_idle` is only the backstop)."""
        if self.mode is not Mode.KIOSK:
            return
        self._cancel_handover()
        self._handover_handle = self._scheduler.call_later(self._results_ms(), self._results_shown)

    def _results_shown(self) -> None:
        self._handover_handle = None
        if self.phase is TablePhase.FINISHED:
            log.info("kiosk: the final scores were shown for %d s; the table is handed to the next group",
                     self._results_ms() // 1000)
            self.hand_over()

    def _cancel_handover(self) -> None:
        if self._handover_handle is not None:
            self._handover_handle.cancel()
            self._handover_handle = None

    def _refresh_legal(self, actor: int | None, new_step: bool) -> None:
        """Recompute every seat's legal actions. A seat's choices go stale (see ``_check_version``)
        when a new timed step begins (a new timer key: a new vote, a new phase) or when its legal
        actions change because of someone else — not because of its own action, so a phone may
        change its mind twice in a row without waiting for the state in between."""
        run = self.run
        if run is None or self.phase is not TablePhase.PLAYING:
            self._legal, self._legal_wire = {}, {}
            return
        for seat in range(run.n_seats):
            legal = list(run.engine.legal_actions(run.state, seat))
            changed = seat not in self._legal_wire or legal != self._legal.get(seat)
            if changed:
                self._legal[seat] = legal
                self._legal_wire[seat] = [run.engine.action_to_wire(a) for a in legal]
            if new_step or (changed and seat != actor):
                self._legal_version[seat] = self.version

    def _publish(self) -> None:
        self._cache.clear()
        self.snapshot = self._build_snapshot()
        for listener in list(self._listeners):
            listener.table_changed()

    def _notify(self, code: NoticeCode) -> None:
        for listener in list(self._listeners):
            listener.notice(code)

    def _revoke(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        for listener in list(self._listeners):
            listener.seat_revoked(seat, reason)

    def _wrote(self) -> None:
        self._last_write_ms = self.clock()
        self._unfolded = True

    def _touch(self) -> None:
        self._last_input_ms = self.clock()

    def _next_seed(self) -> int:
        if self.config.seed is not None:
            return (self.config.seed + (self.table.game_no or 0) * 7_919) & ((1 << 62) - 1)
        return secrets.randbits(62)

    @staticmethod
    def _filled(table: TableRecord, kind: BotKind) -> TableRecord:
        for record in table.offered:
            if record.bot is None and not record.joined:
                table = table.with_seat(record.with_bot(kind))
        return table

    # ------------------------------------------------------------------------------ timer
    def _timer_expired(self, request: TimerRequest) -> None:
        if self._races.expire(request.key) or request.on_expiry is None:
            return
        try:
            self._accept(None, request.on_expiry)
        except RulesError as exc:
            log.warning("timer %s: the engine refused its expiry action: %s", request.key, exc)
        except JournalError as exc:
            log.error("timer %s: not applied: %s", request.key, exc)

    # ------------------------------------------------------------------------------- bots
    def _new_bots(self, table: TableRecord, seed: int) -> dict[int, Bot]:
        return {r.seat: self._new_bot(r.seat, r.bot, seed) for r in table.offered if r.bot is not None}

    def _new_bot(self, seat: int, kind: BotKind, seed: int) -> Bot:
        try:
            return self._bot_factory(self.table.game, kind, seat, bot_seed(seed, seat))
        except NoBotForGame as exc:
            raise BadSettings(str(exc)) from None

    def _drop_bot(self, seat: int) -> None:
        self._bots.pop(seat, None)
        handle = self._bot_handles.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _cancel_bots(self) -> None:
        for handle in self._bot_handles.values():
            handle.cancel()
        self._bot_handles.clear()

    def _count_streak(self, seat: int | None) -> None:
        if seat is not None and seat in self._bots:
            self._bot_streak[seat] = self._bot_streak.get(seat, 0) + 1
        for other in list(self._bot_streak):
            if other != seat:
                self._bot_streak[other] = 0

    def _schedule_bots(self) -> None:
        if self.run is None or self.phase is not TablePhase.PLAYING:
            self._cancel_bots()
            return
        for seat, bot in self._bots.items():
            if not self._legal.get(seat):
                handle = self._bot_handles.pop(seat, None)
                if handle is not None:
                    handle.cancel()
                continue
            if seat in self._bot_handles or self._bot_streak.get(seat, 0) >= MAX_BOT_STREAK:
                continue
            delay = max(0, bot.think_ms()) * self._bot_delay_scale
            self._bot_handles[seat] = self._scheduler.call_later(delay, partial(self._bot_turn, seat))

    def _bot_turn(self, seat: int) -> None:
        self._bot_handles.pop(seat, None)
        bot, run = self._bots.get(seat), self.run
        if bot is None or run is None or self.phase is not TablePhase.PLAYING or not self._legal.get(seat):
            return
        try:
            action = bot.choose(run.engine.view(run.state, seat), list(self._legal[seat]))
        except Exception:  # a bot's bug must not stop the table
            log.exception("bot at seat %d failed", seat)
            return
        if action is None:
            return
        try:
            self._check_legal(seat, action)
            self._accept(seat, action)
        except RulesError as exc:
            log.warning("bot at seat %d chose a refused action %r: %s", seat, action, exc)
        except JournalError as exc:
            log.error("bot at seat %d: not applied: %s", seat, exc)

    # ------------------------------------------------------------------------------ races
    def press(self, seat: int, t_ms: float, source: PressSource, *, error_ms: float = 0.0,
              race: int | str | None = None) -> PressVerdict:
        """A race press from any source, already on the session clock (see ``race_floor.py``).
        ``race``: the key of the race the press was meant for (``None``: the armed one). Returns
        the judge's verdict; the race is decided on the session's scheduler."""
        check_seat(seat, self.table.seat_count)
        return self._races.press(seat, t_ms, source, error_ms=error_ms, race=race)

    def _press_input(self, press: PressInput) -> None:
        self.press(press.seat, press.t_ms, press.source, error_ms=press.error_ms, race=press.race)

    def _race_decided(self, action: Any) -> None:
        """Apply the table's action the engine made of a race's presses (journaled like any action)."""
        if self.run is None:
            return
        try:
            self._accept(None, action)
        except RulesError as exc:
            log.error("the engine refused the race result %s: %s", action, exc)
            self._publish()
        except JournalError as exc:
            log.error("race result not applied: %s", exc)
            self._publish()

    # ------------------------------------------------------------------------------ arcade
    def attach_arcade(self, bridge: ArcadeLink) -> None:
        """Use an arcade board for races (and restore the journaled button mapping)."""
        self._board.attach(bridge, self.table.arcade_map)

    def _button_down(self, button: BoardButton) -> None:
        armed = self._races.armed
        self._races.press_button(button)
        if not armed:
            self._button_gesture(button)

    def _button_gesture(self, button: BoardButton) -> None:
        """Two presses of a seat's button within ``GESTURE_MS`` while no race runs: the action the
        engine's ``button_action(state, seat, presses)`` gives (a companion player calls a race
        from their button); engines without that method ignore gestures."""
        run = self.run if self.phase is TablePhase.PLAYING else None
        gesture = getattr(run.engine, "button_action", None) if run is not None else None
        press = button.to_press(None)
        if run is None or not callable(gesture) or press is None:
            return
        last = self._gestures.get(press.seat)
        if last is None or press.t_ms - last > GESTURE_MS:
            self._gestures[press.seat] = press.t_ms
            return
        self._gestures.pop(press.seat, None)
        action = gesture(run.state, press.seat, 2)
        if action is None:
            return
        try:
            self._check_legal(press.seat, action)
            self._touch()
            self._accept(press.seat, action)
        except RulesError as exc:
            log.info("button gesture of seat %d refused: %s", press.seat, exc)
        except JournalError as exc:
            log.error("button gesture of seat %d not applied: %s", press.seat, exc)

    def _clear_notice(self, key: str) -> None:
        if key in self.notices:
            self.notices = tuple(n for n in self.notices if n != key)
        self._publish()

    def _save_button_map(self, mapping: dict[int, int]) -> None:
        table = replace(self.table, arcade_map=tuple(sorted(mapping.items())))
        try:
            self._lobby_change(table)
        except JournalError as exc:
            log.error("button mapping not saved: %s", exc)

    def _host_map_buttons(self, p: Mapping[str, Any]) -> None:
        """Start ("press your button", seat by seat) or ``cancel`` the arcade mapping wizard."""
        self._board.require_connected()
        if _field(p, "cancel", bool, optional=True):
            self._board.cancel_mapping()
            return
        if self._races.armed:
            raise IllegalAction("not during a race")
        self._board.start_mapping([r.seat for r in self.table.offered])

    # ---------------------------------------------------------------------------- outputs
    def _build_snapshot(self) -> TableSnapshot:
        t, run = self.table, self.run
        # the TV shows a seat's code and link (QR) only while the seat is free: a photo of the
        # TV must never hand anyone a held seat
        seats = tuple(
            SeatInfo(seat=r.seat, status=r.status, name=_shown_name(r, t.language), colour=look(r.seat).colour,
                     symbol=look(r.seat).symbol, code=r.code if r.status is SeatStatus.FREE else "",
                     url=self.seat_url(r) if r.status is SeatStatus.FREE else "",
                     connected=r.seat in self._connected, language=r.lang or t.language,
                     bot=r.bot.value if r.bot is not None else None)
            for r in t.offered
        )
        running = self._timer.running
        return TableSnapshot(
            version=self.version, mode=self.mode, language=t.language, game=t.game, preset=t.preset,
            settings=dict(t.settings), seats=seats, phase=t.phase,
            public_view=run.engine.view(run.state, None) if run else None,
            events=self.last_events, event_seq=self.event_seq,
            timer=running.info if running else None, clock_ms=self.clock(),
            join_url=f"{self.base_url}/join", spectator_url=f"{self.base_url}/watch",
            notices=self.notices, lobby=self._lobby_info(),
            arcade=ArcadeInfo.from_json(self._board.to_json(self.table.arcade_map)),
            race=RaceInfo.from_json(self._races.to_json()), claims=self._claims_info(),
            how_to_play=self._how_to_play_info(),
        )

    def _lobby_info(self) -> LobbyInfo:
        error = self.host_error
        return LobbyInfo(
            seat_count=self.table.seat_count, min_seats=max(MIN_OFFERED_SEATS, self.engine.min_seats),
            max_seats=min(MAX_SEATS, self.engine.max_seats), can_start=self._can_start(),
            presets=tuple(self.engine.presets()), games=catalog.ids(self.play_mode),
            play_mode=self.play_mode.value, play_modes=tuple(m.value for m in self.play_modes()),
            table_settings=self.table.table_settings.to_json(), host_url=f"{self.base_url}/host",
            host_error=HostError(error["code"], error["message"]) if error else None,
        )

    def _claims_info(self) -> tuple[ClaimInfo, ...]:
        return tuple(ClaimInfo.from_json(c.to_json(self.table)) for c in self._claims.values())

    def _how_to_play_info(self) -> HowToPlayInfo | None:
        intro = self.intro
        return HowToPlayInfo(str(intro["game"]), int(intro["started_ms"]), int(intro["duration_ms"])) if intro else None

    def _can_start(self) -> bool:
        return self.phase is TablePhase.LOBBY and all(r.bot is not None or r.joined for r in self.table.offered)

    def lobby_json(self, *, host: bool) -> dict[str, Any]:
        t = self.table
        info = self._lobby_info()
        return {
            "phase": t.phase.value, "game": t.game, "preset": t.preset, "presets": list(info.presets),
            "games": list(info.games), "language": t.language, "mode": self.mode.value,
            "play_mode": info.play_mode, "play_modes": list(info.play_modes),
            "settings": dict(t.settings), "table_settings": dict(info.table_settings),
            "seat_count": t.seat_count, "min_seats": info.min_seats, "max_seats": info.max_seats,
            "can_start": info.can_start, "arcade": self._board.to_json(self.table.arcade_map),
            "how_to_play": self.intro is not None,
            "seats": [{**seat_public_json(r, r.seat in self._connected, secrets_too=host, base_url=self.base_url),
                       "name": _shown_name(r, t.language)}
                      for r in t.offered],
            **({"claims": [c.to_json(self.table) for c in self._claims.values()]} if host else {}),
        }

    def state_message(self, seat: int | None, *, host: bool = False) -> dict[str, Any]:
        """The fields of the ``state`` message for a seat (its own view + legal) or the public one.
        The server frames it (``server/protocol.py``) and adds ``timer`` at send time (:meth:`timer_json`)."""
        return {**self.state_common(host=host), **self.state_personal(seat)}

    def state_common(self, *, host: bool) -> dict[str, Any]:
        """The part of ``state`` every socket shares (host links: with seat codes); cached per change."""
        key = ("common", host)
        cached = self._cache.get(key)
        if cached is None:
            cached = {
                "version": self.version, "phase": self.phase.value,
                "game": self.table.game, "phone": catalog.get(self.table.game).phone,
                "events": list(self.last_events), "event_seq": self.event_seq,
                "lobby": self.lobby_json(host=host),
            }
            if host:
                cached["table_legal"] = self._table_legal_wire()
            self._cache[key] = cached
        return cached

    def _table_legal_wire(self) -> list[dict[str, Any]]:
        """What the table itself (the host, as referee) may do now, in wire form."""
        run = self.run
        if run is None or self.phase is not TablePhase.PLAYING:
            return []
        return [run.engine.action_to_wire(a) for a in self._table_actions(run)]

    @staticmethod
    def _table_actions(run: GameRun) -> list[Any]:
        """The engine's ``table_actions(state)`` (what the table itself may do now; none when the
        engine offers no such method: table-mode games act as the table only through timers and races)."""
        table_actions = getattr(run.engine, "table_actions", None)
        return list(table_actions(run.state)) if callable(table_actions) else []

    def state_personal(self, seat: int | None) -> dict[str, Any]:
        """``view`` and ``legal`` for a seat (``None``: the public view, nothing legal); cached per change."""
        key = ("seat", seat)
        cached = self._cache.get(key)
        if cached is None:
            run = self.run
            cached = {"view": run.engine.view(run.state, seat) if run else None,
                      "legal": self.legal_wire(seat) if seat is not None else []}
            self._cache[key] = cached
        return cached

    def timer_json(self) -> dict[str, Any] | None:
        running = self._timer.running
        return running.to_json(self.clock()) if running else None

    def welcome_json(self, seat: int | None, role: str) -> dict[str, Any]:
        """The fields of the ``welcome`` message (the server frames it)."""
        t = self.table
        record = t.seats[seat] if seat is not None else None
        seat_look = look(seat) if seat is not None else None
        return {
            "role": role, "seat": seat,
            "token": record.device if record else None, "code": record.code if record else None,
            "link": record.token if record else None,
            "colour": seat_look.colour if seat_look else None,
            "colour_name": seat_look.colour_name if seat_look else None,
            "symbol": seat_look.symbol if seat_look else None,
            "name": record.name if record else "", "lang": (record.lang if record else None) or t.language,
            "table_lang": t.language, "game": t.game, "mode": self.mode.value, "server_ms": self.clock(),
            "heartbeat_ms": 5000,
        }
