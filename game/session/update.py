"""One change of the table, as its listeners get it: a :class:`TableUpdate`.

The session builds one update per change (``presenter.py``) and hands the same object to every
listener: the WebSocket hub encodes each audience's ``state`` frame from it, the TV's link sends
its snapshot, the kiosk's keeper reads its notices. Nothing calls back into the session to build
a frame. The update is immutable: it holds the change's own values (the table record, the game
state, each seat's legal actions, the shown timer), and the parts derived from them (the lobby's
JSON, a seat's view) are built at most once, the first time an audience needs them — the public
view once per change, shared by the TV's snapshot and every seat's frame.
"""
from __future__ import annotations

import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from game import catalog
from game.rules.base import GameEngine, TimerRequest
from game.rules.schema import SettingUnit
from game.seating import look

from .away import AwaySeat
from .claims import Claim, first_per_seat
from .lobby import free_seats
from .seats import SeatRecord, seat_public_json, shown_name
from .snapshot import ExtendedTimers, RaceInfo, RunMode, TablePhase, TableSnapshot, TimerInfo
from .table import TableRecord

__all__ = ["HEARTBEAT_MS", "SeatPart", "ShownTimer", "TableUpdate", "UpdateKind"]

HEARTBEAT_MS = 5000

JSON = dict[str, Any]


@functools.cache
def schema_json(engine: GameEngine) -> tuple[JSON, ...]:
    """An engine's settings schema as JSON (the same for every change: engines are singletons)."""
    return tuple(spec.to_json() for spec in engine.settings_schema())


@functools.cache
def seat_setting_keys(engine: GameEngine) -> tuple[str, ...]:
    """The settings whose value is a seat (a phone names that seat instead of showing its index)."""
    return tuple(spec.key for spec in engine.settings_schema() if spec.unit is SettingUnit.SEAT)


class UpdateKind(enum.Enum):
    TABLE = "table"  # anything may have changed: every seat, host link and spectator hears of it
    CLAIMS = "claims"  # only the open seat claims: the TV and the host consoles show them


@dataclass(frozen=True, slots=True)
class ShownTimer:
    """The timer as shown: the game's, or a race's from its signal (M14: the TV's flip is its t0)."""

    request: TimerRequest
    deadline_ms: int | None  # None: a race waiting for its signal, shown whole

    def info(self, now_ms: int) -> TimerInfo:
        r = self.request
        return TimerInfo(key=r.key, label=r.label, duration_ms=r.duration_ms, deadline_ms=self._deadline(now_ms))

    def _deadline(self, now_ms: int) -> int:
        return now_ms + self.request.duration_ms if self.deadline_ms is None else self.deadline_ms

    def to_json(self, now_ms: int) -> JSON:
        r = self.request
        deadline = self._deadline(now_ms)
        return {"key": r.key, "label": r.label, "duration_ms": r.duration_ms,
                "remaining_ms": max(0, deadline - now_ms), "deadline_ms": deadline}


class Part(enum.Enum):
    """The parts an update builds once, each kept under ``(part, what it depends on)``."""

    COMMON = "common"  # an audience's shared part of ``state``
    SEAT = "seat"  # a seat's own view and legal actions
    LOBBY = "lobby"  # the lobby's JSON, with or without the seat codes
    PHONE = "phone"  # the game's phone module

    @property
    def lobby_only(self) -> bool:
        """Made of the lobby alone: the same in the next change when it left the lobby as it was."""
        return self in (Part.LOBBY, Part.PHONE)


@dataclass(frozen=True, slots=True)
class SeatPart:
    """What one seat's ``state`` adds to the shared part: its own view and legal actions."""

    view: JSON | None
    legal: list[JSON]
    own: JSON | None = None  # set when ``view`` is the public view plus these keys (``GameEngine.own_view``)

    def to_json(self) -> JSON:
        return {"view": self.view, "legal": self.legal}


