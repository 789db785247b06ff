"""Collusion companion engine: votes and showdown as table mode, physical gold checked and counted
on the phones (C17, C18, C20), the score pad's corrections, quick rules, privacy, the wire."""
from __future__ import annotations

from typing import Any

import pytest

from game.games.collusion import rules as table
from game.games.collusion.companion import (
    ENGINE,
    UNKNOWN_BAR,
    ConfirmTotals,
    EnterTotal,
    GoldMode,
    Phase,
    Reached,
    State,
    UndoEntry,
)
from game.rules.base import GameOver, IllegalAction, MalformedAction, NotYourTurn, StaleState
from game.rules.scorepad import BadEntry, EntryProblem

A = "ambush"


def new(n: int = 5, gold: str = "physical", seed: int = 3, **overrides: Any) -> State:
    settings = ENGINE.settings_from_wire({"gold": gold, **overrides}, "rod_ruang")
    return ENGINE.new_game(settings, n, seed)


def vote(state: State, plan: dict[int, Any]) -> tuple[State, list[dict[str, Any]]]:
    """Every seat in ``plan`` puts its card down (a seat, ``A`` or None: nothing) and locks;
    the timer reveals if anyone put nothing down."""
    out: list[Any] = []
    for seat, card in plan.items():
        if card is None:
            continue
        state, ev = ENGINE.apply(state, seat, table.AMBUSH if card == A else table.Vote(card))
        out += ev
    for seat, card in plan.items():
        if card is not None and state.phase is Phase.PLAY and state.table.phase is table.Phase.VOTE:
            state, ev = ENGINE.apply(state, seat, table.LOCK)
            out += ev
    if state.phase is Phase.PLAY and state.table.phase is table.Phase.VOTE and None in plan.values():
        timer = ENGINE.timer(state)
        assert timer is not None
        state, ev = ENGINE.apply(state, None, timer.on_expiry)
        out += ev
    return state, ENGINE.events_to_wire(out)


def one_survivor(state: State) -> tuple[State, list[dict[str, Any]]]:
    """Five players: four tie as targets and die; seat 4, targeted and ambushing, picks seat 3."""
    state, ev = vote(state, {0: 1, 1: 2, 2: 0, 3: 4, 4: A})
    state, ev2 = ENGINE.apply(state, 4, table.AmbushPick(3))
    return state, ev + ENGINE.events_to_wire(ev2)


def kinds(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def answer_all(state: State, reached: dict[int, bool]) -> tuple[State, list[dict[str, Any]]]:
    out: list[Any] = []
    for seat in range(state.n):
        state, ev = ENGINE.apply(state, seat, Reached(reached.get(seat, False)))
        out += ev
    return state, ENGINE.events_to_wire(out)


def enter_all(state: State, totals: dict[int, int]) -> tuple[State, list[dict[str, Any]]]:
    out: list[Any] = []
    for seat, points in totals.items():
        state, ev = ENGINE.apply(state, seat, EnterTotal(points))
        out += ev
    return state, ENGINE.events_to_wire(out)


# ------------------------------------------------------------------------ same rules as the table
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_C8_C11_companion_digital_votes_resolve_exactly_as_table_mode(seed: int) -> None:
    """The same cards give the same reveal, targets and deaths (with their rule ids) in both modes."""
    comp, tbl = new(6, "digital", seed), table.ENGINE.new_game(table.ENGINE.default_settings("rod_ruang"), 6, seed)
    plans = [{0: 1, 1: 0, 2: 1, 3: A, 4: None, 5: 1}]
    for plan in plans:
        comp, ce = vote(comp, plan)
        for seat, card in plan.items():
            if card is not None:
                tbl, _ = table.ENGINE.apply(tbl, seat, table.AMBUSH if card == A else table.Vote(card))
        te: list[Any] = []
        for seat, card in plan.items():
            if card is not None:
                tbl, ev = table.ENGINE.apply(tbl, seat, table.LOCK)
                te += ev
        tbl, ev = table.ENGINE.apply(tbl, None, table.Timeout(f"vote:{tbl.round}:{tbl.vote}"))
        te += ev
        assert [e for e in ce if e["type"] in ("reveal", "died")] == \
            [e for e in table.ENGINE.events_to_wire(te) if e["type"] in ("reveal", "died")]


def test_C9_companion_non_target_voters_ambush_suicide_and_no_vote_die_by_C9() -> None:
    state, ev = vote(new(6), {0: 1, 1: 0, 2: 1, 3: A, 4: None, 5: 2})
    died = {e["seat"]: (e["cause"], e["kind"]) for e in ev if e["type"] == "died"}
    assert died == {1: ("C10", "targeted"), 3: ("C9", "ambush_suicide"), 4: ("C9", "no_vote"),
                    5: ("C9", "not_in_majority")}
    notes = ENGINE.view(state, 0)["companion"]["notes"]
    assert {(n["rule"], n["key"]) for n in notes} >= {("C8", "targets"), ("C9", "died_no_vote"),
                                                      ("C9", "died_ambush_suicide"), ("C10", "died_targeted")}


def test_C10_companion_ambushing_target_chooses_a_voter_on_the_phone() -> None:
    state, ev = vote(new(5), {0: 1, 1: 2, 2: 0, 3: 4, 4: A})
    assert ENGINE.view(state, 4)["phase"] == "ambush_choice"
    assert ENGINE.view(state, 4)["me"]["ambush_prompt"] == {"candidates": [3]}
    assert ENGINE.view(state, 3)["me"]["ambush_prompt"] is None
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 3, table.AmbushPick(3))
    state, ev2 = ENGINE.apply(state, 4, table.AmbushPick(3))
    assert {e["seat"]: e["kind"] for e in ENGINE.events_to_wire(ev2) if e["type"] == "died"}[3] == "ambushed"


