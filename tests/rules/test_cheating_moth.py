"""Cheating Moth rules, one test (or a few) per rule id M1–M19 of ``docs/rules/cheating-moth.md``."""
from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

import pytest

from game.catalog import get_engine
from game.games.cheating_moth.rules import (
    ENGINE,
    Accuse,
    CheatCancel,
    CheatFinish,
    CheatStart,
    Draw,
    Give,
    Kind,
    NextRound,
    Phase,
    Play,
    RaceResult,
    Settings,
    State,
    Timeout,
    build_deck,
    card_count,
)
from game.rules.base import (
    BadSettings,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RaceMode,
    RacePress,
    StaleState,
    UnknownSeat,
)

LETTERS = {"m": Kind.MOTH, "a": Kind.ANT, "s": Kind.SPIDER, "q": Kind.MOSQUITO, "b": Kind.BEETLE}


def spec(text: str) -> tuple[Kind, int]:
    """``"3"`` a plain 3, ``"m2"`` moth 2, ``"a1"`` ant, ``"s4"`` spider, ``"q3"`` mosquito, ``"b5"`` beetle."""
    if text[0] in LETTERS:
        return LETTERS[text[0]], int(text[1:])
    return Kind.NUMBER, int(text)


def table(hands: list[list[str]], top: str = "3", guard: int = 0, turn: int | None = None,
          draw: list[str] | None = None, **settings: Any) -> State:
    """A state with exactly these hands and top card; every other card in the draw pile (or, when
    ``draw`` is given, exactly those in the draw pile and the rest under the top of the discard)."""
    s = ENGINE.settings_from_wire(settings)
    pool = list(build_deck(s))

    def take(text: str) -> int:
        kind, number = spec(text)
        card = next(c for c in pool if c.kind is kind and c.number == number)
        pool.remove(card)
        return card.id

    hand_ids = tuple(tuple(take(t) for t in hand) for hand in hands)
    top_id = take(top)
    if draw is None:
        draw_ids, under = tuple(c.id for c in pool), ()
    else:
        draw_ids = tuple(take(t) for t in draw)
        under = tuple(c.id for c in pool)
    base = ENGINE.new_game(s, len(hands), 1)
    state = dataclasses.replace(
        base, hands=hand_ids, draw_pile=draw_ids, discard=under + (top_id,), guard=guard, first_guard=guard,
        turn=guard if turn is None else turn,
    )
    assert card_count(state) == len(build_deck(s))
    return state


def kinds(state: State, seat: int) -> Counter[tuple[Kind, int]]:
    return Counter((state.card(c).kind, state.card(c).number) for c in state.hands[seat])


def card_of(state: State, seat: int, text: str) -> int:
    kind, number = spec(text)
    return next(c for c in state.hands[seat] if state.card(c).kind is kind and state.card(c).number == number)


def wire(events: list[Any]) -> list[dict[str, Any]]:
    return ENGINE.events_to_wire(events)


def of(events: list[Any], tag: str) -> list[dict[str, Any]]:
    return [e for e in wire(events) if e["type"] == tag]


def apply(state: State, seat: int | None, action: Any) -> tuple[State, list[Any]]:
    return ENGINE.apply(state, seat, action)


def cheat(state: State, seat: int, text: str, start: int = 1000, held: int = 1500) -> State:
    state, _ = apply(state, seat, CheatStart(card_of(state, seat, text), start))
    state, _ = apply(state, seat, CheatFinish(start + held))
    return state


def race(state: State, presses: dict[int, int], cards: dict[int, int] | None = None,
         errors: dict[int, int] | None = None, start: int = 10_000) -> tuple[State, list[Any]]:
    assert state.race is not None
    seats = tuple(presses)
    return apply(state, None, RaceResult(
        state.race.id, start, seats, tuple(start + presses[s] for s in seats),
        tuple((cards or {}).get(s) for s in seats), tuple((errors or {}).get(s, 0) for s in seats)))


# ------------------------------------------------------------------------------------------ M1
def test_M1_deck_has_71_cards_with_the_gap_split():
    deck = build_deck(Settings())
    assert len(deck) == 71 and [c.id for c in deck] == list(range(71))
    numbers = Counter(c.number for c in deck if c.kind is Kind.NUMBER)
    assert numbers == {1: 9, 2: 9, 3: 9, 4: 8, 5: 8}
    for kind in (Kind.ANT, Kind.SPIDER, Kind.MOSQUITO, Kind.BEETLE):
        assert sorted(c.number for c in deck if c.kind is kind) == [1, 2, 3, 4, 5]
    assert sorted(c.number for c in deck if c.kind is Kind.MOTH) == [2, 2, 3, 3, 4, 4, 5, 5]


def test_M1_deck_split_is_a_setting_but_keeps_71_cards():
    s = ENGINE.settings_from_wire({"number_counts": [10, 9, 8, 8, 8], "moth_numbers": [1, 1, 2, 2, 3, 3, 4, 5]})
    assert len(build_deck(s)) == 71
    with pytest.raises(BadSettings):
        ENGINE.settings_from_wire({"number_counts": [9, 9, 9, 8, 9]})
    with pytest.raises(BadSettings):
        ENGINE.settings_from_wire({"moth_numbers": [2, 3, 4, 5, 6, 2, 3, 4]})


# ------------------------------------------------------------------------------------------ M2
@pytest.mark.parametrize("n", [3, 4, 5])
def test_M2_three_to_five_players(n):
    assert ENGINE.new_game(Settings(), n, 3).n == n


@pytest.mark.parametrize("n", [2, 6])
def test_M2_other_counts_need_the_second_deck(n):
    with pytest.raises(BadSettings):
        ENGINE.new_game(Settings(), n, 3)


def test_M2_two_decks_allow_eight_players():
    s = ENGINE.settings_from_wire({"two_decks": True})
    state = ENGINE.new_game(s, 8, 3)
    assert len(state.deck) == 142 and card_count(state) == 142
    with pytest.raises(BadSettings):
        ENGINE.new_game(s, 9, 3)
    assert get_engine("cheating_moth") is ENGINE and ENGINE.max_seats == 8


