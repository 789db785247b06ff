"""Speakeasy engine: one test (or more) per rule id S1–S13, the scoring cases, errors and wire forms."""
from __future__ import annotations

import copy
import json

import pytest
from test_speakeasy_helpers import play_clue, scores, settings, table

from game.catalog import get_engine
from game.games.speakeasy.rules import (
    ENGINE,
    ChooseSubject,
    ClueDrawn,
    Continue,
    FinalTie,
    GameEnded,
    HostTimeout,
    Identity,
    IdentityRevealed,
    MissedPoint,
    Outcome,
    Phase,
    Point,
    PointingRevealed,
    Scored,
    ScoreReason,
    TieBreak,
    Timeout,
)
from game.rules.base import BadSettings, GameOver, IllegalAction, MalformedAction, NotYourTurn, StaleState, UnknownSeat


def _scored(events: list) -> list[tuple[int, int, str]]:
    return [(e.seat, e.points, e.cause) for e in events if isinstance(e, Scored)]


def _next_clue(state):
    state, events = ENGINE.apply(state, state.next_host, Continue())
    return state, events


def _finish(state):
    """Play every remaining clue with nobody pointing at the subject (S9) and finish the game."""
    events: list = []
    while not ENGINE.is_over(state):
        if state.phase is Phase.REVEAL:
            state, more = _next_clue(state)
        else:
            subject = (state.host + 1) % state.n
            wrong = (state.host + 2) % state.n
            state, more = play_clue(state, subject, dict.fromkeys(state.pointers(), wrong))
        events += more
    return state, events


# ------------------------------------------------------------------------------------------ S1
@pytest.mark.parametrize("n", range(3, 13))
def test_S1_default_informant_count_is_a_third_rounded(n: int) -> None:
    state = ENGINE.new_game(settings(), n, seed=n)
    informants = sum(1 for s in state.seats if s.identity is Identity.INFORMANT)
    assert informants == max(1, round(n / 3))


def test_S1_informant_count_is_a_setting() -> None:
    state = ENGINE.new_game(settings(informants=3), 5, seed=2)
    assert sum(1 for s in state.seats if s.identity is Identity.INFORMANT) == 3
    with pytest.raises(BadSettings):
        ENGINE.new_game(settings(informants=6), 5, seed=2)


def test_S1_identity_is_secret_each_seat_sees_only_its_own() -> None:
    state = table("ICCIC")
    for seat in range(5):
        view = ENGINE.view(state, seat)
        assert view["me"]["identity"] == state.seats[seat].identity.value
        assert all(s["identity"] is None and not s["revealed"] for s in view["seats"])
    assert ENGINE.view(state, None)["me"] is None


# ------------------------------------------------------------------------------------------ S2
@pytest.mark.parametrize("language", ["en", "fa", "th"])
def test_S2_each_language_has_a_built_in_deck_of_at_least_100(language: str) -> None:
    deck = ENGINE.default_settings(language)
    assert deck.deck == language and len(set(deck.texts)) == len(deck.texts) >= 100


def test_S2_a_table_can_bring_its_own_deck_and_the_clue_text_is_shown() -> None:
    clues = [f"Someone who likes puzzle number {i}" for i in range(12)]
    custom = ENGINE.settings_from_wire({"custom_clues": clues})
    state = ENGINE.new_game(custom, 4, seed=9)
    view = ENGINE.view(state, None)
    assert view["deck"] == "custom" and view["clue"]["text"] == clues[view["clue"]["id"]]
    assert {clues[i] for i in state.clue_order} <= set(clues)
    with pytest.raises(BadSettings):
        ENGINE.new_game(custom, 7, seed=9)  # 12 clues cannot cover 2 x 7


def test_S2_one_setting_at_a_time_switches_decks_as_the_lobby_does() -> None:
    """The lobby merges one changed key into the current wire settings."""
    wire = ENGINE.settings_to_wire(ENGINE.default_settings("en"))
    assert "clues" not in wire and wire["deck"] == "en" and wire["custom_clues"] == []
    persian = ENGINE.settings_from_wire({**wire, "deck": "fa"}, "en")
    assert persian.texts == ENGINE.default_settings("fa").texts
    own = ENGINE.settings_from_wire({**ENGINE.settings_to_wire(persian), "custom_clues": ["a", "b"]}, "en")
    assert own.texts == ("a", "b") and own.deck_label == "custom"
    back = ENGINE.settings_from_wire({**ENGINE.settings_to_wire(own), "custom_clues": []}, "en")
    assert back.texts == persian.texts and back.deck_label == "fa"
    for bad in ({"deck": "klingon"}, {"deck": "custom"}, {"clues": ["a"]}, {"custom_clues": ["a", "a"]}):
        with pytest.raises(BadSettings):
            ENGINE.settings_from_wire(bad)


