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


@pytest.mark.parametrize("game", ["collusion", "cheating_moth", "speakeasy"])
def test_the_human_model_plays_as_a_level_and_the_line_names_it(game: str) -> None:
    bench = _bench()
    pairing = bench.play_pairing(game, bench.PlayerKind.SEARCH, bench.PlayerKind.HUMAN, 2, 4, bench.Runner(1), 2)
    assert pairing.line().startswith(f"{game}: search vs human: win share ")
    assert len(pairing.scores) == 2 and all(0.0 <= s <= 1.0 for s in pairing.scores)


def test_collusion_prints_the_showdown_steal_share_and_the_first_votes_share() -> None:
    bench = _bench()
    pairing = bench.play_pairing("collusion", BotKind.HEURISTIC, BotKind.RANDOM, 6, 5, bench.Runner(1))
    shown = sum(pairing.picks.values())
    assert shown > 0 and len(pairing.first_votes) == 6 and all(1 / 6 <= v <= 1.0 for v in pairing.first_votes)
    line = pairing.mix_line()
    assert line is not None and line.startswith("collusion: heuristic: showdown steal share ")
    assert f"{pairing.picks['steal'] / shown:.2f}" in line and "first votes on the most-voted seat" in line
