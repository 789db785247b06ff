"""Cheating Moth's ``search`` bot: the public play-on function, the fast round model its rollouts
use (checked against the engine), the paired search, the watchful guard, legality and seeds."""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from game.bots import make_bot
from game.bots.search import SearchBudget, search_paired
from game.games.cheating_moth.bots.belief import BeliefBot, MothProblem, SearchBot
from game.games.cheating_moth.bots.rollout import RoundModel, card_table, deal_hidden
from game.games.cheating_moth.rules import ENGINE, Accuse, CheatStart, Draw, Kind, Phase, Play, State
from game.simulate import play_game, play_on


def _bots(kind: str, seats: int, seed: int) -> list[Any]:
    return [make_bot("cheating_moth", kind, s, seed * 10 + s) for s in range(seats)]


def _play_turn(seed: int, skip: int) -> State:
    """A 4-seat state in the play phase, ``skip`` heuristic actions into a game (no cheat running)."""
    start = ENGINE.new_game(ENGINE.default_settings(None), 4, seed)
    for steps in range(skip, skip + 200):
        state = play_on(ENGINE, start, _bots("heuristic", 4, seed), steps)
        if state.current_phase is Phase.PLAY and all(c is None for c in state.cheats):
            return state
    raise AssertionError("no calm play phase reached")


# ------------------------------------------------------------------------------------- play_on
def test_play_on_from_a_new_game_ends_it_as_play_game_does() -> None:
    settings_ = ENGINE.default_settings(None)
    whole = play_game(ENGINE, settings_, 4, 3, _bots("heuristic", 4, 3))
    on = play_on(ENGINE, ENGINE.new_game(settings_, 4, 3), _bots("heuristic", 4, 3), 100_000)
    assert ENGINE.is_over(on) and on == whole.state


def test_play_on_stops_at_its_step_limit() -> None:
    start = ENGINE.new_game(ENGINE.default_settings(None), 4, 3)
    assert play_on(ENGINE, start, _bots("heuristic", 4, 3), 0) is start
    first = play_on(ENGINE, start, _bots("heuristic", 4, 3), 1)
    assert first != start and first.decision == start.decision + 1  # seed 3: the guard plays first (M4)
    on = play_on(ENGINE, start, _bots("heuristic", 4, 3), 5)
    assert not ENGINE.is_over(on) and on != first and on.round == 0


# ------------------------------------------------------------------------------ the round model
def _model_of(state: State) -> RoundModel:
    return RoundModel(card_table(state.settings), state.guard, state.turn or 0, state.discard[-1], state.hands,
                      tuple(reversed(state.draw_pile)), state.discard[:-1], random.Random(0))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 5_000), skip=st.integers(0, 40))
def test_m5_m6_m7_the_model_plays_and_draws_as_the_engine(seed: int, skip: int) -> None:
    """Every playable card the model offers is one the engine allows (moths only for the guard);
    a plain card played or a card drawn leaves the same hands, top and turn in both."""
    state = _play_turn(seed, skip)
    seat = state.turn
    assert seat is not None
    model = _model_of(state)
    engine_plays = {a.card for a in ENGINE.legal_actions(state, seat) if isinstance(a, Play)}
    assert set(model.playable(seat)) == engine_plays
    plain = [c for c in engine_plays if state.card(c).kind is Kind.NUMBER]
    for action in [Play(c) for c in plain[:1]] + [Draw()]:
        after = ENGINE.apply(state, seat, action)[0]
        m = _model_of(state)
        if isinstance(action, Play):
            m.play(seat, action.card)
        else:
            m.take_turn_draw(seat)
        if m.out is None:
            assert [sorted(h) for h in m.hands] == [sorted(h) for h in after.hands]
            assert (m.top, m.turn) == (after.discard[-1], after.turn)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 5_000), skip=st.integers(0, 40))
def test_m17_a_model_round_keeps_every_card_and_ends_on_an_empty_hand(seed: int, skip: int) -> None:
    state = _play_turn(seed, skip)
    model = _model_of(state)
    model.rng = random.Random(seed)
    before = sorted(c for h in model.hands for c in h) + sorted(model.draw + model.under + [model.top])
    model.run(10_000)
    assert model.out is not None and not model.hands[model.out]
    after = sorted(c for h in model.hands for c in h) + sorted(model.draw + model.under + [model.top])
    assert sorted(before) == sorted(after)
    points = model.points()
    assert points[model.out] == 0 and all(p > 0 for s, p in enumerate(points) if s != model.out)


def test_m7_a_moth_is_never_given_in_the_model() -> None:
    state = _play_turn(4, 10)
    model = _model_of(state)
    kinds = model.cards.kind
    giver = 1
    model.hands[giver] = [c for c in range(len(kinds)) if kinds[c] is Kind.MOTH][:3]
    model.give(giver, 2)
    assert len(model.hands[giver]) == 3 and model.out is None


def test_deal_hidden_keeps_what_the_seat_sees() -> None:
    state = _play_turn(7, 20)
    seat = state.turn
    assert seat is not None
    view = ENGINE.view(state, seat)
    problem = MothProblem(view, seat)
    for k in range(5):
        model = deal_hidden(view, seat, problem.sizes, problem.cards, random.Random(k))
        assert sorted(model.hands[seat]) == sorted(state.hands[seat]) and model.top == state.discard[-1]
        assert len(model.draw) == len(state.draw_pile) and len(model.under) == len(state.discard) - 1
        everything = [c for h in model.hands for c in h] + model.draw + model.under + [model.top]
        assert len(everything) == len(set(everything))
        for s, shown in enumerate(view["seats"]):
            if isinstance(shown["hand"], int):
                assert len(model.hands[s]) == shown["hand"]


