"""One "too close to call" rule (``game/rules/race.py``) for the judge and both Cheating Moth engines
(M14–M16): full device precision, order by time never by seat, ties within the error drawn from the
state's seeded RNG and said so; old journals (rule 0) replay as they were decided."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.cheating_moth import companion
from game.games.cheating_moth import rules as table_mode
from game.rules import race as race_rule
from game.rules.base import RaceMode
from game.rules.rng import Rng
from game.session.race_floor import Press, PressSource, RaceJudge, RaceOutcome
from tests.rules.test_cheating_moth import card_of, table

BOARD = "board-1"
A, P, K = PressSource.ARCADE, PressSource.PHONE, PressSource.KEYBOARD


def board(seat: int, t_ms: float, error_ms: float = 1.5) -> Press:
    """An arcade press: the board's map to the session clock is ``error_ms`` uncertain, its own
    timestamps are exact to 0.05 ms."""
    return Press(seat, t_ms, A, error_ms, clock=BOARD, resolution_ms=0.05)


def judged(presses: list[Press], seats: set[int], mode: RaceMode) -> RaceOutcome:
    judge = RaceJudge()
    judge.arm("r", seats, 1000.0, 5000.0, mode=mode, settle_ms=5000.0)
    for p in presses:
        judge.press(p)
    return judge.result()


# ------------------------------------------------------------------------------- the engines
def table_mosquito() -> table_mode.State:
    state = table([["q4", "a1", "m2"], ["1", "2"], ["3", "m5", "4"], ["m3", "m4"]], top="3")
    state, _ = table_mode.ENGINE.apply(state, 0, table_mode.Play(card_of(state, 0, "q4")))
    return state


def table_beetle() -> table_mode.State:
    state = table([["b4", "4", "1"], ["4", "4", "2"], ["a4", "m4", "2"], ["4", "5"]], top="3")
    state, _ = table_mode.ENGINE.apply(state, 0, table_mode.Play(card_of(state, 0, "b4")))
    return state


def companion_race(kind: companion.CallKind) -> companion.State:
    state = companion.ENGINE.new_game(companion.Settings(), 4, 7)
    state, _ = companion.ENGINE.apply(state, 0, companion.Call(kind))
    return state


def decide(engine: Any, state: Any, outcome: RaceOutcome, rng: Rng) -> dict[str, Any]:
    """The engine's decided event for the judge's presses, through the wire as the journal keeps it."""
    state = dataclasses.replace(state, rng=rng)
    request = engine.race(state)
    action = engine.action_from_wire(engine.action_to_wire(request.on_result(outcome.presses())))
    _, events = engine.apply(state, None, action)
    return next(e for e in engine.events_to_wire(events) if e["type"].endswith("_decided"))


def group_at(outcome: RaceOutcome, seat: int) -> tuple[int, ...]:
    return next((g for g in outcome.ties if seat in g), ())


# ---------------------------------------------------------------------------------- the rule
def test_M16_order_is_by_time_never_by_seat_and_one_board_compares_to_its_resolution() -> None:
    a, b = race_rule.Timing(3, 100.2, 1.5, BOARD, 0.05), race_rule.Timing(1, 100.4, 1.5, BOARD, 0.05)
    assert [p.seat for p in race_rule.ranked([b, a])] == [3, 1]
    assert not race_rule.too_close(a, b)  # one board tells 0.2 ms apart (0.05 + 0.05 resolution)
    other = dataclasses.replace(b, clock="board-2")
    assert race_rule.too_close(a, other)  # two boards: their 1.5 ms clock errors decide
    verdict, rng = race_rule.decide([a, b], race_rule.End.FIRST, Rng.from_seed(1))
    assert verdict == race_rule.Verdict(3) and rng == Rng.from_seed(1)  # no draw used


def test_M14_a_group_too_close_to_call_is_drawn_by_the_seeded_rng_and_says_within_how_much() -> None:
    order = [race_rule.Timing(0, 10.0, 1.0), race_rule.Timing(1, 50.0, 2.0), race_rule.Timing(2, 53.0, 2.0),
             race_rule.Timing(3, 55.5, 0.5)]
    picks = set()
    for seed in range(16):
        verdict, rng = race_rule.decide(order, race_rule.End.LAST, Rng.from_seed(seed))
        assert verdict.drawn == (1, 2, 3) and verdict.within_ms == 4.0 and rng != Rng.from_seed(seed)
        assert race_rule.decide(order, race_rule.End.LAST, Rng.from_seed(seed))[0] == verdict  # replays alike
        picks.add(verdict.seat)
    assert picks == {1, 2, 3}
    assert race_rule.tie_groups(order) == ((1, 2, 3),)
    assert race_rule.shown_ms(100.2) == "100.2" and race_rule.shown_ms(170.0) == "170"


# ------------------------------------------------- M16: 0.2 ms apart on one board, both modes
def test_M16_table_mosquito_0_2_ms_apart_on_one_board_is_decided_not_drawn() -> None:
    outcome = judged([board(1, 1050.0), board(3, 1100.2), board(2, 1100.4)], {1, 2, 3}, RaceMode.SLOWEST_LOSES)
    assert outcome.order == (1, 3, 2) and outcome.ties == ()
    for seed in range(8):
        decided = decide(table_mode.ENGINE, table_mosquito(), outcome, Rng.from_seed(seed))
        assert decided["slowest"] == 2 and decided["tie_broken_by_rng"] is False and decided["close"] is False
        assert decided["times_ms"][2] - decided["times_ms"][1] == pytest.approx(0.2)  # kept, not rounded


def test_M16_companion_mosquito_0_2_ms_apart_on_one_board_is_decided_not_drawn() -> None:
    outcome = judged([board(1, 1050.0), board(3, 1100.2), board(2, 1100.4)], {1, 2, 3}, RaceMode.SLOWEST_LOSES)
    for seed in range(8):
        decided = decide(companion.ENGINE, companion_race(companion.CallKind.MOSQUITO), outcome, Rng.from_seed(seed))
        assert decided["slowest"] == 2 and decided["tied"] == [] and decided["within_ms"] == 0


def test_M16_beetle_0_2_ms_apart_on_one_board_goes_to_the_earlier_press_not_the_lower_seat() -> None:
    outcome = judged([board(1, 1100.4), board(3, 1100.2)], {0, 1, 3}, RaceMode.FASTEST_WINS)
    assert outcome.order == (3, 1) and outcome.ties == ()
    for seed in range(8):
        assert decide(table_mode.ENGINE, table_beetle(), outcome, Rng.from_seed(seed))["winner"] == 3
        decided = decide(companion.ENGINE, companion_race(companion.CallKind.BEETLE), outcome, Rng.from_seed(seed))
        assert decided["winner"] == 3 and decided["tied"] == []


def test_M14_phones_within_their_errors_are_drawn_and_the_event_says_so_in_both_modes() -> None:
    presses = [Press(1, 1050.0, P, 2.0), Press(2, 1101.0, P, 2.0), Press(3, 1103.0, P, 2.0)]
    outcome = judged(presses, {1, 2, 3}, RaceMode.SLOWEST_LOSES)
    assert outcome.ties == ((2, 3),)
    slowest = set()
    for seed in range(12):
        t = decide(table_mode.ENGINE, table_mosquito(), outcome, Rng.from_seed(seed))
        c = decide(companion.ENGINE, companion_race(companion.CallKind.MOSQUITO), outcome, Rng.from_seed(seed))
        assert t["tied"] == c["tied"] == [2, 3] and t["within_ms"] == c["within_ms"] == 4.0
        assert t["slowest"] == c["slowest"]
        slowest.add(t["slowest"])
    assert slowest == {2, 3}
    line = companion.describe_event(c, lambda s: f"P{s + 1}")
    assert "P3, P4 within 4 ms, closer than the sources can tell: decided by a draw" in line
    line = table_mode.describe_event(t, lambda s: f"P{s + 1}")
    assert "within 4 ms, closer than the sources can tell: decided by a draw" in line


# ------------------------------------------------------- the three agree (property, M14–M16)
SOURCES = st.sampled_from(["board-1", "board-2", "phone", "keyboard", "bot"])


@st.composite
def press_sets(draw: Any, seats: tuple[int, ...]) -> list[Press]:
    out = []
    base = draw(st.floats(min_value=1000.0, max_value=1400.0))
    for seat in seats:
        t = base + draw(st.sampled_from([0.0, 0.05, 0.1, 0.2, 1.0, 2.5, 4.0, 9.0, 30.0, 120.0]))
        t += draw(st.floats(min_value=0.0, max_value=3.0))
        source = draw(SOURCES)
        if source.startswith("board"):
            out.append(Press(seat, t, A, draw(st.floats(0.2, 3.0)), clock=source, resolution_ms=0.05))
        elif source == "phone":
            out.append(Press(seat, t, P, draw(st.floats(1.0, 30.0))))
        elif source == "keyboard":
            out.append(Press(seat, t, K, 17.0))
        else:
            out.append(Press(seat, t, PressSource.BOT, 0.0))
    return out


def agree(outcome: RaceOutcome, seed: int, t_state: Any, kind: companion.CallKind, field: str, place: int) -> None:
    """Both engines, given the same presses and the same RNG, decide the judge's place ``place``
    (0 fastest, -1 slowest) alike: by time, or by a draw among exactly the judge's tie group."""
    rng = Rng.from_seed(seed)
    t = decide(table_mode.ENGINE, t_state, outcome, rng)
    c = decide(companion.ENGINE, companion_race(kind), outcome, rng)
    drawn = group_at(outcome, outcome.order[place])
    assert tuple(t["order"]) == tuple(c["order"]) == outcome.order
    assert tuple(c["tied"]) == drawn and t["tie_broken_by_rng"] == bool(drawn)
    assert t[field] == c[field] and (t[field] in drawn if drawn else t[field] == outcome.order[place])