def test_C6_companion_conspiracy_timer_is_the_table_timer() -> None:
    state = new(5)
    timer = ENGINE.timer(state)
    assert timer is not None and timer.label == "conspiracy" and timer.duration_ms == 90_000
    assert timer == table.ENGINE.timer(state.table)


# ------------------------------------------------------------------------------- physical gold
def test_C2_companion_physical_gold_has_no_values_anywhere() -> None:
    state = new(5)
    assert set(state.table.deck) | set(state.table.pot) == {UNKNOWN_BAR}
    me = ENGINE.view(state, 0)["me"]
    assert me["gold"] is None and me["total"] is None and me["bars"] == 0


def test_C13_companion_physical_the_survivor_takes_the_pot_by_count() -> None:
    state, ev = one_survivor(new(5))
    taken = [e for e in ev if e["type"] == "pot_taken"]
    assert taken == [{"type": "pot_taken", "seat": 4, "bars": 4, "cause": "C13"}]
    assert state.bars(4) == 4
    assert ("C13", "pot_taken_physical") in {(n.rule, n.key) for n in state.notes}


def test_C17_companion_physical_round_end_asks_everyone_in_secret() -> None:
    state, ev = one_survivor(new(5))
    assert state.phase is Phase.CHECK
    assert "round_started" not in kinds(ev)  # the next round is told after the check
    assert ev[-1]["type"] == "check_started" and ev[-1]["target"] == 25
    assert ENGINE.timer(state) is None
    state, ev = ENGINE.apply(state, 2, Reached(True))
    assert ENGINE.events_to_wire(ev) == [{"type": "check_answered", "seat": 2}]
    assert ENGINE.view(state, 2)["me"]["reached"] is True
    assert ENGINE.view(state, 1)["me"]["reached"] is None
    assert ENGINE.view(state, None)["companion"]["check"] == {"answered": [2]}
    other, _ = ENGINE.apply(state, 2, Reached(False))
    assert ENGINE.view(other, 1) == ENGINE.view(state, 1)  # nothing tells another phone the answer


def test_C17_companion_physical_nobody_reached_starts_the_next_round() -> None:
    state, _ = one_survivor(new(5))
    state, ev = answer_all(state, {})
    assert kinds(ev)[-4:] == ["check_answered", "check_result", "round_started", "vote_started"]
    assert state.phase is Phase.PLAY and ENGINE.view(state, 0)["phase"] == "vote"
    assert ev[-2]["round"] == 2 and ev[-2]["pot"] == 4


def test_C17_companion_the_host_answers_for_a_player_without_a_phone() -> None:
    state, _ = one_survivor(new(5))
    with pytest.raises(MalformedAction):
        ENGINE.apply(state, None, Reached(True))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, Reached(True, seat=1))
    state, ev = ENGINE.apply(state, None, Reached(False, seat=1))
    assert state.answers == ((1, False),)


