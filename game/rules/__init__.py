"""Pure rules engines, one module per game, sharing the types of :mod:`game.rules.base`.

Which games exist is the catalog's business (:mod:`game.catalog`); this package only offers the
lookup by id for callers that want an engine."""
from __future__ import annotations

from game import catalog

from .base import GameEngine

GAMES: tuple[str, ...] = catalog.ids(catalog.PlayMode.TABLE)
"""The table games' ids at import time (old callers; new code asks :func:`game.catalog.games`)."""


def get_engine(name: str) -> GameEngine:
    """The engine of a game by catalog id (raises :class:`game.catalog.UnknownGame`, a KeyError)."""
    return catalog.get(name).load_engine()