@settings(max_examples=150, deadline=None)
@given(presses=press_sets((1, 2, 3)), seed=st.integers(0, 2**32))
def test_M14_M16_the_judge_and_both_engines_agree_on_the_slowest(presses: list[Press], seed: int) -> None:
    outcome = judged(presses, {1, 2, 3}, RaceMode.SLOWEST_LOSES)
    agree(outcome, seed, table_mosquito(), companion.CallKind.MOSQUITO, "slowest", -1)


@settings(max_examples=150, deadline=None)
@given(presses=press_sets((0, 1, 3)), seed=st.integers(0, 2**32))
def test_M15_M16_the_judge_and_both_engines_agree_on_the_fastest(presses: list[Press], seed: int) -> None:
    outcome = judged(presses, {0, 1, 3}, RaceMode.FASTEST_WINS)
    agree(outcome, seed, table_beetle(), companion.CallKind.BEETLE, "winner", 0)


# ------------------------------------------------------------ old journals replay as decided
def test_M16_a_table_race_journaled_before_the_rule_replays_as_it_was_decided() -> None:
    """A rule-0 ``race_result`` (whole ms, no clocks): 5 ms apart within 4 + 2 ms of error was
    'close' but decided by time then, and stays so; the same presses under rule 1 are a draw."""
    old = {"type": "race_result", "race": 1, "start_ms": 10_000, "seats": [0, 3, 1],
           "times_ms": [10_260, 10_255, 10_900], "cards": [None, None, None], "error_ms": [2, 4, 1]}
    state = table_beetle()
    _, events = table_mode.ENGINE.apply(state, None, table_mode.ENGINE.action_from_wire(old))
    decided = table_mode.ENGINE.events_to_wire(events)[0]
    assert decided["winner"] == 3 and decided["close"] is True and decided["tie_broken_by_rng"] is False
    assert decided["within_ms"] == 0
    _, events = table_mode.ENGINE.apply(state, None, table_mode.ENGINE.action_from_wire({**old, "rule": 1}))
    assert table_mode.ENGINE.events_to_wire(events)[0]["tied"] == [3, 0]


