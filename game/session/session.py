"""The table session: the one writer of the table's state.

Everything here runs on the asyncio loop thread. The session holds the lobby record (seats,
tokens, names, settings), the game state of the game in play, the game timer and the bots. Every
input (a phone's action, a host command, a bot's choice, a timer running out) goes through
:meth:`Session.submit_action` / :meth:`Session.host_command` / :meth:`Session.handle_input`; an
accepted change is written to the journal first, then a new :class:`TableSnapshot` is built and the
listeners (the WebSocket hub) are told.

Its rooms: the host's commands and the lobby's rules (``lobby.py``), the seat-claim queue
(``claims.py``), the bots (``bot_driver.py``), each seat's legal actions (``legal.py``), what
differs between a host's table and a kiosk (``policy.py``), what is shown (``presenter.py``), the
races (``race_floor.py``) and the arcade board (``arcade.py``).
"""
from __future__ import annotations

import enum
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, Protocol, runtime_checkable

from game import catalog, howto
from game.config import LANGUAGES, TableConfig
from game.rules import get_engine
from game.rules.base import (
    GameEngine,
    GameOver,
    IllegalAction,
    RulesError,
    TimerRequest,
    UnknownSeat,
    check_seat,
)
from game.seating import MAX_SEATS

from . import lobby
from .arcade import ARCADE_UNPLUGGED, ArcadeBoard, ArcadeGestures, ArcadeLink
from .bot_driver import BotDriver
from .bots import BotFactory, default_bot_factory
from .claims import Claim, ClaimQueue
from .journal import Journal, JournalError, Saved
from .legal import LegalBook, is_timed, legal_form
from .lobby import HostCommand, check_lang
from .policy import RETIRED_TOKENS, HandOverClock, RetiredLinks, TablePolicy, policy_for
from .presenter import Intro, Presenter
from .race_floor import BoardButton, PressInput, PressSource, PressVerdict, RaceFloor
from .scheduler import Handle, LoopScheduler, Scheduler, session_ms, wall_ms
from .seats import MIN_OFFERED_SEATS, AskHost, NameNeeded, SeatRecord, clean_name, fresh_seats
from .snapshot import HostError, InputEvent, InputKind, InputSource, Mode, TablePhase, TableSnapshot
from .table import TableRecord
from .timers import RunningTimer, TableTimer, table_request

log = logging.getLogger(__name__)

DEFAULT_SEATS = 6
HOUSEKEEPING_S = 5.0
QUIET_MS = 2_000  # no journal write for this long: a good moment for a checkpoint
ADMIN_PIN_DIGITS = 6  # a million PINs: with the server's backoffs, guessing one takes weeks

__all__ = ["ADMIN_PIN_DIGITS", "ARCADE_UNPLUGGED", "HOUSEKEEPING_S", "RETIRED_TOKENS", "Claim", "ClaimListener",
           "GameRun", "HandedOver", "HostCommand", "NoticeCode", "Session", "SessionListener", "UnknownSeat"]


class NoticeCode(enum.Enum):
    KICKED = "kicked"
    TABLE_RESET = "table_reset"
    GAME_STARTED = "game_started"
    GAME_FINISHED = "game_finished"
    NEW_TABLE = "new_table"
    NEW_GROUP = "new_group"  # kiosk: the table was handed to the next group (fresh links and codes)
    SEAT_MOVED = "seat_moved"  # the host handed this seat to another phone


class SessionListener(Protocol):
    def table_changed(self) -> None: ...

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None: ...

    def notice(self, code: NoticeCode) -> None: ...


@runtime_checkable
class ClaimListener(Protocol):
    """A listener that also seats or sends away phones waiting for the host (the WebSocket hub)."""

    def claim_answered(self, claim: Claim, record: SeatRecord | None) -> None: ...


@dataclass(frozen=True, slots=True)
class GameRun:
    game_no: int
    engine: GameEngine
    seed: int
    n_seats: int
    state: Any


class HandedOver(UnknownSeat):
    """A link of a group the table was handed over from (kiosk): it shows nothing any more."""

    code = "new_group"


