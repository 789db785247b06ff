"""``tabletop simulate``: play many bot games headless and print what happened.

    tabletop simulate --game <id> --players 12 --games 2000 --seed 1 [--bots random|heuristic]

``--bots`` also takes a comma-separated list of kinds, given to the seats in turn
(``--bots heuristic,random`` seats heuristic bots at even seats and random bots at odd ones).

Prints games per second, rounds per game, how often each rule fired (events counted by their
``cause`` rule id), and each seat's share of the wins. ``--watch`` plays one game and prints every
event in plain words (a terminal demo); ``--record FILE`` saves the first game as a game record.

Generic over every game that has an engine and bots (see :func:`play_game`): untimed games run in
passes with the table's timer firing whenever no bot acts; games with timed actions run on a
virtual clock the way the session runs them.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from . import catalog
from .bots import BOT_KINDS, Bot, Level, UnknownBot, make_bot, uses_view
from .catalog import get_engine
from .records import GameRecord, PlayerInfo, Recorder, new_record, save
from .replay import describe, seat_name
from .rules.base import BadSettings, GameEngine, RaceRequest
from .session.race_floor import Press, PressSource, RaceJudge, race_timer_key

MAX_STEPS = 200_000  # a game longer than this is a bug (bots and engine both), not a long game


class SimulationError(RuntimeError):
    """A game got stuck (nobody can act and no timer runs) or never ended."""


class StepLimit(SimulationError):
    """A game reached its step limit before it ended."""


@dataclass
class GameResult:
    winners: tuple[int, ...]
    rounds: int
    steps: int
    causes: Counter[str]
    state: Any
    record: GameRecord | None = None


@dataclass
class Summary:
    game: str
    players: int
    games: int
    bots: str
    seconds: float = 0.0
    rounds: int = 0
    steps: int = 0
    causes: Counter[str] = field(default_factory=Counter)
    wins: list[float] = field(default_factory=list)

    def add(self, result: GameResult) -> None:
        self.rounds += result.rounds
        self.steps += result.steps
        self.causes.update(result.causes)
        for seat in result.winners:
            self.wins[seat] += 1 / len(result.winners)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "players": self.players, "games": self.games, "bots": self.bots,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else None,
            "rounds_per_game": self.rounds / self.games, "actions_per_game": self.steps / self.games,
            "rule_counts": dict(sorted(self.causes.items(), key=lambda kv: _rule_key(kv[0]))),
            "win_share": [w / self.games for w in self.wins],
        }


def _rule_key(rule: str) -> tuple[str, int]:
    digits = "".join(ch for ch in rule if ch.isdigit())
    return rule.rstrip("0123456789"), int(digits) if digits else 0


def game_seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index) & ((1 << 63) - 1)


def bot_seed(seed: int, index: int, seat: int) -> int:
    return (game_seed(seed, index) * 31 + seat + 1) & ((1 << 63) - 1)


EventSink = Callable[[Any, list[Any]], None]
SETTLE_MS = 30  # after the last bot press, the race judge hands in the result (like the session's settle)


class _Run:
    """One game in progress: the state, the counters, and where accepted actions go."""

    def __init__(self, engine: GameEngine, state: Any, seed: int, max_steps: int,
                 recorder: Recorder | None, on_events: EventSink | None) -> None:
        self.engine, self.state, self.seed, self.max_steps = engine, state, seed, max_steps
        self.recorder, self.on_events = recorder, on_events
        self.causes: Counter[str] = Counter()
        self.steps = self.rounds = 0
        self.count_rounds = "round" not in engine.view(state, None)
        self._tag_of = engine.events.tag_of
        self._apply = engine.apply
        self._public: tuple[Any, Any] = (None, None)  # (state, its public view) while seats share it

    def view(self, seat: int) -> Any:
        """``seat``'s view of the current state, built the way the session builds it: when the
        engine offers ``own_view``, the public part once per state, shared by every seat asking
        (a race asks each of its racers; untimed passes ask seat after seat)."""
        return self.engine.seat_view(self.state, seat, self._public_view)[0]

    def _public_view(self) -> Any:
        if self._public[0] is not self.state:
            self._public = (self.state, self.engine.view(self.state, None))
        return self._public[1]

    def commit(self, seat: int | None, action: Any, t_ms: int | None = None) -> None:
        """Apply ``action`` as ``seat`` and account for it."""
        self.after(self._apply(self.state, seat, action), seat, action, t_ms)

    def after(self, result: tuple[Any, list[Any]], seat: int | None, action: Any, t_ms: int | None = None) -> None:
        """Account for an action already applied (``result`` is what ``apply`` returned)."""
        self.state, events = result
        steps = self.steps = self.steps + 1
        if steps > self.max_steps:
            raise StepLimit(f"game with seed {self.seed} did not end after {self.max_steps} actions")
        if self.recorder is not None:
            self.recorder.add(seat, self.engine.action_to_wire(action), t_ms)
        causes, count_rounds = self.causes, self.count_rounds
        for event in events:
            cause = getattr(event, "cause", None)
            if cause is not None:
                causes[getattr(cause, "value", cause)] += 1
            if count_rounds and self._tag_of(event) == "round_started":
                self.rounds += 1
        if self.on_events is not None:
            self.on_events(self.state, events)

    def stuck(self) -> SimulationError:
        return SimulationError(f"game with seed {self.seed} is stuck: nobody acts and no timer runs")


def play_game(engine: GameEngine, settings: Any, seats: int, seed: int, bots: Sequence[Bot],
              recorder: Recorder | None = None, max_steps: int = MAX_STEPS,
              on_events: EventSink | None = None) -> GameResult:
    """One game between bots; ``on_events(state, events)`` (optional) sees every accepted action.

    Games whose actions carry no time run in passes: every seat with something to do is asked
    once per pass, and the table's timer fires when no bot acts. Games with timed actions (a
    ``t_ms`` field, or a race result with ``times_ms``) run on a virtual clock like the session:
    each bot acts ``think_ms()`` after it could, timed actions are stamped with the clock, timers
    fire at their deadline, and races collect the bots' ``race_press`` answers.
    """
    run = _Run(engine, engine.new_game(settings, seats, seed), seed, max_steps, recorder, on_events)
    _play(run, bots)
    view = engine.view(run.state, None)
    rounds = run.rounds if run.count_rounds else int(view["round"] or 0)
    winners = tuple(view.get("winners", ()))
    return GameResult(winners, rounds, run.steps, run.causes, run.state, recorder.record if recorder else None)


def play_on(engine: GameEngine, state: Any, bots: Sequence[Bot], max_actions: int) -> Any:
    """Play an existing ``state`` on with ``bots`` (one per seat) the way :func:`play_game` runs
    them — timed games on a virtual clock starting at 0, untimed ones in passes — until the game
    ends or ``max_actions`` actions (the bots' and the table's) have been applied, and return the
    state reached. Nothing is recorded. Raises :class:`SimulationError` if the game gets stuck."""
    if max_actions < 1:
        return state
    run = _Run(engine, state, 0, max_actions - 1, None, None)  # the step past the limit is the last
    with contextlib.suppress(StepLimit):  # the limit reached: the state as it stands
        _play(run, bots)
    return run.state


def _play(run: _Run, bots: Sequence[Bot]) -> None:
    """Timed games on the virtual clock, the others in passes."""
    if _is_clocked(run.engine):
        _play_clocked(run, bots)
    else:
        _play_passes(run, bots)


def _play_passes(run: _Run, bots: Sequence[Bot]) -> None:
    engine, after = run.engine, run.after
    apply, is_over, seats_to_act = engine.apply, engine.is_over, engine.seats_to_act
    legal_actions, view = engine.legal_actions, run.view
    wants_view = [uses_view(bot) for bot in bots]
    choosers = [bot.choose for bot in bots]
    state = run.state
    while not is_over(state):
        acted = False
        for seat in seats_to_act(state):
            legal = legal_actions(state, seat)
            if not legal:
                continue
            action = choosers[seat](view(seat) if wants_view[seat] else None, legal)
            if action is None:
                continue
            result = apply(state, seat, action)
            after(result, seat, action)
            state = result[0]
            acted = True
            if is_over(state):
                return
        if acted:
            continue
        timer = engine.timer(state)
        if timer is None:
            raise run.stuck()
        run.commit(None, timer.on_expiry)
        state = run.state


def _action_classes(engine: GameEngine) -> list[type]:
    # WireCodec has no public list of its classes yet; its tag table is the one source
    return list(engine.actions.classes)


_CLOCKED: dict[str, bool] = {}


def _is_clocked(engine: GameEngine) -> bool:
    """Whether any of the game's actions carries a time (checked once per game engine)."""
    if engine.name not in _CLOCKED:
        _CLOCKED[engine.name] = any(
            f.name in ("t_ms", "times_ms") for cls in _action_classes(engine)
            if dataclasses.is_dataclass(cls) for f in dataclasses.fields(cls))
    return _CLOCKED[engine.name]


