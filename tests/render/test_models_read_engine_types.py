"""The screens read the engines' own types back from the views: the value a scene draws is the
engine's value itself (``ShowdownResult``, ``RoundEnd``, ``ClueResult``, ``RaceDecided``), decoded
with the engine's codec, never a re-declared copy that could drift from it."""
from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from game.catalog import get_engine
from game.games.cheating_moth.screen.model import race_from
from game.games.collusion.screen.model import round_end_from, showdown_from
from game.games.speakeasy.screen.model import result_from


def play_until(game: str, seats: int, seed: int, found: Callable[[Any], bool], limit: int = 4000) -> Any:
    """Random legal play (races nobody presses, the table's timers when nobody acts) until ``found(state)``."""
    engine = get_engine(game)
    state = engine.new_game(engine.default_settings(), seats, seed)
    rnd = random.Random(seed)
    for _ in range(limit):
        if found(state):
            return state
        acting = [(s, a) for s in engine.seats_to_act(state) for a in engine.legal_actions(state, s)
                  if not hasattr(a, "t_ms")]  # timed actions (a cheat's hold) need a clock: not played here
        race = engine.race(state)
        if acting:
            seat, action = rnd.choice(acting)
            state, _ = engine.apply(state, seat, action)
        elif race is not None:
            state, _ = engine.apply(state, None, race.on_result(()))
        else:
            timer = engine.timer(state)
            assert timer is not None, "stuck"
            state, _ = engine.apply(state, None, timer.on_expiry)
    raise AssertionError(f"{game}: not found in {limit} moves")


def test_collusion_showdown_and_round_end_are_the_engines_values() -> None:
    for seed in range(6):
        state = play_until("collusion", 4, seed, lambda s: s.last_showdown is not None)
        view = get_engine("collusion").view(state, None)
        assert showdown_from(view["last_showdown"]) == state.last_showdown
        assert round_end_from(view["last_round_end"]) == state.last_round_end


def test_speakeasy_reveal_is_the_engines_clue_result() -> None:
    engine = get_engine("speakeasy")
    state = play_until("speakeasy", 5, 3, lambda s: engine.view(s, None).get("reveal") is not None)
    assert result_from(engine.view(state, None)["reveal"]) == state.history[-1]


def test_cheating_moth_race_verdict_wraps_the_engines_race_decided() -> None:
    state = play_until("cheating_moth", 4, 1, lambda s: s.last_race is not None)
    race = race_from(get_engine("cheating_moth").view(state, None)["last_race"])
    assert race is not None and race.decided == state.last_race


def test_a_view_from_another_version_draws_without_the_value() -> None:
    assert showdown_from({"round": 1, "seats": [0]}) is None
    assert result_from({"number": "one"}) is None
    assert race_from({"race": 1, "kind": "mosquito"}) is None
