"""Collusion's players: ``make_bot(kind, seat, seed)`` with kinds random (tests), heuristic,
belief and search (:mod:`.heuristic`, :mod:`.belief`); the companion's bots (digital gold only)
wrap them (:mod:`.companion`). The factory lives here so no module of the package imports back
the one that imports it."""
from __future__ import annotations

from collections.abc import Callable

from game.bots import BotKind, build_kind

from .belief import BeliefBot, SearchBot
from .companion import CompanionBot
from .heuristic import HeuristicBot, RandomBot


def make_bot(kind: str, seat: int, seed: int) -> RandomBot | HeuristicBot:
    """A bot of ``kind`` (random / heuristic / belief / search)."""
    makers: dict[BotKind, Callable[[int, int], RandomBot | HeuristicBot]] = {
        BotKind.RANDOM: RandomBot, BotKind.HEURISTIC: HeuristicBot, BotKind.BELIEF: BeliefBot, BotKind.SEARCH: SearchBot,
    }
    return build_kind("collusion", makers, kind, seat, seed)


def make_companion_bot(kind: str, seat: int, seed: int) -> CompanionBot:
    """A companion-mode bot: the table bot of ``kind``, answering only what a bot can (no real bars)."""
    return CompanionBot(make_bot(kind, seat, seed))
