"""The table session: the one writer of the table's state.

It runs on the asyncio loop thread and holds the lobby record, the game in play, its timer and bots.
Every input goes through :meth:`Session.submit_action` / :meth:`Session.host_command` /
:meth:`Session.handle_input`; an accepted change is journaled first, then one immutable
:class:`TableUpdate` is built and handed to every listener (the WebSocket hub, the TV's link).

Its rooms: the host's commands and the lobby's rules (``lobby.py``), the seat-claim queue
(``claims.py``), the bots (``bot_driver.py``), each seat's legal actions (``legal.py``), what
differs between a host's table and a kiosk (``policy.py``), what is shown (``presenter.py``), the
races (``race_floor.py``) and the arcade board (``arcade.py``).
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from game.catalog import get_engine
from game.config import TableConfig
from game.rules.base import GameEngine, IllegalAction, RulesError, TimerRequest, UnknownSeat, check_seat
from game.seating import MAX_SEATS

from . import claims, lobby
from .arcade import ARCADE_UNPLUGGED, ArcadeBoard, ArcadeButtons, ArcadeLink, device_input
from .away import AwayRoom, AwayWatch
from .bot_driver import BotDriver
from .bots import BotFactory, default_bot_factory
from .claims import Claim, ClaimEnd, ClaimQueue, ClaimRank, HandedOver, check_lang
from .intro import HowToPlay
from .journal import Journal, JournalError, Saved, TableWrites
from .legal import LegalBook, is_timed, legal_form
from .listeners import ClaimListener, Listeners, NoticeCode, SessionListener
from .lobby import ADMIN_PIN_DIGITS, HostCommand
from .news import NewsGate, TvReport
from .policy import RETIRED_TOKENS, HandOverClock, RetiredLinks, TablePolicy, policy_for
from .presenter import Presenter
from .race_floor import BoardButton, PressInput, PressSource, PressVerdict, RaceFloor, no_view
from .reads import TableReads
from .run import GameRun, game_seed, replay, require_play
from .scheduler import LoopScheduler, Scheduler, session_ms, wall_ms
from .seats import SeatRecord, clean_name
from .snapshot import FINAL_SCENE, HostError, InputEvent, InputKind, InputSource, RunMode, TablePhase, TableSnapshot
from .table import TableRecord
from .timers import TableTimer, table_request
from .update import TableUpdate, UpdateKind

log = logging.getLogger(__name__)

HOUSEKEEPING_S = 5.0

__all__ = ["ADMIN_PIN_DIGITS", "ARCADE_UNPLUGGED", "HOUSEKEEPING_S", "RETIRED_TOKENS", "Claim", "ClaimListener",
           "GameRun", "HandedOver", "HostCommand", "NoticeCode", "Session", "SessionListener", "UnknownSeat"]


class Session(TableReads):
    """One table. Create it with :meth:`boot` on the running loop. What it answers without changing
    anything is in ``reads.py``."""

    def __init__(self, config: TableConfig, journal: Journal | None, table: TableRecord, *,
                 engines: Callable[[str], GameEngine] = get_engine, bot_factory: BotFactory = default_bot_factory,
                 clock: Callable[[], int] = session_ms, scheduler: Scheduler | None = None,
                 wall: Callable[[], int] = wall_ms, bot_delay_scale: float = 1.0) -> None:
        self.config = config
        self.mode: RunMode = config.mode
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
        self._journal = journal
        self._writes = TableWrites(journal, clock)
        self._rules = lobby.LobbyRules(engines, self.policy)
        self._scheduler = scheduler if scheduler is not None else LoopScheduler()
        self._timer = TableTimer(clock, self._scheduler, self._timer_expired, wall, journal)
        self._listeners = Listeners()
        self._legal = LegalBook()
        self._connected: set[int] = set()
        self._claims = ClaimQueue(scheduler=self._scheduler, ended=self._claim_ended, clock=clock)
        self._bots = BotDriver(bot_factory, self._scheduler, view=self._seat_view, act=self._bot_acts, choices=self._legal,
                               version=self._version, delay_scale=bot_delay_scale)
        self._last_input_ms = clock()
        self._handover = HandOverClock(self.policy, self._scheduler, self.hand_over, partial(self._phase_is, TablePhase.FINISHED),
                                       clock=clock, wall=wall, journal=journal)
        self._retired = RetiredLinks()
        watch = AwayWatch(self.policy.away_free_ms(), self._scheduler, clock, self._publish)  # a kiosk's walked-away phones
        self.away = AwayRoom(watch, lambda: self.table, self._connected, partial(self._phase_is, TablePhase.PLAYING),
                             free=self._free_away, changed=self._publish)
        self._howto = HowToPlay(clock, self._scheduler, start=self._start_game, changed=self._publish, in_lobby=partial(self._phase_is, TablePhase.LOBBY))
        self._board = ArcadeBoard(changed=self._publish, pressed=self._button_down, notice_on=self.add_notice,
                                  notice_off=self._clear_notice, mapped=self._save_button_map, pad_map=table.pad_map)
        self._races = RaceFloor(clock, self._scheduler, self._board, touched=self._touch, changed=self._publish,
                                decided=self._race_decided, bot_delay_scale=bot_delay_scale)
        self._news = NewsGate(self._scheduler, self._publish)  # the phones wait for the TV to tell the news
        self._buttons = ArcadeButtons(self._races, partial(self._phase_is, TablePhase.PLAYING), self._gesture)
        # what is shown (presenter.py): one TableUpdate per change, the big screen's snapshot in it
        self._presenter = Presenter(self, self._board, self._races, self._legal)
        self.update: TableUpdate = self._presenter.update()
        self.snapshot: TableSnapshot = self.update.snapshot

    # ---------------------------------------------------------------------------- creation
    @classmethod
    def boot(cls, config: TableConfig, journal: Journal | None, saved: Saved | None, **kw: Any) -> Session:
        """A fresh table, or the table ``saved`` in the journal with its game replayed.
        Raises (RulesError, KeyError, ValueError, ImportError) when ``saved`` cannot be replayed."""
        if saved is None:
            config, table = lobby.new_table(config, kw.get("engines", get_engine), policy_for(config))
            session = cls(config, journal, table, **kw)
            session._writes.table(table, session.version, counts=False)
            return session
        session = cls(config, journal, saved.table, **kw)
        session._resume(saved)
        return session

    def _resume(self, saved: Saved) -> None:
        table = saved.table
        self.version = saved.version
        if self.config.admin_pin and self.config.admin_pin != table.admin_pin:
            table = replace(table, admin_pin=self.config.admin_pin)
            self._writes.table(table, self.version, counts=False)
        self.table = table
        self._retired = RetiredLinks(saved.retired)
        if saved.game is not None and table.phase is not TablePhase.LOBBY:  # the game in play, replayed
            replayed = replay(saved, self._rules.engines(saved.game.game))
            self.run, self.engine = replayed.run, replayed.run.engine
            self.last_events, self.event_seq = replayed.events, replayed.event_seq
            self._bots.seat_all(self._bots.make_all(self.table, replayed.run.seed))
            self._timer.resumed = saved.timer  # a restarted game picks its timer up
            self._handover.resume(saved.timer, table)  # restarted at the results: the hand-over's time left
            self.away.game_on()  # until each phone is back
        elif table.phase is not TablePhase.LOBBY:
            self.table = replace(table, phase=TablePhase.LOBBY, game_no=None)
        self._refresh(bump=False)

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

    def set_base_url(self, url: str) -> None:  # open pages (host console, spectators) hear of a change
        url = url.rstrip("/")
        if url != self.base_url:
            self.base_url = url
            self._publish()

    def close(self) -> None:
        """Stop the timer and the bots (the loop is going away)."""
        self._howto.stop()
        self._handover.cancel()
        self._timer.cancel()
        self._bots.cancel()
        self._races.close()

    def _seat_view(self, seat: int) -> dict[str, Any]:  # the helpers' questions: named, not lambdas
        return self._require_play().view(seat)

    def _version(self) -> int:
        return self.version

    def _phase_is(self, phase: TablePhase) -> bool:
        return self.phase is phase

    def _button_down(self, button: BoardButton) -> None:
        self._buttons.down(button)

    # ------------------------------------------------------------------------ phone inputs
    def join_seat(self, token: str, name: Any = None, lang: Any = None) -> SeatRecord:
        """A phone says hello with ``token`` (:func:`claims.join`): the seat it takes. A held seat
        (or a bot's mid-game) raises :class:`AskHost`: only the host hands it over (a claim)."""
        record, updated = claims.join(self.table, token, name, lang, self._retired)
        self._touch()
        if updated != record:
            self._save(self.table.with_seat(updated))
            self._bots.drop(record.seat)  # a bot held the seat: the person plays on from here
            self.table = self.table.with_seat(updated)
            self._refresh()
        return updated

    def set_name(self, seat: int, name: Any) -> None:
        record = lobby.any_seat(self.table, seat)
        self._touch()
        name = clean_name(name, claims.names_beside(self.table, seat))
        if name == record.name:
            return  # the same name again: no version, no journal row, no broadcast
        self._lobby_change(self.table.with_seat(replace(record, name=name)))

    def set_lang(self, seat: int, lang: Any) -> None:
        record = lobby.any_seat(self.table, seat)
        self._touch()
        self._lobby_change(self.table.with_seat(replace(record, lang=check_lang(lang))))

    def set_connected(self, seat: int, connected: bool) -> None:
        """Presence only: not journaled and does not grow the version."""
        if connected == (seat in self._connected):
            return
        (self._connected.add if connected else self._connected.discard)(seat)
        self.away.presence(seat, connected)
        self._publish()

    def submit_action(self, seat: int, wire: Any, version: int | None,
                      source: InputSource = InputSource.PHONE, t_ms: float | None = None) -> None:
        """Check and apply a seat's wire action; raises a RulesError and changes nothing on bad input.
        ``t_ms``: when it happened on the session clock (a phone's clock sync), else its arrival."""
        run = self._require_play()
        check_seat(seat, run.n_seats)
        action = run.engine.action_from_wire(wire)
        if version is not None:
            self._legal.check_version(seat, version, self.version)
        self._check_legal(seat, action)
        if source is not InputSource.BOT:
            self._touch()
        self._accept(seat, action, t_ms)

    # ------------------------------------------------------------------------ other inputs
    def handle_input(self, event: InputEvent) -> None:
        """An input from the renderer's thread (keyboard, arcade, the TV's signal, pads), delivered on the loop."""
        try:
            if event.kind is InputKind.HOST:
                self.host_command(event.payload)
            elif event.kind is InputKind.GAME_ACTION:
                if event.seat is None:
                    raise UnknownSeat("a game action needs a seat")
                self.submit_action(event.seat, event.payload.get("action"), None, event.source)
            elif event.kind is InputKind.PRESS:
                press = PressInput.of(event)
                self.press(press.seat, press.t_ms, press.source, error_ms=press.error_ms, race=press.race)
            elif event.kind is InputKind.SHOWN:
                self.screen_shows(str(event.payload.get("scene", "")))
                return  # what the TV shows is no one's input: an error shown stays, the idle clock runs on
            elif event.kind is InputKind.TOLD:
                self._news.report(TvReport.of(event.payload))
                return  # the TV's progress, no one's input either
            elif not device_input(event, self._board, self._races):  # the TV's race signal, USB pads
                raise IllegalAction(f"{event.kind.value} inputs are not handled by this table")
            self.host_error = None
        except (RulesError, JournalError) as exc:
            if isinstance(exc, RulesError):
                log.info("input %s refused: %s (%s)", event.kind.value, exc, exc.code)
            else:
                log.error("input %s not applied: %s", event.kind.value, exc)
            self.host_error = HostError(exc.code if isinstance(exc, RulesError) else "server_error", str(exc))
            self._publish()

    def screen_shows(self, scene: str) -> None:
        """The TV shows ``scene``, its animations done: the final scores start a kiosk's results time."""
        if scene == FINAL_SCENE and self.phase is TablePhase.FINISHED:
            self._handover.results_shown()

    def host_command(self, payload: Any) -> None:
        """A host payload (``{"command": ..., ...}``, see ``lobby.py``); bad ones raise a RulesError."""
        name = lobby.command_name(payload)
        self._touch()  # a named command, even with bad fields, is someone at the table
        self.command(lobby.parse_host_command(payload, name))

    def command(self, command: lobby.Command) -> None:
        """Carry out a typed host command."""
        match command:
            case lobby.Start():
                self._start()
            case lobby.SkipIntro():
                self._howto.skip()
            case lobby.Next() | lobby.NewPlayers():  # the final screen's two choices
                lobby.require_phase(self.table, TablePhase.FINISHED, "the final screen's choices are for after the game")
                self._end_game(self.table) if isinstance(command, lobby.Next) else self.hand_over()
            case lobby.Abort():
                lobby.require_phase(self.table, TablePhase.PLAYING, "no game is in play")
                self._end_game(self.table)
                self._listeners.notice(NoticeCode.TABLE_RESET)
            case lobby.Kick(seat):
                self._kick(lobby.offered_seat(self.table, seat))
            case lobby.MapButtons(cancel):
                self._board.map_buttons([r.seat for r in self.table.offered], cancel=cancel, racing=self._races.armed)
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
        engine = self._rules.engines(table.game) if table.game != self.table.game else self.engine
        self._save(table)
        self.table, self.engine = table, engine
        self._refresh()

    def housekeeping(self) -> None:
        """Called every few seconds by the server: journal checkpoint when quiet, kiosk idle reset."""
        self._writes.checkpoint_if_quiet()
        self.check_idle()

    # ----------------------------------------------------------------------- hand-over (kiosk)
    def check_idle(self) -> None:
        """Kiosk: the backstop of ``HandOverClock`` (idle for ``idle_reset_minutes``, or the results shown)."""
        due = self.policy.hand_over_due(self.table, self.clock(), self._last_input_ms, self._handover.results_since_ms)
        if self.policy.hands_over() and due:
            log.info("kiosk: the table is handed to the next group (%s)", "results shown" if self.table.phase is TablePhase.FINISHED else "idle")
            self.hand_over()

    def hand_over(self) -> None:
        """The next group starts clean at the café's opening table (:func:`lobby.next_group_table`);
        the old group's phones are told kindly and closed, their links only say "a new game"."""
        self._howto.clear()  # an explanation for the last group is not the next group's game
        self._handover.cancel()
        self._retired.retire(self.table)
        self._retired.save(self._journal)
        table = lobby.next_group_table(self.config, self._rules.engines, self.policy, self.table)
        self.engine = self._rules.engines(table.game) if table.game != self.table.game else self.engine
        for seat in range(MAX_SEATS):  # first: the old phones never get a frame of the next group's table
            self._listeners.seat_revoked(seat, NoticeCode.NEW_GROUP)
        self._connected.clear()
        self._end_game(table)
        self._claims.clear()  # the last group's requests: their phones hear of the new group
        self._bots.reset_streaks()
        self._listeners.notice(NoticeCode.NEW_GROUP)
        self._touch()
        self._publish()

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
        lobby.check_startable(self.engine, self.table)  # seats, people, and the engine's own refusal
        if self.intro is not None or not self._howto.begin(self.table):
            self._start_game()
            return
        self._publish()

    def _start_game(self) -> None:
        self._howto.clear()
        engine = self.engine
        table = lobby.ready_to_start(self.table, engine)  # free seats: the default bot, where the game has bots
        settings = engine.settings_from_wire(table.settings, table.preset)
        seed = game_seed(self.config.seed, self.table.game_no)
        n = table.seat_count
        state = engine.new_game(settings, n, seed)
        bots = self._bots.make_all(table, seed)
        table = replace(table, phase=TablePhase.PLAYING)
        game_no = self._writes.begin_game(table, seed, n, self.version + 1)
        self.table = replace(table, game_no=game_no)
        self.run = GameRun(game_no, engine, seed, n, state)
        self._bots.seat_all(bots)
        self.away.game_on()
        self._refresh(events=engine.events_to_wire(engine.start_events(state)))
        self._listeners.notice(NoticeCode.GAME_STARTED)

    def _free_away(self, seat: int) -> None:  # the other players freed it (away.py)
        self._touch()
        self._kick(lobby.offered_seat(self.table, seat))

    def _kick(self, record: SeatRecord) -> None:
        seat, run, bot = record.seat, self.run if self.phase is TablePhase.PLAYING else None, None
        table = self.table.with_seat(lobby.kicked(self.table, self.engine, record, run.n_seats if run is not None else 0))
        if run is not None and seat < run.n_seats and lobby.has_bots(self.table, self.engine):  # the game goes on with a bot
            bot = self._bots.make(self.table.game, seat, self.table.table_settings.default_bot, run.seed)
        self._save(table)
        self._connected.discard(seat)
        self.away.watch.back(seat)
        self._bots.drop(seat)
        if bot is not None:
            self._bots.seat(seat, bot)
        self._listeners.seat_revoked(seat)
        self.table = table
        self._refresh()

    # ------------------------------------------------------------------------ seat claims
    def request_claim(self, seat: int, name: Any = None, lang: Any = None, asker: str = "", rank: ClaimRank = ClaimRank.OTHER) -> Claim:
        """A phone (``asker``: its address, ``rank``: its evidence) asks for a held seat (``claims.py``)."""
        claim = self._claims.ask(self.table, seat, name, lang, asker, self._connected, rank)
        self._publish(claims_only=True)
        return claim

    def drop_claim(self, claim_id: int) -> None:
        """The asking phone went away: its request disappears from the TV."""
        self._claims.drop(claim_id)

    def _claim_ended(self, claim: Claim, why: ClaimEnd) -> None:
        self._listeners.claim_ended(claim, why)
        self._publish(claims_only=True)

    def give_seat(self, seat: int, claim_id: int) -> None:
        """The seated phone agrees: the phone asking for its seat takes it (as if the host allowed)."""
        claim = self._claims.for_seat(seat, claim_id)
        self._touch()
        self._give_seat(claim, NoticeCode.SEAT_GIVEN)

    def _answer_claim(self, claim_id: int, allow: bool) -> None:
        if allow:
            self._give_seat(self._claims.asking(claim_id))
            return
        self._listeners.claim_answered(self._claims.refuse(claim_id), None)
        self._publish(claims_only=True)

    def _give_seat(self, claim: Claim, reason: NoticeCode = NoticeCode.SEAT_MOVED) -> None:
        """The host allowed ``claim``: the seat moves to the new phone with a new link, code and
        device key; its old phone is told, the other requests for it are refused."""
        record, updated = self.table.seats[claim.seat], claims.granted_record(self.table, claim)
        table = self.table.with_seat(updated)
        self._save(table)
        was_bot = record.bot is not None
        self._bots.drop(claim.seat)
        self.table = table
        others = self._claims.granted(claim)
        if not was_bot:
            self._listeners.seat_revoked(claim.seat, reason)
        self._refresh()  # the new phone is welcomed from this change's update
        self._listeners.claim_answered(claim, updated)
        for other in others:
            self._listeners.claim_answered(other, None)

    # ----------------------------------------------------------------------------- checks
    def _bot_acts(self, seat: int, action: Any) -> None:
        self._check_legal(seat, action)
        self._accept(seat, action)

    def _require_play(self) -> GameRun:
        return require_play(self.run, self.phase)

    def _check_legal(self, seat: int, action: Any) -> None:
        self._legal.check(self.run.engine if self.run is not None else None, seat, action)

    # ---------------------------------------------------------------------------- changes
    def _accept(self, seat: int | None, action: Any, t_ms: float | None = None) -> None:
        run = self._require_play()
        if is_timed(action):
            now = self.clock()
            action = replace(action, t_ms=now if t_ms is None else min(now, round(t_ms)))
        new_state, events = run.engine.apply(run.state, seat, action)
        self._writes.action(run.game_no, seat, run.engine.action_to_wire(action), self.version + 1)
        self.run = replace(run, state=new_state)
        self._bots.count_streak(seat)
        self._refresh(events=run.engine.events_to_wire(events), actor=seat)

    def _lobby_change(self, table: TableRecord) -> None:
        self._save(table)
        self.table = table
        self._refresh()

    def _save(self, table: TableRecord) -> None:
        """Journal the table as the next version (before anything changes in memory)."""
        self._writes.table(table, self.version + 1)

    def _end_game(self, table: TableRecord) -> None:
        """Back to the lobby with ``table``'s seats: the game is dropped, bots stay seated."""
        lobby_table = replace(table, phase=TablePhase.LOBBY, game_no=None)
        self._save(lobby_table)
        self._timer.cancel()
        self._bots.clear()
        self.away.watch.clear()
        self._news.clear()
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
            self._news.batch(self.event_seq, events, self.engine.news_events, self._races.screen)
        finished = self._check_finished()
        run = self.run if self.phase is TablePhase.PLAYING else None
        race = run.engine.race(run.state) if run is not None else None
        request = table_request(run.engine.timer(run.state) if run is not None else None, race,
                                self.table.table_settings.extended_timers.factor)
        previous = self._timer.running
        new_step = request is not None and (previous is None or previous.request.key != request.key)
        if run is None:
            self._legal.clear()
            self._races.sync(None, {}, no_view)
        else:
            self._legal.refresh(run.engine, run.state, run.n_seats, self.version, actor, new_step)
            self._races.sync(race, self._bots.bots, run.view)
        self._timer.follow(run.game_no if run is not None else None, request)
        self._bots.schedule(run is not None, self._legal.by_seat)
        self._publish()
        if finished:
            self._listeners.notice(NoticeCode.GAME_FINISHED)

    def _check_finished(self) -> bool:
        run = self.run
        if run is None or self.phase is not TablePhase.PLAYING or not run.engine.is_over(run.state):
            return False
        self.table = replace(self.table, phase=TablePhase.FINISHED)
        self._writes.table(self.table, self.version, counts=False)
        self._handover.game_finished(self.table.game_no)
        return True

    def _publish(self, *, claims_only: bool = False) -> None:
        """One update for every listener. ``claims_only``: only the seat claims changed (the TV and
        host consoles show them, no seat's state)."""
        self.update = self._presenter.update(UpdateKind.CLAIMS if claims_only else UpdateKind.TABLE)
        self.snapshot = self.update.snapshot
        self._listeners.updated(self.update)

    def _touch(self) -> None:
        self._last_input_ms = self.clock()

    # -------------------------------------------------------------------- timer, races, arcade
    def _timer_expired(self, request: TimerRequest) -> None:
        if self._races.expire(request.key) or request.on_expiry is None:
            return
        self._table_acts(None, request.on_expiry, f"timer {request.key}:")

    def _table_acts(self, seat: int | None, action: Any, what: str, *, checked: bool = False,
                    level: int = logging.WARNING) -> bool:
        """Apply an action the table made itself (a timer's expiry, a race's result, a button
        gesture): a refusal or a journal failure is logged (no one's message to answer). Applied?"""
        try:
            if checked and seat is not None:
                self._check_legal(seat, action)
                self._touch()
            self._accept(seat, action)
            return True
        except RulesError as exc:
            log.log(level, "%s refused by the engine: %s", what, exc)
        except JournalError as exc:
            log.error("%s not applied: %s", what, exc)
        return False
    def press(self, seat: int, t_ms: float, source: PressSource, *, error_ms: float = 0.0,
              race: int | str | None = None, clamped: bool = False) -> PressVerdict:
        """A race press from any source, already on the session clock (see ``race_floor.py``). ``race``:
        the key of the race it was meant for (``None``: the armed one); ``clamped``: its time was held to the
        server's bound (M16). Returns the judge's verdict; the race is decided on the session's scheduler."""
        check_seat(seat, self.table.seat_count)
        return self._races.press(seat, t_ms, source, error_ms=error_ms, race=race, clamped=clamped)

    def _race_decided(self, action: Any) -> None:
        """Apply the table's action the engine made of a race's presses (journaled like any action)."""
        if self.run is not None and not self._table_acts(None, action, f"race result {action}", level=logging.ERROR):
            self._publish()
    def attach_arcade(self, bridge: ArcadeLink) -> None:
        """Use an arcade board for races (and restore the journaled button mapping)."""
        self._board.attach(bridge, self.table.arcade_map)

    def _gesture(self, seat: int) -> None:
        """A double press of ``seat``'s button while no race runs: the engine's ``button_action``."""
        run = self.run
        action = run.engine.button_action(run.state, seat, 2) if run is not None else None
        if action is not None:
            self._table_acts(seat, action, f"button gesture of seat {seat}", checked=True, level=logging.INFO)

    def _clear_notice(self, key: str) -> None:
        self.notices = tuple(n for n in self.notices if n != key)
        self._publish()

    def _save_button_map(self, **maps: Any) -> None:
        table = replace(self.table, **maps)  # arcade_map= (the board's wizard) or pad_map= (the pads')
        try:
            self._lobby_change(table)
        except JournalError as exc:
            log.error("button mapping not saved: %s", exc)
