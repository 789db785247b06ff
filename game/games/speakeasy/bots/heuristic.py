"""Speakeasy bots: ``make_bot(kind, seat, seed)`` with kinds "random", "heuristic", "belief" and "search".

Bots see only their own seat's view (``game/games/speakeasy/views.md``) and the legal actions, and
return one of those legal actions (or None: nothing to do now). A bot cannot look at the people
at the table, so the heuristic bot imagines how well each clue fits each seat with
:func:`clue_fit` — a fixed value per (clue, seat) that every bot shares, blurred by each bot's own
noise — so bot hosts and bot pointers agree often enough for the game to make sense.
"""
from __future__ import annotations

import abc
import hashlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from game.bots import Bot
from game.games.speakeasy.rules import ENGINE, ChooseSubject, Continue, Identity, Phase, Point

TIE_BREAK_CREDIT = 0.1  # S13: a correct point is worth a little even when it scores nothing
SELF_REVEAL_COST = {Identity.INFORMANT: 2, Identity.CITIZEN: 1}  # S12 bonus lost when revealed


def clue_fit(clue_id: int, seat: int) -> float:
    """How well clue ``clue_id`` fits seat ``seat`` in the bots' shared imagination, in [0, 1)."""
    digest = hashlib.blake2b(f"speakeasy:{clue_id}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / 2**64


def _as_actions(legal: Sequence[Any]) -> list[Any]:
    """Legal actions may come as engine objects or as their wire dicts."""
    return [ENGINE.action_from_wire(a) if isinstance(a, Mapping) else a for a in legal]


class SpeakeasyBot(Bot, abc.ABC):
    """The shared part: when to act at all. Subclasses pick the subject and the target."""

    think_range_ms: tuple[int, int] = (1_000, 3_000)
    uses_view = True  # the phase, our own pointing and the revealed identities come from the view

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)

    def think_ms(self) -> int:
        return self.rng.randint(*self.think_range_ms)

    def choose(self, view: Mapping[str, Any] | None, legal: Sequence[Any]) -> Any | None:
        actions = _as_actions(legal)
        if not actions or view is None:
            return None
        phase = Phase(view["phase"])
        if phase is Phase.CHOOSING:
            return self._pick(legal, actions, ChooseSubject, lambda subjects: self.pick_subject(view, subjects))
        if phase is Phase.POINTING:
            if (view.get("me") or {}).get("pointed_at") is not None:
                return None  # pointed already: do not keep changing our mind
            return self._pick(legal, actions, Point, lambda targets: self.pick_target(view, targets))
        if phase is Phase.REVEAL and view.get("timers", {}).get("reveal_ms", 0) <= 0:
            return self._pick(legal, actions, Continue, lambda _: 0)
        return None  # the reveal timer moves the table on; let people read the reveal

    @staticmethod
    def _pick(legal: Sequence[Any], actions: list[Any], kind: type, decide: Callable[[list[int]], int]) -> Any | None:
        """Offer ``decide`` the seat numbers of the legal actions of ``kind``; return the chosen one as given."""
        indices = [i for i, a in enumerate(actions) if isinstance(a, kind)]
        if not indices:
            return None
        values = [_value(actions[i]) for i in indices]
        chosen = decide(values)
        return legal[indices[values.index(chosen)]]

    @abc.abstractmethod
    def pick_subject(self, view: Mapping[str, Any], subjects: list[int]) -> int:
        """S6: as host, whom the clue describes (one of ``subjects``)."""

    @abc.abstractmethod
    def pick_target(self, view: Mapping[str, Any], targets: list[int]) -> int:
        """S7: whom to point at (one of ``targets``, possibly this bot's own seat)."""


def _value(action: Any) -> int:
    if isinstance(action, ChooseSubject):
        return action.subject
    if isinstance(action, Point):
        return action.target
    return 0


class RandomBot(SpeakeasyBot):
    """Any legal choice, uniformly."""

    think_range_ms = (800, 4_000)

    def pick_subject(self, view: Mapping[str, Any], subjects: list[int]) -> int:
        return self.rng.choice(subjects)

    def pick_target(self, view: Mapping[str, Any], targets: list[int]) -> int:
        return self.rng.choice(targets)


class HeuristicBot(SpeakeasyBot):
    """A host who mostly picks whom the clue fits best, sometimes a less obvious fit (S9); a pointer
    who weighs its belief about whom the clue fits by what a correct point would earn (S8, S12)."""

    think_range_ms = (1_500, 6_000)
    noise = 0.2  # how differently this bot sees the table from the shared imagination
    sharpness = 6.0  # how strongly belief follows fit
    bluff_rate = 0.3  # host: how often to pick the second-best fit, hoping nobody finds it (S9)

    def _fits(self, clue_id: int, seats: list[int]) -> dict[int, float]:
        return {s: clue_fit(clue_id, s) + self.rng.uniform(-self.noise, self.noise) for s in seats}

    def pick_subject(self, view: Mapping[str, Any], subjects: list[int]) -> int:
        fits = self._fits(view["clue"]["id"], subjects)
        ranked = sorted(subjects, key=lambda s: fits[s], reverse=True)
        if len(ranked) > 1 and self.rng.random() < self.bluff_rate:
            return ranked[1]
        return ranked[0]

    def pick_target(self, view: Mapping[str, Any], targets: list[int]) -> int:
        fits = self._fits(view["clue"]["id"], targets)
        weights = {t: math.exp(self.sharpness * fits[t]) for t in targets}
        total = sum(weights.values())
        worth = self._point_values(view, targets)
        expected = {t: weights[t] / total * worth[t] for t in targets}
        return max(targets, key=lambda t: (expected[t], -t))

    def _point_values(self, view: Mapping[str, Any], targets: list[int]) -> dict[int, float]:
        """What pointing at each target earns me if that target is the subject."""
        me = view["me"]
        mine = Identity(me["identity"])
        seats = view["seats"]
        p_informant = self._informant_odds(view, mine)
        out: dict[int, float] = {}
        for t in targets:
            known = seats[t]["identity"]
            if t == self.seat:
                out[t] = self._self_value(mine, seats[t]["revealed"])
            elif known == Identity.INFORMANT.value:
                out[t] = 1 + TIE_BREAK_CREDIT
            elif known == Identity.CITIZEN.value:
                out[t] = TIE_BREAK_CREDIT
            else:
                out[t] = p_informant + TIE_BREAK_CREDIT
        return out

    @staticmethod
    def _self_value(mine: Identity, revealed: bool) -> float:
        """S8: a self-point when I am the subject scores 1, but reveals me and costs my S12 bonus."""
        cost = 0 if revealed else SELF_REVEAL_COST[mine]
        return 1 - cost + TIE_BREAK_CREDIT

    def _informant_odds(self, view: Mapping[str, Any], mine: Identity) -> float:
        """The chance an unrevealed other seat is an informant, from what was revealed and my own card."""
        seats = view["seats"]
        unknown = [s for s in seats if not s["revealed"] and s["seat"] != self.seat]
        found = sum(1 for s in seats if s["identity"] == Identity.INFORMANT.value)
        mine_hidden = mine is Identity.INFORMANT and not seats[self.seat]["revealed"]
        left = view["informants"] - found - (1 if mine_hidden else 0)
        return max(left, 0) / len(unknown) if unknown else 0.0
