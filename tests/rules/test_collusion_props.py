"""Property tests over random Collusion games: any legal action by any seat, timers at random."""
from __future__ import annotations

import pickle
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.bots import make_bot
from game.games.collusion.rules import DEATH_RULE, ENGINE, DeathKind, Phase, State
from game.records import Recorder, new_record, replay
from game.simulate import bot_seed, play_game, seat_kinds

MAX_STEPS = 20_000

game_setups = st.fixed_dictionaries({
    "n": st.integers(3, 12),
    "seed": st.integers(0, 2**32),
    "preset": st.sampled_from(["tabani", "rod_ruang"]),
    "overrides": st.fixed_dictionaries({}, optional={
        "missed_vote": st.sampled_from(["nobody", "random"]),
        "ambush_once_per_round": st.booleans(),
        "reveal_when_all_locked": st.booleans(),
        "ambush_victims_not_dying": st.booleans(),
        "showdown_default": st.sampled_from(["split", "steal", "take_one"]),
    }),
})
PROPS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _check_views(state: State) -> None:
    public = ENGINE.view(state, None)
    assert "me" not in public
    if state.phase is not Phase.GAME_OVER:
        assert public["final"] is None  # totals stay secret until the end
    for seat in range(state.n):
        view = ENGINE.view(state, seat)
        me = view.pop("me")
        assert view == public  # a seat sees the public table plus only its own "me"
        assert me["seat"] == seat and me["gold"] == sorted(state.gold[seat]) and me["total"] == sum(state.gold[seat])


def _check_events(before: State, after: State, events: list[dict[str, Any]]) -> None:
    for event in events:
        if event["type"] == "reveal":
            for seat, target in enumerate(event["voted_for"]):
                if target is not None:
                    assert target != seat, "nobody votes for themselves (C1)"
                    assert before.alive[target], "nobody votes for the dead (C7)"
                    assert before.alive[seat]
        if event["type"] == "died":
            assert event["cause"] == DEATH_RULE[DeathKind(event["kind"])].value  # every death names its rule
        if event["type"] == "round_ended":
            assert len(event["survivors"]) <= 2
        if event["type"] == "vote_started":
            assert len(event["alive"]) >= 3


def play_random(setup: dict[str, Any], checks: bool = True) -> tuple[State, Recorder, list[dict]]:
    rnd = random.Random(setup["seed"])
    record = new_record("collusion", setup["n"], setup["seed"], setup["preset"], setup["overrides"])
    recorder = Recorder(record)
    state = ENGINE.new_game(ENGINE.settings_from_wire(setup["overrides"], setup["preset"]), setup["n"], setup["seed"])
    start = Counter(state.deck + state.pot + sum(state.gold, ()))
    all_events: list[dict] = []
    for _ in range(MAX_STEPS):
        if ENGINE.is_over(state):
            break
        acting = ENGINE.seats_to_act(state)
        if acting and rnd.random() < 0.93:
            seat = rnd.choice(acting)
            action = rnd.choice(ENGINE.legal_actions(state, seat))
        else:
            seat, action = None, ENGINE.timer(state).on_expiry
        frozen = pickle.dumps(state)
        new, events = ENGINE.apply(state, seat, action)
        assert pickle.dumps(state) == frozen, "apply must not mutate its input"
        wire = ENGINE.events_to_wire(events)
        recorder.add(seat, ENGINE.action_to_wire(action))
        if checks:
            assert [ENGINE.events.from_wire(w) for w in wire] == events  # wire forms round-trip
            with_moves = tuple(s for s in range(new.n) if ENGINE.legal_actions(new, s))
            assert ENGINE.seats_to_act(new) == with_moves
            _check_events(state, new, wire)
            assert Counter(new.deck + new.pot + sum(new.gold, ())) == start, "gold is conserved (C2)"
            assert len(new.deck) + len(new.pot) + sum(len(g) for g in new.gold) == 80
            _check_views(new)
        all_events += wire
        state = new
    return state, recorder, all_events


@PROPS
@given(game_setups)
def test_random_games_keep_every_invariant_and_end(setup):
    state, _, events = play_random(setup)
    assert ENGINE.is_over(state), "every game ends"
    assert events[-1]["type"] == "game_over"
    over = events[-1]
    totals = over["totals"]
    assert over["winners"] and all(totals[w] == max(totals) for w in over["winners"])


@PROPS
@given(game_setups)
def test_a_replayed_record_reproduces_the_same_events(setup):
    state, recorder, events = play_random(setup, checks=False)
    result = replay(recorder.record)
    assert result.events == events
    assert result.state == state
    assert result.final_view() == ENGINE.view(state, None)


@settings(max_examples=10, deadline=None)
@given(st.integers(3, 12), st.integers(0, 2**32), st.sampled_from(["heuristic", "random", "heuristic,random"]))
def test_bot_games_end_and_replay_exactly(n, seed, bots):
    bots_list = [make_bot("collusion", kind, seat, bot_seed(seed, 0, seat))
                 for seat, kind in enumerate(seat_kinds(bots, n))]
    recorder = Recorder(new_record("collusion", n, seed))
    result = play_game(ENGINE, ENGINE.default_settings(), n, seed, bots_list, recorder)
    assert ENGINE.is_over(result.state) and result.winners
    replayed = replay(recorder.record)
    assert replayed.state == result.state
    assert len(replayed.state.deck) + len(replayed.state.pot) + sum(len(g) for g in replayed.state.gold) == 80