@functools.cache
def _carries_time(cls: type) -> bool:
    """Whether actions of class ``cls`` have a ``t_ms`` field (asked once per class: every bot action passes here)."""
    return dataclasses.is_dataclass(cls) and any(f.name == "t_ms" for f in dataclasses.fields(cls))


def _stamp(action: Any, now: int) -> Any:
    """The session stamps its clock on actions that carry a time (``legal_actions`` lists ``t_ms=0``)."""
    cls: type = type(action)  # mypy: a type[Any] is no Hashable to functools.cache
    if _carries_time(cls):
        return dataclasses.replace(action, t_ms=now)
    return action


@dataclass
class _Clock:
    """The virtual clock of a clocked game: when each bot acts next and when the timer fires."""

    now: int = 0
    due: dict[int, int] = field(default_factory=dict)  # seat -> when its bot acts
    idle: set[int] = field(default_factory=set)  # bots that passed since the last change
    timer_key: str | None = None
    timer_due: int = 0
    timer_action: Any = None


def _play_clocked(run: _Run, bots: Sequence[Bot]) -> None:
    engine, clock = run.engine, _Clock()
    is_over, seats_to_act, legal_actions, view_of = engine.is_over, engine.seats_to_act, engine.legal_actions, run.view
    wants_view = [uses_view(bot) for bot in bots]  # a bot that reads no view is handed None (Bot.uses_view)
    synced: Any = None  # the state the timer, the seats to act and the end were read from
    acting: tuple[int, ...] = ()
    while True:
        state = run.state
        if state is not synced:  # a bot that passed changed nothing: the same timer, the same seats, not over
            if is_over(state):
                return
            _sync_timer(run, bots, clock)
            synced, acting = state, seats_to_act(state)
            clock.due = {s: t for s, t in clock.due.items() if s in acting}  # the session cancels these
        due, idle = clock.due, clock.idle  # from here on only seats in ``acting`` are added: filtered once per change
        for seat in acting:
            if seat not in due and seat not in idle:
                due[seat] = clock.now + max(0, int(bots[seat].think_ms()))
        at, first = min(zip(due.values(), due.keys())) if due else (0, None)  # the earliest, then the lowest seat
        if first is not None and (clock.timer_key is None or at < clock.timer_due):
            clock.now = due.pop(first)
            legal = legal_actions(state, first)
            view = view_of(first) if legal and wants_view[first] else None
            action = bots[first].choose(view, legal) if legal else None
            if action is None:
                idle.add(first)
                continue
            run.commit(first, _stamp(action, clock.now), clock.now)
        elif clock.timer_key is not None:
            clock.now = max(clock.now, clock.timer_due)
            clock.timer_key = None  # the engine names the next timer
            run.commit(None, clock.timer_action, clock.now)
        else:
            raise run.stuck()
        idle.clear()