# ------------------------------------------------------------------------------------------ M3
def test_M3_deal_eight_each_and_turn_up_one():
    state = ENGINE.new_game(Settings(), 4, 11)
    assert [len(h) for h in state.hands] == [8, 8, 8, 8]
    assert len(state.discard) == 1 and len(state.draw_pile) == 71 - 32 - 1
    assert state.guard == 0 and state.phase is Phase.PLAY
    again = ENGINE.new_game(Settings(), 4, 11)
    assert again == state  # seeded
    assert ENGINE.new_game(Settings(), 4, 12).hands != state.hands


def test_M3_first_guard_is_a_setting():
    state = ENGINE.new_game(ENGINE.settings_from_wire({"first_guard": 2}), 3, 1)
    assert state.guard == 2 and state.turn == 2
    with pytest.raises(BadSettings):
        ENGINE.new_game(ENGINE.settings_from_wire({"first_guard": 4}), 3, 1)


def test_M3_the_first_discard_fires_no_action():
    for seed in range(200):
        state = ENGINE.new_game(Settings(), 3, seed)
        if state.card(state.discard[-1]).kind in (Kind.MOSQUITO, Kind.BEETLE, Kind.SPIDER):
            assert state.phase is Phase.PLAY and state.race is None and state.giving is None
            assert ENGINE.timer(state) is None
            return
    pytest.fail("no seed turned up an action card")


# ------------------------------------------------------------------------------------------ M4
def test_M4_guard_plays_first_then_clockwise():
    state = table([["4", "1"], ["2", "1"], ["3", "1"]], top="3", guard=1)
    assert state.turn == 1
    with pytest.raises(NotYourTurn):
        apply(state, 0, Play(card_of(state, 0, "4")))
    state, _ = apply(state, 1, Play(card_of(state, 1, "2")))
    assert state.turn == 2
    state, _ = apply(state, 2, Play(card_of(state, 2, "3")))
    assert state.turn == 0


# ------------------------------------------------------------------------------------------ M5
@pytest.mark.parametrize("top,ok,bad", [("3", ["2", "4"], ["3", "1", "5"]), ("1", ["2", "5"], ["3", "4"]),
                                        ("5", ["4", "1"], ["2", "3"])])
def test_M5_one_higher_or_lower_wrapping(top, ok, bad):
    state = table([ok + bad + ["1"], ["1"], ["1"]], top=top)
    playable = {state.card(a.card).number for a in ENGINE.legal_actions(state, 0) if isinstance(a, Play)}
    assert playable == {int(x) for x in ok}
    for text in bad:
        with pytest.raises(IllegalAction, match="M5"):
            apply(state, 0, Play(card_of(state, 0, text)))


def test_M5_action_cards_play_by_their_number():
    state = table([["a4", "2"], ["1", "1"], ["1", "1"]], top="3")
    state, events = apply(state, 0, Play(card_of(state, 0, "a4")))
    assert of(events, "played")[0]["kind"] == "ant" and state.card(state.discard[-1]).number == 4


# ------------------------------------------------------------------------------------------ M6
def test_M6_draw_ends_the_turn_and_the_card_waits():
    state = table([["1", "1"], ["1", "1"], ["1", "1"]], top="3", draw=["4"])
    assert Draw() in ENGINE.legal_actions(state, 0)
    state, events = apply(state, 0, Draw())
    assert of(events, "drew") == [{"type": "drew", "seat": 0, "count": 1, "cause": "M6"}]
    assert len(state.hands[0]) == 3 and state.turn == 1  # the drawn 4 would fit, but the turn is over
    with pytest.raises(NotYourTurn):
        apply(state, 0, Play(card_of(state, 0, "4")))


