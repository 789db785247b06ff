"""What the session shows: the :class:`TableSnapshot` for the big screen and the fields of the
server's messages (``welcome``, ``state``: its common part, each seat's personal part, the timer).

:class:`Presenter` reads the session's typed state through :class:`Shown` (the table record, the
game in play, the board, the races, the claims) and builds both from it; the ``state`` parts are
cached until the next change (:meth:`Presenter.changed`). It never changes anything.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from game import catalog
from game.rules.base import GameEngine, TimerRequest
from game.seating import MAX_SEATS, look

from .arcade import ArcadeBoard
from .claims import Claim
from .intro import Intro
from .lobby import free_seats, has_bots
from .race_floor import RaceFloor
from .seats import MIN_OFFERED_SEATS, SeatRecord, seat_public_json, shown_name
from .snapshot import ExtendedTimers, HostError, LobbyInfo, RunMode, SeatInfo, SeatStatus, TablePhase, TableSnapshot
from .table import TableRecord
from .timers import RunningTimer

__all__ = ["HEARTBEAT_MS", "Presenter", "Shown", "can_start"]

HEARTBEAT_MS = 5000

class Play(Protocol):
    """The game in play (``session.GameRun``)."""

    @property
    def engine(self) -> GameEngine: ...

    @property
    def state(self) -> Any: ...


class Shown(Protocol):
    """The session's state a presenter reads."""

    version: int
    mode: RunMode
    table: TableRecord
    engine: GameEngine
    base_url: str
    last_events: tuple[dict[str, Any], ...]
    event_seq: int
    notices: tuple[str, ...]
    host_error: HostError | None
    clock: Callable[[], int]

    @property
    def run(self) -> Play | None: ...

    @property
    def intro(self) -> Intro | None: ...

    @property
    def timer(self) -> RunningTimer | None: ...

    @property
    def claims(self) -> tuple[Claim, ...]: ...

    def is_connected(self, seat: int) -> bool: ...

    def legal_wire(self, seat: int) -> list[dict[str, Any]]: ...


def can_start(table: TableRecord) -> bool:
    """In the lobby, every offered seat is a bot's or a person's, or the game has bots (free seats
    get them at the start): what Enter on the TV and Start on the host page both do."""
    return table.phase is TablePhase.LOBBY and (free_seats(table) == 0 or has_bots(table.game))


def seat_url(base_url: str, record: SeatRecord) -> str:
    return f"{base_url}/s/{record.token}"