# ------------------------------------------------------------------------------------------ S3
def test_S3_every_score_starts_at_zero() -> None:
    state = ENGINE.new_game(settings(), 7, seed=3)
    assert scores(state) == [0] * 7
    assert [s["score"] for s in ENGINE.view(state, None)["seats"]] == [0] * 7


# ------------------------------------------------------------------------------------------ S4
def test_S4_deal_is_seeded_and_replays() -> None:
    a, b = ENGINE.new_game(settings(), 6, seed=42), ENGINE.new_game(settings(), 6, seed=42)
    assert a == b
    deals = {tuple(s.identity for s in ENGINE.new_game(settings(), 6, seed=k).seats) for k in range(30)}
    assert len(deals) > 5


def test_S4_two_clues_per_player_by_default_and_a_setting_otherwise() -> None:
    assert len(ENGINE.new_game(settings(), 5, seed=1).clue_order) == 10
    assert len(ENGINE.new_game(settings(clues_per_game=3), 5, seed=1).clue_order) == 3
    with pytest.raises(BadSettings):
        ENGINE.new_game(settings(custom_clues=("a", "b", "c")), 3, seed=1)


def test_S4_start_events_tell_the_deal_without_secrets() -> None:
    state = table("CIC", host=1)
    events = ENGINE.start_events(state)
    wire = ENGINE.events_to_wire(events)
    assert wire[0] == {"type": "identities_dealt", "informants": 1, "cause": "S4"}
    assert wire[1]["type"] == "clue_drawn" and wire[1]["host"] == 1


# ------------------------------------------------------------------------------------------ S5
def test_S5_hosts_take_turns_in_seat_order() -> None:
    state = table("ICCC", host=2, clues_per_game=6)
    hosts = [state.host]
    while True:
        state, _ = play_clue(state, (state.host + 1) % 4, {s: s for s in state.pointers()})
        if state.clue_index + 1 == len(state.clue_order):
            break
        state, _ = _next_clue(state)
        hosts.append(state.host)
    assert hosts == [2, 3, 0, 1, 2, 3]


# ------------------------------------------------------------------------------------------ S6
def test_S6_only_the_host_picks_and_never_themselves() -> None:
    state = table("ICCIC", host=1)
    assert ENGINE.legal_actions(state, 1) == [ChooseSubject(s) for s in (0, 2, 3, 4)]
    assert ENGINE.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, ChooseSubject(1))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 1, ChooseSubject(5))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, ChooseSubject(2))


def test_S6_the_subject_is_private_to_the_host_until_the_reveal() -> None:
    state = table("ICCIC", host=1)
    state, events = ENGINE.apply(state, 1, ChooseSubject(3))
    assert ENGINE.events_to_wire(events) == [{"type": "subject_chosen", "host": 1, "by_timeout": False}]
    assert ENGINE.view(state, 1)["me"]["subject"] == 3
    for seat in (None, 0, 2, 3, 4):
        view = ENGINE.view(state, seat)
        assert view["subject_chosen"] and view["reveal"] is None
        assert seat is None or view["me"]["subject"] is None


def test_S6_host_timer_picks_a_random_subject_by_default() -> None:
    state = table("ICCIC", host=1)
    timer = ENGINE.timer(state)
    assert timer is not None and timer.duration_ms == 30_000 and timer.on_expiry == Timeout("choose:1")
    state, events = ENGINE.apply(state, None, timer.on_expiry)
    assert state.phase is Phase.POINTING and state.subject not in (None, 1) and state.subject_by_timeout
    assert events[0].by_timeout


def test_S6_host_timer_can_skip_the_clue_instead() -> None:
    state = table("ICCIC", host=1, host_timeout=HostTimeout.SKIP_CLUE)
    state, events = ENGINE.apply(state, None, Timeout("choose:1"))
    assert state.phase is Phase.REVEAL and state.history[-1].outcome is Outcome.SKIPPED
    assert scores(state) == [0] * 5 and ENGINE.view(state, None)["reveal"]["outcome"] == "skipped"
    state, events = _next_clue(state)
    assert state.host == 2 and state.number == 2


