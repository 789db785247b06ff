"""Engine conformance, over every catalog entry and the test-only toy game: the contract of
``game/rules/base.py`` holds for each (docs/architecture.md, "Engine contract").

- purity: the engine's modules (and what they import of the project) import no pygame, asyncio,
  time, random or I/O module and call no ``open``/``print``/``input`` (checked on the source);
- wire round trips of every action and event met in play, and of every preset's settings;
- random play to the end for many seeds (seat actions, the table's own actions, arcade button
  gestures, timers and races at random), every hook an engine declares driven;
- replay equality: the recorded wire actions rebuild the same state and events;
- views leak no other seat's secret: a seat's view is the public view plus its own ``me``;
- every action and event tag is documented on the game's views page.
"""
from __future__ import annotations

import ast
import collections
import dataclasses
import enum
import importlib.util
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import toygame

from game import catalog
from game.catalog import GameDescriptor
from game.rules.base import GameEngine, RacePress, RulesError
from game.rules.schema import SettingKind

ROOT = Path(__file__).resolve().parents[2]
ENTRIES = (*catalog.games(), toygame.DESCRIPTOR)
SEEDS = range(8)
MAX_STEPS = 6_000

FORBIDDEN_MODULES = frozenset({"pygame", "asyncio", "time", "random", "os", "io", "socket", "subprocess",
                               "pathlib", "threading", "datetime", "sqlite3", "shutil", "tempfile", "urllib"})
FORBIDDEN_CALLS = frozenset({"open", "print", "input"})
KNOWN_IMPURE = {
    # Speakeasy's built-in clue decks are data files read once and cached (the package's decks/); the
    # rules never read a file on their own otherwise. Listed here so nothing else slips in.
    "game.games.speakeasy.clues": "reads the built-in clue decks from its package's decks/",
    # A game package's __init__ declares its descriptors, so importing an engine imports the catalog:
    # data and lazy paths (pathlib, importlib.metadata for the entry points), never called by an engine.
    "game.catalog": "declares descriptors: file paths and entry points, no I/O at import",
    "game.package_files": "finds those decks inside the installed package (importlib.resources)",
}


def ids(desc: GameDescriptor) -> str:
    return desc.id


# ------------------------------------------------------------------------------------ purity
def _module_of(desc: GameDescriptor) -> str:
    return desc.engine.partition(":")[0]


