"""Small search budgets for every bot test (the measured defaults are for play, not for tests)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from game import catalog
from game.bots.search import SearchBudget, set_default_budget

GAMES = tuple(d.id for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots)  # the ladder: every table game with bots


@pytest.fixture(autouse=True)
def small_search_budget() -> Iterator[None]:
    for game in GAMES:
        set_default_budget(game, SearchBudget(2))
    yield
    for game in GAMES:
        set_default_budget(game, None)
