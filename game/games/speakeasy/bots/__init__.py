"""Speakeasy's players: ``make_bot(kind, seat, seed)`` with kinds random (tests), heuristic,
belief and search (:mod:`.heuristic`, :mod:`.belief`)."""
from __future__ import annotations

from game.bots import BotKind, build_kind

from .belief import BeliefBot, SearchBot
from .heuristic import HeuristicBot, RandomBot, SpeakeasyBot


def make_bot(kind: str, seat: int, seed: int) -> SpeakeasyBot:
    """A Speakeasy bot for ``seat``; ``kind`` is a :class:`BotKind` value (:class:`UnknownBot` otherwise)."""
    makers: dict[BotKind, type[SpeakeasyBot]] = {
        BotKind.RANDOM: RandomBot, BotKind.HEURISTIC: HeuristicBot, BotKind.BELIEF: BeliefBot, BotKind.SEARCH: SearchBot,
    }
    return build_kind("speakeasy", makers, kind, seat, seed)