# ------------------------------------------------------------------------------------------ S7
def test_S7_pointers_may_point_at_themselves_but_never_the_host() -> None:
    state, _ = play_clue(table("ICCIC", host=0), 2, {})
    assert ENGINE.legal_actions(state, 3) == [Point(t) for t in (1, 2, 3, 4)]
    assert ENGINE.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 3, Point(0))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, Point(2))
    state, _ = ENGINE.apply(state, 3, Point(3))
    assert state.pointing[3] == 3


def test_S7_who_pointed_is_public_but_not_at_whom_until_the_reveal() -> None:
    state, _ = play_clue(table("ICCIC", host=0), 2, {1: 4, 3: 2})
    public = ENGINE.view(state, None)
    assert public["pointed"] == [1, 3] and public["reveal"] is None
    assert ENGINE.view(state, 1)["me"]["pointed_at"] == 4
    assert ENGINE.view(state, 4)["me"]["pointed_at"] is None
    other, _ = play_clue(table("ICCIC", host=0), 2, {1: 2, 3: 4})
    assert ENGINE.view(other, None) == public  # the targets leave no trace in the public view
    assert ENGINE.view(other, 4) == ENGINE.view(state, 4)
    assert ENGINE.view(state, 3)["me"]["pointed_at"] == 2


def test_S7_pointing_can_change_until_the_simultaneous_reveal() -> None:
    state, _ = play_clue(table("ICCIC", host=0), 2, {1: 4, 3: 4})
    state, events = ENGINE.apply(state, 1, Point(2))
    assert events[0].changed and state.phase is Phase.POINTING
    state, events = play_clue_rest(state, {2: 2, 4: 1})
    assert state.phase is Phase.REVEAL
    reveal = next(e for e in events if isinstance(e, PointingRevealed))
    assert reveal.pointing == (None, 2, 2, 4, 1) and reveal.subject == 2 and reveal.cause == "S7"
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 3, Point(2))


def play_clue_rest(state, pointing):
    events: list = []
    for seat, target in pointing.items():
        state, more = ENGINE.apply(state, seat, Point(target))
        events += more
    return state, events


def test_S7_timeout_reveals_and_a_missing_point_points_at_nobody() -> None:
    state, _ = play_clue(table("ICCIC", host=0), 3, {1: 3})
    state, events = ENGINE.apply(state, None, Timeout("point:1"))
    assert state.history[-1].pointing == (None, 3, None, None, None)
    assert _scored(events) == [(1, 1, "S8")]  # seat 3 is an informant


def test_S7_missing_points_may_be_random_by_setting() -> None:
    state, _ = play_clue(table("ICCIC", host=0, missed_point=MissedPoint.RANDOM), 3, {1: 3})
    state, _ = ENGINE.apply(state, None, Timeout("point:1"))
    pointing = state.history[-1].pointing
    assert pointing[0] is None and all(t in (1, 2, 3, 4) for t in pointing[1:])


# ------------------------------------------------------------------------------------------ S8
def test_S8_informant_subject_every_correct_pointer_scores() -> None:
    state, events = play_clue(table("ICCIC", host=0), 3, {1: 3, 2: 3, 3: 1, 4: 3})
    assert _scored(events) == [(1, 1, "S8"), (2, 1, "S8"), (4, 1, "S8")]
    assert scores(state) == [0, 1, 1, 0, 1]
    assert IdentityRevealed(3, Identity.INFORMANT, "S8") in events
    reveal = ENGINE.view(state, None)["reveal"]
    assert (reveal["outcome"], reveal["correct"], reveal["identity"]) == ("informant_caught", [1, 2, 4], "informant")


def test_S8_citizen_subject_only_the_subject_scores() -> None:
    state, events = play_clue(table("ICCIC", host=0), 2, {1: 2, 2: 4, 3: 2, 4: 2})
    assert _scored(events) == [(2, 1, "S8")]
    assert [e.reason for e in events if isinstance(e, Scored)] == [ScoreReason.CITIZEN_FOUND]
    assert scores(state) == [0, 0, 1, 0, 0]
    assert [s.correct for s in state.seats] == [0, 1, 0, 1, 1]  # S13 correct points still count


