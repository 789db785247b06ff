"""What the session shows: one :class:`~game.session.update.TableUpdate` per change, holding the
:class:`TableSnapshot` for the big screen and what the server's messages are built from.

:class:`Presenter` reads the session's typed state through :class:`Shown` (the table record, the
game in play, the board, the races, the claims) and captures it in the update. It never changes anything.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Generic, Protocol, TypeVar

from game import catalog
from game.rules.base import GameEngine, TimerRequest
from game.seating import MAX_SEATS, look

from .arcade import ArcadeBoard
from .away import AwayRoom
from .claims import Claim, first_per_seat
from .intro import Intro
from .legal import LegalBook
from .lobby import free_seats, has_bots
from .race_floor import RaceFloor
from .seats import MIN_OFFERED_SEATS, SeatRecord, shown_name
from .snapshot import HostError, LobbyInfo, RunMode, SeatInfo, SeatStatus, TablePhase, TableSnapshot
from .table import TableRecord
from .timers import RunningTimer
from .update import HEARTBEAT_MS, Lobby, ShownTimer, TableUpdate, UpdateKind
from .update import Play as PlayNow

__all__ = ["HEARTBEAT_MS", "Presenter", "Shown", "can_start"]

T = TypeVar("T")

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

    @property
    def look(self) -> bool: ...

    @property
    def away(self) -> AwayRoom: ...



def can_start(table: TableRecord, bots: bool) -> bool:
    """In the lobby, every offered seat is a bot's or a person's, or the game has bots (``bots``:
    :func:`has_bots`; free seats get them at the start): what Enter on the TV and Start on the host
    page both do."""
    return table.phase is TablePhase.LOBBY and (free_seats(table) == 0 or bots)


def seat_url(base_url: str, record: SeatRecord) -> str:
    return f"{base_url}/s/{record.token}"


class Kept(Generic[T]):
    """The last value made, made again only when what it is made of changes: ``same`` (immutable
    records, held here and compared by identity: a change makes new ones) or ``equal`` (compared by
    value)."""

    def __init__(self) -> None:
        self._same: tuple[object, ...] = ()
        self._equal: tuple[object, ...] = ()
        self._value: T | None = None

    def get(self, same: tuple[object, ...], equal: tuple[object, ...], make: Callable[[], T]) -> T:
        if self._value is None or self._equal != equal or len(same) != len(self._same) or \
                any(now is not then for now, then in zip(same, self._same)):
            self._value, self._same, self._equal = make(), same, equal
        return self._value


class Presenter:
    def __init__(self, shown: Shown, board: ArcadeBoard, races: RaceFloor, legal: LegalBook) -> None:
        self._s = shown
        self._legal = legal
        self._board = board
        self._races = races
        # the parts of every snapshot that only a new table record (or who is connected, the
        # address, the catalog) changes, kept from the last one: a move in a game leaves the record
        # as it was, and rebuilding them (twelve seats, the settings decoded to ask whether bots can
        # play, the catalog's games and modes) was a tenth of a millisecond of each move on the
        # players' path
        self._seats: Kept[tuple[SeatInfo, ...]] = Kept()
        self._lobby: Kept[LobbyInfo] = Kept()
        self._last: TableUpdate | None = None  # the last update: its lobby parts serve the next when unchanged

    # ---------------------------------------------------------------------------- snapshot
    def snapshot(self, shown: ShownTimer | None = None) -> TableSnapshot:
        s = self._s
        t, run, now = s.table, s.run, s.clock()
        running = self._timer() if shown is None else shown
        return TableSnapshot(
            version=s.version, mode=s.mode, language=t.language, game=t.game, preset=t.preset,
            settings=dict(t.settings), seats=self._seat_infos(t), phase=t.phase,
            public_view=run.engine.view(run.state, None) if run else None,
            events=s.last_events, event_seq=s.event_seq,
            timer=running.info(now) if running else None, clock_ms=now,
            join_url=f"{s.base_url}/join", spectator_url=f"{s.base_url}/watch",
            notices=s.notices, lobby=self.lobby_info(), arcade=self._board.info(t.arcade_map), race=self._races.info(),
            claims=tuple(c.info(t, others) for c, others in first_per_seat(s.claims)[:1]), how_to_play=s.intro,
        )

    def _seat_infos(self, t: TableRecord) -> tuple[SeatInfo, ...]:
        """The offered seats as the TV shows them (the last ones again for the same record, address
        and connections)."""
        base_url, connected = self._s.base_url, tuple(self._s.is_connected(r.seat) for r in t.offered)
        return self._seats.get((t,), (base_url, connected), lambda: tuple(self._build_seat_infos(t, base_url, connected)))

    @staticmethod
    def _build_seat_infos(t: TableRecord, base_url: str, connected: tuple[bool, ...]) -> Iterable[SeatInfo]:
        # the TV shows a seat's code and link (QR) only while the seat is free: a photo of the
        # TV must never hand anyone a held seat
        for r, on in zip(t.offered, connected):
            free, seat_look = r.status is SeatStatus.FREE, look(r.seat)
            yield SeatInfo(seat=r.seat, status=r.status, name=shown_name(r, t.language), colour=seat_look.colour,
                           symbol=seat_look.symbol, code=r.code if free else "",
                           url=seat_url(base_url, r) if free else "",
                           connected=on, language=r.lang or t.language,
                           bot=r.bot.value if r.bot is not None else None)

    def lobby_info(self) -> LobbyInfo:
        s = self._s
        return self._lobby.get((s.table, s.engine), (s.base_url, s.host_error, catalog.changes()), self._lobby_info)

    def _lobby_info(self) -> LobbyInfo:
        s = self._s
        t, engine = s.table, s.engine
        play_mode = catalog.get(t.game).mode if t.game in catalog.ids() else catalog.PlayMode.TABLE
        bots = has_bots(t, engine)
        return LobbyInfo(
            seat_count=t.seat_count, min_seats=max(MIN_OFFERED_SEATS, engine.min_seats),
            max_seats=min(MAX_SEATS, engine.max_seats), can_start=can_start(t, bots), has_bots=bots,
            presets=tuple(engine.presets()), games=catalog.ids(play_mode),
            play_mode=play_mode.value, play_modes=tuple(m.value for m in catalog.PlayMode if catalog.games(m)),
            table_settings=t.table_settings.to_json(), host_url=f"{s.base_url}/host", host_error=s.host_error,
        )

    # ------------------------------------------------------------------------------ update
    def update(self, kind: UpdateKind = UpdateKind.TABLE) -> TableUpdate:
        """The change as every listener gets it (``update.py``): built once, shared by all."""
        s, timer = self._s, self._timer()
        snapshot = self.snapshot(timer)
        t, run = s.table, s.run
        play = PlayNow(run.engine, run.state, self._legal.wires()) if run is not None else None
        connected = frozenset(r.seat for r in t.seats if s.is_connected(r.seat))
        lobby = Lobby(t, s.engine, s.mode, s.base_url, connected, self._board.to_json(t.arcade_map), s.claims,
                      s.away.questions())
        update = TableUpdate(kind, snapshot, timer, lobby, play, look=s.look)
        if self._last is not None:
            update.keep_lobby_of(self._last)
        self._last = update
        return update

    def _timer(self) -> ShownTimer | None:
        """The timer shown: a race's runs from its signal (M14: the TV's flip, its t0), whole while
        it waits for it, not from when the session's timer started (when it was asked for)."""
        live = self._races.current
        if live is None:
            running = self._s.timer
            return ShownTimer(running.request, running.deadline_ms) if running is not None else None
        request = TimerRequest(live.timer_key, live.request.timeout_ms, None, live.request.label)
        return ShownTimer(request, None if live.waiting else round(live.armed_at_ms + live.request.timeout_ms))