def test_M6_may_draw_even_with_a_playable_card():
    state = table([["4", "1"], ["1", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 0, Draw())
    assert state.turn == 1 and len(state.hands[0]) == 3


def test_M6_empty_draw_pile_is_refilled_from_under_the_top():
    state = table([["1", "1"], ["1", "1"], ["1", "1"]], top="3", draw=[])
    under = len(state.discard) - 1
    top = state.discard[-1]
    state, events = apply(state, 0, Draw())
    assert of(events, "pile_refilled") == [{"type": "pile_refilled", "size": under, "cause": "M6"}]
    assert state.discard == (top,) and len(state.draw_pile) == under - 1 and card_count(state) == 71


def test_M6_nothing_left_to_draw_passes():
    state = table([["1", "1"], ["1", "1"], ["1", "1"]], top="3", draw=[])
    state = dataclasses.replace(state, cheated=state.discard[:-1], discard=state.discard[-1:])
    state, events = apply(state, 0, Draw())
    assert of(events, "drew")[0]["count"] == 0 and state.turn == 1 and card_count(state) == 71


# ------------------------------------------------------------------------------------------ M7
def test_M7_only_the_guard_plays_moths():
    state = table([["m4", "1"], ["m2", "1"], ["1", "1"]], top="3", guard=0)
    assert Play(card_of(state, 0, "m4")) in ENGINE.legal_actions(state, 0)
    state, events = apply(state, 0, Play(card_of(state, 0, "m4")))
    assert of(events, "played")[0]["cause"] == "M7"
    state = table([["1", "1"], ["m2", "1"], ["1", "1"]], top="3", guard=0, turn=1)
    plays = [a for a in ENGINE.legal_actions(state, 1) if isinstance(a, Play)]
    assert plays == []  # the moth 2 would fit on the 3, but seat 1 is not the guard
    with pytest.raises(IllegalAction, match="M7"):
        apply(state, 1, Play(card_of(state, 1, "m2")))


def test_M7_moths_are_never_given():
    state = table([["s4", "m2", "1"], ["1", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 0, Play(card_of(state, 0, "s4")))
    gives = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Give)]
    assert gives and all(state.card(a.card).kind is not Kind.MOTH for a in gives)
    with pytest.raises(IllegalAction, match="M7"):
        apply(state, 0, Give(card_of(state, 0, "m2"), 1))


# ------------------------------------------------------------------------------------------ M8
def test_M8_a_held_cheat_makes_the_card_disappear():
    state = table([["1", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    moth = card_of(state, 1, "m2")
    state, _ = apply(state, 1, CheatStart(moth, 1000))
    assert moth in state.hands[1] and state.cheats[1] is not None
    with pytest.raises(IllegalAction, match="1499 ms"):
        apply(state, 1, CheatFinish(2499))
    state, _ = apply(state, 1, CheatFinish(2500))
    assert moth not in state.hands[1] and state.cheated == (moth,) and card_count(state) == 71
    assert ENGINE.view(state, 1)["me"]["cheated_this_round"] == 1


def test_M8_cheat_ms_is_a_setting():
    state = table([["1", "1"], ["m2", "5", "1"], ["1", "1"]], top="3", cheat_ms=400)
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 0))
    state, _ = apply(state, 1, CheatFinish(400))
    assert len(state.hands[1]) == 2


def test_M8_letting_go_early_cancels():
    state = table([["1", "1"], ["m2", "5"], ["1", "1"]], top="3")
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 1000))
    state, _ = apply(state, 1, CheatCancel(1200))
    assert state.cheats[1] is None and len(state.hands[1]) == 2
    with pytest.raises(IllegalAction):
        apply(state, 1, CheatFinish(5000))


def test_M8_last_card_cannot_be_cheated():
    state = table([["1", "1"], ["m2"], ["1", "1"]], top="3")
    assert not any(isinstance(a, CheatStart) for a in ENGINE.legal_actions(state, 1))
    with pytest.raises(IllegalAction, match="last card"):
        apply(state, 1, CheatStart(card_of(state, 1, "m2"), 0))


def test_M8_a_cheat_stops_when_only_that_card_would_be_left():
    state = table([["1", "1"], ["m2", "4"], ["1", "1"]], top="3", turn=1)
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 0))
    state, events = apply(state, 1, Play(card_of(state, 1, "4")))
    assert state.cheats[1] is None and of(events, "cheat_tell")[-1]["active"] is False
    assert len(state.hands[1]) == 1


def test_M8_playing_the_held_card_ends_the_cheat():
    state = table([["1", "1"], ["4", "2", "1"], ["1", "1"]], top="3", turn=1)
    four = card_of(state, 1, "4")
    state, _ = apply(state, 1, CheatStart(four, 0))
    state, _ = apply(state, 1, Play(four))
    assert state.cheats[1] is None and four == state.discard[-1]


def test_M8_the_guard_never_cheats_and_one_card_at_a_time():
    state = table([["1", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    assert not any(isinstance(a, CheatStart) for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="guard never cheats"):
        apply(state, 0, CheatStart(state.hands[0][0], 0))
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 0))
    with pytest.raises(IllegalAction, match="one card at a time"):
        apply(state, 1, CheatStart(card_of(state, 1, "5"), 10))
    assert ENGINE.legal_actions(state, 1) == [CheatCancel(0), CheatFinish(0)]


def test_M8_cheating_is_allowed_out_of_turn_and_during_races():
    state = table([["q4", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    assert state.phase is Phase.MOSQUITO_RACE
    state = cheat(state, 1, "m2")
    assert len(state.hands[1]) == 2


def test_M8_bad_times_are_malformed():
    state = table([["1", "1"], ["m2", "5"], ["1", "1"]], top="3")
    with pytest.raises(MalformedAction):
        apply(state, 1, CheatStart(card_of(state, 1, "m2"), -5))


# ------------------------------------------------------------------------------------------ M9
def test_M9_only_the_guard_accuses():
    state = table([["1", "1"], ["m2", "5"], ["1", "1"]], top="3", guard=0)
    with pytest.raises(IllegalAction, match="only the guard"):
        apply(state, 2, Accuse(1, 0))
    accusations = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, Accuse)]
    assert sorted(a.target for a in accusations) == [1, 2]
    with pytest.raises(IllegalAction):
        apply(state, 0, Accuse(0, 0))
    with pytest.raises(UnknownSeat):
        apply(state, 0, Accuse(7, 0))


def test_M9_nobody_cheats_while_an_accusation_resolves():
    state = table([["2", "1"], ["m2", "5", "1"], ["m3", "4", "1"]], top="3")
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 1000))
    state, _ = apply(state, 2, CheatStart(card_of(state, 2, "m3"), 1100))
    state, events = apply(state, 0, Accuse(1, 1200))
    assert state.current_phase is Phase.PENALTY_GIVE
    assert state.cheats == (None, None, None)  # seat 2's hold was stopped too
    assert ENGINE.legal_actions(state, 2) == [] and ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="M9"):
        apply(state, 2, CheatStart(card_of(state, 2, "m3"), 1300))
    assert ENGINE.view(state, 2)["me"]["can_cheat"] is False


def test_M9_no_accusation_during_a_race():
    state = table([["q4", "1"], ["m2", "5"], ["1", "1"]], top="3")
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    assert not any(isinstance(a, Accuse) for a in ENGINE.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="M9"):
        apply(state, 0, Accuse(1, 0))