class Presenter:
    def __init__(self, shown: Shown, board: ArcadeBoard, races: RaceFloor) -> None:
        self._s = shown
        self._board = board
        self._races = races
        self._cache: dict[tuple[str, int | bool | None], dict[str, Any]] = {}

    def changed(self) -> None:
        """The table changed: the cached message parts are stale."""
        self._cache.clear()

    # ---------------------------------------------------------------------------- snapshot
    def snapshot(self) -> TableSnapshot:
        s = self._s
        t, run, running = s.table, s.run, self._timer()
        return TableSnapshot(
            version=s.version, mode=s.mode, language=t.language, game=t.game, preset=t.preset,
            settings=dict(t.settings), seats=tuple(self._seat_infos(t)), phase=t.phase,
            public_view=run.engine.view(run.state, None) if run else None,
            events=s.last_events, event_seq=s.event_seq,
            timer=running.info if running else None, clock_ms=s.clock(),
            join_url=f"{s.base_url}/join", spectator_url=f"{s.base_url}/watch",
            notices=s.notices, lobby=self.lobby_info(), arcade=self._board.info(t.arcade_map), race=self._races.info(),
            claims=tuple(c.info(t) for c in s.claims[:1]), how_to_play=s.intro,
        )

    def _seat_infos(self, t: TableRecord) -> Iterable[SeatInfo]:
        # the TV shows a seat's code and link (QR) only while the seat is free: a photo of the
        # TV must never hand anyone a held seat
        for r in t.offered:
            free, seat_look = r.status is SeatStatus.FREE, look(r.seat)
            yield SeatInfo(seat=r.seat, status=r.status, name=shown_name(r, t.language), colour=seat_look.colour,
                           symbol=seat_look.symbol, code=r.code if free else "",
                           url=seat_url(self._s.base_url, r) if free else "",
                           connected=self._s.is_connected(r.seat), language=r.lang or t.language,
                           bot=r.bot.value if r.bot is not None else None)

    def lobby_info(self) -> LobbyInfo:
        s = self._s
        t, engine = s.table, s.engine
        play_mode = catalog.get(t.game).mode if t.game in catalog.ids() else catalog.PlayMode.TABLE
        return LobbyInfo(
            seat_count=t.seat_count, min_seats=max(MIN_OFFERED_SEATS, engine.min_seats),
            max_seats=min(MAX_SEATS, engine.max_seats), can_start=can_start(t),
            presets=tuple(engine.presets()), games=catalog.ids(play_mode),
            play_mode=play_mode.value, play_modes=tuple(m.value for m in catalog.PlayMode if catalog.games(m)),
            table_settings=t.table_settings.to_json(), host_url=f"{s.base_url}/host", host_error=s.host_error,
        )

    # ---------------------------------------------------------------------------- messages
    def lobby_json(self, *, host: bool) -> dict[str, Any]:
        s = self._s
        t, info = s.table, self.lobby_info()
        return {
            "phase": t.phase.value, "game": t.game, "preset": t.preset, "presets": list(info.presets),
            "games": list(info.games), "language": t.language, "mode": s.mode.value,
            "play_mode": info.play_mode, "play_modes": list(info.play_modes),
            "settings": dict(t.settings), "table_settings": dict(info.table_settings),
            "table_setting_choices": {"extended_timers": [e.value for e in ExtendedTimers]},
            "settings_schema": [spec.to_json() for spec in s.engine.settings_schema()],
            "seat_count": t.seat_count, "min_seats": info.min_seats, "max_seats": info.max_seats,
            "can_start": info.can_start, "has_bots": has_bots(t.game), "free_seats": free_seats(t), "arcade": self._board.to_json(t.arcade_map),
            "how_to_play": s.intro is not None,
            "seats": [{**seat_public_json(r, s.is_connected(r.seat), secrets_too=host, base_url=s.base_url),
                       "name": shown_name(r, t.language), "named": bool(r.name)}
                      for r in t.offered],
            **({"claims": [c.to_json(t) for c in s.claims]} if host else {}),
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
            s = self._s
            cached = {
                "version": s.version, "phase": s.table.phase.value,
                "game": s.table.game, "phone": catalog.get(s.table.game).phone,
                "events": list(s.last_events), "event_seq": s.event_seq,
                "lobby": self.lobby_json(host=host),
            }
            if host:
                cached["table_legal"] = self.table_legal_wire()
            self._cache[key] = cached
        return cached

    def table_legal_wire(self) -> list[dict[str, Any]]:
        """What the table itself (the host, as referee) may do now, in wire form."""
        run = self._s.run
        if run is None or self._s.table.phase is not TablePhase.PLAYING:
            return []
        return [run.engine.action_to_wire(a) for a in run.engine.table_actions(run.state)]

    def state_personal(self, seat: int | None) -> dict[str, Any]:
        """``view`` and ``legal`` for a seat (``None``: the public view, nothing legal); cached per change."""
        key = ("seat", seat)
        cached = self._cache.get(key)
        if cached is None:
            run = self._s.run
            cached = {"view": run.engine.view(run.state, seat) if run else None,
                      "legal": self._s.legal_wire(seat) if seat is not None else []}
            self._cache[key] = cached
        return cached

    def timer_json(self) -> dict[str, Any] | None:
        running = self._timer()
        return running.to_json(self._s.clock()) if running else None

    def _timer(self) -> RunningTimer | None:
        """The timer shown: a race's runs from its signal (M14: the TV's flip, its t0), whole while
        it waits for it, not from when the session's timer started (when it was asked for)."""
        live = self._races.current
        if live is None:
            return self._s.timer
        start = self._s.clock() if live.waiting else live.armed_at_ms
        request = TimerRequest(live.timer_key, live.request.timeout_ms, None, live.request.label)
        return RunningTimer(request, round(start + live.request.timeout_ms))

    def welcome_json(self, seat: int | None, role: str) -> dict[str, Any]:
        """The fields of the ``welcome`` message (the server frames it)."""
        s = self._s
        t = s.table
        record = t.seats[seat] if seat is not None else None
        seat_look = look(seat) if seat is not None else None
        return {
            "role": role, "seat": seat, "link": record.token if record else None,
            "token": record.device if record else None, "code": record.code if record else None,
            "colour": seat_look.colour if seat_look else None,
            "colour_name": seat_look.colour_name if seat_look else None,
            "symbol": seat_look.symbol if seat_look else None,
            "name": record.name if record else "", "lang": (record.lang if record else None) or t.language,
            "table_lang": t.language, "game": t.game, "mode": s.mode.value, "server_ms": s.clock(),
            "heartbeat_ms": HEARTBEAT_MS,
        }

    def seat_card(self, seat: int) -> dict[str, Any]:
        """A seat's public face for a phone asking for it: colour, symbol, who holds it."""
        record, seat_look = self._s.table.seats[seat], look(seat)
        return {"seat": seat, "colour": seat_look.colour, "colour_name": seat_look.colour_name,
                "symbol": seat_look.symbol, "name": record.name,
                "bot": record.bot.value if record.bot is not None else None}
