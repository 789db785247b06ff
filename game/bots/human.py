"""A model of a person at the table, to measure whether the bots are fun to play against
(``bench/bench_bots.py --pairing search:human``): not a level players pick, a stand-in for them.

What a person brings, and how the model has it:

- **judgement**: a thoughtful player weighs what the others have shown — the ``belief`` level's
  reasoning (each game's :mod:`~game.games` ``bots/belief.py``), not a search of the future;
- **pace and attention**: every bot level already acts at a person's pace and notices a tell half
  as often while busy (:mod:`game.bots.pace`), so the model inherits them;
- **lapses**: people misclick, misread or follow a hunch — :data:`LAPSE` of the weighed choices go
  to another option of the same sort (another target, another card), never to a different act
  (a person does not cheat or accuse by accident).
"""
from __future__ import annotations

import random
from typing import Any

from game.bots import Bot

LAPSE = 0.08  # share of weighed choices a person makes otherwise than their judgement says


class HumanModel(Bot):
    """``judge`` (a bot of the game's ``belief`` kind) decides; the model keeps its pace, races
    and attention and lapses :data:`LAPSE` of its choices to another of the same sort."""

    def __init__(self, judge: Bot, seat: int, seed: int) -> None:
        self._judge = judge
        self._rng = random.Random(seed ^ 0x5EED)
        self.seat = seat
        self.uses_view = judge.uses_view
        self.thinks_off_loop = judge.thinks_off_loop

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        action = self._judge.choose(view, legal)
        if action is None or self._rng.random() >= LAPSE:
            return action
        same = [a for a in legal if type(a) is type(action) and a != action]
        return self._rng.choice(same) if same else action

    def think_ms(self) -> int:
        return int(self._judge.think_ms())

    def race_press(self, view: Any) -> Any | None:
        return self._judge.race_press(view)
