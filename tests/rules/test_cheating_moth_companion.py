"""Cheating Moth companion engine: the program referees real cards (rule ids M4, M10, M14–M19)."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from game.games.cheating_moth.companion import (
    ENGINE,
    Call,
    CallKind,
    EditPoints,
    EndTurn,
    EnterPoints,
    NextRound,
    PassGuard,
    Phase,
    RaceDone,
    RoundOver,
    Settings,
    State,
    UndoPoints,
    WrongWin,
)
from game.rules.base import GameOver, IllegalAction, MalformedAction, NotYourTurn, RaceMode, RacePress
from game.rules.scorepad import BadEntry, EntryProblem

GOLDEN = Path(__file__).with_name("golden_cheating_moth_companion.json")


def fresh(n: int = 4, seed: int = 7, **settings: Any) -> State:
    return ENGINE.new_game(Settings(**settings), n, seed)


def act(state: State, seat: int | None, action: Any) -> tuple[State, list[dict[str, Any]]]:
    """Apply through the wire, as the session does (legal-form check first)."""
    action = ENGINE.action_from_wire(ENGINE.action_to_wire(action))
    if seat is not None:
        assert ENGINE.legal_form(action) in ENGINE.legal_actions(state, seat), action
    new, events = ENGINE.apply(state, seat, action)
    return new, ENGINE.events_to_wire(events)


def race(state: State, presses: list[tuple[int, int, int]]) -> tuple[State, list[dict[str, Any]]]:
    request = ENGINE.race(state)
    assert request is not None
    action = request.on_result(tuple(RacePress(s, t, e) for s, t, e in presses))
    return act(state, None, action)


def test_M18_M4_the_first_guard_starts_and_the_screen_sees_turn_guard_round() -> None:
    state = fresh(4, first_guard=2)
    view = ENGINE.view(state, None)
    assert (view["guard"], view["turn"], view["round"], view["rounds"]) == (2, 2, 1, 4)
    state, events = act(state, 2, EndTurn())
    assert state.turn == 3 and events == [{"type": "turn_passed", "seat": 3, "cause": "M4"}]
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 2, EndTurn())


def test_M14_companion_mosquito_call_opens_a_slowest_loses_race_for_everyone_but_the_caller() -> None:
    state, events = act(fresh(4), 0, Call(CallKind.MOSQUITO))
    request = ENGINE.race(state)
    assert request is not None and request.mode is RaceMode.SLOWEST_LOSES
    assert request.eligible == frozenset({1, 2, 3}) and request.timeout_ms == 5000
    assert events[0]["type"] == "race_called" and events[0]["cause"] == "M14"
    assert ENGINE.view(state, None)["race"]["kind"] == "mosquito"


def test_M14_companion_slowest_is_named_with_every_margin_and_everyone_else_gives() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.MOSQUITO))
    state, events = race(state, [(2, 180, 1), (1, 240, 1), (3, 410, 1)])
    decided = events[0]
    assert decided["type"] == "mosquito_decided" and decided["slowest"] == 3
    assert decided["margins_ms"] == [60, 170] and decided["givers"] == [0, 1, 2] and decided["tied"] == []
    assert state.phase is Phase.PLAY and state.turn == 1  # play goes on after the Mosquito's player
    assert ENGINE.race(state) is None
    assert ENGINE.view(state, None)["last_race"]["loser"] == 3


def test_M14_companion_no_press_within_the_timeout_is_slowest() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.MOSQUITO))
    state, events = race(state, [(1, 200, 1), (2, 900, 1)])
    assert events[0]["slowest"] == 3 and events[0]["missing"] == [3]


def test_M14_companion_a_tie_for_slowest_is_a_seeded_draw_shown_as_such() -> None:
    def slowest(seed: int) -> tuple[int, list[int]]:
        state, _ = act(fresh(4, seed=seed), 0, Call(CallKind.MOSQUITO))
        _, events = race(state, [(1, 200, 1), (2, 300, 5), (3, 304, 5)])
        return events[0]["slowest"], tuple(events[0]["tied"])

    outcomes = {slowest(seed) for seed in range(12)}
    assert {o[0] for o in outcomes} == {2, 3} and all(o[1] == (2, 3) for o in outcomes)
    assert slowest(3) == slowest(3)


def test_M15_companion_beetle_fastest_wins_and_play_continues_after_the_winner() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.BEETLE))
    request = ENGINE.race(state)
    assert request is not None and request.mode is RaceMode.FASTEST_WINS
    assert request.eligible == frozenset({0, 1, 2, 3})  # the beetle's player may join (M15 [pub])
    state, events = race(state, [(2, 150, 1), (1, 163, 1)])
    assert events[0]["winner"] == 2 and events[0]["margins_ms"] == [13] and state.turn == 3


def test_M15_companion_one_tap_undoes_a_wrong_win_and_gives_it_to_the_next() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.BEETLE))
    state, _ = race(state, [(2, 150, 1), (1, 163, 1)])
    assert WrongWin() not in ENGINE.legal_actions(state, 1)  # only the winner (or the host)
    state, events = act(state, 2, WrongWin())
    assert events[0] == {"type": "win_undone", "race": 1, "loser": 2, "winner": 1, "by": 2, "cause": "M15"}
    assert state.turn == 2 and ENGINE.view(state, None)["last_race"]["winner"] == 1
    state, events = act(state, None, WrongWin())  # the host undoes the next one too: nobody wins
    assert events[0]["winner"] is None and state.turn == 1  # back after the beetle's player
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, WrongWin())


def test_M15_companion_the_undo_closes_when_play_moves_on() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.BEETLE))
    state, _ = race(state, [(1, 150, 1)])
    state, _ = act(state, 2, EndTurn())
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, WrongWin())


def test_M15_companion_nobody_presses_no_card_added_play_after_the_beetles_player() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.BEETLE))
    state, events = race(state, [])
    assert events[0]["winner"] is None and state.turn == 1


def test_M16_companion_race_results_are_checked() -> None:
    state, _ = act(fresh(4), 0, Call(CallKind.MOSQUITO))
    for bad in [RaceDone(1, (0,), (10,), (1,)), RaceDone(1, (1, 1), (10, 20), (1, 1)),
                RaceDone(1, (1,), (-5,), (1,)), RaceDone(1, (1,), (), ())]:
        with pytest.raises(MalformedAction):
            ENGINE.apply(state, None, bad)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, RaceDone(2))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, RaceDone(1))


def test_M10_companion_the_guard_hands_the_bug_to_a_caught_cheater() -> None:
    state = fresh(4)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, PassGuard(1))
    state, events = act(state, 0, PassGuard(3))
    assert state.guard == 3 and events[0]["cause"] == "M10"


def test_M17_companion_round_end_each_player_enters_their_own_points_or_the_host_for_them() -> None:
    state, events = act(fresh(3), 1, RoundOver(1))
    assert state.phase is Phase.SCORING and events[0]["cause"] == "M17"
    assert ENGINE.view(state, None)["waiting_for"] == [0, 2]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, EnterPoints(2, 4))
    state, _ = act(state, 0, EnterPoints(0, 7))
    assert NextRound() not in ENGINE.legal_actions(state, 0)
    state, _ = act(state, None, EnterPoints(2, 12))
    assert ENGINE.view(state, 2)["me"]["total"] == 12 and NextRound() in ENGINE.legal_actions(state, 2)


@pytest.mark.parametrize(("points", "reason"), [(-1, EntryProblem.NEGATIVE), (151, EntryProblem.OUT_OF_RANGE)])
def test_M17_companion_bad_points_get_a_typed_error_and_change_nothing(points: int, reason: EntryProblem) -> None:
    state, _ = act(fresh(3), 1, RoundOver(1))
    with pytest.raises(BadEntry) as caught:
        act(state, 0, EnterPoints(0, points))
    assert caught.value.reason is reason
    with pytest.raises(MalformedAction):
        ENGINE.action_from_wire({"type": "enter_points", "seat": 0, "points": "seven"})


def test_M17_companion_corrections_leave_a_trace_never_a_silent_change() -> None:
    state, _ = act(fresh(3), 1, RoundOver(1))
    state, _ = act(state, 0, EnterPoints(0, 7))
    state, _ = act(state, 0, EditPoints(0, 1, 5))  # a player corrects their own entry of this round
    state, _ = act(state, 2, EnterPoints(2, 3))
    state, _ = act(state, 2, NextRound())
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, EditPoints(0, 1, 9))  # round over: only the host
    state, events = act(state, None, EditPoints(2, 1, 4))
    assert events == [{"type": "points_corrected", "seat": 2, "round": 1, "old": 3, "new": 4, "by": None,
                       "undo": False}]
    state, events = act(state, None, UndoPoints())
    assert events[0]["old"] == 4 and events[0]["new"] == 3 and events[0]["undo"] is True
    trace = ENGINE.view(state, None)["pad"]["trace"]
    assert [(t["kind"], t["old"], t["new"], t["by"]) for t in trace] == [
        ("edit", 7, 5, 0), ("edit", 3, 4, None), ("undo", 4, 3, None)]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, UndoPoints())


def test_M18_companion_the_guard_rotates_left_of_the_previous_rounds_first_guard() -> None:
    state = fresh(3, first_guard=1)
    state, _ = act(state, 1, PassGuard(2))  # a cheater caught mid-round took the bug
    state = score_round(state, out=0, points=(0, 4, 6))
    assert (state.round, state.guard, state.turn) == (2, 2, 2)  # left of seat 1, not of seat 2


def test_M19_companion_the_game_ends_after_the_agreed_rounds_lowest_total_wins_ties_shared() -> None:
    state = fresh(3, rounds=2)
    state = score_round(state, out=0, points=(0, 4, 6))
    state = score_round(state, out=2, points=(5, 1, 0))
    assert state.phase is Phase.GAME_OVER and ENGINE.is_over(state)
    final = ENGINE.view(state, None)["final"]
    assert final["totals"] == [5, 5, 6] and final["places"] == [1, 1, 3] and final["rule"] == "M19"
    with pytest.raises(GameOver):
        ENGINE.apply(state, None, EndTurn())


def score_round(state: State, out: int, points: tuple[int, ...]) -> State:
    state, _ = act(state, out, RoundOver(out))
    for seat, value in enumerate(points):
        if seat != out:
            state, _ = act(state, seat, EnterPoints(seat, value))
    state, _ = act(state, None, NextRound())
    return state


def test_wire_round_trip_of_every_action_and_the_views_are_json() -> None:
    for action in [Call(CallKind.MOSQUITO), EndTurn(), PassGuard(2), WrongWin(), RoundOver(1), EnterPoints(1, 3),
                   EditPoints(1, 2, 3), UndoPoints(), NextRound(), RaceDone(3, (1, 2), (5, 9), (1, 1))]:
        assert ENGINE.action_from_wire(ENGINE.action_to_wire(action)) == action
    state, _ = act(fresh(4), 0, Call(CallKind.BEETLE))
    json.dumps(ENGINE.view(state, None)), json.dumps(ENGINE.view(state, 2))
    assert ENGINE.view(state, 2)["me"]["seat"] == 2


def _script() -> list[tuple[int | None, Any]]:
    return [
        (0, Call(CallKind.MOSQUITO)), (None, RaceDone(1, (2, 1, 3), (170, 230, 402), (1, 1, 17))),
        (1, EndTurn()), (2, Call(CallKind.BEETLE)), (None, RaceDone(2, (3, 0), (140, 171), (1, 25))),
        (3, WrongWin()), (0, PassGuard(1)), (1, EndTurn()), (2, RoundOver(2)),
        (0, EnterPoints(0, 11)), (1, EnterPoints(1, 6)), (None, EnterPoints(3, 2)), (None, EditPoints(0, 1, 12)),
        (0, NextRound()),
    ]


def _play_script(seed: int) -> list[str]:
    state = fresh(4, seed=seed)
    lines = []
    for seat, action in _script():
        state, events = ENGINE.apply(state, seat, action)
        lines += [ENGINE.describe_event(e, lambda s: f"P{s + 1}") for e in ENGINE.events_to_wire(events)]
    lines.append(json.dumps(ENGINE.view(state, None), sort_keys=True))
    return lines


def test_golden_replay_the_same_seed_and_actions_give_the_same_story() -> None:
    lines = _play_script(seed=2026)
    assert lines == _play_script(seed=2026)
    if os.environ.get("REGOLD"):  # REGOLD=1 rewrites the golden file after a deliberate change
        GOLDEN.write_text(json.dumps(lines, indent=1, ensure_ascii=False) + "\n")
    assert lines == json.loads(GOLDEN.read_text())


def test_a_companion_record_replays_in_plain_words(tmp_path: Path, capsys: Any) -> None:
    from game import replay as replay_cli
    from game.records import PlayerInfo, Recorder, new_record, save

    recorder = Recorder(new_record("cheating_moth_companion", 4, 2026, "classic",
                                   players=[PlayerInfo(0, "Ali"), PlayerInfo(1, "Sara"), PlayerInfo(2, "Nok"),
                                            PlayerInfo(3, "Mina")]))
    for seat, action in _script():
        recorder.add(seat, ENGINE.action_to_wire(action))
    path = tmp_path / "companion.json"
    save(recorder.record, path)
    assert replay_cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "Ali put down a mosquito and called the race (M14)." in out
    assert "Mina's card did not fit: the Beetle goes to Ali (M15)." in out
    assert "Ali's round 1: 11 → 12, corrected by the host." in out


def test_a_seats_view_is_the_public_view_plus_its_own_part_at_every_step() -> None:
    """Nothing is secret at a companion table but each seat's own flags: no seat sees another's."""
    state = fresh(4, seed=2026)
    for seat, action in _script():
        state, _ = ENGINE.apply(state, seat, action)
        public = ENGINE.view(state, None)
        for s in range(4):
            mine = ENGINE.view(state, s)
            assert {k: v for k, v in mine.items() if k != "me"} == public and mine["me"]["seat"] == s
