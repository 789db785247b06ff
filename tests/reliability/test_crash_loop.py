"""Crash loop (small CI version of ``bench/bench_crash.py``): a real server process, scripted phones
playing, ``kill -9`` at random moments, restart on the same data directory; no acknowledged action
is lost, every seat comes back to its phone, and the game goes on to its end (Collusion here; a
scripted Cheating Moth game takes minutes, so CI stops after its kills and the bench plays it out)."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from crash_kit import crash_loop


@pytest.mark.slow
@pytest.mark.parametrize("game", ["collusion", "cheating_moth"])
def test_kill_9_at_random_moments_loses_no_acknowledged_action(game: str, tmp_path: Path) -> None:
    to_the_end = game == "collusion"
    report = asyncio.run(crash_loop(game, tmp_path / "data", kills=3, seed=2, to_the_end=to_the_end))
    assert report.kills == 3 and report.acked > 0
    assert report.problems == []
    assert report.lost == 0 and report.seats_lost == 0
    assert report.games_finished >= 1 or not to_the_end