# ----------------------------------------------------------------------------------------- M10
def test_M10_right_accusation_during_the_hold():
    state = table([["2", "a1", "m4"], ["m2", "5", "1"], ["1", "1"]], top="3")
    before = kinds(state, 1)
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 1000))
    state, events = apply(state, 0, Accuse(1, 1400))
    assert of(events, "accused") == [{"type": "accused", "guard": 0, "target": 1, "caught": True, "cause": "M10"}]
    assert of(events, "cheat_undone") and kinds(state, 1) == before
    gives = ENGINE.legal_actions(state, 0)
    assert {state.card(a.card).kind for a in gives} == {Kind.NUMBER, Kind.ANT} and {a.to for a in gives} == {1}
    assert ENGINE.view(state, None)["pending"] == {"giver": 0, "receiver": 1}
    state, events = apply(state, 0, Give(card_of(state, 0, "a1"), 1))
    assert of(events, "card_given")[0]["cause"] == "M10"
    assert of(events, "guard_passed") == [{"type": "guard_passed", "old": 0, "new": 1, "cause": "M10"}]
    assert state.guard == 1 and state.current_phase is Phase.PLAY and state.turn == 0
    assert kinds(state, 1) == before + Counter({(Kind.ANT, 1): 1})


def test_M10_right_accusation_just_after_the_cheat():
    state = table([["2", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    state = cheat(state, 1, "m2", start=1000, held=1500)  # completed at 2500
    state, events = apply(state, 0, Accuse(1, 3499))  # 999 ms later: inside the 1000 ms window
    assert of(events, "accused")[0]["caught"] is True
    assert (Kind.MOTH, 2) in kinds(state, 1) and state.cheated == () and card_count(state) == 71
    assert ENGINE.view(state, 1)["me"]["cheated_this_round"] == 0


def test_M10_wrong_accusation_outside_the_window():
    state = table([["2", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    state = cheat(state, 1, "m2", start=1000, held=1500)
    state, events = apply(state, 0, Accuse(1, 3500))  # exactly caught_window_ms later: too late
    assert of(events, "accused")[0]["caught"] is False
    assert of(events, "drew") == [{"type": "drew", "seat": 0, "count": 1, "cause": "M10"}]
    assert len(state.hands[0]) == 3 and state.guard == 0 and (Kind.MOTH, 2) not in kinds(state, 1)


def test_M10_caught_window_is_a_setting():
    state = table([["2", "1"], ["m2", "5", "1"], ["1", "1"]], top="3", caught_window_ms=3000)
    state = cheat(state, 1, "m2", start=1000, held=1500)
    state, events = apply(state, 0, Accuse(1, 5400))
    assert of(events, "accused")[0]["caught"] is True


def test_M10_accusing_before_the_cheat_began_is_wrong():
    state = table([["2", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 2000))
    state, events = apply(state, 0, Accuse(1, 1990))  # stamped before the hold began
    assert of(events, "accused")[0]["caught"] is False and state.cheats[1] is not None


def test_M10_accusing_an_honest_player():
    state = table([["2", "1"], ["m2", "5", "1"], ["m3", "4", "1"]], top="3")
    state, _ = apply(state, 2, CheatStart(card_of(state, 2, "m3"), 1000))
    state, events = apply(state, 0, Accuse(1, 1200))
    assert of(events, "accused")[0]["caught"] is False and state.cheats[2] is not None


def test_M10_a_guard_with_only_moths_owes_nothing():
    state = table([["m2", "m4"], ["m3", "5", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m3"), 0))
    state, events = apply(state, 0, Accuse(1, 10))
    assert of(events, "give_skipped") == [{"type": "give_skipped", "giver": 0, "receiver": 1, "cause": "M10"}]
    assert state.guard == 1 and state.current_phase is Phase.PLAY


def test_M10_the_new_guard_stops_cheating_and_old_guard_may_cheat():
    state = table([["2", "1", "5"], ["m3", "5", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m3"), 0))
    state, _ = apply(state, 0, Accuse(1, 10))
    state, _ = apply(state, 0, Give(card_of(state, 0, "5"), 1))
    assert not any(isinstance(a, CheatStart) for a in ENGINE.legal_actions(state, 1))
    assert any(isinstance(a, CheatStart) for a in ENGINE.legal_actions(state, 0))


# ----------------------------------------------------------------------------------------- M11
@pytest.mark.parametrize("tell,flag", [("none", None), ("subtle", "tremble"), ("obvious", "sleeve")])
def test_M11_tell_setting(tell, flag):
    state = table([["1", "1"], ["m2", "5", "1"], ["1", "1"]], top="3", tell=tell)
    state, events = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 0))
    seats = ENGINE.view(state, None)["seats"]
    assert seats[1]["tell"] == flag and seats[2]["tell"] is None
    if flag is None:
        assert events == []
    else:
        assert of(events, "cheat_tell") == [{"type": "cheat_tell", "seat": 1, "tell": tell, "active": True, "cause": "M11"}]
    assert ENGINE.view(state, 1)["me"]["cheat"] == {"card": card_of(state, 1, "m2"), "started_ms": 0, "finish_at_ms": 1500}


def test_M11_hand_sizes_exact_only_at_three_or_fewer():
    state = table([["1", "1", "1", "1"], ["1", "1", "1"], ["1"]], top="3")
    assert [s["hand"] for s in ENGINE.view(state, None)["seats"]] == ["many", 3, 1]
    state = table([["1", "1", "1", "1"], ["1", "1", "1"], ["1"]], top="3", exact_count_max=4)
    assert [s["hand"] for s in ENGINE.view(state, None)["seats"]] == [4, 3, 1]


def test_M11_views_show_only_your_own_hand():
    state = ENGINE.new_game(Settings(), 4, 5)
    public = json.dumps(ENGINE.view(state, None))
    assert '"me"' not in public
    for seat in range(4):
        v = ENGINE.view(state, seat)
        assert sorted(c["id"] for c in v["me"]["hand"]) == sorted(state.hands[seat])
        shown = {c["id"] for c in v["me"]["hand"]}
        for other in range(4):
            if other != seat:
                assert not shown & set(state.hands[other])


# ----------------------------------------------------------------------------------------- M12
def test_M12_ant_every_other_player_draws():
    state = table([["a4", "1"], ["1"], ["1", "1"], ["1"]], top="3")
    state, events = apply(state, 0, Play(card_of(state, 0, "a4")))
    assert [e["seat"] for e in of(events, "drew")] == [1, 2, 3]
    assert all(e["cause"] == "M12" for e in of(events, "drew"))
    assert [len(h) for h in state.hands] == [1, 2, 3, 2] and state.turn == 1


# ----------------------------------------------------------------------------------------- M13
def test_M13_spider_gives_a_chosen_card_to_a_chosen_player():
    state = table([["s4", "a1", "m2", "5"], ["1"], ["1"]], top="3")
    state, events = apply(state, 0, Play(card_of(state, 0, "s4")))
    assert state.phase is Phase.SPIDER_GIVE and ENGINE.view(state, None)["pending"] == {"giver": 0}
    assert ENGINE.view(state, 0)["me"]["give_to"] == [1, 2]
    with pytest.raises(IllegalAction, match="another player"):
        apply(state, 0, Give(card_of(state, 0, "a1"), 0))
    with pytest.raises(IllegalAction):
        apply(state, 1, Give(card_of(state, 1, "1"), 0))
    state, events = apply(state, 0, Give(card_of(state, 0, "a1"), 2))
    assert of(events, "card_given") == [{"type": "card_given", "giver": 0, "receiver": 2, "cause": "M13"}]
    assert (Kind.ANT, 1) in kinds(state, 2) and state.turn == 1 and state.phase is Phase.PLAY


def test_M13_spider_with_only_moths_left_does_nothing():
    state = table([["s4", "m2"], ["1"], ["1"]], top="3")
    state, events = apply(state, 0, Play(card_of(state, 0, "s4")))
    assert of(events, "effect")[-1]["outcome"] == "no_card_to_give"
    assert state.phase is Phase.PLAY and state.turn == 1 and len(state.hands[0]) == 1


def test_M13_giving_your_last_card_ends_the_round():
    state = table([["s4", "5"], ["1", "1"], ["1", "a2"]], top="3")
    state, _ = apply(state, 0, Play(card_of(state, 0, "s4")))
    state, events = apply(state, 0, Give(card_of(state, 0, "5"), 1))
    assert of(events, "round_ended")[0]["out"] == 0 and state.phase is Phase.ROUND_OVER


# ----------------------------------------------------------------------------------------- M14
def mosquito_table(**settings: Any) -> State:
    return table([["q4", "a1", "m2"], ["1", "2"], ["3", "m5", "4"], ["m3", "m4"]], top="3", **settings)


def test_M14_mosquito_race_and_the_slowest_collects():
    state = mosquito_table()
    state, events = apply(state, 0, Play(card_of(state, 0, "q4")))
    started = of(events, "race_started")[0]
    assert started["eligible"] == [1, 2, 3] and started["cause"] == "M14" and state.phase is Phase.MOSQUITO_RACE
    assert ENGINE.legal_actions(state, 1) == [CheatStart(c, 0) for c in state.hands[1]]
    request = ENGINE.race(state)
    assert request is not None and request.key == str(state.race.id) and request.timeout_ms == 5000
    assert ENGINE.timer(state) is None  # the race floor times a race from its request, nothing else does
    state, events = race(state, {1: 300, 2: 250, 3: 410})
    decided = of(events, "race_decided")[0]
    assert decided["order"] == [2, 1, 3] and decided["times_ms"] == [250, 300, 410]
    assert decided["margins_ms"] == [0, 50, 110] and decided["slowest"] == 3 and decided["tie_broken_by_rng"] is False
    assert state.phase is Phase.MOSQUITO_GIVE
    pending = ENGINE.view(state, None)["pending"]
    assert pending["receiver"] == 3 and pending["givers"] == [0, 1, 2]  # the mosquito's player gives too
    for seat in (0, 1, 2):
        card = next(a for a in ENGINE.legal_actions(state, seat) if isinstance(a, Give)).card
        assert state.card(card).kind is not Kind.MOTH
        state, events = apply(state, seat, Give(card, 3))
        assert of(events, "card_given")[0]["cause"] == "M14"
    assert len(state.hands[3]) == 5 and state.phase is Phase.PLAY and state.turn == 1


def test_M14_a_player_who_never_slaps_is_slowest():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    state, events = race(state, {1: 300, 2: 900})
    decided = of(events, "race_decided")[0]
    assert decided["no_press"] == [3] and decided["slowest"] == 3 and decided["tied"] == [3]


def test_M14_a_press_after_the_timeout_counts_as_none():
    state = mosquito_table(race_timeout_ms=1000)
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    state, events = race(state, {1: 300, 2: 1001, 3: 400})
    assert of(events, "race_decided")[0]["slowest"] == 2


def test_M14_ties_for_slowest_are_broken_by_the_seeded_rng():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    picks = set()
    for seed in range(12):
        seeded = dataclasses.replace(state, rng=dataclasses.replace(state.rng, state=seed))
        after, events = race(seeded, {1: 300, 2: 450, 3: 450})
        decided = of(events, "race_decided")[0]
        assert decided["tied"] == [2, 3] and decided["tie_broken_by_rng"] is True
        picks.add(decided["slowest"])
        again, _ = race(seeded, {1: 300, 2: 450, 3: 450})
        assert again == after
    assert picks == {2, 3}


def test_M14_timer_expiry_nobody_slaps():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    state, events = apply(state, None, ENGINE.race(state).on_result(()))  # the timeout: nobody pressed
    decided = of(events, "race_decided")[0]
    assert decided["no_press"] == [1, 2, 3] and decided["slowest"] in (1, 2, 3)


def test_M14_givers_holding_only_moths_are_skipped():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    state, events = race(state, {1: 300, 2: 200, 3: 100})
    assert of(events, "race_decided")[0]["slowest"] == 1
    pending = ENGINE.view(state, None)["pending"]
    assert pending["givers"] == [0, 2]  # seat 3 holds only moths
    assert of(events, "give_skipped") == [{"type": "give_skipped", "giver": 3, "receiver": 1, "cause": "M14"}]
    with pytest.raises(IllegalAction, match="goes to seat 1"):
        apply(state, 0, Give(card_of(state, 0, "a1"), 2))


def test_M14_mosquito_never_moves_a_moth():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    state, _ = race(state, {1: 100, 2: 200, 3: 300})  # seat 3 collects
    for seat in (0, 2):
        assert all(state.card(a.card).kind is not Kind.MOTH
                   for a in ENGINE.legal_actions(state, seat) if isinstance(a, Give))
    moth = card_of(state, 2, "m5")
    with pytest.raises(IllegalAction, match="M7"):
        apply(state, 2, Give(moth, 3))
    assert moth in state.hands[2]


def test_M14_race_results_are_checked():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    with pytest.raises(IllegalAction, match="may not take part"):
        race(state, {0: 100})
    with pytest.raises(StaleState):
        apply(state, None, RaceResult(state.race.id + 1))
    with pytest.raises(MalformedAction):
        apply(state, None, RaceResult(state.race.id, 0, (1, 2), (5,), (), ()))
    with pytest.raises(MalformedAction):
        apply(state, None, RaceResult(state.race.id, 0, (1, 1), (5, 6), (), ()))
    with pytest.raises(IllegalAction):
        apply(state, 1, RaceResult(state.race.id))
    after, _ = race(state, {1: 1, 2: 2, 3: 3})
    with pytest.raises(IllegalAction, match="no race"):
        apply(after, None, RaceResult(state.race.id))


def test_M14_race_request_every_other_player_must_slap_and_the_result_comes_from_the_presses():
    state = mosquito_table()
    assert ENGINE.race(state) is None
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    request = ENGINE.race(state)
    assert request is not None and request.mode is RaceMode.SLOWEST_LOSES and not request.secret
    assert request.eligible == frozenset({1, 2, 3}) and request.timeout_ms == 5000
    assert ENGINE.race(state).key == request.key  # the same race while it runs
    action = request.on_result((RacePress(2, 250, 3), RacePress(1, 300, 17), RacePress(3, 410, 3)))
    after, events = apply(state, None, action)
    decided = of(events, "race_decided")[0]
    assert decided["order"] == [2, 1, 3] and decided["slowest"] == 3 and decided["error_ms"] == [3, 17, 3]
    assert ENGINE.race(after) is None
    nobody, events = apply(state, None, request.on_result(()))
    assert of(events, "race_decided")[0]["no_press"] == [1, 2, 3]


# ----------------------------------------------------------------------------------------- M15
def beetle_table(**settings: Any) -> State:
    return table([["b4", "4", "1"], ["4", "4", "2"], ["a4", "m4", "2"], ["4", "5"]], top="3", **settings)


def test_M15_fastest_plain_card_stays_the_rest_go_back():
    state = beetle_table()
    state, events = apply(state, 0, Play(card_of(state, 0, "b4")))
    assert of(events, "race_started")[0]["eligible"] == [0, 1, 2, 3] and state.phase is Phase.BEETLE_RACE
    assert ENGINE.view(state, 1)["me"]["race_cards"] == sorted(
        c for c in state.hands[1] if state.card(c).number == 4)
    assert ENGINE.view(state, 2)["me"]["race_cards"] == []  # an action card or moth of 4 does not count
    state, events = race(state, {0: 500, 1: 320, 3: 300}, cards={1: card_of(state, 1, "4")})
    decided = of(events, "race_decided")[0]
    assert decided["winner"] == 3 and decided["order"] == [3, 1, 0] and decided["cause"] == "M15"
    played = of(events, "played")[0]
    assert played["seat"] == 3 and played["cause"] == "M15" and state.card(state.discard[-1]).number == 4
    assert [len(h) for h in state.hands] == [2, 3, 3, 1]
    assert state.turn == 0  # after the winner (M15 [gap])


def test_M15_a_beetle_race_nobody_enters():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    top = state.discard[-1]
    state, events = apply(state, None, ENGINE.race(state).on_result(()))  # the timeout: nobody pressed
    decided = of(events, "race_decided")[0]
    assert decided["winner"] is None and decided["order"] == []
    assert state.discard[-1] == top and state.turn == 1 and state.phase is Phase.PLAY


def test_M15_race_request_only_holders_may_press_a_secret_and_the_engine_names_their_card():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    request = ENGINE.race(state)
    assert request is not None and request.mode is RaceMode.FASTEST_WINS and request.secret
    assert request.eligible == frozenset({0, 1, 3})  # seat 2 holds only an Ant and a moth of 4
    action = request.on_result((RacePress(3, 300, 0), RacePress(1, 320, 0)))
    assert action.cards == (card_of(state, 3, "4"), min(c for c in state.hands[1] if state.card(c).number == 4))
    after, events = apply(state, None, action)
    assert of(events, "race_decided")[0]["winner"] == 3 and ENGINE.race(after) is None
    _, events = apply(state, None, request.on_result(()))
    assert of(events, "race_decided")[0]["winner"] is None


def test_M15_entries_without_a_plain_matching_card_are_void():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    state, events = race(state, {2: 100, 1: 250}, cards={2: card_of(state, 2, "a4")})
    decided = of(events, "race_decided")[0]
    assert decided["void"] == [2] and decided["winner"] == 1 and len(state.hands[2]) == 3


def test_M15_the_beetles_player_may_join_and_win():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    state, events = race(state, {0: 180, 3: 300})
    assert of(events, "race_decided")[0]["winner"] == 0 and len(state.hands[0]) == 1 and state.turn == 1


def test_M15_winner_with_no_card_left_ends_the_round():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    state = dataclasses.replace(state, hands=(state.hands[0], state.hands[1], state.hands[2], (card_of(state, 3, "4"),)),
                                draw_pile=state.draw_pile + (card_of(state, 3, "5"),))
    state, events = race(state, {3: 200})
    assert of(events, "round_ended")[0]["out"] == 3 and state.phase is Phase.ROUND_OVER


def test_M15_who_plays_next_is_a_setting():
    state = beetle_table(beetle_next="after_player")
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    state, _ = race(state, {3: 200})
    assert state.turn == 1


# ----------------------------------------------------------------------------------------- M16
def test_M16_decided_by_press_time_not_report_order_with_margins_and_errors():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    state, events = race(state, {0: 260, 3: 255, 1: 900}, errors={0: 2, 3: 4, 1: 1})
    decided = of(events, "race_decided")[0]
    assert decided["order"] == [3, 0, 1] and decided["margins_ms"] == [0, 5, 640]
    assert decided["error_ms"] == [4, 2, 1] and decided["close"] is True  # 5 ms < 4 + 2
    assert ENGINE.view(state, None)["last_race"]["winner"] == 3


def test_M16_presses_before_the_start_count_from_zero():
    state = beetle_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "b4")))
    state, events = race(state, {3: -20, 1: 5})
    decided = of(events, "race_decided")[0]
    assert decided["order"] == [3, 1] and decided["times_ms"] == [0, 5]


# ----------------------------------------------------------------------------------------- M17
def test_M17_round_ends_on_the_last_card_and_others_score():
    state = table([["4"], ["m2", "a1", "1", "5"], ["q2", "3"]], top="3")
    state, events = apply(state, 0, Play(card_of(state, 0, "4")))
    ended = of(events, "round_ended")[0]
    assert ended["out"] == 0 and ended["points"] == [0, 10 + 5 + 1 + 1, 5 + 1] and ended["cause"] == "M17"
    assert ended["moths"] == [0, 1, 0] and state.totals == (0, 17, 6)
    assert state.phase is Phase.ROUND_OVER and ENGINE.legal_actions(state, 1) == []
    timer = ENGINE.timer(state)
    assert timer is not None and timer.key == "round:1" and timer.on_expiry == NextRound()
    assert ENGINE.view(state, None)["last_round"] == {"round": 1, "out": 0, "points": [0, 17, 6], "moths": [0, 1, 0]}


def test_M17_an_action_card_played_last_does_not_fire():
    state = table([["a4"], ["1", "1"], ["1", "1"]], top="3")
    state, events = apply(state, 0, Play(card_of(state, 0, "a4")))
    assert not of(events, "drew") and state.phase is Phase.ROUND_OVER


# ----------------------------------------------------------------------------------------- M18
def test_M18_as_many_rounds_as_players_and_the_bug_moves_left():
    state = table([["4"], ["1", "1"], ["1", "1"]], top="3")
    state = dataclasses.replace(state, guard=2)  # the bug moved during the round (M10)
    state, _ = apply(state, 0, Play(card_of(state, 0, "4")))
    state, events = apply(state, None, NextRound())
    assert of(events, "guard_passed") == [{"type": "guard_passed", "old": 2, "new": 1, "cause": "M18"}]
    assert state.guard == 1 and state.first_guard == 1 and state.turn == 1 and state.round == 1
    assert of(events, "round_started")[0]["round"] == 2 and [len(h) for h in state.hands] == [8, 8, 8]
    assert card_count(state) == 71 and state.cheated == () and state.totals != ()


def test_M18_game_ends_after_n_rounds():
    state = table([["4"], ["1", "1"], ["1", "1"]], top="3")
    state = dataclasses.replace(state, round=2)
    state, events = apply(state, 0, Play(card_of(state, 0, "4")))
    assert state.phase is Phase.GAME_OVER and ENGINE.is_over(state) and of(events, "game_ended")
    assert ENGINE.timer(state) is None
    with pytest.raises(GameOver):
        apply(state, None, NextRound())


# ----------------------------------------------------------------------------------------- M19
def _final(totals: tuple[int, ...], moths: tuple[int, ...], **settings: Any) -> dict[str, Any]:
    state = table([["4"], ["1"], ["1"], ["1"]], top="3", **settings)
    state = dataclasses.replace(state, round=3, totals=totals, moths=moths)
    state, events = apply(state, 0, Play(card_of(state, 0, "4")))
    return of(events, "game_ended")[0]


def test_M19_lowest_total_wins_tie_fewer_moths_then_shared():
    ended = _final((20, 9, 19, 9), (1, 0, 0, 0))  # +1 each for seats 1..3
    assert ended["seats"] == [1, 3, 2, 0] and ended["ranks"] == [1, 1, 3, 4] and ended["totals"] == [10, 10, 20, 20]
    ended = _final((20, 9, 19, 9), (0, 0, 0, 1))
    assert ended["seats"] == [1, 3, 0, 2] and ended["ranks"] == [1, 2, 3, 3]  # 0 and 2: same total and moths


def test_M19_shared_tie_break_setting():
    ended = _final((20, 9, 19, 9), (0, 0, 0, 1), tie_break="shared")
    assert ended["ranks"] == [1, 1, 3, 3]


def test_M19_view_shows_ranking_and_winners():
    state = table([["4"], ["1"], ["1"]], top="3")
    state = dataclasses.replace(state, round=2)
    state, _ = apply(state, 0, Play(card_of(state, 0, "4")))
    view = ENGINE.view(state, None)
    assert view["phase"] == "game_over" and view["winners"] == [0]
    assert view["ranking"][0] == {"seat": 0, "rank": 1, "total": 0, "moths": 0}


# -------------------------------------------------------------------------------------- contract
def test_every_action_round_trips_on_the_wire():
    samples = [Play(3), Draw(), Give(4, 2), CheatStart(5, 1200), CheatCancel(1300), CheatFinish(2800), Timeout(4),
               Accuse(1, 4000), RaceResult(3, 100, (1, 2), (250, 300), (None, 17), (3, 4)), NextRound()]
    assert {ENGINE.actions.tag_of(a) for a in samples} == set(ENGINE.actions.tags)
    for action in samples:
        data = json.loads(json.dumps(ENGINE.action_to_wire(action)))
        assert ENGINE.action_from_wire(data) == action
    with pytest.raises(MalformedAction):
        ENGINE.action_from_wire({"type": "play", "card": "x"})
    with pytest.raises(MalformedAction):
        ENGINE.action_from_wire({"type": "accuse"})


def test_settings_round_trip_and_are_checked():
    s = ENGINE.settings_from_wire({"tell": "obvious", "cheat_ms": 900})
    assert ENGINE.settings_from_wire(ENGINE.settings_to_wire(s)) == s
    for bad in ({"tell": "loud"}, {"cheat_ms": 0}, {"hand_size": 0}, {"nope": 1}, {"race_timeout_ms": "5"}):
        with pytest.raises(BadSettings):
            ENGINE.settings_from_wire(bad)
    with pytest.raises(BadSettings):
        ENGINE.default_settings("tournament")


def test_bad_input_leaves_the_state_alone():
    state = table([["4", "1"], ["m2", "1"], ["1", "1"]], top="3")
    snapshot = dataclasses.replace(state)
    for seat, action in ((1, Play(state.hands[1][0])), (0, Play(999)), (0, Give(1, 2)), (9, Draw())):
        with pytest.raises((IllegalAction, UnknownSeat)):
            apply(state, seat, action)
    assert state == snapshot


def test_the_view_doc_lists_every_action_and_event_with_its_fields():
    import dataclasses as dc
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "game" / "games" / "cheating_moth" / "views.md").read_text()
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| `(\w+)` \| ([^|]*) \|", doc, re.M)}
    for codec in (ENGINE.actions, ENGINE.events):
        for tag in codec.tags:
            assert tag in rows, f"{tag} is missing from game/games/cheating_moth/views.md"
            cls = codec._by_tag[tag]
            named = set(re.findall(r"`(\w+)`", rows[tag]))
            if "see below" in rows[tag]:
                named = set(re.findall(r'"(\w+)":', doc.split('"type": "race_decided"')[1].split("}")[0]))
            fields = {f.name for f in dc.fields(cls)}
            assert named == fields, (tag, named ^ fields)


# ------------------------------------------------------------------------------ digital timers
def test_turn_timer_is_off_by_default_and_draws_when_set():
    state = table([["4", "1"], ["1", "1"], ["1", "1"]], top="3")
    assert ENGINE.timer(state) is None
    state = table([["4", "1"], ["1", "1"], ["1", "1"]], top="3", turn_ms=20_000)
    timer = ENGINE.timer(state)
    assert timer.key == f"turn:{state.decision}" and timer.duration_ms == 20_000
    after, events = apply(state, None, timer.on_expiry)
    assert of(events, "timed_out") == [{"type": "timed_out", "seats": [0], "phase": "play", "cause": "M6"}]
    assert len(after.hands[0]) == 3 and after.turn == 1 and ENGINE.timer(after).key != timer.key
    with pytest.raises(StaleState):
        apply(after, None, timer.on_expiry)


def test_give_timer_picks_non_moth_cards_with_the_seeded_rng():
    state = table([["s4", "m2", "a1", "5"], ["1"], ["1"]], top="3")
    state, _ = apply(state, 0, Play(card_of(state, 0, "s4")))
    timer = ENGINE.timer(state)
    assert timer.key.startswith("give:") and timer.duration_ms == 30_000
    after, events = apply(state, None, timer.on_expiry)
    given = of(events, "card_given")
    assert len(given) == 1 and given[0]["giver"] == 0 and given[0]["receiver"] in (1, 2)
    assert (Kind.MOTH, 2) in kinds(after, 0) and len(after.hands[0]) == 2 and after.phase is Phase.PLAY
    assert apply(state, None, timer.on_expiry) == (after, events)  # seeded


def test_give_timer_finishes_a_mosquito_give_for_those_left():
    state = mosquito_table()
    state, _ = apply(state, 0, Play(card_of(state, 0, "q4")))
    state, _ = race(state, {1: 100, 2: 200, 3: 300})
    state, _ = apply(state, 0, Give(card_of(state, 0, "a1"), 3))
    state, events = apply(state, None, ENGINE.timer(state).on_expiry)
    assert of(events, "timed_out")[0]["seats"] == [1, 2] and [e["giver"] for e in of(events, "card_given")] == [1, 2]
    assert state.phase is Phase.PLAY and state.turn == 1


def test_choice_timer_can_be_off():
    state = table([["s4", "a1", "5"], ["1"], ["1"]], top="3", choice_ms=0)
    state, _ = apply(state, 0, Play(card_of(state, 0, "s4")))
    assert ENGINE.timer(state) is None
    with pytest.raises(IllegalAction):
        apply(state, None, dataclasses.replace(ENGINE.timer(table([["1"], ["1"], ["1"]], turn_ms=5)).on_expiry,
                                               decision=state.decision))


def test_M10_an_accusation_stamped_during_a_hold_catches_even_if_let_go_arrived_first():
    state = table([["2", "1"], ["m2", "5", "1"], ["1", "1"]], top="3")
    state, _ = apply(state, 1, CheatStart(card_of(state, 1, "m2"), 1000))
    state, _ = apply(state, 1, CheatCancel(1600))  # let go at 1600
    caught, events = apply(state, 0, Accuse(1, 1500))  # the guard pressed at 1500: during the hold
    assert of(events, "accused")[0]["caught"] is True and caught.current_phase is Phase.PENALTY_GIVE
    late, events = apply(state, 0, Accuse(1, 1600))  # pressed when it was already let go
    assert of(events, "accused")[0]["caught"] is False


def test_seats_and_table_keep_to_their_own_actions():
    state = table([["4", "1"], ["1", "1"], ["1", "1"]], top="3")
    with pytest.raises(IllegalAction, match="table's action"):
        apply(state, 0, NextRound())
    with pytest.raises(IllegalAction, match="seat's action"):
        apply(state, None, Draw())
    with pytest.raises(MalformedAction):
        apply(state, 0, "play")
    assert ENGINE.legal_actions(state, None) == []
    assert ENGINE.seats_to_act(state) == (0, 1, 2)  # the turn, the guard's accusations, cheats
