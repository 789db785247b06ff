"""Collusion bots: ``random`` (a random legal card, then lock) and ``heuristic`` (reads the bar
counts and past reveals, joins the likely majority, ambushes when it is probably the target, picks
in the showdown from what it believes the other survivor will do); ``belief`` and ``search`` build
on it in :mod:`game.games.collusion.bots.belief`.

Bots see only their seat's view and the legal actions; each owns a ``random.Random(seed)``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from game.bots import Bot
from game.games.collusion.rules import (
    AMBUSH,
    LOCK,
    SHOWDOWN_PICKS,
    AmbushPick,
    Lock,
    ShowdownChoice,
    Unlock,
    Vote,
    showdown_payout,
)


class RandomBot(Bot):
    """Puts down a uniformly random legal card (target, Ambush, showdown pick or ambush victim),
    then locks it; once locked it waits for the reveal. Needs no view."""

    uses_view = False

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        if not legal:
            return None
        last = type(legal[-1])  # the engine lists Lock / Unlock last, after every card
        if last is Unlock:
            return None  # locked: wait for the reveal
        if last is Lock:
            return legal[-1]
        return self._rng.choice(legal)

    def think_ms(self) -> int:
        return self._rng.randint(400, 2_000)


@dataclass
class _Memory:
    """What a heuristic bot remembers from public reveals."""

    seen_reveals: set[tuple[int, int]] = field(default_factory=set)
    seen_showdowns: set[int] = field(default_factory=set)
    grudge: dict[int, float] = field(default_factory=dict)  # seat -> how often it voted for me
    showdown_history: dict[int, dict[str, int]] = field(default_factory=dict)


def _focal_seat(view: dict[str, Any]) -> int | None:
    """The living seat a table of heuristic bots leans on this vote (rotates by round and vote)."""
    living = [s["seat"] for s in view["seats"] if s["alive"]]
    if not living:
        return None
    return living[(view["round"] * 5 + view["vote"]) % len(living)]


# prior counts of what a showdown opponent plays (a mild lean towards Split, as people do)
_PRIOR = {"split": 2.0, "steal": 1.5, "take_one": 1.0}


class HeuristicBot(Bot):
    """Joins the likely majority (the bar leader, recent targets, whoever voted against it),
    ambushes when it expects to be the target (its victim is random, as C10 asks of bots), and in
    the showdown picks by expected bars given what the other survivor played before (or Take one
    when a single bar reaches the target)."""

    uses_view = True

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self._rng = random.Random(seed)
        self._mem = _Memory()

    # ---------------------------------------------------------------------------- the decision
    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        if not legal or view is None:
            return None
        self._remember(view)
        kinds = {type(a) for a in legal}
        if Unlock in kinds:
            return None
        if Lock in kinds:
            return LOCK
        phase = view["phase"]
        if phase == "vote":
            return self._vote(view, legal)
        if phase == "ambush_choice":
            return self._victim(legal)
        if phase == "showdown":
            return self._showdown(view)
        return None

    def think_ms(self) -> int:
        return self._rng.randint(1_500, 7_000)

    # ---------------------------------------------------------------------------------- memory
    def _remember(self, view: dict[str, Any]) -> None:
        reveal = view.get("last_reveal")
        if reveal and (reveal["round"], reveal["vote"]) not in self._mem.seen_reveals:
            self._mem.seen_reveals.add((reveal["round"], reveal["vote"]))
            for seat, target in enumerate(reveal["voted_for"]):
                if target == self.seat:
                    self._mem.grudge[seat] = self._mem.grudge.get(seat, 0.0) + 1.0
        sd = view.get("last_showdown")
        if sd and sd["round"] not in self._mem.seen_showdowns:
            self._mem.seen_showdowns.add(sd["round"])
            for seat, choice, late in zip(sd["seats"], sd["choices"], sd["timed_out"]):
                if not late:
                    counts = self._mem.showdown_history.setdefault(seat, {})
                    counts[choice] = counts.get(choice, 0) + 1

    # ------------------------------------------------------------------------------------ vote
    def _threat(self, view: dict[str, Any], seat: int) -> float:
        """How likely the table is to gang up on ``seat``: bar leaders, recent targets and, when
        nothing else tells them apart, a focal seat every heuristic bot agrees on (a convention
        standing in for the table talk bots cannot have)."""
        bars = view["seats"][seat]["bars"]
        score = 1.0 * bars
        reveal = view.get("last_reveal")
        if reveal and reveal["round"] == view["round"] and reveal["tally"][seat]:
            score += 0.6 * reveal["tally"][seat]
        if seat == _focal_seat(view):
            score += 0.5
        return score

    def _vote(self, view: dict[str, Any], legal: list[Any]) -> Any:
        me = view["me"]
        options: list[int] = me["vote_options"]
        if AMBUSH in legal and self._expect_target(view, options):
            return AMBUSH
        scored = []
        for seat in options:
            score = self._threat(view, seat) + 0.7 * self._mem.grudge.get(seat, 0.0)
            scored.append((score + self._rng.uniform(0.0, 0.8), seat))
        best = max(scored)[1]
        return next(a for a in legal if isinstance(a, Vote) and a.target == best)

    def _expect_target(self, view: dict[str, Any], options: list[int]) -> bool:
        mine = self._threat(view, self.seat)
        others = sorted((self._threat(view, s) for s in options), reverse=True)
        if not others:
            return False
        margin = mine - others[0]
        if margin <= 0:
            return self._rng.random() < 0.04  # a rare bluff
        return self._rng.random() < min(0.85, 0.35 + 0.2 * margin)

    def _victim(self, legal: list[Any]) -> Any:
        """C10: "a bot ... chooses at random" among the voters it may pick."""
        return self._rng.choice([a for a in legal if isinstance(a, AmbushPick)])

    # -------------------------------------------------------------------------------- showdown
    def _showdown(self, view: dict[str, Any]) -> Any:
        sd = view["showdown"]
        if sd["pot"] and view["me"]["total"] + 3 >= view["target_score"]:
            return SHOWDOWN_PICKS[ShowdownChoice.TAKE_ONE]  # one bar (3 or more) is sure and enough
        other = next(s for s in sd["seats"] if s != self.seat)
        history = self._mem.showdown_history.get(other, {})
        weights = {c: _PRIOR[c] + history.get(c, 0) for c in _PRIOR}
        total = sum(weights.values())
        pot = sd["pot"]
        best, best_value = ShowdownChoice.TAKE_ONE, float("-inf")
        for mine in ShowdownChoice:
            value = sum(
                weights[theirs.value] / total * showdown_payout(mine, theirs, pot)[0]
                for theirs in ShowdownChoice
            )
            if mine is ShowdownChoice.SPLIT:
                value += 0.8 * weights["split"] / total  # goodwill pays back in later rounds
            elif mine is ShowdownChoice.STEAL:
                value -= 2.0 * weights["steal"] / total  # Steal + Steal hands every other player a bar
            value += self._rng.uniform(0.0, 0.6)
            if value > best_value:
                best, best_value = mine, value
        return SHOWDOWN_PICKS[best]