def test_S8_subject_already_revealed_scores_again_without_a_second_reveal() -> None:
    state, _ = play_clue(table("ICCIC", host=0), 3, {1: 3, 2: 2, 3: 3, 4: 2})
    state, _ = _next_clue(state)  # host 1
    state, events = play_clue(state, 3, {0: 3, 2: 3, 3: 4, 4: 0})
    assert not any(isinstance(e, IdentityRevealed) for e in events)
    assert _scored(events) == [(0, 1, "S8"), (2, 1, "S8")]
    assert ENGINE.view(state, None)["reveal"]["newly_revealed"] is False


def test_S8_self_point_counts_as_pointing_at_the_subject() -> None:
    citizen, events = play_clue(table("ICCIC", host=0), 4, {1: 2, 2: 1, 3: 1, 4: 4})
    assert _scored(events) == [(4, 1, "S8")] and citizen.seats[4].correct == 1
    informant, events = play_clue(table("ICCIC", host=1), 3, {0: 2, 2: 4, 3: 3, 4: 2})
    assert _scored(events) == [(3, 1, "S8")] and informant.seats[3].revealed


# ------------------------------------------------------------------------------------------ S9
def test_S9_nobody_found_the_subject_the_host_scores() -> None:
    state, events = play_clue(table("ICCIC", host=2), 4, {0: 1, 1: 3, 3: 3, 4: 0})
    assert _scored(events) == [(2, 1, "S9")]
    assert not state.seats[4].revealed and ENGINE.view(state, None)["reveal"]["identity"] is None


def test_S9_a_timeout_with_nobody_pointing_gives_the_host_the_point() -> None:
    state, _ = play_clue(table("ICCIC", host=2), 4, {})
    state, events = ENGINE.apply(state, None, Timeout("point:1"))
    assert _scored(events) == [(2, 1, "S9")]


# ------------------------------------------------------------------------------------------ S10
def test_S10_clue_is_discarded_and_the_next_seat_hosts_a_new_clue() -> None:
    state, _ = play_clue(table("ICCIC", host=4), 1, {0: 1, 1: 1, 2: 1, 3: 1})
    first = state.clue_id
    assert ENGINE.legal_actions(state, 0) == [Continue()] and ENGINE.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 1, Continue())
    state, events = _next_clue(state)
    wire = ENGINE.events_to_wire(events)
    assert wire[0]["type"] == "clue_discarded" and wire[0]["cause"] == "S10" and wire[0]["next_host"] == 0
    assert isinstance(events[1], ClueDrawn) and state.host == 0 and state.clue_id != first


def test_S10_the_reveal_timer_moves_the_table_on() -> None:
    state, _ = play_clue(table("ICCIC", host=4), 1, {0: 1, 1: 1, 2: 1, 3: 1})
    timer = ENGINE.timer(state)
    assert timer is not None and timer.key == "reveal:1"
    state, _ = ENGINE.apply(state, None, timer.on_expiry)
    assert state.phase is Phase.CHOOSING and state.number == 2


# ------------------------------------------------------------------------------------------ S11
def test_S11_the_game_ends_when_the_clues_run_out() -> None:
    state = table("ICCIC", host=0, clues_per_game=4)
    state, events = _finish(state)
    assert ENGINE.is_over(state) and len(state.history) == 4
    assert sum(isinstance(e, ClueDrawn) for e in events) == 3  # plus the first, drawn at new_game
    assert ENGINE.legal_actions(state, 0) == [] and ENGINE.timer(state) is None
    with pytest.raises(GameOver):
        ENGINE.apply(state, 1, Point(2))


# ------------------------------------------------------------------------------------------ S12
def test_S12_unrevealed_informants_score_2_and_citizens_1() -> None:
    state = table("ICCIC", host=0, clues_per_game=1)
    state, _ = play_clue(state, 3, {1: 3, 2: 3, 3: 1, 4: 1})  # seat 3 (informant) revealed: 1 and 2 score
    state, events = _next_clue(state)
    assert state.phase is Phase.GAME_OVER
    bonus = [(e.seat, e.points, e.cause, e.reason) for e in events if isinstance(e, Scored)]
    assert bonus == [
        (0, 2, "S12", ScoreReason.UNREVEALED_INFORMANT),
        (1, 1, "S12", ScoreReason.UNREVEALED_CITIZEN),
        (2, 1, "S12", ScoreReason.UNREVEALED_CITIZEN),
        (4, 1, "S12", ScoreReason.UNREVEALED_CITIZEN),
    ]
    assert [e.seat for e in events if isinstance(e, IdentityRevealed) and e.cause == "S12"] == [0, 1, 2, 4]
    final = ENGINE.view(state, None)["final"]
    assert final["identities"] == ["informant", "citizen", "citizen", "informant", "citizen"]
    assert final["scores"] == [2, 2, 2, 0, 1]
    assert all(s["revealed"] for s in ENGINE.view(state, None)["seats"])


