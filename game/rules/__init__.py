"""Pure rules engines, one module per game, sharing the types of :mod:`game.rules.base`."""
from __future__ import annotations

import importlib

from .base import GameEngine

GAMES: tuple[str, ...] = ("collusion", "speakeasy", "cheating_moth")


def get_engine(name: str) -> GameEngine:
    """The engine of a game by name (each module defines a module-level ``ENGINE``)."""
    if name not in GAMES:
        raise KeyError(f"unknown game {name!r}; choose one of {', '.join(GAMES)}")
    return importlib.import_module(f"game.rules.{name}").ENGINE
