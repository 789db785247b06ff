"""The secrets matrix over whole games of every game in the catalog.

    python3 bench/bench_secrets.py [--seeds 3] [--seconds 60] [--companion-seeds 20]

Records every seat's frame, the spectator feed, the host console and the big screen's snapshot at
every change and checks that none holds another seat's secret: bots play the games that have bots
at a real server app (``tests/reliability/secrets_kit.py``); seeded scripted people play the
companion variants without bots through a real session on virtual time
(``tests/reliability/companion_secrets_kit.py``). Prints, per game, the games played (and how many
to their end), the moments recorded, the messages looked into, the checks made (observer, seat or
secret) and the breaches (goal: 0).
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
from dataclasses import dataclass, fields
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

import companion_secrets_kit  # noqa: E402
from secrets_kit import Matrix, play_and_check  # noqa: E402

from game import catalog  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="games per game with bots")
    parser.add_argument("--seconds", type=float, default=60.0, help="longest one bots' game may take")
    parser.add_argument("--companion-seeds", type=int, default=20, help="games per companion without bots")
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # bots' refused timed actions are logged; not the point here
    totals = Totals()
    for desc in catalog.games():
        seeds = range(1, (args.seeds if desc.has_bots else args.companion_seeds) + 1)
        game = Totals()
        for seed in seeds:
            game.add(desc.id, seed, _bots_game(desc.id, seed, args.seconds) if desc.has_bots
                     else companion_secrets_kit.play_and_check(desc.id, seed).matrix)
        who = "bots at a server app" if desc.has_bots else "scripted people, virtual time"
        print(f"{desc.id:<24} {game.line()} ({who})")
        totals.merge(game)
    print(f"{'all games':<24} {totals.line()}")
    print(f"secrets found outside their seat: {totals.breaches}")
    return 1 if totals.breaches else 0


def _bots_game(game: str, seed: int, seconds: float) -> Matrix:
    with tempfile.TemporaryDirectory(prefix="secrets-") as data_dir:
        return asyncio.run(play_and_check(game, Path(data_dir), seed=seed, max_seconds=seconds))


@dataclass
class Totals:
    games: int = 0
    finished: int = 0
    moments: int = 0
    messages: int = 0
    checks: int = 0
    breaches: int = 0

    def add(self, game: str, seed: int, m: Matrix) -> None:
        self.games += 1
        self.finished += m.finished
        self.moments += m.moments
        self.messages += m.messages
        self.checks += m.checks
        self.breaches += len(m.breaches)
        for line in m.breaches[:5]:
            print(f"  BREACH {game} seed {seed}: {line}")

    def merge(self, other: Totals) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def line(self) -> str:
        return (f"{self.games} games, {self.finished} played to the end; {self.moments} moments, "
                f"{self.messages} messages checked, {self.checks} checks, {self.breaches} breaches")


if __name__ == "__main__":
    sys.exit(main())
