"""Kiosk tests reuse the session tests' fake game and helpers."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game import catalog
from game.bots.search import SearchBudget, set_default_budget

SESSION_TESTS = Path(__file__).resolve().parent.parent / "session"
if str(SESSION_TESTS) not in sys.path:
    sys.path.insert(0, str(SESSION_TESTS))


@pytest.fixture(autouse=True)
def quick_demo_bots() -> Iterator[None]:
    """The attract reel's search bots think 2 iterations a move here (its tapes are recorded in the
    test's turn: the measured default budget is for play, not for tests)."""
    games = [d.id for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots]
    for game in games:
        set_default_budget(game, SearchBudget(2))
    yield
    for game in games:
        set_default_budget(game, None)
