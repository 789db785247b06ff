"""Speakeasy ``belief`` and ``search`` bots.

The belief, from the seat's view only: **who is an Informant** — the informants not yet found
spread over the seats not yet revealed, weighted by what each did (a seat that pointed at itself
while unrevealed is more likely a Citizen: an Informant loses 2 at the end by revealing itself, a
Citizen only 1); a revealed identity is certain for good (:func:`informant_odds`) — and **whom
a host picks**: each host's habit, as the rank of its past subjects among how well the clue fits
each seat (:func:`observe_host`), over a prior that most hosts pick the best fit.

The belief bot points at the seat most worth it (chance it is the subject × what pointing at it
earns, S8/S12) and, as host, picks the subject least likely to be found (S9), preferring Citizens
already revealed (only the subject scores when found). The search bot determinises identities
and the subject from the belief and plays each candidate through the reveal with the other seats
pointing as heuristic players do (:mod:`game.bots.search`).
"""
from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from game.bots.search import SearchBudget, default_budget, search, softmax_share
from game.games.speakeasy.bots.heuristic import TIE_BREAK_CREDIT, HeuristicBot, SpeakeasyBot, clue_fit
from game.games.speakeasy.rules import BUILTIN_DECKS, ENGINE, ChooseSubject, Identity, Phase, Point, SeatState, State
from game.rules.rng import Rng

SELF_POINT_RATIO = 0.3  # P(self-point | Informant) / P(self-point | Citizen), unrevealed
HOST_RANK_PRIOR = (3.0, 1.2, 0.3)  # prior counts: host picks the best fit, the second, anything else
FIT_NOISE = 0.2  # how differently a heuristic player sees a clue's fit (Speakeasy HeuristicBot.noise)
POINT_SHARPNESS = 6.0  # a pointer's lean towards the best fit


# ------------------------------------------------------------------------------ the belief (pure)
def symmetric_sums(weights: Sequence[float], k: int) -> list[float]:
    """e_0 … e_k of ``weights`` (the elementary symmetric polynomials)."""
    e = [1.0] + [0.0] * k
    for w in weights:
        for j in range(k, 0, -1):
            e[j] += e[j - 1] * w
    return e


def informant_odds(seats: Sequence[int], informants: int, known: Mapping[int, Identity],
                   ratio: Mapping[int, float]) -> dict[int, float]:
    """P(each seat is an Informant): known identities are certain; the Informants left are spread
    over the unknown seats, each weighted by ``ratio`` (likelihood Informant : Citizen of what it did)."""
    out = {s: 1.0 if known[s] is Identity.INFORMANT else 0.0 for s in seats if s in known}
    unknown = [s for s in seats if s not in known]
    left = informants - sum(1 for i in known.values() if i is Identity.INFORMANT)
    if not unknown:
        return out
    if left <= 0 or left > len(unknown):
        out.update(dict.fromkeys(unknown, 0.0 if left <= 0 else 1.0))
        return out
    total = symmetric_sums([ratio.get(s, 1.0) for s in unknown], left)[left]
    for s in unknown:
        rest = symmetric_sums([ratio.get(t, 1.0) for t in unknown if t != s], left - 1)[left - 1]
        out[s] = ratio.get(s, 1.0) * rest / total
    return out


def observe_self_point(ratio: Mapping[int, float], seat: int, revealed_before: bool) -> dict[int, float]:
    """A seat pointed at itself while unrevealed: evidence it is a Citizen."""
    out = dict(ratio)
    if not revealed_before:
        out[seat] = out.get(seat, 1.0) * SELF_POINT_RATIO
    return out


def fit_rank(clue_id: int, options: Sequence[int], subject: int) -> int:
    """0 when ``subject`` is the best fit of ``options`` for the clue, 1 the second, 2 anything worse."""
    ranked = sorted(options, key=lambda s: -clue_fit(clue_id, s))
    return min(2, ranked.index(subject))


def observe_host(habits: Mapping[int, tuple[float, float, float]], host: int, rank: int) -> dict[int, tuple[float, float, float]]:
    """One more subject seen from ``host`` at fit rank ``rank`` (0, 1, 2+)."""
    out = dict(habits)
    counts = list(out.get(host, HOST_RANK_PRIOR))
    counts[rank] += 1
    out[host] = (counts[0], counts[1], counts[2])
    return out


