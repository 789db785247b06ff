"""bench/bench_bots.py: the games of a pairing spread over worker processes give exactly the
figures of one process (every game carries its own seeds)."""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

import pytest

from game.bots import BotKind

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    if str(ROOT / "bench") not in sys.path:
        sys.path.append(str(ROOT / "bench"))  # spawned workers inherit the path and import it by name
    return importlib.import_module("bench_bots")


def test_two_jobs_give_the_same_win_shares_as_one() -> None:
    bench = _bench()
    runner = bench.Runner(2)
    try:
        split = bench.play_pairing("collusion", BotKind.HEURISTIC, BotKind.RANDOM, 6, 5, runner)
    finally:
        runner.close()
    alone = bench.play_pairing("collusion", BotKind.HEURISTIC, BotKind.RANDOM, 6, 5, bench.Runner(1))
    assert split.scores == alone.scores
    assert len(split.move_ms) == len(alone.move_ms) > 0  # every worker's move times come back
    assert split.line().split("), move")[0] == alone.line().split("), move")[0]


def test_a_game_plays_the_same_whatever_chunk_it_is_in() -> None:
    bench = _bench()
    whole = bench.play_chunk(bench.Task("speakeasy", BotKind.HEURISTIC, BotKind.RANDOM, 6, 3, 0, 6, None))
    tail = bench.play_chunk(bench.Task("speakeasy", BotKind.HEURISTIC, BotKind.RANDOM, 6, 3, 4, 6, None))
    assert whole.scores[4:] == tail.scores
    assert whole.identities[4:] == tail.identities


def test_jobs_below_one_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        _bench().main(["--jobs", "0", "--games", "1"])
    assert "--jobs needs at least 1 worker" in capsys.readouterr().err
