"""Cheating Moth's players: ``make_bot(kind, seat, seed)`` with kinds random (tests), heuristic,
belief and search (:mod:`.heuristic`, :mod:`.belief`; the search's round model is :mod:`.rollout`)."""
from __future__ import annotations

from collections.abc import Callable

from game.bots import BotKind, build_kind

from .belief import BeliefBot, SearchBot
from .heuristic import HeuristicBot, RandomBot


def make_bot(kind: str, seat: int, seed: int) -> RandomBot | HeuristicBot:
    """A bot of ``kind`` (random / heuristic / belief / search)."""
    makers: dict[BotKind, Callable[[int, int], RandomBot | HeuristicBot]] = {
        BotKind.RANDOM: RandomBot, BotKind.HEURISTIC: HeuristicBot, BotKind.BELIEF: BeliefBot, BotKind.SEARCH: SearchBot,
    }
    return build_kind("Cheating Moth", makers, kind, seat, seed)
