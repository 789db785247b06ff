"""Bots at the table: the contract the session drives (see ``docs/architecture.md``) and the
default factory, ``game.bots.make_bot(game, kind, seat, seed)``."""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Protocol

from .seats import BotKind


class Bot(Protocol):
    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any | None: ...

    def think_ms(self) -> int: ...


BotFactory = Callable[[str, BotKind, int, int], Bot]

MAX_BOT_STREAK = 32
"""A bot may act at most this many times in a row before some other seat or the table acts: far
more than any game's turn needs, a guard against a bot that keeps changing its mind forever (it
waits, then, for the others or the timer)."""


class NoBotForGame(Exception):
    """``game.bots`` has no bot for this game (yet)."""


def default_bot_factory(game: str, kind: BotKind, seat: int, seed: int) -> Bot:
    try:
        module = importlib.import_module("game.bots")
        make_bot = module.make_bot
    except (ImportError, AttributeError) as exc:
        raise NoBotForGame(f"no bots available: {exc}") from exc
    try:
        return make_bot(game, kind.value, seat, seed)
    except (KeyError, ImportError, ValueError) as exc:
        raise NoBotForGame(f"no {kind.value} bot for {game}: {exc}") from exc


def bot_seed(game_seed: int, seat: int) -> int:
    """A per-seat bot seed derived from the game's seed (bots replay the same for the same game)."""
    return (game_seed * 1_000_003 + seat * 7919 + 1) & ((1 << 63) - 1)
