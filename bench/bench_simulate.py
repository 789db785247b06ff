"""``tabletop simulate``'s speed: complete games per second, beside the bare engine in the same run.

    nice -n 5 python3 bench/bench_simulate.py [--game cheating_moth] [--players 5] [--games 40] [--bots random]

Two loops over the same seeded games, each timed by this process's CPU time (what one core does
even while other programs share the machine) and by the wall clock:

1. ``simulate``: :func:`game.simulate.run` — bots choosing (with their views where they read them),
   the virtual clock, timers and races, the statistics;
2. the bare loop: the first loop's recorded actions replayed through ``engine.apply`` alone (no bot,
   no view, no legal-action lists) — what the rules cost, the floor under any simulator.

The ratio of the two is the simulator's overhead, steadier than either figure on a loaded machine.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from game.catalog import get_engine
from game.records import GameRecord, load
from game.simulate import run


def simulated(game: str, players: int, games: int, bots: str, record: Path) -> tuple[float, float, list[GameRecord]]:
    """CPU and wall seconds of ``games`` simulated games, and each game's record."""
    records: list[GameRecord] = []
    cpu = wall = 0.0
    for index in range(games):  # one game per run, so each game's record is kept
        path = record.with_suffix(f".{index}.json")
        started, cpu0 = time.perf_counter(), time.process_time()
        run(game, players, 1, 1 + index, bots, None, str(path))
        cpu += time.process_time() - cpu0
        wall += time.perf_counter() - started
        records.append(load(str(path)))
        path.unlink()
    return cpu, wall, records


def bare(game: str, records: list[GameRecord]) -> tuple[float, float, int]:
    """CPU and wall seconds of replaying every record through ``apply`` alone, and the actions."""
    engine = get_engine(game)
    games = []
    for rec in records:
        settings = engine.settings_from_wire(rec.settings, rec.preset)
        games.append((engine.new_game(settings, rec.seats, rec.seed), [(a.seat, engine.action_from_wire(a.action)) for a in rec.actions]))
    started, cpu0 = time.perf_counter(), time.process_time()
    count = 0
    for state, actions in games:
        for seat, action in actions:
            state = engine.apply(state, seat, action)[0]
            count += 1
    return time.process_time() - cpu0, time.perf_counter() - started, count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="cheating_moth")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--bots", default="random")
    args = parser.parse_args(argv)
    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_simulate_{os.getpid()}"
    load_before = os.getloadavg()[0]
    cpu, wall, records = simulated(args.game, args.players, args.games, args.bots, scratch)
    bare_cpu, bare_wall, actions = bare(args.game, records)
    n = args.games
    print(f"{args.game}, {args.players} players, {args.bots} bots, {n} games ({actions} actions), "
          f"load {load_before:.1f}→{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    print(f"  simulate:  {n / cpu:7.1f} games/s by CPU ({n / wall:.1f} by the wall clock)")
    print(f"  bare apply:{n / bare_cpu:7.1f} games/s by CPU ({n / bare_wall:.1f} by the wall clock)")
    print(f"  simulate costs {cpu / bare_cpu:.1f}× the bare engine")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
