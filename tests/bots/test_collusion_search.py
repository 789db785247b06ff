"""Collusion's search bot: paired rollouts (common random numbers) over the belief's
determinisations — the candidates are told apart by their own merit, in a counted budget."""
from __future__ import annotations

import random
from typing import Any

import pytest

from game.bots import BotKind, make_bot
from game.bots.search import SearchBudget, paired_iterations, search_paired
from game.catalog import get_engine
from game.games.collusion.bots import belief as collusion_belief
from game.games.collusion.bots.belief import PAIRED_MIN, SearchBot
from game.games.collusion.rules import State
from game.simulate import play_game


class _Counting:
    """Candidate i scores ``base[i]`` plus the same draw for every candidate of an iteration (a
    shared luck term that paired rollouts cancel); it counts determinisations and rollouts."""

    def __init__(self, base: list[float]) -> None:
        self.base, self.states, self.rollouts = base, 0, 0

    def determinise(self, rng: random.Random) -> float:
        self.states += 1
        return rng.random()

    def rollout(self, state: float, action: int, rng: random.Random) -> float:
        self.rollouts += 1
        return (self.base[action] + state + rng.random()) / 3


def test_paired_rollouts_tell_a_small_edge_from_shared_luck() -> None:
    picks = [search_paired(_Counting([0.50, 0.52, 0.49]), [0, 1, 2], 1, random.Random(s)) for s in range(20)]
    assert picks == [1] * 20  # one iteration each: the luck is the same for every candidate


def test_paired_rollouts_count_the_budget_in_rollouts_with_a_floor_per_candidate() -> None:
    problem = _Counting([0.1, 0.2, 0.3, 0.4])
    search_paired(problem, [0, 1, 2, 3], paired_iterations(10, 4), random.Random(1))
    assert (problem.states, problem.rollouts) == (3, 12)  # ceil(10 / 4) determinisations, each played 4 times
    floor = _Counting([0.1, 0.2, 0.3, 0.4])
    search_paired(floor, [0, 1, 2, 3], paired_iterations(2, 4, per_candidate=5), random.Random(1))
    assert (floor.states, floor.rollouts) == (5, 20)


def test_paired_search_is_a_function_of_its_rng_and_skips_a_single_candidate() -> None:
    problem = _Counting([0.3, 0.3, 0.3])
    assert search_paired(problem, [0, 1, 2], 9, random.Random(4)) == search_paired(problem, [0, 1, 2], 9, random.Random(4))
    single = _Counting([0.5])
    assert search_paired(single, ["only"], 9, random.Random(4)) == "only" and single.rollouts == 0


def test_c8_collusion_search_plays_every_candidate_from_at_least_the_floor_of_tables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    engine = get_engine("collusion")
    decisions: list[int] = []
    rollouts: list[object] = []
    rollout = collusion_belief.CollusionProblem.rollout

    def counted(problem: collusion_belief.CollusionProblem, state: State, action: object, rng: random.Random) -> float:
        rollouts.append(action)
        return rollout(problem, state, action, rng)

    class Counted(SearchBot):
        def _search(self, view: dict[str, Any], candidates: list[Any]) -> Any:
            decisions.append(len(candidates))
            return super()._search(view, candidates)

    monkeypatch.setattr(collusion_belief.CollusionProblem, "rollout", counted)
    bots = [Counted(0, 5, SearchBudget(1))] + [make_bot("collusion", BotKind.BELIEF, s, 50 + s) for s in range(1, 4)]
    play_game(engine, engine.default_settings(None), 4, 5, bots)
    assert any(k > 1 for k in decisions)
    assert len(rollouts) == sum(PAIRED_MIN * k for k in decisions if k > 1)