def reach_count(state: State) -> State:
    state, _ = one_survivor(state)
    state, ev = answer_all(state, {4: True})
    assert ev[-1]["type"] == "count_started" and ev[-1]["cause"] == "C18"
    assert state.phase is Phase.COUNT
    return state


def test_C2_companion_a_total_must_fit_the_bars_held() -> None:
    state = reach_count(new(5))
    assert ENGINE.view(state, 4)["me"]["total_range"] == [12, 20]
    assert ENGINE.view(state, 0)["me"]["total_range"] == [0, 0]
    for bad, problem in ((21, EntryProblem.OUT_OF_RANGE), (-1, EntryProblem.NEGATIVE)):
        with pytest.raises(BadEntry) as err:
            ENGINE.apply(state, 4, EnterTotal(bad))
        assert err.value.reason is problem
    with pytest.raises(MalformedAction):  # a bool is no total: refused when the action is built
        EnterTotal(True)
    assert ENGINE.legal_actions(state, 4) == [EnterTotal(p) for p in (0, *range(12, 21))]
    assert ENGINE.legal_actions(state, 0) == [EnterTotal(0)]
    assert ENGINE.legal_form(EnterTotal(17)) == EnterTotal(0)


def test_C18_companion_totals_are_secret_until_all_entered_then_revealed_together() -> None:
    state = reach_count(new(5))
    state, ev = ENGINE.apply(state, 4, EnterTotal(17))
    assert ENGINE.events_to_wire(ev) == [{"type": "total_entered", "seat": 4, "by": 4}]
    assert ENGINE.view(state, 4)["me"]["entry"] == 17
    other, _ = ENGINE.apply(state, 4, EnterTotal(18))
    assert ENGINE.view(other, 0) == ENGINE.view(state, 0)  # nothing tells another phone the total
    assert ENGINE.view(other, None) == ENGINE.view(state, None)
    state, ev = ENGINE.apply(state, 4, EnterTotal(16))  # changeable until the reveal
    state, ev = enter_all(state, {0: 0, 1: 0, 2: 0})
    assert state.phase is Phase.COUNT
    state, ev = ENGINE.apply(state, None, EnterTotal(0, seat=3))  # the host for a phoneless player
    revealed = ENGINE.events_to_wire(ev)[-1]
    assert revealed == {"type": "totals_revealed", "count": 1, "seats": [0, 1, 2, 3, 4],
                        "totals": [0, 0, 0, 0, 16], "bars": [0, 0, 0, 0, 4]}
    assert state.phase is Phase.REVIEW
    assert ENGINE.view(state, None)["companion"]["count"]["totals"] == [0, 0, 0, 0, 16]
    assert state.pad.changes[3].by is None  # the host's entry is marked as the host's


def test_C18_companion_nobody_at_the_target_plays_on() -> None:
    state = reach_count(new(5))
    state, _ = enter_all(state, {0: 0, 1: 0, 2: 0, 3: 0, 4: 16})
    state, ev = ENGINE.apply(state, None, ConfirmTotals())
    assert kinds(ENGINE.events_to_wire(ev)) == ["nobody_reached", "round_started", "vote_started"]
    assert state.phase is Phase.PLAY


def test_C18_companion_one_player_at_the_target_wins() -> None:
    state = reach_count(new(5, target_score=15))
    state, _ = enter_all(state, {0: 0, 1: 0, 2: 0, 3: 0, 4: 16})
    timer = ENGINE.timer(state)
    assert timer is not None and timer.label == "review"
    state, ev = ENGINE.apply(state, None, timer.on_expiry)
    end = ENGINE.events_to_wire(ev)[-1]
    assert end == {"type": "game_over", "winners": [4], "totals": [0, 0, 0, 0, 16], "bars": [0, 0, 0, 0, 4],
                   "reason": "target", "cause": "C18"}
    assert ENGINE.is_over(state) and ENGINE.view(state, None)["final"]["totals"] == [0, 0, 0, 0, 16]
    with pytest.raises(GameOver):
        ENGINE.apply(state, None, ConfirmTotals())