def _imports(name: str, tree: ast.Module) -> Iterator[str]:
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parent = ".".join(parts[: len(parts) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            yield base
            for alias in node.names:  # ``from game import catalog``: the submodule itself
                yield f"{base}.{alias.name}"


def _is_package(name: str) -> bool:
    spec = importlib.util.find_spec(name)
    return bool(spec and spec.submodule_search_locations)


def _project_modules(root: str) -> dict[str, ast.Module]:
    """The engine module and every project module it imports, transitively, parsed."""
    seen: dict[str, ast.Module] = {}
    todo = [root]
    top = {root.split(".")[0], "game"}
    while todo:
        name = todo.pop()
        if name in seen or name.split(".")[0] not in top:
            continue
        try:
            spec = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            continue
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        seen[name] = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        if name not in KNOWN_IMPURE:  # an exempt module is not followed (the catalog names every layer for types)
            todo.extend(_imports(name, seen[name]))
    return seen


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_engine_is_pure(desc: GameDescriptor) -> None:
    modules = _project_modules(_module_of(desc))
    assert _module_of(desc) in modules
    problems = []
    for name, tree in modules.items():
        if name in KNOWN_IMPURE:
            continue
        for imported in _imports(name, tree):
            if imported.split(".")[0] in FORBIDDEN_MODULES:
                problems.append(f"{name} imports {imported}")
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{name} calls {node.func.id}() on line {node.lineno}")
    assert problems == []


def test_the_purity_check_sees_an_impure_module(tmp_path: Path) -> None:
    tree = ast.parse("import time\nfrom os import path\nprint('x')\n")
    found = [i for i in _imports("x", tree) if i.split(".")[0] in FORBIDDEN_MODULES]
    assert found == ["time", "os", "os.path"]


# ------------------------------------------------------------------------------- random play
@dataclass
class Game:
    engine: GameEngine
    n: int
    seed: int
    settings: Any  # the default settings with some choices picked at random
    state: Any
    start_events: list[Any]
    history: list[tuple[int | None, dict[str, Any]]] = field(default_factory=list)
    events: list[Any] = field(default_factory=list)
    actions: list[Any] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)  # a sample of the states passed through
    kinds: collections.Counter[Move] = field(default_factory=collections.Counter)  # applied moves by who made them


def _stamped(action: Any, now: int) -> Any:
    if dataclasses.is_dataclass(action) and any(f.name == "t_ms" for f in dataclasses.fields(action)):
        return dataclasses.replace(action, t_ms=now)  # type: ignore[type-var]
    return action


def _table_move(engine: GameEngine, state: Any, rnd: random.Random) -> Any | None:
    race = engine.race(state)
    if race is not None:
        pressed = [s for s in sorted(race.eligible) if rnd.random() < 0.6]
        times = sorted((rnd.randrange(race.timeout_ms), s) for s in pressed)
        return race.on_result(tuple(RacePress(s, t, rnd.randint(0, 30)) for t, s in times))
    timer = engine.timer(state)
    return timer.on_expiry if timer is not None else None


class Move(enum.Enum):
    """Who made a move of the random play (the engine hooks the suite drives)."""

    SEAT = "seat"  # legal_actions(state, seat)
    TABLE_ACTION = "table_action"  # table_actions(state): the host as referee (seat None)
    GESTURE = "gesture"  # button_action(state, seat, presses): a seat's arcade button pressed once or twice
    TIMER_OR_RACE = "timer_or_race"  # a timer's expiry or a race's result (seat None)


def _moves(engine: GameEngine, state: Any, n: int) -> list[tuple[int | None, Any, Move]]:
    """Every move open now: each seat's legal actions, the table's own, each seat's button gestures."""
    moves: list[tuple[int | None, Any, Move]] = [
        (s, a, Move.SEAT) for s in range(n) for a in engine.legal_actions(state, s)]
    moves += [(None, a, Move.TABLE_ACTION) for a in engine.table_actions(state)]
    gestures = ((s, engine.button_action(state, s, presses)) for s in range(n) for presses in (1, 2))
    return moves + [(s, a, Move.GESTURE) for s, a in gestures if a is not None]


def _settings(engine: GameEngine, rnd: random.Random) -> Any:
    """The default settings with some of the choices the engine's settings schema offers picked at
    random (physical gold, real identity cards...: every variant gets played)."""
    picks = {spec.key: rnd.choice(spec.choices) for spec in engine.settings_schema()
             if spec.kind is SettingKind.CHOICE and rnd.random() < 0.5}
    return engine.settings_from_wire(picks)


def _new_game(engine: GameEngine, settings: Any, n: int, seed: int) -> tuple[int, Any]:
    """A game with ``n`` seats, or fewer when the default settings take fewer (two decks...)."""
    while True:
        try:
            return n, engine.new_game(settings, n, seed)
        except RulesError:
            if n <= engine.min_seats:
                raise
            n -= 1


def play(desc: GameDescriptor, seed: int) -> Game:
    engine = desc.load_engine()
    rnd = random.Random(seed)
    settings = _settings(engine, rnd)
    n, state = _new_game(engine, settings, rnd.randint(max(engine.min_seats, 3), min(engine.max_seats, 7)), seed)
    game = Game(engine, n, seed, settings, state, list(engine.start_events(state)))
    now = 0
    for step in range(MAX_STEPS):
        if engine.is_over(game.state):
            return game
        moves = _moves(engine, game.state, n)
        table = _table_move(engine, game.state, rnd)
        if moves and (table is None or rnd.random() < 0.8):
            seat, action, kind = rnd.choice(moves)
            action = _stamped(action, now)
        elif table is not None:
            seat, action, kind = None, table, Move.TIMER_OR_RACE
        else:
            raise AssertionError(f"{desc.id} seed {seed}: stuck at step {step}: nobody may act, no timer, no race")
        now += rnd.randint(0, 2_500)
        try:
            game.state, events = engine.apply(game.state, seat, action)
        except RulesError:
            continue  # refused (e.g. a cheat let go too early): the old state stands
        game.history.append((seat, engine.action_to_wire(action)))
        game.kinds[kind] += 1
        game.actions.append(action)
        game.events.extend(events)
        if step % 7 == 0:
            game.states.append(game.state)
    raise AssertionError(f"{desc.id} seed {seed}: not over after {MAX_STEPS} steps")


_PLAYED: dict[tuple[str, int], Game] = {}


def played(desc: GameDescriptor, seed: int) -> Game:
    key = (desc.id, seed)
    if key not in _PLAYED:
        _PLAYED[key] = play(desc, seed)
    return _PLAYED[key]


CASES = [pytest.param(desc, seed, id=f"{desc.id}-{seed}") for desc in ENTRIES for seed in SEEDS]


@pytest.mark.parametrize(("desc", "seed"), CASES)
def test_random_play_reaches_the_end_and_replays_the_same(desc: GameDescriptor, seed: int) -> None:
    game = played(desc, seed)
    engine = game.engine
    assert engine.is_over(game.state)
    state = engine.new_game(game.settings, game.n, seed)
    events: list[Any] = []
    for seat, wire in game.history:
        action = engine.action_from_wire(json.loads(json.dumps(wire)))
        state, more = engine.apply(state, seat, action)
        events.extend(more)
    assert state == game.state
    assert engine.events_to_wire(events) == engine.events_to_wire(game.events)


def _declares(engine: GameEngine, hook: str) -> bool:
    """The engine overrides the base class's default of ``hook``."""
    return getattr(type(engine), hook) is not getattr(GameEngine, hook)


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_random_play_drives_the_table_actions_and_button_gestures_a_game_declares(desc: GameDescriptor) -> None:
    engine = desc.load_engine()
    made: collections.Counter[Move] = sum((played(desc, seed).kinds for seed in SEEDS), collections.Counter())
    assert made[Move.SEAT] > 0
    assert (made[Move.TABLE_ACTION] > 0) == _declares(engine, "table_actions"), made
    assert (made[Move.GESTURE] > 0) == _declares(engine, "button_action"), made


def test_the_hooks_check_sees_a_declared_hook() -> None:
    class Declares(GameEngine[Any]):
        def table_actions(self, state: Any) -> list[Any]:
            return ["referee"]

    assert _declares(Declares(), "table_actions") and not _declares(Declares(), "button_action")
    assert _moves(Declares(), None, 0) == [(None, "referee", Move.TABLE_ACTION)]


@pytest.mark.parametrize(("desc", "seed"), CASES[:: len(SEEDS) // 2])
def test_actions_events_and_settings_round_trip_the_wire(desc: GameDescriptor, seed: int) -> None:
    game = played(desc, seed)
    engine = game.engine
    for action in game.actions:
        assert engine.actions.from_wire(json.loads(json.dumps(engine.action_to_wire(action)))) == action
    for event in game.start_events + game.events:
        assert engine.events.from_wire(json.loads(json.dumps(engine.event_to_wire(event)))) == event
    for preset in engine.presets() or (None,):
        settings = engine.default_settings(preset)
        wire = json.loads(json.dumps(engine.settings_to_wire(settings)))
        assert engine.settings_from_wire(wire, preset) == settings


@pytest.mark.parametrize(("desc", "seed"), CASES[:: len(SEEDS) // 2])
def test_a_seat_sees_the_public_view_and_only_its_own_secrets(desc: GameDescriptor, seed: int) -> None:
    game = played(desc, seed)
    engine = game.engine
    for state in [engine.new_game(game.settings, game.n, seed), *game.states, game.state]:
        public = json.loads(json.dumps(engine.view(state, None)))
        assert public.get("me") is None, "the public view holds nobody's private part"
        shared = {k: v for k, v in public.items() if k != "me"}
        for seat in range(game.n):
            view = json.loads(json.dumps(engine.view(state, seat)))
            assert {k: v for k, v in view.items() if k != "me"} == shared, f"seat {seat} sees more than the table"
            mine = view.get("me")
            assert isinstance(mine, dict), "a seat's private part is 'me'"
            assert mine.get("seat", seat) == seat


@pytest.mark.parametrize(("desc", "seed"), CASES[:: len(SEEDS) // 2])
def test_a_seats_own_view_is_what_its_view_adds_to_the_public_one(desc: GameDescriptor, seed: int) -> None:
    """``own_view`` (when an engine offers it): the session builds a seat's view as the public view
    plus these keys, so they must make exactly ``view(state, seat)``, key order included."""
    game = played(desc, seed)
    engine = game.engine
    for state in [engine.new_game(game.settings, game.n, seed), *game.states, game.state]:
        public = engine.view(state, None)
        for seat in range(game.n):
            own = engine.own_view(state, seat)
            if own is None:
                continue
            view = engine.view(state, seat)
            shared = {**public, **own}
            assert shared == view and list(shared) == list(view), f"seat {seat}: public + own is not its view"


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_every_action_and_event_is_documented(desc: GameDescriptor) -> None:
    pages = [desc.views_doc]
    if desc.family != desc.id:  # a variant documents what it adds; the rest is its family's page
        pages.append(catalog.get(desc.family).views_doc)
    text = "".join((ROOT / page).read_text(encoding="utf-8") for page in pages)
    engine = desc.load_engine()
    # a tag is named as a code span of its own (`vote`), opening one (`check_started {round}`) or as a
    # wire example ({"type": "vote", ...})
    documented = {a or b for a, b in re.findall(r'`([a-z_]+)[`\s{(]|"type":\s*"([a-z_]+)"', text)}
    missing = [t for t in (*engine.actions.tags, *engine.events.tags) if t not in documented]
    assert missing == [], f"{' and '.join(pages)} do not name {missing}"


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_the_end_phase_is_game_over(desc: GameDescriptor) -> None:
    game = played(desc, 0)
    assert game.engine.view(game.state, None)["phase"] == "game_over"
