"""The bot ladder, measured: each level against the level below, per game.

    nice -n 15 python3 bench/bench_bots.py [--games 2000] [--iterations N] [--game G] [--selfplay 200]

For every game (6 players for Collusion and Speakeasy, 4 for Cheating Moth) and every pairing
(heuristic vs random, belief vs heuristic, search vs belief, search vs heuristic) it plays
``--games`` seeded games with the two kinds on alternate seats (even seats in even games, odd
seats in odd games) and prints one line::

    GAME: LEVEL vs LEVEL: win share X.XX ± CI (N games), move p50/p99 ms

The win share is the upper level's share of the wins (a shared win split), the ± is the 95 %
normal interval of that mean, and the move times are the upper level's ``choose`` calls that
returned an action, on this machine, by the wall clock under whatever else runs on it and (in
brackets) by this process's CPU time — what one free core would take. ``--iterations`` sets the
search budget (default: :func:`game.bots.search.default_budget`); ``--selfplay`` games of
``search`` against itself give the seat balance (Collusion: win share by seat; Speakeasy:
Informant vs Citizen win rate per player), and ``--timing-games`` search self-play games at 12
seats (Collusion, Speakeasy) or 5 (Cheating Moth) give the move p50/p99 at the largest tables.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.bots import BotKind, make_bot, uses_view
from game.bots.search import SearchBudget, set_default_budget
from game.rules import get_engine
from game.simulate import bot_seed, game_seed, play_game

GAMES = {"collusion": 6, "speakeasy": 6, "cheating_moth": 4}
LARGEST = {"collusion": 12, "speakeasy": 12, "cheating_moth": 5}
PAIRINGS = ((BotKind.HEURISTIC, BotKind.RANDOM), (BotKind.BELIEF, BotKind.HEURISTIC),
            (BotKind.SEARCH, BotKind.BELIEF), (BotKind.SEARCH, BotKind.HEURISTIC))


class Timed:
    """A bot whose every ``choose`` that returns an action is timed (everything else passes through)."""

    def __init__(self, inner: Any, samples: list[float], cpu: list[float] | None = None) -> None:
        self.inner, self.samples, self.cpu = inner, samples, cpu if cpu is not None else []
        self.seat = inner.seat
        self.uses_view = uses_view(inner)

    def choose(self, view: Any, legal: list[Any]) -> Any:
        started, cpu = time.perf_counter(), time.process_time()
        action = self.inner.choose(view, legal)
        if action is not None:
            self.samples.append((time.perf_counter() - started) * 1000)
            self.cpu.append((time.process_time() - cpu) * 1000)
        return action

    def think_ms(self) -> int:
        return int(self.inner.think_ms())

    def race_press(self, view: Any) -> Any:
        return self.inner.race_press(view)  # Bot's default: no press


@dataclass
class Pairing:
    game: str
    upper: BotKind
    lower: BotKind
    scores: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    move_cpu_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0

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


def play_pairing(game: str, upper: BotKind, lower: BotKind, games: int, seed: int) -> Pairing:
    engine = get_engine(game)
    settings = engine.default_settings(None)
    players = GAMES[game]
    result = Pairing(game, upper, lower)
    started = time.perf_counter()
    for index in range(games):
        upper_seats = {s for s in range(players) if s % 2 == index % 2}
        bots = []
        for seat in range(players):
            kind = upper if seat in upper_seats else lower
            bot = make_bot(game, kind, seat, bot_seed(seed, index, seat))
            bots.append(Timed(bot, result.move_ms, result.move_cpu_ms) if seat in upper_seats else bot)
        outcome = play_game(engine, settings, players, game_seed(seed, index), bots)
        winners = outcome.winners
        result.scores.append(sum(1 for w in winners if w in upper_seats) / len(winners) if winners else 0.5)
    result.seconds = time.perf_counter() - started
    return result


def selfplay(game: str, games: int, seed: int, players: int) -> tuple[list[float], list[float], list[float]]:
    """Search against itself: per seat win share, and the move times (wall, CPU)."""
    engine = get_engine(game)
    settings = engine.default_settings(None)
    wins = [0.0] * players
    times: list[float] = []
    cpu: list[float] = []
    informant_wins = citizen_wins = informants = citizens = 0.0
    for index in range(games):
        bots = [Timed(make_bot(game, BotKind.SEARCH, s, bot_seed(seed, index, s)), times, cpu) for s in range(players)]
        outcome = play_game(engine, settings, players, game_seed(seed, index), bots)
        for w in outcome.winners:
            wins[w] += 1 / len(outcome.winners)
        if game == "speakeasy":
            identity = [s.identity.value for s in outcome.state.seats]
            informants += identity.count("informant")
            citizens += identity.count("citizen")
            for w in outcome.winners:
                if identity[w] == "informant":
                    informant_wins += 1 / len(outcome.winners)
                else:
                    citizen_wins += 1 / len(outcome.winners)
    if game == "speakeasy" and games:
        print(f"{game}: search self-play ({games} games, {players} players): win rate per Informant "
              f"{informant_wins / max(1, informants):.2f}, per Citizen {citizen_wins / max(1, citizens):.2f} "
              f"(even: {1 / players:.2f})")
    return [w / max(1, games) for w in wins], times, cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game (repeatable)")
    parser.add_argument("--pairing", action="append", metavar="UPPER:LOWER", help="only this pairing, e.g. search:belief")
    parser.add_argument("--iterations", type=int, default=None, help="search iterations per move (default: per game)")
    parser.add_argument("--selfplay", type=int, default=0, help="search self-play games for the seat/role balance")
    parser.add_argument("--timing-games", type=int, default=0, help="search self-play games at the largest table, timed")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)
    wanted = {tuple(BotKind(k) for k in p.split(":")) for p in args.pairing} if args.pairing else set(PAIRINGS)
    for game in args.game or list(GAMES):
        if args.iterations is not None:
            set_default_budget(game, SearchBudget(args.iterations))
        for upper, lower in PAIRINGS:
            if (upper, lower) in wanted and args.games > 0:
                print(play_pairing(game, upper, lower, args.games, args.seed).line(), flush=True)
        if args.selfplay:
            shares, _, _ = selfplay(game, args.selfplay, args.seed, GAMES[game])
            if game != "speakeasy":
                print(f"{game}: search self-play ({args.selfplay} games, {GAMES[game]} players) win share by seat: "
                      + " ".join(f"{s + 1}:{x:.2f}" for s, x in enumerate(shares)), flush=True)
        if args.timing_games:
            _, times, cpu = selfplay(game, args.timing_games, args.seed + 1, LARGEST[game])
            print(f"{game}: search move at {LARGEST[game]} seats: p50/p99 {_p50_p99(times)} ms "
                  f"(CPU {_p50_p99(cpu)} ms; {len(times)} moves)", flush=True)
        set_default_budget(game, None)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