# ------------------------------------------------------------------------------- paired search
class _Offset:
    """Rollouts that are noise shared through the rollout seed, plus a small edge for ``"b"``."""

    def determinise(self, rng: random.Random) -> int:
        return rng.randrange(100)

    def rollout(self, state: int, action: str, rng: random.Random) -> float:
        return 0.8 * rng.random() + (0.05 if action == "b" else 0.0)


def test_paired_search_sees_a_small_edge_through_common_random_numbers() -> None:
    """Every candidate meets the same determinisation and rollout seed: one iteration is enough."""
    for seed in range(20):
        assert search_paired(_Offset(), ["a", "b", "c"], 1, random.Random(seed)) == "b"
    assert search_paired(_Offset(), ["a"], 3, random.Random(1)) == "a"


# ------------------------------------------------------------------------------ the search bot
def test_m9_m11_the_search_guard_accuses_every_tell_it_sees() -> None:
    """A cheat in progress shows (M11); the hard guard accuses it after its reaction time (M9)."""
    accused = 0
    for seed in range(8):
        state = _play_turn(seed, 6)
        cheater = next(s for s in range(4) if s != state.guard and len(state.hands[s]) >= 2)
        state = ENGINE.apply(state, cheater, CheatStart(state.hands[cheater][0], 0))[0]
        view = ENGINE.view(state, state.guard)
        action = SearchBot(state.guard, seed).choose(view, ENGINE.legal_actions(state, state.guard))
        assert action == Accuse(cheater, 0)
        accused += 1
    assert accused == 8


def test_m8_when_the_caught_window_is_shorter_than_a_reaction_the_search_guard_spots_like_belief() -> None:
    """With ``cheat_ms`` + ``caught_window_ms`` under the slowest spotting time an accusation may
    land too late: the hard guard then notices tells as the belief bot does (same seed, same call)."""
    quick = dataclasses.replace(ENGINE.default_settings(None), cheat_ms=300, caught_window_ms=300)
    differs = 0
    for seed in range(12):
        state = dataclasses.replace(_play_turn(seed, 6), settings=quick)
        cheater = next(s for s in range(4) if s != state.guard and len(state.hands[s]) >= 2)
        state = ENGINE.apply(state, cheater, CheatStart(state.hands[cheater][0], 0))[0]
        view, legal = ENGINE.view(state, state.guard), ENGINE.legal_actions(state, state.guard)
        hard = SearchBot(state.guard, seed).choose(view, legal)
        assert hard == BeliefBot(state.guard, seed).choose(view, legal)
        differs += hard != Accuse(cheater, 0)
    assert differs  # some tells go unnoticed


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 5_000), skip=st.integers(0, 60))
def test_the_search_bot_with_its_real_budget_answers_legally_and_the_same_for_a_seed(seed: int, skip: int) -> None:
    state = _play_turn(seed, skip)
    for seat in range(4):
        legal = ENGINE.legal_actions(state, seat)
        view = ENGINE.view(state, seat)
        a = SearchBot(seat, seed, SearchBudget(8)).choose(view, legal)
        b = SearchBot(seat, seed, SearchBudget(8)).choose(view, legal)
        assert a == b and (a is None or a in legal)


def test_the_search_bot_plays_3_and_5_seat_games_to_the_end_with_its_real_budget() -> None:
    for seats in (3, 5):
        bots = [SearchBot(s, 40 + s, SearchBudget(8)) for s in range(seats)]
        result = play_game(ENGINE, ENGINE.default_settings(None), seats, 9, bots)
        assert result.winners and ENGINE.is_over(result.state)


def test_the_search_prefers_shedding_a_moth_when_it_is_the_guard() -> None:
    """M7/M17: the guard may play a moth (10 points) — the search sheds it before a plain card."""
    for seed in range(30):
        state = _play_turn(seed, 0)
        guard = state.guard
        top = state.card(state.discard[-1]).number
        moth = next((c for c in state.deck if c.kind is Kind.MOTH and (c.number - top) % 5 in (1, 4)), None)
        plain = next((c for c in state.deck if c.kind is Kind.NUMBER and (c.number - top) % 5 in (1, 4)
                      and c.number != getattr(moth, "number", 0)), None)
        if moth is None or plain is None or state.turn != guard or {moth.id, plain.id} & set(state.discard):
            continue
        rest = [c for c in state.hands[guard] if c not in (moth.id, plain.id)][:4]
        others = [tuple(c for c in h if c not in (moth.id, plain.id)) for h in state.hands]
        hands = tuple(tuple(rest) + (moth.id, plain.id) if s == guard else others[s] for s in range(4))
        draw = tuple(c for c in state.draw_pile if c not in (moth.id, plain.id))
        state = dataclasses.replace(state, hands=hands, draw_pile=draw)
        action = SearchBot(guard, seed, SearchBudget(8)).choose(ENGINE.view(state, guard),
                                                                ENGINE.legal_actions(state, guard))
        assert isinstance(action, Play) and state.card(action.card).kind is Kind.MOTH
        return
    raise AssertionError("no guard turn with a playable moth and a plain card found")
