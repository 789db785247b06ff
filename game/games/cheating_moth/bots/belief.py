"""Cheating Moth ``belief`` and ``search`` bots.

The belief, from the seat's view only: **how watchful the guard is** — a Beta estimate per guard
of how often a tell on the table is followed by that guard's accusation (:func:`observe_tell`),
which gives the chance a cheat now is caught (half when the guard is busy playing, giving or
racing) — and **what the others hold**: the cards this seat has not seen (the deck minus its hand
and the top card), hand sizes exact at 3 or fewer and otherwise shared out of what is left
(:func:`hand_sizes`).

The belief bot cheats a card when the expected penalty saved beats the expected cost of being
caught (the card back, one from the guard, the bug: :func:`cheat_worth`), its costliest card
first. The search bot is the belief bot with two differences: as the guard it accuses every
tell it sees (after a human spotting time, which still lands inside the hold and the caught
window, M8), and on its own turn it deals the hidden cards from the belief (:func:`deal_hidden`)
and rolls every distinct candidate (each playable card, or a draw) on a fast model of the round
(:mod:`game.games.cheating_moth.bots.rollout`) from the same deals and rollout seeds
(:func:`game.bots.search.search_paired`), the heuristic's card values as the prior. Measured
against ``belief`` (``bench/bench_bots.py``): the watchful guard is what wins; the card search
neither gains nor loses, and searching the cheat (whether, and which card) on that model lost.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.bots.search import SearchBudget, default_budget, search_paired
from game.games.cheating_moth.bots.heuristic import NOTICE, HeuristicBot
from game.games.cheating_moth.bots.rollout import TEMPO, RoundModel, card_table, deal_hidden
from game.games.cheating_moth.rules import (
    ENGINE,
    PENALTY,
    Accuse,
    CheatStart,
    Draw,
    Kind,
    Phase,
    Play,
)

CAUGHT_COST = 6.0  # caught: the card comes back, one more from the guard, and the bug (no more cheats)
WATCH_PRIOR = 2.0  # pseudo-observations behind the prior notice rate
HORIZON_TURNS = 12  # a rollout plays this many turns (three rounds of the table at 4), or to the round's end
SPOT_MS_MAX = 650  # the slowest a bot guard accuses after spotting a tell (HeuristicBot.think_ms)


# ------------------------------------------------------------------------------ the belief (pure)
def observe_tell(watch: tuple[float, float], accused: bool) -> tuple[float, float]:
    """One tell seen under a guard: (times accused, times let pass) plus this one."""
    return (watch[0] + 1, watch[1]) if accused else (watch[0], watch[1] + 1)


def notice_rate(watch: tuple[float, float]) -> float:
    return watch[0] / (watch[0] + watch[1])


def prior_watch(tell: str | None) -> tuple[float, float]:
    """Before seeing a guard: a guard notices a tell as often as the table's heuristic guard would."""
    rate = NOTICE.get(tell or "", 0.15)  # no tell at all: a guard accuses by luck or by counts
    return (WATCH_PRIOR * rate, WATCH_PRIOR * (1 - rate))


def caught_chance(watch: tuple[float, float], guard_busy: bool) -> float:
    """P(a cheat started now is caught): the guard's notice rate, halved while it is busy."""
    return notice_rate(watch) * (0.5 if guard_busy else 1.0)


def cheat_worth(kind: Kind, p_caught: float) -> float:
    """Expected penalty points a cheat of a ``kind`` card saves (negative: not worth it)."""
    return (1 - p_caught) * (PENALTY[kind] + TEMPO) - p_caught * CAUGHT_COST


def hand_sizes(shown: Sequence[int | str], mine: int, me: int, hidden_cards: int) -> list[int]:
    """Every hand's size: exact where shown (or mine), the rest of ``hidden_cards`` shared out over
    the "many" hands (each at least 4), the first ones taking the odd cards."""
    sizes = [mine if s == me else (v if isinstance(v, int) else 0) for s, v in enumerate(shown)]
    many = [s for s, v in enumerate(shown) if not isinstance(v, int) and s != me]
    left = hidden_cards - sum(sizes[s] for s in range(len(shown)) if s != me)
    for i, s in enumerate(many):
        share = left // (len(many) - i)
        sizes[s] = max(4, share)
        left -= sizes[s]
    return sizes


@dataclass
class MothBelief:
    """Per guard: (accused after a tell, let a tell pass); the tells being watched right now."""

    tell: str | None = None
    watch: dict[int, tuple[float, float]] = field(default_factory=dict)
    open_tells: dict[int, int] = field(default_factory=dict)  # seat -> the guard it showed to

    def digest(self, view: Mapping[str, Any]) -> None:
        self.tell = view["settings"].get("tell")
        showing = {s["seat"] for s in view["seats"] if s["tell"]}
        accusation = view.get("last_accusation")
        for seat, guard in list(self.open_tells.items()):
            if seat not in showing:
                accused = accusation is not None and (accusation["guard"], accusation["target"]) == (guard, seat)
                self.watch[guard] = observe_tell(self.watch.get(guard, prior_watch(self.tell)), accused)
                del self.open_tells[seat]
        for seat in showing:
            self.open_tells.setdefault(seat, view["guard"])

    def watch_of(self, guard: int) -> tuple[float, float]:
        return self.watch.get(guard, prior_watch(self.tell))


