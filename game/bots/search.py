"""Information-set Monte Carlo tree search for the ``search`` bots (Cowling, Powley & Whitehouse
2012, "single-observer" ISMCTS), kept to the root information set: the bot's own decision.

One iteration: draw a *determinisation* — a full engine state consistent with the seat's view,
the hidden part sampled from the bot's belief — pick one of the bot's candidate actions by UCB1
over all iterations so far, then play the determinised game on with the pure engine (every seat,
the bot's included, by a cheap policy drawn from the same belief) to a horizon and score it in
[0, 1] for the bot's seat. The move is the candidate visited most.

Deeper tree levels would belong to other players' information sets, which in these games are
simultaneous secret choices (secret votes, pointing) or whole hands; the
rollout policy stands in for them.

The search is a plain function call (:func:`search`): a :class:`SearchBudget` counts iterations,
not milliseconds, so a bot's move is a pure function of its view and its own seeded RNG. The
session may run the call off the table's loop (an executor) — nothing here touches shared state.
"""
from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from game import catalog

A = TypeVar("A")
A_in = TypeVar("A_in", contravariant=True)

EXPLORATION = 0.7  # UCB1 constant for rewards in [0, 1]
PRIOR_VISITS = 2  # a prior value counts as this many rollouts that scored it


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much a ``search`` bot thinks per decision: ``iterations`` determinise-and-roll-out
    rounds. Counted, not timed, so that a bot is deterministic for a seed; the defaults per game
    (:func:`default_budget`) keep a move's p99 under 200 ms at 12 seats on the 2-core table box
    (``bench/bench_bots.py`` measures it)."""

    iterations: int

    def __post_init__(self) -> None:
        if not isinstance(self.iterations, int) or self.iterations < 1:
            raise ValueError(f"a search budget needs at least 1 iteration; got {self.iterations!r}")


# iterations per decision at 6 seats (GameDescriptor.search_iterations); default_budget()
# scales them down for larger tables
_budget_override: dict[str, SearchBudget] = {}


def default_budget(game: str, seats: int) -> SearchBudget:
    """The budget a ``search`` bot of ``game`` gets at a table of ``seats`` (rollouts cost about
    linearly in the seats): its descriptor's ``search_iterations`` at 6 seats, fewer above, unless overridden."""
    if game in _budget_override:
        return _budget_override[game]
    base = catalog.get(game).search_iterations
    return SearchBudget(max(2, round(base * min(1.0, 6 / max(seats, 1)))))


def set_default_budget(game: str, budget: SearchBudget | None) -> None:
    """The setting: every ``search`` bot of ``game`` made from now on thinks ``budget`` (``None``:
    back to the measured default). Used by the benchmark's ``--iterations``."""
    if budget is None:
        _budget_override.pop(game, None)
    else:
        _budget_override[game] = budget


class Problem(Protocol[A_in]):
    """What a game gives the search: a determinisation (any state) and a scored rollout of that
    state after a candidate action, in [0, 1] for the searching seat."""

    def determinise(self, rng: random.Random) -> Any: ...

    def rollout(self, state: Any, action: A_in, rng: random.Random) -> float: ...


@dataclass
class Stats:
    """Visits and summed rewards per candidate (the root node's children)."""

    visits: list[int]
    reward: list[float]

    @classmethod
    def empty(cls, n: int, prior: Sequence[float] | None = None) -> Stats:
        """No visits yet — or, with ``prior`` (values in [0, 1]), :data:`PRIOR_VISITS` pretend ones."""
        if prior is None:
            return cls([0] * n, [0.0] * n)
        return cls([PRIOR_VISITS] * n, [PRIOR_VISITS * p for p in prior])

    def pick(self, total: int) -> int:
        """UCB1: an unvisited candidate first, else the best mean plus exploration bonus."""
        for i, v in enumerate(self.visits):
            if v == 0:
                return i
        log_t = math.log(total)
        return max(range(len(self.visits)),
                   key=lambda i: self.reward[i] / self.visits[i] + EXPLORATION * math.sqrt(log_t / self.visits[i]))

    def best(self) -> int:
        """The most visited candidate (ties: the better mean, then the first)."""
        return max(range(len(self.visits)),
                   key=lambda i: (self.visits[i], self.reward[i] / max(1, self.visits[i]), -i))


