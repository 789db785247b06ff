"""The bot ladder, measured: each level against the level below, per game.

    nice -n 15 python3 bench/bench_bots.py [--games 2000] [--iterations N] [--game G] [--selfplay 200] [--jobs N]

For every game (6 players for Collusion and Speakeasy, 4 for Cheating Moth) and every pairing
(heuristic vs random, belief vs heuristic, search vs belief, search vs heuristic, search vs human)
it plays ``--games`` seeded games with the two kinds on alternate seats (even seats in even games,
odd seats in odd games) and prints one line::

    GAME: LEVEL vs LEVEL: win share X.XX ± CI (N games), move p50/p99 ms

``human`` is no bot level but a person's stand-in (:class:`game.bots.human.HumanModel`: the belief
level's judgement, a person's pace and attention, lapses): ``search vs human`` says whether the
hard level wins without crushing (goal 0.50–0.70). For Collusion a second line gives how mixed the
upper level plays: its Showdown steal share (C15) and the share of its first vote's cards on the
seat most of them named (self-play prints the same for ``search`` against itself).

The win share is the upper level's share of the wins (a shared win split), the ± is the 95 %
normal interval of that mean, and the move times are the upper level's ``choose`` calls that
returned an action, on this machine, by the wall clock under whatever else runs on it and (in
brackets) by this process's CPU time — what one free core would take. ``--iterations`` sets the
search budget (Collusion counts it in paired rollouts; default: :func:`game.bots.search.default_budget`); ``--selfplay`` games of
``search`` against itself give the seat balance (Collusion: win share by seat; Speakeasy:
Informant vs Citizen win rate per player), and ``--timing-games`` search self-play games at 12
seats (Collusion, Speakeasy) or 5 (Cheating Moth) give the move p50/p99 at the largest tables.

``--jobs`` (default: the machine's cores) spreads each pairing's and the self-play's games over that
many worker processes; every game has its own seeds, so the figures are those of ``--jobs 1`` (the
move times are gathered from every worker; by the wall clock they include the workers sharing the
machine). The ``--timing-games`` run stays in the main process, alone.
"""
from __future__ import annotations

import argparse
import enum
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game import catalog
from game.bots import BotKind, make_bot, uses_view
from game.bots.human import HumanModel
from game.bots.search import SearchBudget, set_default_budget
from game.catalog import get_engine
from game.rules.base import BadSettings
from game.simulate import bot_seed, game_seed, play_game

GAMES = {d.id: d.ladder_seats for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots}  # every table game with bots
PlayerKind = enum.Enum("PlayerKind", {k.name: k.value for k in BotKind} | {"HUMAN": "human"})  # type: ignore[misc]
"""The bot kinds, and ``human``: :class:`game.bots.human.HumanModel`, a person's stand-in (the belief
level's judgement, a person's pace and attention, lapses) — to measure whether the hard level is fun."""


def largest_table(game: str) -> int:
    """The most seats the default settings take (Cheating Moth's one deck seats 5 of the 8 two decks do)."""
    engine, seats = get_engine(game), catalog.get(game).seats
    for n in range(seats.high, seats.low, -1):
        try:
            engine.new_game(engine.default_settings(None), n, 0)
        except BadSettings:
            continue
        return n
    return seats.low


LARGEST = {game: largest_table(game) for game in GAMES}  # a search move timed at the largest table
CHUNKS_PER_JOB = 16  # pieces per worker: small pieces at the end leave the other workers less idle
PAIRINGS = ((PlayerKind.HEURISTIC, PlayerKind.RANDOM), (PlayerKind.BELIEF, PlayerKind.HEURISTIC),
            (PlayerKind.SEARCH, PlayerKind.BELIEF), (PlayerKind.SEARCH, PlayerKind.HEURISTIC),
            (PlayerKind.SEARCH, PlayerKind.HUMAN))


