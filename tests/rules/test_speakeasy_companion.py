"""Speakeasy companion engine: identities on phones or real cards, pointing on phones or fingers
(recorded by the host with undo), the one-tap identity reveal, S8–S13 onto the score pad."""
from __future__ import annotations

from typing import Any

import pytest

from game.games.speakeasy.companion import (
    ENGINE,
    EditScore,
    Phase,
    PointingDone,
    RecordPoint,
    RevealIdentity,
    State,
    UndoPoint,
    UndoScore,
)
from game.games.speakeasy.rules import ChooseSubject, Continue, Identity, Point
from game.rules.base import BadSettings, GameOver, IllegalAction, MalformedAction, NotYourTurn, StaleState
from game.rules.scorepad import BadEntry

INF, CIT = Identity.INFORMANT, Identity.CITIZEN


def new(n: int = 4, seed: int = 5, **overrides: Any) -> State:
    return ENGINE.new_game(ENGINE.settings_from_wire(overrides, "en"), n, seed)


def with_identities(state: State, ids: tuple[Identity | None, ...]) -> State:
    from dataclasses import replace
    return replace(state, identities=ids)


def kinds(events: list[Any]) -> list[str]:
    return [e["type"] for e in ENGINE.events_to_wire(events)]


def to_pointing(state: State, subject: int) -> tuple[State, list[Any]]:
    """The host picks ``subject``; the countdown runs out: pointing (or recording) opens."""
    state, ev = ENGINE.apply(state, state.host, ChooseSubject(subject))
    timer = ENGINE.timer(state)
    assert timer is not None and timer.label == "countdown" and timer.duration_ms == 3_000
    state, ev2 = ENGINE.apply(state, None, timer.on_expiry)
    return state, ev + ev2


def point_all(state: State, targets: dict[int, int]) -> tuple[State, list[Any]]:
    events: list[Any] = []
    for seat, target in targets.items():
        state, ev = ENGINE.apply(state, seat, Point(target))
        events += ev
    return state, events


def others(state: State) -> list[int]:
    return [s for s in range(state.n) if s != state.host]


# --------------------------------------------------------------------------------- identities
def test_S1_companion_phones_get_their_own_identity_only() -> None:
    state = new()
    assert sorted(i.value for i in state.identities if i) == ["citizen", "citizen", "citizen", "informant"]
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert view["me"]["identity"] == state.identities[seat].value  # type: ignore[union-attr]
        assert all(s["identity"] is None for s in view["seats"])
    assert "me" not in ENGINE.view(state, None)
    assert kinds(ENGINE.start_events(state)) == ["identities_dealt", "companion_clue"]


def test_S1_companion_with_real_identity_cards_the_program_knows_none() -> None:
    state = new(identities="cards")
    assert state.identities == (None,) * 4
    assert ENGINE.view(state, 0)["me"]["identity"] is None
    assert kinds(ENGINE.start_events(state)) == ["companion_clue"]


def test_S2_companion_clue_from_the_deck_or_the_top_card() -> None:
    state = new()
    assert ENGINE.view(state, None)["clue"]["text"] == state.settings.texts[state.clue_order[0]]
    assert ENGINE.view(state, None)["clue"]["id"] == state.clue_order[0]  # the phone's own-language deck line
    cards = new(clue_source="cards")
    assert ENGINE.view(cards, None)["clue"] == {"number": 1, "total": 8, "text": None, "id": None}
    assert [(n.rule, n.key) for n in cards.notes] == [("S5", "clue_cards")]
    assert [(n.rule, n.key) for n in state.notes] == [("S5", "clue_screen")]


# ---------------------------------------------------------------------------------- one clue
def test_S6_companion_only_the_host_picks_another_player() -> None:
    state = new()
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, state.next_host, ChooseSubject(state.host))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, state.host, ChooseSubject(state.host))
    assert ENGINE.timer(state) is None  # the companion host is not hurried by default
    state, ev = ENGINE.apply(state, state.host, ChooseSubject(others(state)[0]))
    assert kinds(ev) == ["subject_chosen", "countdown"] and state.phase is Phase.COUNTDOWN
    assert ENGINE.view(state, state.host)["me"]["subject"] == others(state)[0]