# ------------------------------------------------------------------------------------ belief bot
class BeliefBot(HeuristicBot):
    """The heuristic's play, with cheats chosen by :func:`cheat_worth` against the belief about
    the guard's watchfulness."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.belief = MothBelief()

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        if view is not None:
            self.belief.digest(view)
        return super().choose(view, legal)

    def _maybe_cheat(self, view: dict[str, Any], legal: list[Any]) -> Any | None:
        starts = {a.card for a in legal if isinstance(a, CheatStart)}
        hand = [c for c in view["me"]["hand"] if c["id"] in starts]
        if not hand or len(view["me"]["hand"]) <= 2 or any(isinstance(a, Accuse) for a in legal):
            return None
        p = caught_chance(self.belief.watch_of(view["guard"]), self._guard_busy_now(view))
        best = max(hand, key=lambda c: (PENALTY[Kind(c["kind"])], c["number"]))
        if cheat_worth(Kind(best["kind"]), p) > 0:
            return self._start_cheat(best["id"])
        return None

    @staticmethod
    def _guard_busy_now(view: dict[str, Any]) -> bool:
        guard = view["guard"]
        pending = view.get("pending") or {}
        return (view["turn"] == guard or pending.get("giver") == guard
                or guard in pending.get("givers", ()) or bool(view.get("race")))


# ------------------------------------------------------------------------------------ search bot
class MothProblem:
    """One turn's play: deal the hidden cards (:func:`deal_hidden`), play the candidate, roll the
    round on with the fast model's policy for :data:`HORIZON_TURNS` turns, score the penalties as
    a share of the table's."""

    def __init__(self, view: Mapping[str, Any], me: int) -> None:
        self.view, self.me = view, me
        self.cards = card_table(ENGINE.settings_from_wire(view["settings"]))
        unseen = len(self.cards.number) - len(view["me"]["hand"]) - 1
        hidden = unseen - view["draw_size"] - (view["discard_size"] - 1)
        self.sizes = hand_sizes([s["hand"] for s in view["seats"]], len(view["me"]["hand"]), me, max(0, hidden))

    def determinise(self, rng: random.Random) -> RoundModel:
        return deal_hidden(self.view, self.me, self.sizes, self.cards, rng)

    def rollout(self, state: RoundModel, action: Any, rng: random.Random) -> float:
        model = state.copy(rng)
        if isinstance(action, Play):
            model.play(self.me, action.card)
        else:
            model.take_turn_draw(self.me)
        model.run(HORIZON_TURNS)
        return model.share(self.me)


def distinct_plays(candidates: Sequence[Any], cards: Mapping[int, Mapping[str, Any]]) -> list[Any]:
    """One candidate per (kind, number): two such cards play alike."""
    seen: dict[Any, Any] = {}
    for a in candidates:
        key = (cards[a.card]["kind"], cards[a.card]["number"]) if isinstance(a, Play) else None
        seen.setdefault(key, a)
    return list(seen.values())


class SearchBot(BeliefBot):
    """The belief bot, with a watchful guard and a search of its own turn's play: every
    candidate (each distinct playable card, or a draw) rolled out from the same determinisations
    with common random numbers (:func:`game.bots.search.search_paired`), the heuristic's card
    values as the prior."""

    thinks_off_loop = True  # a search spends its budget: the session runs it off the loop

    def __init__(self, seat: int, seed: int, budget: SearchBudget | None = None) -> None:
        super().__init__(seat, seed)
        self.budget = budget

    def _spotted_tells(self, view: dict[str, Any]) -> list[int]:
        """Every tell on the table, when an accusation after a reaction time still lands (M8: the
        hold plus the caught window outlasts the slowest spotting time)."""
        settings = view["settings"]
        if settings["cheat_ms"] + settings["caught_window_ms"] <= SPOT_MS_MAX:
            return super()._spotted_tells(view)
        return [s["seat"] for s in view["seats"] if s["tell"]]

    def _best_required(self, view: dict[str, Any], required: list[Any]) -> Any:
        candidates = [a for a in required if isinstance(a, (Play, Draw))]
        if len(candidates) < 2 or view["phase"] != Phase.PLAY.value or len(candidates) != len(required):
            return super()._best_required(view, required)
        cards = {c["id"]: c for c in view["me"]["hand"]}
        candidates = distinct_plays(candidates, cards)
        if len(candidates) < 2:
            return candidates[0]
        prior = [self._play_value(cards[a.card], cards) if isinstance(a, Play) else 0.0 for a in candidates]
        top = max(prior) or 1.0
        budget = self.budget or default_budget("cheating_moth", len(view["seats"]))
        return search_paired(MothProblem(view, self.seat), candidates, budget.iterations, self.rng,
                             prior=[0.5 + 0.5 * p / top for p in prior])