def test_M14_a_companion_race_journaled_before_the_rule_replays_as_it_was_decided() -> None:
    """Rule 0 drew among every press within the errors of the last one (not a chain): 1, 2 and 3
    at 100, 104, 108 ms with 3 ms errors drew between 2 and 3 only, and still does."""
    old = {"type": "race_done", "race": 1, "seats": [1, 2, 3], "times_ms": [100, 104, 108], "error_ms": [3, 3, 3]}
    state = companion_race(companion.CallKind.MOSQUITO)
    _, events = companion.ENGINE.apply(state, None, companion.ENGINE.action_from_wire(old))
    assert companion.ENGINE.events_to_wire(events)[0]["tied"] == [2, 3]
    _, events = companion.ENGINE.apply(state, None, companion.ENGINE.action_from_wire({**old, "rule": 1}))
    assert companion.ENGINE.events_to_wire(events)[0]["tied"] == [1, 2, 3]  # rule 1 chains the group


def test_a_race_result_with_an_unknown_rule_or_ragged_clocks_is_refused_and_changes_nothing() -> None:
    state = table_mosquito()
    bad = {"type": "race_result", "race": 1, "seats": [1], "times_ms": [5.5], "rule": 9}
    for action in (bad, {**bad, "rule": 1, "clocks": ["a", "b"]}):
        try:
            table_mode.ENGINE.apply(state, None, table_mode.ENGINE.action_from_wire(action))
        except table_mode.MalformedAction:
            continue
        raise AssertionError(f"accepted {action}")