def make_player(game: str, kind: Any, seat: int, seed: int) -> Any:
    """A bot of ``kind`` (a :data:`PlayerKind`), or the human model."""
    if kind is PlayerKind.HUMAN:
        return HumanModel(make_bot(game, BotKind.BELIEF, seat, seed), seat, seed)
    return make_bot(game, kind.value, seat, seed)


class Timed:
    """A bot whose every ``choose`` that returns an action is timed (everything else passes through);
    with ``log``, each such action is logged as (round, vote, seat, action) for the mix figures."""

    def __init__(self, inner: Any, samples: list[float], cpu: list[float] | None = None,
                 log: list[tuple[Any, Any, int, Any]] | None = None) -> None:
        self.inner, self.samples, self.cpu = inner, samples, cpu if cpu is not None else []
        self.seat = inner.seat
        self.uses_view = uses_view(inner)
        self.thinks_off_loop = getattr(inner, "thinks_off_loop", False)
        self.log = log

    def choose(self, view: Any, legal: list[Any]) -> Any:
        started, cpu = time.perf_counter(), time.process_time()
        action = self.inner.choose(view, legal)
        if action is not None:
            self.samples.append((time.perf_counter() - started) * 1000)
            self.cpu.append((time.process_time() - cpu) * 1000)
            if self.log is not None and view is not None:
                self.log.append((view.get("round"), view.get("vote"), self.seat, action))
        return action

    def think_ms(self) -> int:
        return int(self.inner.think_ms())

    def race_press(self, view: Any) -> Any:
        return self.inner.race_press(view)  # Bot's default: no press


@dataclass
class Pairing:
    game: str
    upper: Any  # a PlayerKind
    lower: Any
    scores: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    move_cpu_ms: list[float] = field(default_factory=list)
    picks: Counter[str] = field(default_factory=Counter)
    first_votes: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def mix_line(self) -> str | None:
        """Collusion: how mixed the upper level plays — its Showdown steal share (C15) and the share
        of its first vote's cards on the seat most of them named."""
        shown = sum(self.picks.values())
        if not shown or not self.first_votes:
            return None
        return (f"{self.game}: {self.upper.value}: showdown steal share {self.picks['steal'] / shown:.2f} "
                f"(split {self.picks['split'] / shown:.2f}, take one {self.picks['take_one'] / shown:.2f}; "
                f"{shown} picks), first votes on the most-voted seat {statistics.mean(self.first_votes):.2f} "
                f"({len(self.first_votes)} games)")

    def line(self) -> str:
        n = len(self.scores)
        mean = sum(self.scores) / n
        ci = 1.96 * statistics.pstdev(self.scores) / math.sqrt(n) if n > 1 else float("nan")
        return (f"{self.game}: {self.upper.value} vs {self.lower.value}: win share {mean:.2f} ± {ci:.2f} "
                f"({n} games), move p50/p99 {_p50_p99(self.move_ms)} ms (CPU {_p50_p99(self.move_cpu_ms)} ms) "
                f"[{self.seconds:.0f} s]")


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))]


def _p50_p99(values: list[float]) -> str:
    ordered = sorted(values) or [0.0]
    return f"{_pct(ordered, 0.5):.1f}/{_pct(ordered, 0.99):.1f}"


@dataclass
class Chunk:
    """What one worker reports for a run of consecutive games: per game the upper level's score
    (pairings) or the winners (self-play), the move times, and Speakeasy's identities."""

    scores: list[float] = field(default_factory=list)
    winners: list[tuple[int, ...]] = field(default_factory=list)
    identities: list[tuple[str, ...]] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    move_cpu_ms: list[float] = field(default_factory=list)
    picks: Counter[str] = field(default_factory=Counter)  # Collusion: the upper level's Showdown picks (C15)
    first_votes: list[float] = field(default_factory=list)  # per game: share of its first votes on one seat

    def add(self, other: Chunk) -> None:
        self.scores += other.scores
        self.winners += other.winners
        self.identities += other.identities
        self.move_ms += other.move_ms
        self.move_cpu_ms += other.move_cpu_ms
        self.picks.update(other.picks)
        self.first_votes += other.first_votes


