"""Toy Guess players: pick at random, always buzz (``make_bot(kind, seat, seed)``)."""
from __future__ import annotations

import random
from typing import Any

from game.bots import Bot


class ToyBot(Bot):
    def __init__(self, seat: int, seed: int, careful: bool) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.careful = careful

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        if not legal:
            return None
        return legal[-1] if self.careful else self.rng.choice(legal)

    def think_ms(self) -> int:
        return self.rng.randint(150, 600)

    def race_press(self, view: Any) -> bool | None:
        return True if self.careful or self.rng.random() < 0.7 else None


def make_bot(kind: str, seat: int, seed: int) -> ToyBot:
    return ToyBot(seat, seed, careful=kind == "heuristic")