@dataclass(frozen=True, slots=True)
class Play:
    """The game in play at this change (its state is immutable, so a view built later is this change's)."""

    engine: GameEngine
    state: Any
    legal: Mapping[int, list[JSON]]  # each seat's legal actions, wire form


@dataclass(frozen=True, slots=True)
class Lobby:
    """What the lobby part of ``state`` is made of at this change."""

    table: TableRecord
    engine: GameEngine
    mode: RunMode
    base_url: str
    connected: frozenset[int]
    arcade: JSON
    claims: tuple[Claim, ...]
    away: tuple[AwaySeat, ...] = ()  # seats the other players may free (away.py)


@dataclass(frozen=True, eq=False)
class TableUpdate:
    """One change: version, events, the TV's snapshot (public view, seats, timer, race, claims), and
    what every phone's ``state`` is built from (the shared part per audience, each seat's own)."""

    kind: UpdateKind
    snapshot: TableSnapshot
    timer: ShownTimer | None
    lobby: Lobby
    play: Play | None
    look: bool = False  # the phones wait for the TV to show this batch's news ("Look at the screen": news.py)
    _built: dict[tuple[Part, Any], Any] = field(default_factory=dict, repr=False)  # parts built once, on first need

    @property
    def version(self) -> int:
        return self.snapshot.version

    @property
    def events(self) -> tuple[JSON, ...]:
        return self.snapshot.events

    @property
    def public_view(self) -> JSON | None:
        return self.snapshot.public_view

    @property
    def race(self) -> RaceInfo:
        return self.snapshot.race

    @property
    def table(self) -> TableRecord:
        return self.lobby.table

    def keep_lobby_of(self, earlier: TableUpdate) -> None:
        """Take ``earlier``'s lobby parts when this change left the lobby as it was (a move in a
        game leaves the record, the connections and the rest alone): twelve seats' JSON, twice,
        were made again at every move on the players' path."""
        if not same_lobby(self, earlier):
            return
        for key, part in earlier._built.items():
            if key[0].lobby_only:
                self._built.setdefault(key, part)

    def _once(self, key: tuple[Part, Any], build: Any) -> Any:
        built = self._built.get(key)
        if built is None:
            built = self._built[key] = build()
        return built

    # ---------------------------------------------------------------------- state message
    def common(self, *, host: bool) -> JSON:
        """The part of ``state`` every socket of an audience shares (host links: with seat codes)."""
        return self._once((Part.COMMON, host), lambda: self._common(host))

    def _common(self, host: bool) -> JSON:
        snap, t = self.snapshot, self.lobby.table
        phone = self._once((Part.PHONE, t.game), lambda: catalog.get(t.game).phone)
        out = {"version": snap.version, "phase": t.phase.value, "game": t.game, "phone": phone,
               "events": list(snap.events), "event_seq": snap.event_seq, "look": self.look,
               "lobby": self.lobby_json(host=host)}
        if host:
            out["table_legal"] = self._table_legal()
        return out

    def _table_legal(self) -> list[JSON]:
        """What the table itself (the host, as referee) may do now, in wire form."""
        play = self.play
        if play is None or self.lobby.table.phase is not TablePhase.PLAYING:
            return []
        return [play.engine.action_to_wire(a) for a in play.engine.table_actions(play.state)]

    def seat(self, seat: int | None) -> SeatPart:
        """``view`` and ``legal`` for a seat (``None``: the public view, nothing legal)."""
        return self._once((Part.SEAT, seat), lambda: self._seat(seat))

    def _seat(self, seat: int | None) -> SeatPart:
        play = self.play
        if play is None:
            return SeatPart(None, [])
        public = self.snapshot.public_view
        if seat is None:
            return SeatPart(public, [])
        view, own = play.engine.seat_view(play.state, seat, lambda: public)  # the public part built once, shared
        return SeatPart(view, play.legal.get(seat, []), own)

    def message(self, seat: int | None, *, host: bool = False) -> JSON:
        """The fields of a seat's (or the public) ``state`` message, the timer left out (it is read at send time)."""
        return {**self.common(host=host), **self.seat(seat).to_json()}

    def timer_json(self, now_ms: int) -> JSON | None:
        return self.timer.to_json(now_ms) if self.timer is not None else None

    # ------------------------------------------------------------------------------ lobby
    def lobby_json(self, *, host: bool) -> JSON:
        return self._once((Part.LOBBY, host), lambda: self._lobby_json(host))

    def _lobby_json(self, host: bool) -> JSON:
        lob, info = self.lobby, self.snapshot.lobby
        t = lob.table
        return {
            "phase": t.phase.value, "game": t.game, "preset": t.preset, "language": t.language,
            "mode": lob.mode.value, "play_mode": info.play_mode, "settings": dict(t.settings),
            "seat_settings": list(seat_setting_keys(lob.engine)),
            **(self._host_choices() if host else {}),
            "seat_count": t.seat_count, "min_seats": info.min_seats, "max_seats": info.max_seats,
            "can_start": info.can_start, "has_bots": info.has_bots, "free_seats": free_seats(t), "arcade": lob.arcade,
            "how_to_play": self.snapshot.how_to_play is not None,
            "seats": [{**seat_public_json(r, r.seat in lob.connected, secrets_too=host, base_url=lob.base_url),
                       "name": shown_name(r, t.language), "named": bool(r.name)}
                      for r in t.offered],
            "away": [q.to_json() for q in lob.away],
            **({"claims": [c.to_json(t, others) for c, others in first_per_seat(lob.claims)]} if host else {}),
        }

    def _host_choices(self) -> JSON:
        """What only the host console reads: the choices it offers and the schema of its editors.
        A seat's frame leaves them out (2 KB of its 7 at twelve seats, in every frame of a game)."""
        info = self.snapshot.lobby
        return {"presets": list(info.presets), "games": list(info.games), "play_modes": list(info.play_modes),
                "table_settings": dict(info.table_settings),
                "table_setting_choices": {"extended_timers": [e.value for e in ExtendedTimers]},
                "settings_schema": list(schema_json(self.lobby.engine))}

    # ------------------------------------------------------------------------ one socket
    def welcome_json(self, seat: int | None, role: str, now_ms: int) -> JSON:
        """The fields of the ``welcome`` message (the server frames it)."""
        t = self.lobby.table
        record: SeatRecord | None = t.seats[seat] if seat is not None else None
        seat_look = look(seat) if seat is not None else None
        return {
            "role": role, "seat": seat, "link": record.token if record else None,
            "token": record.device if record else None, "code": record.code if record else None,
            "colour": seat_look.colour if seat_look else None,
            "colour_name": seat_look.colour_name if seat_look else None,
            "symbol": seat_look.symbol if seat_look else None,
            "name": record.name if record else "", "lang": (record.lang if record else None) or t.language,
            "table_lang": t.language, "game": t.game, "mode": self.lobby.mode.value, "server_ms": now_ms,
            "heartbeat_ms": HEARTBEAT_MS,
        }

    def seat_card(self, seat: int) -> JSON:
        """A seat's public face for a phone asking for it: colour, symbol, who holds it."""
        record, seat_look = self.lobby.table.seats[seat], look(seat)
        return {"seat": seat, "colour": seat_look.colour, "colour_name": seat_look.colour_name,
                "symbol": seat_look.symbol, "name": record.name,
                "bot": record.bot.value if record.bot is not None else None}


def same_lobby(now: TableUpdate, then: TableUpdate) -> bool:
    """Both changes' lobby parts are the same (the record and engine by identity: they are
    immutable, and a change makes new ones)."""
    a, b = now.lobby, then.lobby
    return (a.table is b.table and a.engine is b.engine and a.mode is b.mode and a.base_url == b.base_url
            and a.connected == b.connected and a.arcade == b.arcade and a.claims == b.claims
            and a.away == b.away and now.snapshot.lobby is then.snapshot.lobby
            and (now.snapshot.how_to_play is None) == (then.snapshot.how_to_play is None))
