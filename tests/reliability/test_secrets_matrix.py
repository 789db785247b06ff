"""The secrets matrix (small CI version of ``bench/bench_secrets.py``): bots play each game of the
catalog that has bots at a real server app (the companions without bots: ``test_companion_secrets.py``,
which also fails for a catalog game in neither); at every change no seat, spectator, host console or big-screen
snapshot holds another seat's secret (votes before the reveal, gold values, identities, hands,
who holds which number), and every seat's frame is the public view plus its own part only."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from secrets_kit import FAST_GAMES, play_and_check

from game import catalog


@pytest.mark.parametrize("game", [g.id for g in catalog.games() if g.has_bots])  # bots play the matrix
def test_no_secret_leaves_its_seat(game: str, tmp_path: Path) -> None:
    whole = game in FAST_GAMES  # played to the end; the others for a bounded stretch of play
    matrix = asyncio.run(play_and_check(game, tmp_path / "data", max_seconds=60.0 if whole else 6.0,
                                        max_moments=10_000 if whole else 150))
    assert matrix.moments > 5 and matrix.spectator_states and matrix.host_states
    assert matrix.breaches == []
    if whole:
        assert matrix.finished  # the whole game was played and checked


def test_the_matrix_sees_a_planted_leak() -> None:
    from secrets_kit import leaks

    card = {"card": "target", "target": 2}
    assert leaks("collusion", {"seats": [{"seat": 1, "card": card}]}, 1, {"seat": 1, "card": card})
    assert not leaks("collusion", {"last_reveal": {"cards": [{"seat": 1, "card": card}]}}, 1, {"seat": 1, "card": card})
    unrevealed = {"seat": 3, "identity": "informant", "revealed": False}
    assert leaks("speakeasy", {"seats": [unrevealed]}, 3, {"seat": 3, "identity": "informant"})
    assert not leaks("speakeasy", {"seats": [{**unrevealed, "revealed": True}]}, 3, {"seat": 3, "identity": "informant"})
    hand = [{"id": 4, "kind": "moth", "number": 2}]
    assert leaks("cheating_moth", {"seats": [{"seat": 0, "hand": hand}]}, 0, {"seat": 0, "hand": hand})
    assert not leaks("cheating_moth", {"seats": [{"seat": 0, "hand": "many"}]}, 0, {"seat": 0, "hand": hand})