def subject_odds(clue_id: int, options: Sequence[int], habit: tuple[float, float, float]) -> dict[int, float]:
    """P(subject = each option) from the host's habit over fit ranks (rank 2 shared by the rest)."""
    ranked = sorted(options, key=lambda s: -clue_fit(clue_id, s))
    total = sum(habit)
    rest = max(1, len(ranked) - 2)
    out = {}
    for i, s in enumerate(ranked):
        out[s] = habit[min(i, 2)] / total / (rest if i >= 2 else 1)
    norm = sum(out.values())
    return {s: p / norm for s, p in out.items()}


def find_odds(clue_id: int, pointers: Sequence[int], targets: Sequence[int]) -> dict[int, float]:
    """P(at least one pointer points at each target), pointers leaning to the best fit."""
    top = max(clue_fit(clue_id, t) for t in targets)
    weights = {t: math.exp(POINT_SHARPNESS * (clue_fit(clue_id, t) - top)) for t in targets}
    total = sum(weights.values())
    return {t: 1 - (1 - weights[t] / total) ** len(pointers) for t in targets}


@dataclass
class SpeakeasyBelief:
    """Evidence digested from the public history (each clue once)."""

    ratio: dict[int, float] = field(default_factory=dict)
    habits: dict[int, tuple[float, float, float]] = field(default_factory=dict)
    seen: int = 0  # history entries digested

    def digest(self, view: Mapping[str, Any]) -> None:
        history = view["history"]
        revealed_at: set[int] = set()
        for i, result in enumerate(history):
            if i >= self.seen:
                self._one(result, revealed_at, view["n_seats"])
            if result.get("newly_revealed") and result.get("subject") is not None:
                revealed_at.add(result["subject"])
        self.seen = len(history)

    def _one(self, result: Mapping[str, Any], revealed: set[int], n: int) -> None:
        for seat, target in enumerate(result["pointing"]):
            if target == seat:
                self.ratio = observe_self_point(self.ratio, seat, seat in revealed)
        subject = result.get("subject")
        if subject is not None and not result.get("subject_by_timeout"):
            host = result["host"]
            options = [s for s in range(n) if s != host]
            self.habits = observe_host(self.habits, host, fit_rank(result["clue_id"], options, subject))

    def informants(self, view: Mapping[str, Any], me: int) -> dict[int, float]:
        known = {s["seat"]: Identity(s["identity"]) for s in view["seats"] if s["identity"] is not None}
        known[me] = Identity(view["me"]["identity"])
        return informant_odds(range(view["n_seats"]), view["informants"], known, self.ratio)


# ------------------------------------------------------------------------------------ belief bot
class BeliefBot(SpeakeasyBot):
    """Points where the belief says a point is worth most; hosts the subject least likely found."""

    think_range_ms = (2_000, 7_000)

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self.belief = SpeakeasyBelief()

    def point_worth(self, view: Mapping[str, Any], target: int, p_informant: float) -> float:
        """What pointing at ``target`` earns if it is the subject (S8, S12, S13)."""
        seat = view["seats"][target]
        if target == self.seat:
            return HeuristicBot._self_value(Identity(view["me"]["identity"]), seat["revealed"])
        return p_informant + TIE_BREAK_CREDIT

    def pick_target(self, view: Mapping[str, Any], targets: list[int]) -> int:
        self.belief.digest(view)
        odds = self.belief.informants(view, self.seat)
        habit = self.belief.habits.get(view["host"], HOST_RANK_PRIOR)
        subject = subject_odds(view["clue"]["id"], targets, habit)
        return max(targets, key=lambda t: (subject[t] * self.point_worth(view, t, odds[t]), -t))

    def pick_subject(self, view: Mapping[str, Any], subjects: list[int]) -> int:
        self.belief.digest(view)
        odds = self.belief.informants(view, self.seat)
        found = find_odds(view["clue"]["id"], subjects, subjects)

        def worth(s: int) -> float:  # S9 for me, minus what the finders would score
            finders = (len(subjects) - 1) / 2
            return (1 - found[s]) - found[s] * (odds[s] * finders + (1 - odds[s])) * 0.25

        return max(subjects, key=lambda s: (worth(s), -s))