def search(problem: Problem[A], candidates: Sequence[A], budget: SearchBudget, rng: random.Random,
           prior: Sequence[float] | None = None) -> A:
    """The candidate chosen by ``budget.iterations`` ISMCTS iterations (a pure function of the
    problem, the candidates and ``rng``'s state); ``prior`` optionally seeds each candidate's value."""
    if len(candidates) == 1:
        return candidates[0]
    stats = Stats.empty(len(candidates), prior)
    for it in range(budget.iterations):
        state = problem.determinise(rng)
        i = stats.pick(it + (PRIOR_VISITS * len(candidates) if prior is not None else 0))
        stats.visits[i] += 1
        stats.reward[i] += problem.rollout(state, candidates[i], rng)
    return candidates[stats.best()]


def softmax_share(values: Sequence[float], index: int, sharpness: float) -> float:
    """``index``'s share of ``exp(sharpness * value)``: a smooth "how likely am I to end ahead"."""
    top = max(values)
    weights = [math.exp(sharpness * (v - top)) for v in values]
    return weights[index] / sum(weights)


def play_until(engine: Any, state: Any, policy: Callable[[Any, int, list[Any]], Any | None],
               stop: Callable[[Any], bool], max_steps: int = 5_000) -> Any:
    """Play a determinised state on (untimed games): each seat to act is asked ``policy(state,
    seat, legal)`` in turn, the table's timer fires when nobody acts; stops at ``stop(state)``, the
    game's end or ``max_steps``."""
    for _ in range(max_steps):
        if engine.is_over(state) or stop(state):
            return state
        acted = False
        for seat in engine.seats_to_act(state):
            legal = engine.legal_actions(state, seat)
            action = policy(state, seat, legal) if legal else None
            if action is None:
                continue
            state = engine.apply(state, seat, action)[0]
            acted = True
            if engine.is_over(state) or stop(state):
                return state
        if not acted:
            timer = engine.timer(state)
            if timer is None:
                return state
            state = engine.apply(state, None, timer.on_expiry)[0]
    return state


def search_paired(problem: Problem[A], candidates: Sequence[A], iterations: int, rng: random.Random,
                  prior: Sequence[float] | None = None) -> A:
    """The candidate with the best mean over ``iterations`` iterations with *common random
    numbers*: each iteration draws one determinisation and one rollout seed and rolls out every
    candidate from them, so the candidates differ by their own merit and not by the luck of the
    draw (far fewer rollouts tell them apart than :func:`search`'s independent ones). ``prior``
    (values in [0, 1]) counts as :data:`PRIOR_VISITS` rollouts of each candidate; ties go to the
    first. A pure function of the problem, the candidates and ``rng``'s state."""
    if len(candidates) == 1:
        return candidates[0]
    stats = Stats.empty(len(candidates), prior)
    for _ in range(iterations):
        state = problem.determinise(rng)
        seed = rng.getrandbits(63)
        for i, candidate in enumerate(candidates):
            stats.visits[i] += 1
            stats.reward[i] += problem.rollout(state, candidate, random.Random(seed))
    return candidates[max(range(len(candidates)), key=lambda i: (stats.reward[i] / stats.visits[i], -i))]


def paired_iterations(rollouts: int, candidates: int, per_candidate: int = 1) -> int:
    """A budget counted in rollouts as :func:`search_paired`'s iterations: ``rollouts`` shared
    over the candidates (rounded up), at least ``per_candidate`` determinisations each."""
    return max(per_candidate, -(-rollouts // max(1, candidates)))