class Session:
    """One table. Create it with :meth:`boot` on the running loop."""

    def __init__(self, config: TableConfig, journal: Journal | None, table: TableRecord, *,
                 engines: Callable[[str], GameEngine] = get_engine, bot_factory: BotFactory = default_bot_factory,
                 clock: Callable[[], int] = session_ms, scheduler: Scheduler | None = None,
                 wall: Callable[[], int] = wall_ms, bot_delay_scale: float = 1.0) -> None:
        self.config = config
        self.mode: Mode = config.mode
        self.policy: TablePolicy = policy_for(config)
        self.clock = clock
        self.base_url = ""
        self.table = table
        self.engine = engines(table.game)
        self.run: GameRun | None = None
        self.version = 1
        self.event_seq = 0
        self.last_events: tuple[dict[str, Any], ...] = ()
        self.notices: tuple[str, ...] = ()
        self.host_error: HostError | None = None
        self.intro: Intro | None = None  # the how-to-play on the TV before the game starts
        self._journal = journal
        self._engines = engines
        self._rules = lobby.LobbyRules(engines, self.policy)
        self._scheduler = scheduler if scheduler is not None else LoopScheduler()
        self._timer = TableTimer(clock, self._scheduler, self._timer_expired, wall, journal)
        self._listeners: list[SessionListener] = []
        self._legal = LegalBook()
        self._connected: set[int] = set()
        self._claims = ClaimQueue()
        self._bots = BotDriver(bot_factory, self._scheduler, self, bot_delay_scale)
        self._last_input_ms = clock()
        self._finished_ms: int | None = None  # when the game in play ended (kiosk: hand-over after results)
        self._handover = HandOverClock(self.policy, self._scheduler, self._results_shown)
        self._retired = RetiredLinks()
        self._intro_handle: Handle | None = None
        self._last_write_ms = clock()
        self._unfolded = False  # journal writes since the last checkpoint
        self._board = ArcadeBoard(changed=self._publish, pressed=self._button_down, notice_on=self.add_notice,
                                  notice_off=self._clear_notice, mapped=self._save_button_map)
        self._gestures = ArcadeGestures()
        self._races = RaceFloor(clock, self._scheduler, self._board, touched=self._touch, changed=self._publish,
                                decided=self._race_decided, bot_delay_scale=bot_delay_scale)
        self._presenter = Presenter(self)
        self.snapshot: TableSnapshot = self._presenter.snapshot()

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
        engine = kw.get("engines", get_engine)(config.game)
        policy = policy_for(config)
        language = config.language if config.language in LANGUAGES else LANGUAGES[0]
        preset = policy.start_preset(engine, language)
        settings = policy.game_settings(engine, config.game, preset)
        count = max(MIN_OFFERED_SEATS, engine.min_seats, min(DEFAULT_SEATS, engine.max_seats, MAX_SEATS))
        pin = config.admin_pin or f"{secrets.randbelow(10 ** ADMIN_PIN_DIGITS):0{ADMIN_PIN_DIGITS}d}"
        table = policy.fresh_table(TableRecord.fresh(config.game, preset, settings, language, count, pin))
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
        self._retired = RetiredLinks(saved.retired)
        if saved.game is not None and table.phase is not TablePhase.LOBBY:
            self._replay(saved)
            self._timer.resumed = saved.timer  # a restarted game picks its timer up
        elif table.phase is not TablePhase.LOBBY:
            self.table = replace(table, phase=TablePhase.LOBBY, game_no=None)
        self._refresh(bump=False)

    def _replay(self, saved: Saved) -> None:
        """Rebuild the game in play from its seed and the journaled actions."""
        g = saved.game
        assert g is not None
        engine = self._engines(g.game)
        state = engine.new_game(engine.settings_from_wire(g.settings, g.preset), g.n_seats, g.seed)
        events, self.event_seq = engine.start_events(state), g.start_version
        for record in saved.actions:
            state, events = engine.apply(state, record.seat, engine.action_from_wire(record.action))
            self.event_seq = record.version
        self.engine = engine
        self.run = GameRun(g.game_no, engine, g.seed, g.n_seats, state)
        self.last_events = tuple(engine.events_to_wire(events))
        self._bots.seat_all(self._bots.make_all(self.table, g.seed))

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
        self._presenter.changed()
        self.snapshot = self._presenter.snapshot()

    def close(self) -> None:
        """Stop the timer and the bots (the loop is going away)."""
        if self._intro_handle is not None:
            self._intro_handle.cancel()
        self._handover.cancel()
        self._timer.cancel()
        self._bots.cancel()
        self._races.close()

    # ------------------------------------------------------------------------------ queries
    @property
    def phase(self) -> TablePhase:
        return self.table.phase

    @property
    def timer(self) -> RunningTimer | None:
        return self._timer.running

    @property
    def board(self) -> ArcadeBoard:
        return self._board

    @property
    def races(self) -> RaceFloor:
        return self._races

    @property
    def claims(self) -> tuple[Claim, ...]:
        return tuple(self._claims)

    @property
    def offered(self) -> tuple[SeatRecord, ...]:
        """The table's offered seats."""
        return self.table.offered

    @staticmethod
    def play_modes() -> tuple[catalog.Mode, ...]:
        """The modes the catalog has games for."""
        return lobby.play_modes()

    @property
    def play_mode(self) -> catalog.Mode:
        """Table or companion: the mode of the game chosen (the lobby offers that mode's games)."""
        return catalog.get(self.table.game).mode if self.table.game in catalog.ids() else catalog.Mode.TABLE

    def seat_url(self, record: SeatRecord) -> str:
        return f"{self.base_url}/s/{record.token}"

    def seat_by_token(self, token: str) -> SeatRecord | None:
        return self.table.seat_by_token(token) if isinstance(token, str) and token else None

    def seat_by_device(self, key: str) -> SeatRecord | None:
        """The offered seat held by the phone whose device key is ``key``."""
        return self.table.seat_by_device(key) if isinstance(key, str) and key else None

    def check_pin(self, pin: Any) -> bool:
        if not isinstance(pin, str) or not pin:
            return False
        try:
            typed = pin.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate is never the PIN
            return False
        return secrets.compare_digest(typed, self.table.admin_pin.encode())

    def seat_card(self, seat: int) -> dict[str, Any]:
        """A seat's public face for a phone asking for it: colour, symbol, who holds it."""
        return self._presenter.seat_card(seat)

    def legal_wire(self, seat: int) -> list[dict[str, Any]]:
        return self._legal.wire(seat)

    def table_legal_wire(self) -> list[dict[str, Any]]:
        """What the table itself (the host, as referee) may do now, in wire form."""
        run = self.run
        if run is None or self.phase is not TablePhase.PLAYING:
            return []
        return [run.engine.action_to_wire(a) for a in run.engine.table_actions(run.state)]

    def is_connected(self, seat: int) -> bool:
        return seat in self._connected

    # ---------------------------------------------------------------------------- outputs
    def lobby_json(self, *, host: bool) -> dict[str, Any]:
        return self._presenter.lobby_json(host=host)

    def state_message(self, seat: int | None, *, host: bool = False) -> dict[str, Any]:
        """The fields of the ``state`` message for a seat (its own view + legal) or the public one.
        The server frames it (``server/protocol.py``) and adds ``timer`` at send time (:meth:`timer_json`)."""
        return {**self.state_common(host=host), **self.state_personal(seat)}

    def state_common(self, *, host: bool) -> dict[str, Any]:
        """The part of ``state`` every socket shares (host links: with seat codes); cached per change."""
        return self._presenter.state_common(host=host)

    def state_personal(self, seat: int | None) -> dict[str, Any]:
        """``view`` and ``legal`` for a seat (``None``: the public view, nothing legal); cached per change."""
        return self._presenter.state_personal(seat)

    def timer_json(self) -> dict[str, Any] | None:
        return self._presenter.timer_json()

    def welcome_json(self, seat: int | None, role: str) -> dict[str, Any]:
        """The fields of the ``welcome`` message (the server frames it)."""
        return self._presenter.welcome_json(seat, role)

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
            if token in self._retired:
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
            updated = replace(updated, name=clean_name(name))
        if lang is not None:
            updated = replace(updated, lang=check_lang(lang))
        self._touch()
        if updated != record:
            self._save(self.table.with_seat(updated))
            self._bots.drop(record.seat)  # a bot held the seat: the person plays on from here
            self.table = self.table.with_seat(updated)
            self._refresh()
        return updated

    def set_name(self, seat: int, name: Any) -> None:
        record = self._seat(seat)
        self._touch()
        self._lobby_change(self.table.with_seat(replace(record, name=clean_name(name))))

    def set_lang(self, seat: int, lang: Any) -> None:
        record = self._seat(seat)
        self._touch()
        self._lobby_change(self.table.with_seat(replace(record, lang=check_lang(lang))))

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
            self._legal.check_version(seat, version, self.version)
        self._check_legal(seat, action)
        if source is not InputSource.BOT:
            self._touch()
        self._accept(seat, action, t_ms)

    # -------------------------------------------------------------- bots (BotSeat, bot_driver.py)
    def bot_legal(self, seat: int) -> list[Any]:
        return self._legal.get(seat) if self.run is not None and self.phase is TablePhase.PLAYING else []

    def bot_view(self, seat: int) -> Any:
        run = self._require_play()
        return run.engine.view(run.state, seat)

    def bot_acts(self, seat: int, action: Any) -> None:
        self._check_legal(seat, action)
        self._accept(seat, action)

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
            self.host_error = HostError(exc.code, str(exc))
            self._publish()
        except JournalError as exc:
            log.error("input %s not applied: %s", event.kind.value, exc)
            self.host_error = HostError("server_error", str(exc))
            self._publish()

    def host_command(self, payload: Any) -> None:
        """A host payload (``{"command": ..., ...}``, see ``lobby.py``); bad ones raise a RulesError."""
        lobby.command_name(payload)
        self._touch()
        self.command(lobby.parse_host_command(payload))

    def command(self, command: lobby.Command) -> None:
        """Carry out a typed host command."""
        match command:
            case lobby.Start():
                self._start()
            case lobby.SkipIntro():
                if self.intro is None:
                    raise IllegalAction("no how-to-play is running")
                self._intro_over()
            case lobby.Next():
                if self.phase is not TablePhase.FINISHED:
                    raise IllegalAction("'next' is for after the game is over")
                self._end_game(self.table)
            case lobby.Abort():
                if self.phase is not TablePhase.PLAYING:
                    raise IllegalAction("no game is in play")
                self._end_game(self.table)
                self._notify(NoticeCode.TABLE_RESET)
            case lobby.Kick(seat):
                self._kick(lobby.offered_seat(self.table, seat))
            case lobby.MapButtons(cancel):
                self._map_buttons(cancel)
            case lobby.AnswerClaim(claim_id, allow):
                self._answer_claim(claim_id, allow)
            case lobby.TableAction(wire):
                self._table_action(wire)
            case _:
                self._lobby_command(command)

    def _lobby_command(self, command: lobby.LobbyCommand) -> None:
        table = lobby.apply_lobby(self.table, command, self._rules)
        if table is self.table and isinstance(command, lobby.SetMode):
            return  # the mode in play already
        engine = self._engines(table.game) if table.game != self.table.game else self.engine
        self._save(table)
        self.table, self.engine = table, engine
        self._refresh()

    def housekeeping(self) -> None:
        """Called every few seconds by the server: journal checkpoint when quiet, kiosk idle reset."""
        if self._journal is not None and self.clock() - self._last_write_ms >= QUIET_MS and self._unfolded:
            self._journal.checkpoint()
            self._unfolded = False
        self.check_idle()

    # ----------------------------------------------------------------------- hand-over (kiosk)
    def check_idle(self) -> None:
        """Kiosk: after ``idle_reset_minutes`` without input, or ``results_s`` after a game ended,
        the table is handed to the next group (:meth:`hand_over`). The scheduler hands over on
        time after the results (``HandOverClock``); this periodic check is the backstop."""
        if not self.policy.hands_over():
            return
        if self.policy.hand_over_due(self.table, self.clock(), self._last_input_ms, self._finished_ms):
            log.info("kiosk: the table is handed to the next group (idle, or its final scores were shown)")
            self.hand_over()

    def hand_over(self) -> None:
        """The next group starts clean: the game (if any) ends, every seat gets a new link and code,
        names, bots and scores are cleared; the old group's phones are told kindly and closed, and
        their links only ever say "this table has a new game"."""
        self.intro = None  # an explanation for the last group is not the next group's game
        if self._intro_handle is not None:
            self._intro_handle.cancel()
            self._intro_handle = None
        self._handover.cancel()
        self._retired.retire(self.table)
        self._retired.save(self._journal)
        self._end_game(replace(self.table, seats=fresh_seats()))
        for seat in range(MAX_SEATS):
            self._revoke(seat, NoticeCode.NEW_GROUP)
        self._connected.clear()
        self._bots.reset_streaks()
        self._notify(NoticeCode.NEW_GROUP)
        self._touch()
        self._publish()

    def _results_shown(self) -> None:
        if self.phase is TablePhase.FINISHED:
            log.info("kiosk: the final scores were shown for %d s; the table is handed to the next group",
                     self.policy.results_ms() // 1000)
            self.hand_over()

    # ------------------------------------------------------------------------ host commands
    def _table_action(self, wire: Any) -> None:
        """The host acts as the table itself (seat ``None``): whatever the engine lets the table do
        now (a companion game's referee: enter points for a player, undo a wrong win)."""
        run = self._require_play()
        action = run.engine.action_from_wire(wire)
        legal = [legal_form(run.engine, a) for a in run.engine.table_actions(run.state)]
        if legal_form(run.engine, action) not in legal:
            raise IllegalAction("the table cannot do that now")
        self._accept(None, action)

    def _start(self) -> None:
        lobby.require_lobby(self.table)
        lobby.check_seat_range(self.engine, self.table.seat_count)
        length = howto.duration_ms(self.table.game) if self.table.table_settings.how_to_play else 0
        if self.intro is not None or not length:
            self._start_game()
            return
        self.intro = Intro(self.table.game, self.clock(), length)
        self._intro_handle = self._scheduler.call_later(length, self._intro_over)
        self._publish()

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
        table = lobby.filled(self.table, self.table.table_settings.default_bot)
        settings = engine.settings_from_wire(table.settings, table.preset)
        seed = self._next_seed()
        n = table.seat_count
        state = engine.new_game(settings, n, seed)
        bots = self._bots.make_all(table, seed)
        table = replace(table, phase=TablePhase.PLAYING)
        game_no = self._begin_game(table, seed, n)
        self.table = replace(table, game_no=game_no)
        self.run = GameRun(game_no, engine, seed, n, state)
        self._bots.seat_all(bots)
        self._refresh(events=engine.events_to_wire(engine.start_events(state)))
        self._notify(NoticeCode.GAME_STARTED)

    def _kick(self, record: SeatRecord) -> None:
        seat, freed, bot = record.seat, record.freed(self.table.codes()), None
        if self.run is not None and self.phase is TablePhase.PLAYING and seat < self.run.n_seats:
            freed = freed.with_bot(self.table.table_settings.default_bot)  # the game goes on
            bot = self._bots.make(self.table.game, seat, self.table.table_settings.default_bot, self.run.seed)
        table = self.table.with_seat(freed)
        self._save(table)
        self._connected.discard(seat)
        self._bots.drop(seat)
        if bot is not None:
            self._bots.seat(seat, bot)
        self._revoke(seat)
        self.table = table
        self._refresh()

    # ------------------------------------------------------------------------ seat claims
    def request_claim(self, seat: int, name: Any = None, lang: Any = None) -> Claim:
        """A phone asks for a held seat; the TV and the host console show the request."""
        self._claims.check_room()
        lobby.offered_seat(self.table, seat)
        claim = self._claims.request(seat, clean_name(name) if name is not None else "",
                                     check_lang(lang) if lang is not None else None)
        self._publish()
        return claim

    def drop_claim(self, claim_id: int) -> None:
        """The asking phone went away: its request disappears from the TV."""
        if self._claims.drop(claim_id) is not None:
            self._publish()

    def give_seat(self, seat: int, claim_id: int) -> None:
        """The seated phone agrees: the phone asking for its seat takes it (as if the host allowed)."""
        claim = self._claims.for_seat(seat, claim_id)
        self._touch()
        self._give_seat(claim)

    def _answer_claim(self, claim_id: int, allow: bool) -> None:
        claim = self._claims.answer(claim_id)
        if not allow:
            self._claims.drop(claim.id)
            self._answer(claim, None)
            self._publish()
            return
        self._give_seat(claim)

    def _give_seat(self, claim: Claim) -> None:
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
        self._bots.drop(claim.seat)
        self.table = table
        others = self._claims.granted(claim)
        if not was_bot:
            self._revoke(claim.seat, NoticeCode.SEAT_MOVED)
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

    def _require_play(self) -> GameRun:
        if self.phase is TablePhase.FINISHED:
            raise GameOver("the game is over")
        if self.run is None or self.phase is not TablePhase.PLAYING:
            raise IllegalAction("no game is in play")
        return self.run

    def _check_legal(self, seat: int, action: Any) -> None:
        self._legal.check(self.run.engine if self.run is not None else None, seat, action)

    # ---------------------------------------------------------------------------- changes
    def _accept(self, seat: int | None, action: Any, t_ms: float | None = None) -> None:
        run = self._require_play()
        if is_timed(action):
            now = self.clock()
            action = replace(action, t_ms=now if t_ms is None else min(now, round(t_ms)))
        new_state, events = run.engine.apply(run.state, seat, action)
        if self._journal is not None:
            self._journal.append_action(run.game_no, seat, run.engine.action_to_wire(action), self.version + 1)
            self._wrote()
        self.run = replace(run, state=new_state)
        self._bots.count_streak(seat)
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
        lobby_table = replace(table, phase=TablePhase.LOBBY, game_no=None)
        self._save(lobby_table)
        self._timer.cancel()
        self._bots.clear()
        self.run = None
        self.last_events = ()
        self.table = lobby_table
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
        request = table_request(run.engine.timer(run.state) if run is not None else None, race)
        previous = self._timer.running
        new_step = request is not None and (previous is None or previous.request.key != request.key)
        if run is None:
            self._legal.clear()
            self._races.sync(None, {}, _no_view)
        else:
            self._legal.refresh(run.engine, run.state, run.n_seats, self.version, actor, new_step)
            self._races.sync(race, self._bots.bots, partial(run.engine.view, run.state))
        self._timer.follow(run.game_no if run is not None else None, request)
        self._bots.schedule(run is not None, self._legal.by_seat)
        self._publish()
        if finished:
            self._notify(NoticeCode.GAME_FINISHED)

    def _check_finished(self) -> bool:
        run = self.run
        if run is None or self.phase is not TablePhase.PLAYING or not run.engine.is_over(run.state):
            return False
        self.table = replace(self.table, phase=TablePhase.FINISHED)
        self._finished_ms = self.clock()
        if self._journal is not None:
            self._journal.save_table(self.table, self.version)
        self._handover.game_finished()
        return True

    def _publish(self) -> None:
        self._presenter.changed()
        self.snapshot = self._presenter.snapshot()
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
        """Two quick presses of a seat's button while no race runs: the engine's
        ``button_action(state, seat, 2)`` (a companion player calls a race from their button)."""
        run = self.run if self.phase is TablePhase.PLAYING else None
        press = button.to_press(None)
        if run is None or press is None or not self._gestures.double(press.seat, press.t_ms):
            return
        action = run.engine.button_action(run.state, press.seat, 2)
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

    def _map_buttons(self, cancel: bool) -> None:
        """Start ("press your button", seat by seat) or ``cancel`` the arcade mapping wizard."""
        self._board.require_connected()
        if cancel:
            self._board.cancel_mapping()
            return
        if self._races.armed:
            raise IllegalAction("not during a race")
        self._board.start_mapping([r.seat for r in self.table.offered])


def _no_view(seat: int) -> Any:
    return None
