"""Bots for the Collusion companion — with **digital gold only**. They play the table-mode bots'
game (votes, Ambush, showdown: the companion's view during play is the table view) and never
answer a physical-gold check or enter a total: a bot holds no real bars, so a physical-gold table
seats humans only (the phones ask, the host answers for anyone without one)."""
from __future__ import annotations

from typing import Any

from game.bots import Bot
from game.games.collusion import rules as table


class CompanionBot(Bot):
    def __init__(self, inner: Bot) -> None:
        self._inner = inner
        self.uses_view = inner.uses_view
        self.thinks_off_loop = inner.thinks_off_loop

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        if not legal or any(type(a) not in table.ACTIONS.classes for a in legal):
            return None  # a physical-gold question only the player can answer
        return self._inner.choose(view, legal)

    def think_ms(self) -> int:
        return int(self._inner.think_ms())

