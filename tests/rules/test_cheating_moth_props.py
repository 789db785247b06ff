"""Cheating Moth properties over random play: cards conserved, rounds end exactly on an empty hand,
scores match the hands, ``apply`` never changes its input, views never show another's hand."""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.games.cheating_moth.rules import (
    ENGINE,
    PENALTY,
    CheatFinish,
    Draw,
    Phase,
    Play,
    RaceResult,
    State,
    card_count,
)
from game.rules.base import IllegalAction

OVER = (Phase.ROUND_OVER, Phase.GAME_OVER)


def _stamp(action: Any, now: int) -> Any:
    return dataclasses.replace(action, t_ms=now) if hasattr(action, "t_ms") else action


def _race_result(state: State, rng: random.Random, now: int) -> RaceResult:
    race = state.race
    assert race is not None
    seats = [s for s in race.eligible if rng.random() < 0.75]
    times = [now + rng.randint(120, state.settings.race_timeout_ms + 300) for _ in seats]
    cards: list[int | None] = []
    for s in seats:
        hand = state.hands[s]
        cards.append(rng.choice(hand) if hand and rng.random() < 0.3 else None)
    errors = [rng.randint(0, 8) for _ in seats]
    return RaceResult(race.id, now, tuple(seats), tuple(times), tuple(cards), tuple(errors))


def random_play(seed: int, n: int, overrides: dict[str, Any], steps: int) -> Iterator[tuple[State, Any, State, list[Any]]]:
    """Random legal play with a session clock; yields (before, action, after, events)."""
    rng = random.Random(seed)
    state = ENGINE.new_game(ENGINE.settings_from_wire(overrides), n, seed)
    now = 0
    for _ in range(steps):
        if ENGINE.is_over(state):
            return
        now += rng.randint(0, 700)
        options = [(s, a) for s in range(n) for a in ENGINE.legal_actions(state, s)]
        required = [(s, a) for s, a in options if isinstance(a, (Play, Draw)) or type(a).__name__ == "Give"]
        timer, racing = ENGINE.timer(state), ENGINE.race(state) is not None
        if (timer is not None or racing) and (not required or rng.random() < 0.5):
            # the race floor hands in a running race's presses; otherwise the timer runs out
            seat, action = (None, _race_result(state, rng, now)) if racing or timer is None else (None, timer.on_expiry)
        else:
            pool = required if required and rng.random() < 0.8 else options
            seat, action = rng.choice(pool)
            if isinstance(action, CheatFinish):
                now += rng.randint(0, 1600)
            action = _stamp(action, now)
        try:
            after, events = ENGINE.apply(state, seat, action)
        except IllegalAction:
            assert isinstance(action, CheatFinish)  # only a hold too short may be refused
            continue
        yield state, action, after, events
        state = after


def _ids_in(value: Any, out: set[int]) -> None:
    if isinstance(value, dict):
        for key, v in value.items():
            if key in ("race", "last_race", "settings", "scores"):
                continue  # race ids and numbers, not cards
            if key in ("id", "card") and isinstance(v, int):
                out.add(v)
            elif key in ("race_cards", "playable"):
                out.update(v)
            else:
                _ids_in(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids_in(v, out)


games = st.tuples(
    st.integers(0, 2**32),
    st.integers(3, 5),
    st.sampled_from(["none", "subtle", "obvious"]),
    st.sampled_from([1500, 200]),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_cards_conserved_rounds_end_on_empty_hand_and_scores_match(game):
    seed, n, tell, cheat_ms = game
    overrides = {"tell": tell, "cheat_ms": cheat_ms, "hand_size": 4}
    total = len(ENGINE.new_game(ENGINE.settings_from_wire(overrides), n, seed).deck)
    for _before, action, after, events in random_play(seed, n, overrides, 600):
        assert card_count(after) == total  # hands + draw + discard + cheated away
        empty = any(not h for h in after.hands)
        assert empty == (after.phase in OVER), (action, after.phase)
        for event in events:
            tag = ENGINE.events.tag_of(event)
            if tag == "round_ended":
                expected = tuple(sum(PENALTY[after.card(c).kind] for c in h) for h in after.hands)
                assert event.points == expected
                assert after.totals == tuple(map(sum, zip(*after.round_points)))
            if tag in ("round_ended", "game_ended", "drew", "card_given", "accused", "race_decided"):
                assert event.cause.startswith("M")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_apply_never_mutates_and_views_keep_hands_secret(game):
    seed, n, tell, cheat_ms = game
    for before, action, after, events in random_play(seed, n, {"tell": tell, "cheat_ms": cheat_ms}, 150):
        frozen = copy.deepcopy(before)
        with contextlib.suppress(IllegalAction):
            ENGINE.apply(before, None if isinstance(action, RaceResult) else 0, action)
        assert before == frozen
        top = after.discard[-1]
        public: set[int] = set()
        _ids_in(ENGINE.view(after, None), public)
        assert public <= {top}
        for seat in range(n):
            view = ENGINE.view(after, seat)
            json.dumps(view)
            shown: set[int] = set()
            _ids_in(view, shown)
            others = {c for s in range(n) if s != seat for c in after.hands[s]}
            assert not shown & others, (seat, shown & others)
            assert sorted(c["id"] for c in view["me"]["hand"]) == sorted(after.hands[seat])
        json.dumps(ENGINE.events_to_wire(events))


def test_random_games_finish():
    finished = 0
    for seed in range(6):
        for _, _, after, _ in random_play(seed, 3 + seed % 3, {"hand_size": 5}, 4000):
            if ENGINE.is_over(after):
                finished += 1
                assert after.round == after.n - 1 and len(after.round_points) == after.n
    assert finished == 6