def test_S6_companion_the_console_picks_for_a_clue_host_whose_seat_was_freed() -> None:
    """Untimed by default, the choice would wait forever for a clue host who left; the host console
    (the table, seat None) may enter it instead, under the same rule: another player."""
    state = new()
    assert ChooseSubject(others(state)[1]) in ENGINE.table_actions(state)
    assert ChooseSubject(state.host) not in ENGINE.table_actions(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, ChooseSubject(state.host))
    state, ev = ENGINE.apply(state, None, ChooseSubject(others(state)[1]))
    assert kinds(ev) == ["subject_chosen", "countdown"] and state.subject == others(state)[1]
    assert ChooseSubject(others(state)[0]) not in ENGINE.table_actions(state)  # chosen once
    assert ENGINE.view(state, state.next_host)["me"]["subject"] is None


def test_S7_companion_phone_pointing_opens_at_point_and_stays_secret_until_all() -> None:
    state = new()
    subject = others(state)[0]
    state, ev = to_pointing(state, subject)
    assert kinds(ev)[-1] == "point_now" and state.phase is Phase.POINTING
    a, b, c = others(state)
    state, _ = ENGINE.apply(state, a, Point(b))
    public = ENGINE.view(state, None)
    assert public["pointed"] == [a] and public["pointing"] is None
    assert ENGINE.view(state, a)["me"]["pointed_at"] == b and ENGINE.view(state, b)["me"]["pointed_at"] is None
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, a, Point(state.host))
    state, ev = point_all(state, {b: a, c: c})
    assert "pointing_revealed" in kinds(ev)


def test_S7_companion_fingers_are_tapped_by_the_host_with_undo() -> None:
    state = new(pointing="hands")
    a, b, c = others(state)
    state, ev = to_pointing(state, a)
    assert state.phase is Phase.RECORDING
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, a, RecordPoint(b, a))
    state, _ = ENGINE.apply(state, state.host, RecordPoint(b, c))
    state, _ = ENGINE.apply(state, state.host, RecordPoint(b, a))  # a slip, corrected by tapping again
    state, ev = ENGINE.apply(state, state.host, UndoPoint())
    assert ENGINE.events_to_wire(ev) == [{"type": "point_recorded", "seat": b, "target": c, "undo": True}]
    assert state.pointing[b] == c
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, state.host, PointingDone())  # a and c are missing
    assert ENGINE.view(state, None)["recorded"]["missing"] == [a, c]
    assert ENGINE.view(state, state.host)["me"]["fingers"][b] == c
    assert ENGINE.view(state, a)["me"]["fingers"] is None
    state, _ = ENGINE.apply(state, None, RecordPoint(a, None))  # the console host: a pointed at nobody
    state, _ = ENGINE.apply(state, state.host, RecordPoint(c, c))
    state, ev = ENGINE.apply(state, state.host, PointingDone())
    wire = ENGINE.events_to_wire(ev)
    assert wire[0]["type"] == "pointing_revealed" and wire[0]["pointing"][b] == c
    assert state.phase is Phase.REVEAL  # nobody found a: the host scores (S9)


# --------------------------------------------------------------------------------- scoring
def test_S8_companion_an_informant_found_is_revealed_with_one_tap_and_pointers_score() -> None:
    state = new()
    a, b, c = others(state)
    state = with_identities(state, tuple(INF if s == a else CIT for s in range(4)))
    state, _ = to_pointing(state, a)
    state, ev = point_all(state, {a: a, b: a, c: b})
    assert kinds(ev)[-1] == "identity_asked" and state.phase is Phase.IDENTITY
    assert ENGINE.view(state, a)["me"]["must_reveal"] and not ENGINE.view(state, b)["me"]["must_reveal"]
    assert ENGINE.legal_actions(state, a) == [RevealIdentity()]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, a, RevealIdentity(CIT))  # the program dealt it: no lying
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, b, RevealIdentity())
    state, ev = ENGINE.apply(state, a, RevealIdentity())
    wire = ENGINE.events_to_wire(ev)
    assert wire[0] == {"type": "identity_revealed", "seat": a, "identity": "informant", "cause": "S8"}
    assert {(e["seat"], e["points"], e["cause"]) for e in wire if e["type"] == "scored"} == {(a, 1, "S8"), (b, 1, "S8")}
    assert state.pad.value(a, 1) == 1 and state.pad.value(c, 1) == 0  # every seat has a cell in a scored row
    assert state.correct[a] == 1 and state.correct[c] == 0
    assert ("S8", "scored_informant") in {(n.rule, n.key) for n in state.notes}