def _sync_timer(run: _Run, bots: Sequence[Bot], clock: _Clock) -> None:
    """Follow the engine's race (its timeout is the timer while it runs) or else its timer."""
    race = run.engine.race(run.state)
    if race is not None:
        key = race_timer_key(race)
        if key != clock.timer_key:
            clock.timer_key = key
            clock.timer_due, clock.timer_action = _judge_race(run, bots, clock.now, race)
        return
    timer = run.engine.timer(run.state)
    if timer is None:
        clock.timer_key = None
        return
    if timer.key == clock.timer_key:
        return
    clock.timer_key, clock.timer_due, clock.timer_action = timer.key, clock.now + timer.duration_ms, timer.on_expiry


def _judge_race(run: _Run, bots: Sequence[Bot], now: int, race: RaceRequest) -> tuple[int, Any]:
    """A race opened: each eligible bot with ``race_press`` answers once and presses ``think_ms()``
    later, through the session's race judge; returns when it is decided and the table's action."""
    if not race.eligible:
        return now + race.timeout_ms, race.on_result(())
    judge = RaceJudge()
    judge.arm(race.key, race.eligible, now, race.timeout_ms, mode=race.mode, settle_ms=SETTLE_MS)
    for seat in sorted(race.eligible):
        if bots[seat].race_press(run.view(seat)) is not None:
            judge.press(Press(seat, float(now + max(0, int(bots[seat].think_ms()))), PressSource.BOT))
    due = judge.decides_at()
    return math.ceil(due), race.on_result(judge.result(due).presses())


def bot_level(kind: str) -> str:
    """How ``--watch`` names a seat's bot: the level players pick and the kind behind it, e.g.
    "hard (search)"; ``random`` is no level ("random, tests only")."""
    level = Level.of(kind)
    return f"{level.value} ({kind})" if level is not None else f"{kind}, tests only"


