"""Game records: one JSON file holds everything needed to replay a game exactly.

A record is (game, preset, full settings, seat count, seed, the accepted actions in order with the
acting seat). Because engines are pure and their RNG lives in the state, replaying the actions
through ``get_engine(game)`` reproduces every event and the final state. Generic over all games:
actions are stored in each engine's wire form. Format: ``docs/records.md``.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import catalog
from .catalog import get_engine
from .rules.base import JSON, GameEngine, RulesError

FORMAT = "tabletop-record"
VERSION = 1


class BadRecord(ValueError):
    """The file is not a valid game record, or its actions do not replay."""


@dataclass(frozen=True, slots=True)
class RecordedAction:
    seat: int | None  # None: the table itself (timeouts, race results)
    action: dict[str, JSON]  # the engine's wire form
    t_ms: int | None = None  # session clock when accepted (timed actions and live play)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"seat": self.seat, "action": self.action}
        if self.t_ms is not None:
            out["t_ms"] = self.t_ms
        return out


HUMAN = "human"  # a player's kind: a person at a phone
UNKNOWN = "unknown"  # an archived game whose seats' kinds were never saved (never guessed as "human")


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    seat: int
    name: str = ""
    kind: str = HUMAN  # HUMAN, "bot:<kind>", or UNKNOWN (an archived game whose seats were not recorded)

    def to_json(self) -> dict[str, JSON]:
        return {"seat": self.seat, "name": self.name, "kind": self.kind}


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: str
    preset: str | None
    settings: dict[str, JSON]  # full settings in wire form (not only the overrides)
    seats: int
    seed: int
    actions: tuple[RecordedAction, ...] = ()
    players: tuple[PlayerInfo, ...] = ()

    def with_action(self, seat: int | None, action: dict[str, JSON], t_ms: int | None = None) -> GameRecord:
        return GameRecord(self.game, self.preset, self.settings, self.seats, self.seed,
                          self.actions + (RecordedAction(seat, action, t_ms),), self.players)

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "format": FORMAT, "version": VERSION, "game": self.game, "preset": self.preset,
            "settings": self.settings, "seats": self.seats, "seed": self.seed,
            "actions": [a.to_json() for a in self.actions],
        }
        if self.players:
            out["players"] = [p.to_json() for p in self.players]
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))


def new_record(game: str, seats: int, seed: int, preset: str | None = None,
               overrides: Mapping[str, Any] | None = None,
               players: Iterable[PlayerInfo] = ()) -> GameRecord:
    """A record with no actions yet; settings are the preset with ``overrides`` applied (checked)."""
    engine = get_engine(game)
    settings = engine.settings_from_wire(dict(overrides or {}), preset)
    return GameRecord(game, preset, engine.settings_to_wire(settings), seats, seed, (), tuple(players))


class Recorder:
    """Collects actions while a game is played (the session or the simulator append to it)."""

    def __init__(self, record: GameRecord) -> None:
        self._head = record
        self._actions: list[RecordedAction] = list(record.actions)

    def add(self, seat: int | None, action: dict[str, JSON], t_ms: int | None = None) -> None:
        self._actions.append(RecordedAction(seat, action, t_ms))

    @property
    def record(self) -> GameRecord:
        h = self._head
        return GameRecord(h.game, h.preset, h.settings, h.seats, h.seed, tuple(self._actions), h.players)


# ------------------------------------------------------------------------------------- loading
def _need(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = "record") -> Any:
    if key not in data:
        raise BadRecord(f"{where}: missing {key!r}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadRecord(f"{where}: {key!r} has the wrong type ({type(value).__name__})")
    return value


def _action_from_json(i: int, item: Any) -> RecordedAction:
    where = f"actions[{i}]"
    if not isinstance(item, Mapping):
        raise BadRecord(f"{where}: must be an object")
    unknown = set(item) - {"seat", "action", "t_ms"}
    if unknown:
        raise BadRecord(f"{where}: unknown field(s) {sorted(unknown)}")
    seat = item.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        raise BadRecord(f"{where}: 'seat' must be a seat number or null")
    action = _need(item, "action", dict, where)
    t_ms = item.get("t_ms")
    if t_ms is not None and (not isinstance(t_ms, int) or isinstance(t_ms, bool)):
        raise BadRecord(f"{where}: 't_ms' must be whole milliseconds")
    return RecordedAction(seat, action, t_ms)


def _players_from_json(items: Any) -> tuple[PlayerInfo, ...]:
    if not isinstance(items, list):
        raise BadRecord("record: 'players' must be a list")
    out = []
    for i, p in enumerate(items):
        if not isinstance(p, Mapping):
            raise BadRecord(f"players[{i}]: must be an object")
        out.append(PlayerInfo(_need(p, "seat", int, f"players[{i}]"), str(p.get("name", "")),
                              str(p.get("kind", "human"))))
    return tuple(out)


def record_from_json(data: Any) -> GameRecord:
    """Check and convert parsed JSON into a :class:`GameRecord`; raise :class:`BadRecord` clearly."""
    if not isinstance(data, Mapping):
        raise BadRecord("a game record is a JSON object")
    if data.get("format") != FORMAT:
        raise BadRecord(f"not a game record (expected \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version != VERSION:
        raise BadRecord(f"record version {version!r} is not supported (this program reads {VERSION})")
    game = _need(data, "game", str)
    if game not in catalog.ids():
        raise BadRecord(f"unknown game {game!r}; known: {', '.join(catalog.ids())}")
    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise BadRecord("record: 'preset' must be text or null")
    settings = _need(data, "settings", dict)
    seats = _need(data, "seats", int)
    seed = _need(data, "seed", int)
    actions = _need(data, "actions", list)
    players = _players_from_json(data.get("players", []))
    return GameRecord(game, preset, settings, seats, seed,
                      tuple(_action_from_json(i, a) for i, a in enumerate(actions)), players)


def loads(text: str) -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"not valid JSON: {exc}") from None
    return record_from_json(data)


def load(path: str | Path) -> GameRecord:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise BadRecord(f"cannot read {path}: {exc}") from None
    return loads(text)


def save(record: GameRecord, path: str | Path) -> None:
    Path(path).write_text(record.dumps() + "\n", encoding="utf-8")


# -------------------------------------------------------------------------------------- replay
@dataclass(frozen=True, slots=True)
class ReplayStep:
    index: int
    seat: int | None
    action: dict[str, JSON]
    events: tuple[dict[str, JSON], ...]


@dataclass
class Replay:
    record: GameRecord
    engine: GameEngine
    state: Any
    steps: list[ReplayStep] = field(default_factory=list)
    opening: tuple[dict[str, JSON], ...] = ()  # the engine's start_events: the story of new_game

    @property
    def events(self) -> list[dict[str, JSON]]:
        """Every wire event, the opening ones first, in order."""
        return [*self.opening, *(e for step in self.steps for e in step.events)]

    def final_view(self) -> dict[str, JSON]:
        return self.engine.view(self.state, None)


def start(record: GameRecord) -> tuple[GameEngine, Any]:
    """The engine and the initial state of a record (settings checked, seat count checked)."""
    try:
        engine = get_engine(record.game)
    except KeyError as exc:
        raise BadRecord(str(exc)) from None
    try:
        settings = engine.settings_from_wire(record.settings, record.preset)
        state = engine.new_game(settings, record.seats, record.seed)
    except RulesError as exc:
        raise BadRecord(f"cannot start the game: {exc}") from None
    return engine, state


def replay(record: GameRecord) -> Replay:
    """Apply every recorded action; raise :class:`BadRecord` naming the first one that fails."""
    engine, state = start(record)
    result = Replay(record, engine, state, opening=tuple(engine.events_to_wire(engine.start_events(state))))
    for i, item in enumerate(record.actions):
        try:
            action = engine.action_from_wire(item.action)
            state, events = engine.apply(state, item.seat, action)
        except RulesError as exc:
            raise BadRecord(f"actions[{i}] ({item.action}) by seat {item.seat} does not replay: "
                            f"{type(exc).__name__}: {exc}") from None
        result.steps.append(ReplayStep(i, item.seat, item.action, tuple(engine.events_to_wire(events))))
    result.state = state
    return result