# ------------------------------------------------------------------------------------------ S13
def test_S13_highest_score_wins_outright() -> None:
    state = table("ICCC", host=0, clues_per_game=1)
    state, _ = play_clue(state, 2, {1: 3, 2: 1, 3: 1})  # nobody: host 0 scores 1, then +2 as informant
    state, events = _next_clue(state)
    end = events[-1]
    assert isinstance(end, GameEnded) and end.winners == (0,) and end.tie_break is TieBreak.NONE
    assert end.scores == (3, 1, 1, 1)


def test_S13_a_tie_goes_to_more_correct_points() -> None:
    state = table("CCCC", host=0, clues_per_game=1)
    state, _ = play_clue(state, 2, {1: 2, 2: 1, 3: 1})  # citizen 2 found: 2 scores; seat 1 has a correct point
    state, events = _next_clue(state)  # S12: 0, 1 and 3 score 1 each
    assert scores(state) == [1, 1, 1, 1]
    end = events[-1]
    assert end.winners == (1,) and end.tie_break is TieBreak.CORRECT_POINTS


def test_S13_still_tied_the_win_is_shared_by_default() -> None:
    state = table("CCC", host=0, clues_per_game=1)
    state, _ = play_clue(state, 1, {1: 2, 2: 2})  # nobody: host scores 1
    state, events = _next_clue(state)
    assert scores(state) == [2, 1, 1]
    state = table("CCC", host=0, clues_per_game=1)
    state, _ = play_clue(state, 1, {1: 1, 2: 1})  # citizen 1 found: 1 scores, both pointers correct
    state, events = _next_clue(state)
    assert scores(state) == [1, 1, 1]
    end = events[-1]
    assert end.winners == (1, 2) and end.tie_break is TieBreak.SHARED
    assert ENGINE.view(state, None)["final"]["tie_break"] == "shared"


def test_S13_still_tied_can_be_decided_by_lots() -> None:
    winners = set()
    for seed in range(12):
        state = table("CCC", host=0, clues_per_game=1, seed=seed, final_tie=FinalTie.LOTS)
        state, _ = play_clue(state, 1, {1: 1, 2: 1})
        state, events = _next_clue(state)
        assert events[-1].tie_break is TieBreak.LOTS and len(events[-1].winners) == 1
        winners |= set(events[-1].winners)
    assert winners == {1, 2}


# ------------------------------------------------------------------------------------ errors
def test_bad_input_raises_typed_errors_and_changes_nothing() -> None:
    state = table("ICCIC", host=0)
    before = copy.deepcopy(state)
    cases = [
        (7, ChooseSubject(1), UnknownSeat),
        (0, "choose", MalformedAction),
        (1, ChooseSubject(2), NotYourTurn),
        (0, Point(2), NotYourTurn),
        (1, Point(2), IllegalAction),
        (1, Continue(), IllegalAction),
        (None, Timeout("point:1"), StaleState),
        (2, Timeout("choose:1"), NotYourTurn),
    ]
    for seat, action, error in cases:
        with pytest.raises(error):
            ENGINE.apply(state, seat, action)
    assert state == before


def test_timers_follow_the_settings_and_zero_means_untimed() -> None:
    state = table("ICCIC", host=0, host_choice_ms=0, pointing_ms=5_000, reveal_ms=0)
    assert ENGINE.timer(state) is None
    state, _ = ENGINE.apply(state, 0, ChooseSubject(1))
    timer = ENGINE.timer(state)
    assert timer is not None and (timer.key, timer.duration_ms) == ("point:1", 5_000)
    assert ENGINE.legal_actions(state, None) == [Timeout("point:1")]
    state, _ = ENGINE.apply(state, None, Timeout("point:1"))
    assert ENGINE.timer(state) is None and ENGINE.seats_to_act(state) == (1,)
    assert ENGINE.legal_actions(state, None) == []
    with pytest.raises(StaleState):
        ENGINE.apply(state, None, Timeout("reveal:1"))  # untimed: only the next host continues


