"""Bots at the table: the contract the session drives (:class:`game.bots.Bot`, see
``docs/architecture.md``) and the default factory, which asks the game's catalog entry."""
from __future__ import annotations

from collections.abc import Callable

from game import catalog
from game.bots import Bot, UnknownBot

from .seats import BotKind

__all__ = ["MAX_BOT_STREAK", "Bot", "BotFactory", "NoBotForGame", "bot_seed", "default_bot_factory"]

BotFactory = Callable[[str, BotKind, int, int], Bot]

MAX_BOT_STREAK = 32
"""A bot may act at most this many times in a row before some other seat or the table acts: far
more than any game's turn needs, a guard against a bot that keeps changing its mind forever (it
waits, then, for the others or the timer)."""


class NoBotForGame(Exception):
    """The game's catalog entry names no bot of that kind."""


def default_bot_factory(game: str, kind: BotKind, seat: int, seed: int) -> Bot:
    try:
        return catalog.get(game).make_bot(kind.value, seat, seed)
    except (catalog.UnknownGame, UnknownBot, ImportError) as exc:
        raise NoBotForGame(f"no {kind.value} bot for {game}: {exc}") from exc


def bot_seed(game_seed: int, seat: int) -> int:
    """A per-seat bot seed derived from the game's seed (bots replay the same for the same game)."""
    return (game_seed * 1_000_003 + seat * 7919 + 1) & ((1 << 63) - 1)