def test_S8_companion_with_a_real_card_the_subject_taps_the_card_turned() -> None:
    state = new(identities="cards")
    a, b, c = others(state)
    state, _ = to_pointing(state, b)
    state, _ = point_all(state, {a: b, b: c, c: a})
    assert state.phase is Phase.IDENTITY
    assert set(ENGINE.legal_actions(state, b)) == {RevealIdentity(INF), RevealIdentity(CIT)}
    with pytest.raises(MalformedAction):
        ENGINE.apply(state, b, RevealIdentity())
    state, ev = ENGINE.apply(state, None, RevealIdentity(CIT, seat=b))  # the host for them
    assert {(e["seat"], e["reason"]) for e in ENGINE.events_to_wire(ev) if e["type"] == "scored"} == \
        {(b, "citizen_found")}
    assert state.identities[b] is CIT and ENGINE.view(state, None)["seats"][b]["identity"] == "citizen"


def test_S9_companion_nobody_found_the_subject_the_host_scores_without_a_reveal() -> None:
    state = new()
    a, b, c = others(state)
    host = state.host
    state, _ = to_pointing(state, a)
    state, ev = point_all(state, {a: b, b: c, c: c})
    assert "identity_asked" not in kinds(ev)
    assert [(e["seat"], e["cause"]) for e in ENGINE.events_to_wire(ev) if e["type"] == "scored"] == [(host, "S9")]


def test_S7_companion_pointing_timer_counts_the_missing_as_nobody() -> None:
    state = new()
    a, b, c = others(state)
    state, _ = to_pointing(state, a)
    state, _ = ENGINE.apply(state, b, Point(a))
    timer = ENGINE.timer(state)
    assert timer is not None and timer.label == "speakeasy_pointing"
    state, ev = ENGINE.apply(state, None, timer.on_expiry)
    assert ENGINE.events_to_wire(ev)[0]["pointing"] == [None if s != b else a for s in range(4)]


def test_S10_companion_the_next_host_continues_and_the_host_rotates() -> None:
    state = new()
    host = state.host
    state, _ = to_pointing(state, others(state)[0])
    a, b, c = others(state)
    state, _ = point_all(state, {a: b, b: c, c: b})
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, host, Continue())
    state, ev = ENGINE.apply(state, (host + 1) % 4, Continue())
    assert state.host == (host + 1) % 4 and state.number == 2 and state.phase is Phase.CHOOSING
    assert kinds(ev) == ["clue_discarded", "companion_clue"]


def play_clue(state: State, subject_pick: int = 0, point: int = 0) -> State:
    """One clue where everyone points at the pointer list's ``point``-th seat."""
    ptrs = others(state)
    state, _ = to_pointing(state, ptrs[subject_pick])
    state, _ = point_all(state, dict.fromkeys(ptrs, ptrs[point]))
    while state.phase is Phase.IDENTITY:
        legal = ENGINE.table_actions(state)
        state, _ = ENGINE.apply(state, None, next(a for a in legal if isinstance(a, RevealIdentity)))
    state, _ = ENGINE.apply(state, state.next_host, Continue())
    return state


def test_S12_companion_phone_identities_never_revealed_score_at_the_end() -> None:
    state = new(clues_per_game=1)
    a, b, c = others(state)
    state = with_identities(state, tuple(INF if s == c else CIT for s in range(4)))
    state = play_clue(state, 0, 1)  # subject a, everyone points at b: nobody found, the host scores
    assert ENGINE.is_over(state)
    bonus = {s: state.pad.value(s, 2) for s in range(4)}
    assert bonus == {s: (2 if s == c else 1) for s in range(4)}
    assert state.winners == (c,) or state.pad.total(state.host) >= 2