# ------------------------------------------------------------------------------------ search bot
def _settings_for(view: Mapping[str, Any]) -> Any:
    deck = view["deck"] if view["deck"] in BUILTIN_DECKS else "en"
    settings = ENGINE.default_settings(deck)
    needed = view["clue"]["id"] + 1
    if needed > len(settings.texts):
        settings = dataclasses.replace(settings, custom_clues=tuple(str(i) for i in range(needed)))
    return settings


def sample_identities(odds: Mapping[int, float], informants: int, rng: random.Random) -> list[Identity]:
    """Identities for every seat, ``informants`` of them Informants, drawn by the belief's odds."""
    seats = sorted(odds)
    chosen = {s for s in seats if odds[s] >= 1.0}
    pool = [s for s in seats if 0.0 < odds[s] < 1.0]
    while len(chosen) < informants and pool:
        weights = [odds[s] for s in pool]
        pick = rng.choices(pool, weights)[0]
        chosen.add(pick)
        pool.remove(pick)
    return [Identity.INFORMANT if s in chosen else Identity.CITIZEN for s in seats]


class SpeakeasyProblem:
    """One decision (a point or a subject): determinise identities and the subject, play to the
    reveal with heuristic pointers, score the scores (with the S12 bonuses still to come)."""

    def __init__(self, view: Mapping[str, Any], me: int, belief: SpeakeasyBelief) -> None:
        self.view, self.me = view, me
        self.odds = belief.informants(view, me)
        self.settings = _settings_for(view)
        host = view["host"]
        self.subject_odds = subject_odds(view["clue"]["id"], [s for s in range(view["n_seats"]) if s != host],
                                         belief.habits.get(host, HOST_RANK_PRIOR))
        self.bots = [HeuristicBot(s, s) for s in range(view["n_seats"])]  # the others, as the rollouts see them

    def determinise(self, rng: random.Random) -> State:
        view = self.view
        identities = sample_identities(self.odds, view["informants"], rng)
        seats = tuple(SeatState(identities[s["seat"]], s["revealed"], s["score"], s["correct_points"])
                      for s in view["seats"])
        subject = None
        if Phase(view["phase"]) is Phase.POINTING:
            mine = view["me"]["subject"]
            subject = mine if mine is not None else rng.choices(list(self.subject_odds), list(self.subject_odds.values()))[0]
        n = view["n_seats"]
        order = tuple(r["clue_id"] for r in view["history"]) + (view["clue"]["id"],)
        return State(self.settings, seats, order, len(order) - 1, Phase(view["phase"]), view["host"], subject,
                     False, (None,) * n, (), Rng.from_seed(rng.getrandbits(63)))

    def rollout(self, state: State, action: Any, rng: random.Random) -> float:
        state = ENGINE.apply(state, self.me, action)[0]
        bots = self.bots
        while state.phase in (Phase.CHOOSING, Phase.POINTING):
            seat = next(s for s in state.pointers() if state.pointing[s] is None) \
                if state.phase is Phase.POINTING else state.host
            legal = ENGINE.legal_actions(state, seat)
            state = ENGINE.apply(state, seat, bots[seat].choose(ENGINE.view(state, seat), legal))[0]
        final = [s.score + (0 if s.revealed else (2 if s.identity is Identity.INFORMANT else 1)) + 0.1 * s.correct
                 for s in state.seats]
        return softmax_share(final, self.me, 1.0)


class SearchBot(BeliefBot):
    """ISMCTS over identities and subjects drawn from the belief, for every point and subject."""

    thinks_off_loop = True  # a search spends its budget: the session runs it off the loop

    def __init__(self, seat: int, seed: int, budget: SearchBudget | None = None) -> None:
        super().__init__(seat, seed)
        self.budget = budget

    def _search(self, view: Mapping[str, Any], candidates: list[Any]) -> Any:
        self.belief.digest(view)
        budget = self.budget or default_budget("speakeasy", view["n_seats"])
        return search(SpeakeasyProblem(view, self.seat, self.belief), candidates, budget, self.rng)

    def pick_target(self, view: Mapping[str, Any], targets: list[int]) -> int:
        return int(self._search(view, [Point(t) for t in targets]).target)

    def pick_subject(self, view: Mapping[str, Any], subjects: list[int]) -> int:
        return int(self._search(view, [ChooseSubject(s) for s in subjects]).subject)