def mix_of(engine: Any, log: list[tuple[Any, Any, int, Any]], chunk: Chunk) -> None:
    """Collusion's mix figures from one game's logged actions: the Showdown picks, and how many of
    the first vote's cards (each seat's last before the reveal) name the most-named seat."""
    first: dict[int, int] = {}
    for round_, vote, seat, action in log:
        wire = engine.action_to_wire(action)
        if wire["type"] == "showdown":
            chunk.picks[wire["choice"]] += 1
        elif (round_, vote) == (1, 1) and wire["type"] in ("vote", "ambush"):
            first[seat] = wire.get("target", -1)
    if len(first) > 1:
        chunk.first_votes.append(Counter(first.values()).most_common(1)[0][1] / len(first))


@dataclass(frozen=True)
class Task:
    """Games ``start``..``stop`` (indices into the seeded run) of a pairing (``lower`` set) or of
    search self-play (``lower`` None) at ``players`` seats; ``iterations`` overrides the budget."""

    game: str
    upper: Any  # a PlayerKind
    lower: Any | None
    players: int
    seed: int
    start: int
    stop: int
    iterations: int | None


def play_chunk(task: Task) -> Chunk:
    """Play the task's games in this process; every game has its own seeds (``game_seed`` and
    ``bot_seed`` of the run's seed and the game's index), so a game's result does not depend on
    which process plays it or what it played before."""
    if task.iterations is not None:
        set_default_budget(task.game, SearchBudget(task.iterations))
    try:
        return _play_games(task)
    finally:
        if task.iterations is not None:
            set_default_budget(task.game, None)


def _play_games(task: Task) -> Chunk:
    engine = get_engine(task.game)
    settings = engine.default_settings(None)
    chunk = Chunk()
    for index in range(task.start, task.stop):
        upper_seats = {s for s in range(task.players) if task.lower is None or s % 2 == index % 2}
        bots: list[Any] = []
        log: list[tuple[Any, Any, int, Any]] = []
        for seat in range(task.players):
            kind = task.upper if seat in upper_seats or task.lower is None else task.lower
            bot = make_player(task.game, kind, seat, bot_seed(task.seed, index, seat))
            bots.append(Timed(bot, chunk.move_ms, chunk.move_cpu_ms, log) if seat in upper_seats else bot)
        outcome = play_game(engine, settings, task.players, game_seed(task.seed, index), bots)
        if task.game == "collusion":
            mix_of(engine, log, chunk)
        winners = tuple(outcome.winners)
        chunk.winners.append(winners)
        chunk.scores.append(sum(1 for w in winners if w in upper_seats) / len(winners) if winners else 0.5)
        if task.game == "speakeasy":
            chunk.identities.append(tuple(s.identity.value for s in outcome.state.seats))
    return chunk


