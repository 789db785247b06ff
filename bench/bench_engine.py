"""Engine throughput: complete games per second with random bots, and per-apply latency.

    python bench/bench_engine.py [--game collusion] [--players 12] [--games 1000] [--seed 1]

The loop is the engine plus random bots and nothing else (``tabletop simulate`` adds statistics
and prints its own rate). Games/s is measured over several runs, by wall clock and by this
process's CPU time (what one core does even when other programs share the machine); the best run
is the least disturbed one. Per-apply p50/p99 come from a second pass that times every ``apply``
with ``perf_counter_ns``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.bots import make_bot, uses_view
from game.catalog import get_engine
from game.simulate import bot_seed, game_seed


def percentile(sorted_values: list[int], q: float) -> int:
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


class TimedEngine:
    """Wraps an engine so every ``apply`` is timed (delegates everything else)."""

    def __init__(self, engine: Any) -> None:
        self._engine = engine
        self.samples: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def apply(self, state: Any, seat: Any, action: Any) -> Any:
        start = time.perf_counter_ns()
        result = self._engine.apply(state, seat, action)
        self.samples.append(time.perf_counter_ns() - start)
        return result


def play(engine: Any, settings: Any, players: int, seed: int, bots: list[Any]) -> int:
    """A lean game loop (engine + bots, no statistics or recording): what the engine costs.
    Every seat with something to do is asked in turn; the table's timer fires when none acts."""
    state = engine.new_game(settings, players, seed)
    actions = 0
    while not engine.is_over(state):
        acted = False
        for seat in engine.seats_to_act(state):
            legal = engine.legal_actions(state, seat)
            action = bots[seat].choose(engine.view(state, seat) if uses_view(bots[seat]) else None, legal)
            if action is None:
                continue
            state, _ = engine.apply(state, seat, action)
            actions += 1
            acted = True
            if engine.is_over(state):
                break
        if not acted and not engine.is_over(state):
            timer = engine.timer(state)
            if timer is None:
                raise RuntimeError("stuck: nobody acts and no timer runs")
            state, _ = engine.apply(state, None, timer.on_expiry)
            actions += 1
    return actions


def throughput(engine: Any, game: str, players: int, games: int, seed: int) -> tuple[float, float, float]:
    settings = engine.default_settings()
    wall, cpu = time.perf_counter(), time.process_time()
    actions = 0
    for index in range(games):
        bots = [make_bot(game, "random", seat, bot_seed(seed, index, seat)) for seat in range(players)]
        actions += play(engine, settings, players, game_seed(seed, index), bots)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return games / wall, games / cpu, actions / games


def latency(game: str, players: int, games: int, seed: int) -> list[int]:
    timed = TimedEngine(get_engine(game))
    throughput(timed, game, players, games, seed)
    return sorted(timed.samples)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="collusion")
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5, help="throughput runs (best and median are reported)")
    args = parser.parse_args(argv)
    engine = get_engine(args.game)
    runs = [throughput(engine, args.game, args.players, args.games, args.seed) for _ in range(max(1, args.repeat))]
    cpu_rates = sorted(r[1] for r in runs)
    wall_rates = sorted(r[0] for r in runs)
    per_game = runs[0][2]
    cpu_rate, wall_rate = cpu_rates[len(runs) // 2], wall_rates[len(runs) // 2]
    samples = latency(args.game, args.players, max(50, args.games // 5), args.seed + 1)
    print(f"{args.game}: {args.games} complete {args.players}-seat games with random bots, {len(runs)} runs")
    print(f"  games/s per CPU-second of this process: best {cpu_rates[-1]:.0f}, median {cpu_rate:.0f}"
          f" (every run: {', '.join(f'{r:.0f}' for r in cpu_rates)})")
    print(f"  games/s by wall clock: best {wall_rates[-1]:.0f}, median {wall_rate:.0f}")
    print(f"  actions per game: {per_game:.1f}")
    print(f"  apply latency over {len(samples)} applies: p50 {percentile(samples, 0.50) / 1000:.1f} µs,"
          f" p99 {percentile(samples, 0.99) / 1000:.1f} µs, max {samples[-1] / 1000:.1f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