def test_C18_companion_host_correction_leaves_a_trace_and_can_be_undone() -> None:
    state = reach_count(new(5, target_score=15))
    state, _ = enter_all(state, {0: 0, 1: 0, 2: 0, 3: 0, 4: 16})
    before = ENGINE.timer(state)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, ConfirmTotals())
    assert ENGINE.table_actions(state)[-1] == ConfirmTotals() and UndoEntry() not in ENGINE.table_actions(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, UndoEntry())  # an entry itself is not a correction to take back
    state, ev = ENGINE.apply(state, None, EnterTotal(14, seat=4))
    assert ENGINE.events_to_wire(ev) == [{"type": "total_corrected", "seat": 4, "old": 16, "new": 14, "by": None,
                                          "undo": False}]
    assert ENGINE.timer(state) != before  # a correction restarts the review time
    assert UndoEntry() in ENGINE.table_actions(state)
    trace = ENGINE.view(state, 2)["companion"]["pad"]["trace"]
    assert trace == [{"kind": "edit", "seat": 4, "round": 1, "old": 16, "new": 14, "by": None, "undoes": None}]
    with pytest.raises(StaleState):
        ENGINE.apply(state, None, before.on_expiry)  # type: ignore[union-attr]
    state, _ = ENGINE.apply(state, None, UndoEntry())
    assert state.pad.value(4, 1) == 16 and len(state.pad.trace()) == 2
    state, _ = ENGINE.apply(state, None, EnterTotal(14, seat=4))
    state, ev = ENGINE.apply(state, None, ConfirmTotals())
    assert kinds(ENGINE.events_to_wire(ev)) == ["nobody_reached", "round_started", "vote_started"]


def test_C18_companion_a_tie_at_the_top_plays_a_tie_break_round_among_the_tied() -> None:
    state = new(5, target_score=3)
    state, _ = vote(state, {0: 1, 1: 0, 2: 1, 3: 0, 4: None})  # 0 and 1 tie as targets; 2 and 3 live
    assert state.phase is Phase.PLAY and state.table.phase is table.Phase.SHOWDOWN
    state, _ = ENGINE.apply(state, 2, table.ShowdownPick(table.ShowdownChoice.SPLIT))
    state, _ = ENGINE.apply(state, 3, table.ShowdownPick(table.ShowdownChoice.SPLIT))
    state, _ = ENGINE.apply(state, 2, table.LOCK)
    state, ev = ENGINE.apply(state, 3, table.LOCK)
    paid = [e for e in ENGINE.events_to_wire(ev) if e["type"] == "showdown_reveal"][0]
    assert paid["payout"] == [2, 2] and state.phase is Phase.CHECK
    state, _ = answer_all(state, {2: True, 3: True})
    state, _ = enter_all(state, {0: 0, 1: 0, 2: 9, 3: 9, 4: 0})
    state, ev = ENGINE.apply(state, None, ConfirmTotals())
    wire = ENGINE.events_to_wire(ev)
    assert wire[0] == {"type": "tie_break", "seats": [2, 3], "cause": "C18"}
    assert kinds(wire)[1:] == ["round_started", "showdown_started"]  # two tied: straight to the showdown
    assert state.tie_break == (2, 3) and ENGINE.view(state, 2)["phase"] == "showdown"
    state, _ = ENGINE.apply(state, 2, table.ShowdownPick(table.ShowdownChoice.STEAL))
    state, _ = ENGINE.apply(state, 3, table.ShowdownPick(table.ShowdownChoice.SPLIT))
    state, _ = ENGINE.apply(state, 2, table.LOCK)
    state, ev = ENGINE.apply(state, 3, table.LOCK)
    wire = ENGINE.events_to_wire(ev)
    assert wire[-1] == {"type": "count_started", "count": 2, "seats": [2, 3], "reason": "target", "cause": "C18"}
    assert state.bars(2) == 6 and state.bars(3) == 2
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, EnterTotal(0))
    state, _ = enter_all(state, {2: 26, 3: 9})
    state, ev = ENGINE.apply(state, None, ConfirmTotals())
    end = ENGINE.events_to_wire(ev)[-1]
    assert end["winners"] == [2] and end["totals"] == [0, 0, 26, 9, 0]


