"""Speakeasy property tests: whole random games (random seats, settings, choices and timeouts)."""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import random
from typing import Any

from hypothesis import HealthCheck, given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from game.games.speakeasy.rules import (
    ENGINE,
    SCORE_RULES,
    ClueDrawn,
    FinalTie,
    HostTimeout,
    IdentityRevealed,
    MissedPoint,
    Phase,
    Point,
    Scored,
    State,
)
from game.rules.base import RulesError

PROPS = hyp_settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

game_settings = st.builds(
    lambda host_timeout, missed, tie, clues, reveal_ms: dataclasses.replace(
        ENGINE.default_settings("en"),
        host_timeout=host_timeout, missed_point=missed, final_tie=tie, clues_per_game=clues, reveal_ms=reveal_ms,
    ),
    st.sampled_from(list(HostTimeout)),
    st.sampled_from(list(MissedPoint)),
    st.sampled_from(list(FinalTie)),
    st.sampled_from([0, 0, 1, 5, 13]),
    st.sampled_from([0, 8_000]),
)


def _step(state: State, rnd: random.Random) -> tuple[int | None, Any]:
    """A random legal move: a seat's action, or (sometimes) the table's timeout."""
    moves = [(s, a) for s in range(state.n) for a in ENGINE.legal_actions(state, s)]
    table = [(None, a) for a in ENGINE.legal_actions(state, None)]
    if table and (not moves or rnd.random() < 0.15):
        return table[0]
    return rnd.choice(moves)


def _play(state: State, rnd: random.Random):
    """Yield (before, seat, action, after, events) for every move of a whole game."""
    while not ENGINE.is_over(state):
        seat, action = _step(state, rnd)
        after, events = ENGINE.apply(state, seat, action)
        yield state, seat, action, after, events
        state = after


def _games(n: int, seed: int, settings: Any, choices: int):
    state = ENGINE.new_game(settings, n, seed)
    return state, list(_play(state, random.Random(choices)))


@PROPS
@given(st.integers(3, 12), st.integers(0, 2**40), game_settings, st.integers(0, 2**32))
def test_every_clue_is_used_once_and_hosts_rotate_in_seat_order(n: int, seed: int, cfg: Any, choices: int) -> None:
    """S10 / S5."""
    start, moves = _games(n, seed, cfg, choices)
    drawn = ENGINE.start_events(start)[1:] + [e for *_, events in moves for e in events if isinstance(e, ClueDrawn)]
    ids = [e.clue_id for e in drawn]
    assert len(ids) == len(set(ids)) == cfg.clue_count(n)
    assert [e.host for e in drawn] == [(start.host + k) % n for k in range(len(drawn))]
    assert all(e.text == cfg.texts[e.clue_id] for e in drawn)


@PROPS
@given(st.integers(3, 12), st.integers(0, 2**40), game_settings, st.integers(0, 2**32))
def test_scores_only_rise_by_the_amounts_of_S8_S9_S12(n: int, seed: int, cfg: Any, choices: int) -> None:
    _, moves = _games(n, seed, cfg, choices)
    for before, _, _, after, events in moves:
        gained = [a.score - b.score for a, b in zip(after.seats, before.seats)]
        scored = [e for e in events if isinstance(e, Scored)]
        assert all(g >= 0 for g in gained)
        for e in scored:
            assert (e.cause, e.points) == SCORE_RULES[e.reason] and e.cause in ("S8", "S9", "S12")
        assert gained == [sum(e.points for e in scored if e.seat == s) for s in range(n)]
        assert all(e.total == after.seats[e.seat].score or e.cause == "S12" for e in scored)


def _assert_no_leak(state: State) -> None:
    for seat in [None, *range(state.n)]:
        view = ENGINE.view(state, seat)
        for entry in view["seats"]:
            expected = state.seats[entry["seat"]].identity.value if state.seats[entry["seat"]].revealed else None
            assert entry["identity"] == expected
        if state.phase in (Phase.CHOOSING, Phase.POINTING):
            assert view["reveal"] is None
            if seat is not None and seat != state.host:
                assert view["me"]["subject"] is None
        if seat is not None:
            assert view["me"]["identity"] == state.seats[seat].identity.value
    final = ENGINE.view(state, None)["final"]
    assert final is None or ENGINE.is_over(state)


@PROPS
@given(st.integers(3, 12), st.integers(0, 2**40), game_settings, st.integers(0, 2**32))
def test_no_view_or_event_leaks_an_unrevealed_identity(n: int, seed: int, cfg: Any, choices: int) -> None:
    start, moves = _games(n, seed, cfg, choices)
    _assert_no_leak(start)
    for before, _, _, after, events in moves:
        _assert_no_leak(after)
        for e in events:
            if isinstance(e, IdentityRevealed):
                assert not before.seats[e.seat].revealed and after.seats[e.seat].revealed
                assert e.identity is after.seats[e.seat].identity


@PROPS
@given(st.integers(3, 8), st.integers(0, 2**40), game_settings, st.integers(0, 2**32), st.data())
def test_apply_never_mutates_its_input_even_on_errors(n: int, seed: int, cfg: Any, choices: int, data: Any) -> None:
    state = ENGINE.new_game(cfg, n, seed)
    rnd = random.Random(choices)
    while not ENGINE.is_over(state):
        frozen = copy.deepcopy(state)
        bad_seat = data.draw(st.integers(-1, n), label="seat")
        with contextlib.suppress(RulesError):
            ENGINE.apply(state, bad_seat, Point(data.draw(st.integers(-1, n), label="target")))
        assert state == frozen
        seat, action = _step(state, rnd)
        after, _ = ENGINE.apply(state, seat, action)
        assert state == frozen
        state = after


@PROPS
@given(st.integers(3, 12), st.integers(0, 2**40), game_settings, st.integers(0, 2**32))
def test_a_game_replays_exactly_from_settings_seed_and_actions(n: int, seed: int, cfg: Any, choices: int) -> None:
    start, moves = _games(n, seed, cfg, choices)
    state = ENGINE.new_game(cfg, n, seed)
    for _, seat, action, after, events in moves:
        state, again = ENGINE.apply(state, seat, ENGINE.action_from_wire(ENGINE.action_to_wire(action)))
        assert state == after and again == events
    assert ENGINE.is_over(state) and state.final is not None
    best = max(s.score for s in state.seats)
    assert all(state.seats[w].score == best for w in state.final.winners)