def test_S12_companion_real_cards_are_tapped_at_the_end_then_S13() -> None:
    state = new(identities="cards", clues_per_game=1)
    host = state.host
    a, b, c = others(state)
    state, _ = to_pointing(state, a)
    state, _ = point_all(state, {a: b, b: c, c: b})  # nobody found a: host +1 (S9)
    state, ev = ENGINE.apply(state, state.next_host, Continue())
    assert state.phase is Phase.FINAL_IDENTITIES and kinds(ev)[-1] == "identity_asked"
    assert ENGINE.view(state, None)["identity_asked"] == [0, 1, 2, 3]
    for seat, identity in ((host, CIT), (a, INF), (b, CIT)):
        state, _ = ENGINE.apply(state, seat, RevealIdentity(identity))
    assert not ENGINE.is_over(state)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, a, RevealIdentity(CIT))  # already turned over
    state, ev = ENGINE.apply(state, c, RevealIdentity(CIT))
    end = ENGINE.events_to_wire(ev)[-1]
    assert end["type"] == "game_ended" and end["scores"][host] == 2 and end["scores"][a] == 2
    assert end["tie_break"] == "shared" and set(end["winners"]) == {host, a}


def test_S13_companion_a_tie_goes_to_more_correct_points() -> None:
    state = new(clues_per_game=1)
    a, b, c = others(state)
    state = with_identities(state, tuple(INF if s in (a, b) else CIT for s in range(4)))
    state, _ = to_pointing(state, a)
    state, _ = point_all(state, {a: b, b: a, c: c})  # b found a (informant): b +1 and a correct point
    state, _ = ENGINE.apply(state, a, RevealIdentity())
    state, ev = ENGINE.apply(state, state.next_host, Continue())
    end = ENGINE.events_to_wire(ev)[-1]
    # b: 1 + 2 (never revealed informant) = 3; a: 0 (revealed) ; host: 1; c: 1
    assert end["scores"][b] == 3 and end["winners"] == [b]


# ---------------------------------------------------------------------------------- the pad
def test_S8_companion_host_corrects_the_pad_with_a_trace_and_undo() -> None:
    state = new()
    host = state.host
    state = play_clue(state, 0, 1)  # nobody found: host +1 on clue 1
    assert state.pad.value(host, 1) == 1
    assert UndoScore() not in ENGINE.table_actions(state)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, UndoScore())  # a scored entry is corrected, not undone
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, host, EditScore(host, 1, 0))
    with pytest.raises(BadEntry):
        ENGINE.apply(state, None, EditScore(host, 1, -1))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, EditScore(host, 10, 1))  # clue 9 is the S12 row
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, None, EditScore(host, 2, 1))  # clue 2 is not scored yet
    state, ev = ENGINE.apply(state, None, EditScore(host, 1, 0))
    assert ENGINE.events_to_wire(ev) == [{"type": "score_corrected", "seat": host, "clue": 1, "old": 1, "new": 0,
                                          "undo": False}]
    assert ENGINE.view(state, 0)["pad"]["trace"][0]["old"] == 1
    assert ENGINE.view(state, 0)["seats"][host]["score"] == 0
    assert ENGINE.legal_form(EditScore(host, 1, 5)) == EditScore(host, 0, 0)
    state, _ = ENGINE.apply(state, None, UndoScore())
    assert state.pad.value(host, 1) == 1 and len(state.pad.trace()) == 2


def test_companion_game_over_refuses_more() -> None:
    state = play_clue(new(clues_per_game=1), 0, 1)
    assert ENGINE.is_over(state) and ENGINE.timer(state) is None
    with pytest.raises(GameOver):
        ENGINE.apply(state, None, UndoScore())


def test_companion_stale_timers_are_refused() -> None:
    state = new()
    state, _ = ENGINE.apply(state, state.host, ChooseSubject(others(state)[0]))
    with pytest.raises(StaleState):
        ENGINE.apply(state, None, ENGINE.actions.from_wire({"type": "timeout", "key": "countdown:9"}))


def test_companion_settings_are_checked() -> None:
    with pytest.raises(BadSettings):
        ENGINE.settings_from_wire({"pointing": "feet"})
    with pytest.raises(BadSettings):
        ENGINE.settings_from_wire({"countdown_ms": 100})
    wire = ENGINE.settings_to_wire(ENGINE.settings_from_wire({"identities": "cards"}, "fa"))
    assert wire["identities"] == "cards" and wire["deck"] == "fa" and "clues" not in wire


@pytest.mark.parametrize("action", [RecordPoint(1, None), RecordPoint(2, 3), UndoPoint(), PointingDone(),
                                    RevealIdentity(), RevealIdentity(INF, 2), EditScore(1, 2, 3), UndoScore()])
def test_companion_actions_round_trip_the_wire(action: Any) -> None:
    assert ENGINE.action_from_wire(ENGINE.action_to_wire(action)) == action