def test_C20_companion_dry_deck_count_uses_bars_for_a_tie() -> None:
    state = new(3)
    dry = table.evolve(state.table, deck=(), gold=((0,), (0, 0), ()))
    state = State(state.settings, dry, state.pad)
    state, ev = vote(state, {0: 2, 1: 2, 2: 0})  # 2 dies; 0 and 1 to the showdown
    state, _ = ENGINE.apply(state, 0, table.ShowdownPick(table.ShowdownChoice.STEAL))
    state, _ = ENGINE.apply(state, 1, table.ShowdownPick(table.ShowdownChoice.STEAL))
    state, _ = ENGINE.apply(state, 0, table.LOCK)
    state, ev = ENGINE.apply(state, 1, table.LOCK)  # steal + steal: the pot stays, the deck is empty
    assert state.phase is Phase.CHECK
    state, ev = answer_all(state, {})
    # nobody reached: the table tries the next round — pot 4 still there, so play goes on
    assert state.phase is Phase.PLAY
    state, ev = vote(state, {0: 1, 1: 0, 2: 1})  # 1 dies; 0 and 2 to the showdown
    state, _ = ENGINE.apply(state, 0, table.ShowdownPick(table.ShowdownChoice.SPLIT))
    state, _ = ENGINE.apply(state, 2, table.ShowdownPick(table.ShowdownChoice.SPLIT))
    state, _ = ENGINE.apply(state, 0, table.LOCK)
    state, ev = ENGINE.apply(state, 2, table.LOCK)  # 2 + 2: the pot is empty and the deck too
    wire = ENGINE.events_to_wire(ev)
    assert wire[-1] == {"type": "count_started", "count": 1, "seats": [0, 1, 2], "reason": "deck_empty", "cause": "C20"}
    assert [state.bars(s) for s in range(3)] == [3, 2, 2]
    state, _ = enter_all(state, {0: 10, 1: 8, 2: 8})
    state, ev = ENGINE.apply(state, None, EnterTotal(10, seat=1))  # host: seat 1 miscounted; 10 = 10
    state, ev = ENGINE.apply(state, None, ConfirmTotals())
    end = ENGINE.events_to_wire(ev)[-1]
    assert end["winners"] == [0] and end["cause"] == "C20" and end["reason"] == "deck_empty"


# ------------------------------------------------------------------------------ digital gold
def test_C17_companion_digital_gold_is_kept_by_the_program_as_in_table_mode() -> None:
    state, ev = one_survivor(new(5, "digital"))
    assert state.phase is Phase.PLAY and "round_started" in kinds(ev)
    assert ENGINE.view(state, 4)["me"]["total"] == sum(state.table.gold[4]) > 0
    assert ENGINE.view(state, 4)["companion"]["gold"] == "digital"
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Reached(True))


def test_C18_companion_digital_game_over_fills_the_pad_with_the_totals() -> None:
    state = new(5, "digital", target_score=10)
    for _ in range(4):
        if ENGINE.is_over(state):
            break
        state, _ = one_survivor(state)
    assert ENGINE.is_over(state)
    assert state.pad.totals() == state.table.totals and state.winners == (4,)


# --------------------------------------------------------------------------------- the wire
@pytest.mark.parametrize("action", [Reached(True), Reached(False, seat=2), EnterTotal(12), EnterTotal(3, seat=1),
                                    UndoEntry(), ConfirmTotals(), table.Vote(2), table.Timeout("review:1:5")])
def test_companion_actions_round_trip_the_wire(action: Any) -> None:
    assert ENGINE.action_from_wire(ENGINE.action_to_wire(action)) == action


def test_companion_settings_gold_is_a_checked_setting() -> None:
    assert ENGINE.default_settings().gold is GoldMode.DIGITAL
    from game.rules.base import BadSettings
    with pytest.raises(BadSettings):
        ENGINE.settings_from_wire({"gold": "paper"})
    assert ENGINE.settings_to_wire(ENGINE.settings_from_wire({"gold": "physical"}))["gold"] == "physical"


# ------------------------------------------------------------------------------------ bots
def test_companion_bots_play_digital_gold_and_never_answer_for_real_bars() -> None:
    from game.games.collusion.bots import make_companion_bot as make_bot
    state = new(5, "digital", target_score=12)
    bots = [make_bot("heuristic", s, s) for s in range(5)]
    for _ in range(5_000):
        if ENGINE.is_over(state):
            break
        moved = False
        for seat in ENGINE.seats_to_act(state):
            action = bots[seat].choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat))
            if action is not None:
                state, _ = ENGINE.apply(state, seat, action)
                moved = True
                break
        if not moved:
            timer = ENGINE.timer(state)
            assert timer is not None
            state, _ = ENGINE.apply(state, None, timer.on_expiry)
    assert ENGINE.is_over(state)
    physical, _ = one_survivor(new(5))
    assert physical.phase is Phase.CHECK
    assert make_bot("random", 0, 1).choose(ENGINE.view(physical, 0), ENGINE.legal_actions(physical, 0)) is None