class Runner:
    """Plays tasks in ``jobs`` worker processes (spawned once, before any game) or, with one job,
    in this process; the chunks come back in game order whatever the process that played them."""

    def __init__(self, jobs: int) -> None:
        self.jobs = max(1, jobs)
        self._pool = (ProcessPoolExecutor(self.jobs, mp_context=multiprocessing.get_context("spawn"))
                      if self.jobs > 1 else None)

    def run(self, game: str, upper: Any, lower: Any | None, players: int, games: int, seed: int,
            iterations: int | None) -> Chunk:
        pieces = max(1, min(games, self.jobs * CHUNKS_PER_JOB))
        bounds = [games * i // pieces for i in range(pieces + 1)]
        tasks = [Task(game, upper, lower, players, seed, a, b, iterations) for a, b in zip(bounds, bounds[1:]) if b > a]
        chunks = list(self._pool.map(play_chunk, tasks)) if self._pool else [play_chunk(t) for t in tasks]
        merged = Chunk()
        for c in chunks:
            merged.add(c)
        return merged

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()


def play_pairing(game: str, upper: Any, lower: Any, games: int, seed: int,
                 runner: Runner | None = None, iterations: int | None = None) -> Pairing:
    started = time.perf_counter()
    chunk = (runner or Runner(1)).run(game, upper, lower, GAMES[game], games, seed, iterations)
    result = Pairing(game, upper, lower, chunk.scores, chunk.move_ms, chunk.move_cpu_ms, chunk.picks, chunk.first_votes)
    result.seconds = time.perf_counter() - started
    return result


def selfplay(game: str, games: int, seed: int, players: int, runner: Runner | None = None,
             iterations: int | None = None) -> tuple[list[float], list[float], list[float]]:
    """Search against itself: per seat win share, and the move times (wall, CPU)."""
    chunk = (runner or Runner(1)).run(game, PlayerKind.SEARCH, None, players, games, seed, iterations)
    wins = [0.0] * players
    informant_wins = citizen_wins = informants = citizens = 0.0
    for index, winners in enumerate(chunk.winners):
        for w in winners:
            wins[w] += 1 / len(winners)
        if game == "speakeasy":
            identity = chunk.identities[index]
            informants += identity.count("informant")
            citizens += identity.count("citizen")
            for w in winners:
                if identity[w] == "informant":
                    informant_wins += 1 / len(winners)
                else:
                    citizen_wins += 1 / len(winners)
    if game == "speakeasy" and games:
        print(f"{game}: search self-play ({games} games, {players} players): win rate per Informant "
              f"{informant_wins / max(1, informants):.2f}, per Citizen {citizen_wins / max(1, citizens):.2f} "
              f"(even: {1 / players:.2f})")
    mix = Pairing(game, PlayerKind.SEARCH, PlayerKind.SEARCH, picks=chunk.picks, first_votes=chunk.first_votes).mix_line()
    if mix is not None:
        print(f"{mix} [self-play, {players} players]", flush=True)
    return [w / max(1, games) for w in wins], chunk.move_ms, chunk.move_cpu_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    parser.add_argument("--pairing", action="append", metavar="UPPER:LOWER", help="only this pairing, e.g. search:belief")
    parser.add_argument("--iterations", type=int, default=None, help="search budget per move: iterations, Collusion: rollouts (default: per game)")
    parser.add_argument("--selfplay", type=int, default=0, help="search self-play games for the seat/role balance")
    parser.add_argument("--timing-games", type=int, default=0, help="search self-play games at the largest table, timed")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes sharing each pairing's games (default: the machine's cores)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs needs at least 1 worker; got {args.jobs}")
    runner = Runner(args.jobs)
    try:
        _run(args, runner)
    finally:
        runner.close()
    return 0


def _run(args: argparse.Namespace, runner: Runner) -> None:
    wanted = {tuple(PlayerKind(k) for k in p.split(":")) for p in args.pairing} if args.pairing else set(PAIRINGS)
    for game in args.game or list(GAMES):
        for upper, lower in PAIRINGS:
            if (upper, lower) in wanted and args.games > 0:
                pairing = play_pairing(game, upper, lower, args.games, args.seed, runner, args.iterations)
                print(pairing.line(), flush=True)
                if (mix := pairing.mix_line()) is not None:
                    print(mix, flush=True)
        if args.selfplay:
            shares, _, _ = selfplay(game, args.selfplay, args.seed, GAMES[game], runner, args.iterations)
            if game != "speakeasy":
                print(f"{game}: search self-play ({args.selfplay} games, {GAMES[game]} players) win share by seat: "
                      + " ".join(f"{s + 1}:{x:.2f}" for s, x in enumerate(shares)), flush=True)
        if args.timing_games:
            _, times, cpu = selfplay(game, args.timing_games, args.seed + 1, LARGEST[game], Runner(1), args.iterations)
            print(f"{game}: search move at {LARGEST[game]} seats: p50/p99 {_p50_p99(times)} ms "
                  f"(CPU {_p50_p99(cpu)} ms; {len(times)} moves)", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