def test_settings_wire_round_trip_and_bad_settings() -> None:
    base = ENGINE.default_settings("th")
    assert ENGINE.settings_from_wire(ENGINE.settings_to_wire(base), "th") == base
    bad_settings = ({"pointing_ms": -1}, {"informants": "two"}, {"colour": 1}, {"custom_clues": [""]}, {"deck": 3})
    for bad in bad_settings:
        with pytest.raises(BadSettings):
            ENGINE.settings_from_wire(bad)
    with pytest.raises(BadSettings):
        ENGINE.new_game(base, 2, seed=1)


def test_every_action_and_event_round_trips_on_the_wire() -> None:
    state = table("ICCIC", host=0, clues_per_game=2)
    events = ENGINE.start_events(state)
    state, more = ENGINE.apply(state, None, Timeout("choose:1"))
    events += more
    state, more = ENGINE.apply(state, None, Timeout("point:1"))
    events += more
    state, more = _finish(state)
    events += more
    assert {ENGINE.events.tag_of(e) for e in events} == set(ENGINE.events.tags) - {"clue_skipped"}
    for event in events:
        wire = json.loads(json.dumps(ENGINE.event_to_wire(event)))
        assert ENGINE.events.from_wire(wire) == event
    for action in (ChooseSubject(2), Point(3), Continue(), Timeout("point:4")):
        assert ENGINE.action_from_wire(json.loads(json.dumps(ENGINE.action_to_wire(action)))) == action
    with pytest.raises(MalformedAction):
        ENGINE.action_from_wire({"type": "point", "target": "3"})


def test_engine_is_registered_and_views_are_json() -> None:
    assert get_engine("speakeasy") is ENGINE and ENGINE.min_seats == 3 and ENGINE.max_seats == 12
    state, _ = _finish(table("ICCIC", host=0, clues_per_game=3))
    for seat in (None, 0, 4):
        assert json.loads(json.dumps(ENGINE.view(state, seat)))["phase"] == "game_over"


def test_every_event_reads_as_a_plain_sentence_for_replay() -> None:
    state = table("ICCIC", host=0, clues_per_game=2, host_timeout=HostTimeout.SKIP_CLUE)
    events = ENGINE.start_events(state)
    state, more = ENGINE.apply(state, None, Timeout("choose:1"))  # skipped
    events += more
    state, more = _next_clue(state)
    events += more
    state, more = play_clue(state, 3, {0: 3, 2: 3, 3: 3, 4: 0})
    events += more
    state, more = _next_clue(state)
    events += more
    wire = ENGINE.events_to_wire(events)
    assert {w["type"] for w in wire} == set(ENGINE.events.tags)
    names = {0: "Ann", 1: "Bo", 2: "Cy", 3: "Di", 4: "Ed"}
    for w in wire:
        line = ENGINE.describe_event(w, names.__getitem__)
        assert line.endswith(".") and ":" not in line.split(" ")[0] and w["type"] not in line
    reveal = next(w for w in wire if w["type"] == "pointing_revealed")
    assert ENGINE.describe_event(reveal, names.__getitem__) == (
        "Pointing revealed (S7): Ann → Di; Cy → Di; Di → Di; Ed → Ann. The subject was Di."
    )


def test_view_keys_match_docs_views_speakeasy_md() -> None:
    state, _ = play_clue(table("ICCIC", host=0), 3, {1: 3, 2: 3, 3: 1, 4: 3})
    view = ENGINE.view(state, 2)
    assert set(view) == {
        "game", "phase", "round", "n_seats", "deck", "host", "next_host", "clue", "clues_left", "informants",
        "timers", "subject_chosen", "pointers", "pointed", "reveal", "seats", "history", "final", "winners", "me",
    }
    assert set(view["me"]) == {"seat", "identity", "is_host", "subject", "pointed_at"}
    assert set(view["reveal"]) == {
        "clue_id", "number", "host", "outcome", "subject", "subject_by_timeout", "pointing", "correct", "identity",
        "newly_revealed", "scores",
    }
    assert set(view["seats"][0]) == {"seat", "score", "correct_points", "revealed", "identity"}
    state, _ = _finish(state)
    assert set(ENGINE.view(state, None)["final"]) == {"bonuses", "identities", "scores", "winners", "tie_break"}


def test_engine_imports_nothing_impure() -> None:
    """Importing the engine (and the deck loader it uses for settings) pulls in no I/O or clock module."""
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import sys, game.games.speakeasy.rules, game.games.speakeasy.bots.heuristic; "
        "print(sorted(m for m in ('pygame', 'asyncio', 'aiohttp', 'socket', 'serial', 'selectors') "
        "if m in sys.modules))"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=root)
    assert out.stdout.strip() == "[]"