def seat_kinds(bots: str, players: int) -> list[str]:
    """The bot kind of every seat from ``"random"`` or a comma-separated cycle such as ``"heuristic,random"``."""
    kinds = [k.strip() for k in bots.split(",")]
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise UnknownBot(f"unknown bot kind {kind!r}; choose from {', '.join(BOT_KINDS)}")
    return [kinds[seat % len(kinds)] for seat in range(players)]


def run(game: str, players: int, games: int, seed: int, bots: str, preset: str | None = None,
        record_path: str | None = None) -> Summary:
    engine = get_engine(game)
    settings = engine.default_settings(preset)
    kinds = seat_kinds(bots, players)
    summary = Summary(game, players, games, bots, wins=[0.0] * players)
    started = time.perf_counter()
    for index in range(games):
        seat_bots = [make_bot(game, kind, seat, bot_seed(seed, index, seat)) for seat, kind in enumerate(kinds)]
        recorder = None
        if record_path is not None and index == 0:
            players_info = [PlayerInfo(seat, "", f"bot:{kind}") for seat, kind in enumerate(kinds)]
            recorder = Recorder(new_record(game, players, game_seed(seed, index), preset, None, players_info))
        result = play_game(engine, settings, players, game_seed(seed, index), seat_bots, recorder)
        summary.add(result)
        if result.record is not None and record_path is not None:
            save(result.record, record_path)
    summary.seconds = time.perf_counter() - started
    return summary


def watch(game: str, players: int, seed: int, bots: str, preset: str | None = None,
          out: TextIO | None = None, pace_ms: int = 0) -> GameResult:
    """Play one bot game and print it as it happens, one plain-English line per event."""
    out = out or sys.stdout
    engine = get_engine(game)
    settings = engine.default_settings(preset)
    kinds = seat_kinds(bots, players)
    seat_bots = [make_bot(game, kind, seat, bot_seed(seed, 0, seat)) for seat, kind in enumerate(kinds)]
    print(f"{game}: {players} players ({bots} bots), seed {seed}", file=out)
    print("  seats: " + "; ".join(f"{seat_name(seat)} {bot_level(kind)}" for seat, kind in enumerate(kinds)), file=out)

    def show(_state: Any, events: list[Any]) -> None:
        for event in engine.events_to_wire(events):
            print("  " + describe(engine, event, seat_name), file=out, flush=True)
            if pace_ms:
                time.sleep(pace_ms / 1000)

    return play_game(engine, settings, players, game_seed(seed, 0), seat_bots, on_events=show)


def format_summary(s: Summary) -> str:
    data = s.to_json()
    lines = [
        f"{s.games} games of {s.game}, {s.players} players, {s.bots} bots: {s.seconds:.2f} s, "
        f"{data['games_per_second']} games/s",
        f"rounds per game: {data['rounds_per_game']:.2f}   actions per game: {data['actions_per_game']:.1f}",
        "rules fired (total, per game):",
    ]
    for rule, count in data["rule_counts"].items():
        lines.append(f"  {rule:>5}  {count:>9}  {count / s.games:8.2f}")
    lines.append("win share per seat:")
    lines.extend(f"  seat {seat:>2}  {share:6.1%}" for seat, share in enumerate(data["win_share"]))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop simulate", description="Play bot games headless.")
    parser.add_argument("--game", choices=catalog.ids(), default=catalog.default_game())
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random", metavar="KIND[,KIND...]",
                        help=f"bot kind for every seat ({' or '.join(BOT_KINDS)}), or a list cycled over the seats")
    parser.add_argument("--preset", default=None, help="the game's preset (default: its first)")
    parser.add_argument("--record", metavar="FILE", default=None, help="save the first game's record here")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--watch", action="store_true", help="play one game and print every event in plain words")
    parser.add_argument("--pace-ms", type=int, default=0, help="with --watch: pause after each event")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        engine = get_engine(args.game)
    except ModuleNotFoundError as exc:
        print(f"simulate: no engine for {args.game} yet ({exc})", file=sys.stderr)
        return 2
    if not engine.min_seats <= args.players <= engine.max_seats:
        parser.error(f"{args.game} is played by {engine.min_seats}–{engine.max_seats} players")
    try:
        if args.watch:
            watch(args.game, args.players, args.seed, args.bots, args.preset, pace_ms=max(0, args.pace_ms))
            return 0
        summary = run(args.game, args.players, args.games, args.seed, args.bots, args.preset, args.record)
    except (BadSettings, UnknownBot, ModuleNotFoundError) as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summary.to_json(), indent=2) if args.json else format_summary(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
