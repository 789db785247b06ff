"""Small search budgets for every bot test (the measured defaults are for play, not for tests)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.bots.search import SearchBudget, set_default_budget

GAMES = ("collusion", "speakeasy", "cheating_moth")


@pytest.fixture(autouse=True)
def small_search_budget() -> Iterator[None]:
    for game in GAMES:
        set_default_budget(game, SearchBudget(2))
    yield
    for game in GAMES:
        set_default_budget(game, None)
