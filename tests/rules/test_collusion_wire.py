"""Collusion wire forms, views (game/games/collusion/views.md), settings, typed errors, timers."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.catalog import get_engine
from game.games.collusion.rules import (
    AMBUSH,
    ENGINE,
    LOCK,
    UNLOCK,
    AmbushPick,
    Phase,
    ShowdownChoice,
    ShowdownPick,
    Timeout,
    Vote,
)
from game.rules.base import BadSettings, GameOver, IllegalAction, MalformedAction, UnknownSeat

SPLIT, STEAL = ShowdownChoice.SPLIT, ShowdownChoice.STEAL

PUBLIC_KEYS = {"game", "phase", "round", "vote", "target_score", "small_table", "pot", "deck", "seats",
               "tie_break", "ambush_pending", "showdown", "last_reveal", "last_showdown",
               "last_round_end", "winners", "final"}
ME_KEYS = {"seat", "gold", "total", "card", "locked", "can_ambush", "vote_options", "showdown_choice",
           "ambush_prompt"}


def test_engine_is_registered():
    assert get_engine("collusion") is ENGINE
    assert (ENGINE.min_seats, ENGINE.max_seats) == (3, 12)
    assert ENGINE.presets() == ("tabani", "rod_ruang")


@pytest.mark.parametrize("action", [
    Vote(3), AMBUSH, LOCK, UNLOCK, AmbushPick(2), ShowdownPick(ShowdownChoice.TAKE_ONE), Timeout("vote:1:1"),
])
def test_actions_round_trip(action):
    wire = ENGINE.action_to_wire(action)
    assert ENGINE.action_from_wire(json.loads(json.dumps(wire))) == action


def test_action_wire_forms_match_the_docs():
    assert ENGINE.action_to_wire(Vote(3)) == {"type": "vote", "target": 3}
    assert ENGINE.action_to_wire(AMBUSH) == {"type": "ambush"}
    assert ENGINE.action_to_wire(ShowdownPick(ShowdownChoice.SPLIT)) == {"type": "showdown", "choice": "split"}


@pytest.mark.parametrize("bad", [
    {"type": "vote"}, {"type": "vote", "target": "3"}, {"type": "vote", "target": True},
    {"type": "vote", "target": 1, "x": 1}, {"type": "showdown", "choice": "run"}, {"type": "dance"}, [1],
])
def test_malformed_actions_are_refused(bad):
    with pytest.raises(MalformedAction):
        ENGINE.action_from_wire(bad)


def test_events_round_trip_through_a_whole_game(ct):
    state = ct.new(4)
    state, ev1 = ct.vote(state, {0: 1, 1: ct.A, 2: 1, 3: 1})
    state, ev2 = ct.pick(state, 1, 2)
    for event in ev1 + ev2:
        wire = json.loads(json.dumps(ENGINE.event_to_wire(event)))
        assert ENGINE.events.from_wire(wire) == event


def test_public_and_private_views_have_the_documented_keys(ct):
    state = ct.new(6)
    public = ENGINE.view(state, None)
    assert set(public) == PUBLIC_KEYS
    assert set(public["seats"][0]) == {"seat", "in_round", "alive", "bars", "card_down", "locked", "ambush_used"}
    private = ENGINE.view(state, 2)
    assert set(private) == PUBLIC_KEYS | {"me"} and set(private["me"]) == ME_KEYS
    json.dumps(private)


def test_a_vote_changes_only_that_seats_public_flags(ct):
    state = ct.new(6)
    before = ENGINE.view(state, None)
    after_state, _ = ENGINE.apply(state, 3, Vote(1))
    after = ENGINE.view(after_state, None)
    assert after["seats"][3]["card_down"] is True
    after["seats"][3]["card_down"] = False
    assert after == before  # no target anywhere in public before the reveal
    private = ENGINE.view(after_state, 4)
    assert private["me"]["card"] is None
    assert {k: v for k, v in private.items() if k != "me"} == ENGINE.view(after_state, None)


def test_last_reveal_stays_in_the_view_until_the_next(ct):
    state = ct.new(6)
    state, _ = ct.vote(state, {0: 1, 1: 2, 2: 1, 3: 1, 4: 2, 5: 0})
    reveal = ENGINE.view(state, None)["last_reveal"]
    assert reveal["resolved"] is True and reveal["targets"] == [1]
    assert {d["seat"]: d["kind"] for d in reveal["deaths"]} == {1: "targeted", 4: "not_in_majority",
                                                                 5: "not_in_majority"}
    state, _ = ENGINE.apply(state, 0, Vote(2))
    assert ENGINE.view(state, None)["last_reveal"] == reveal


def test_last_reveal_is_unresolved_while_ambushers_choose(ct):
    state = ct.new(5)
    state, _ = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: ct.A})
    view = ENGINE.view(state, None)
    assert view["phase"] == "ambush_choice" and view["ambush_pending"] == [4]
    assert view["last_reveal"]["resolved"] is False and view["last_reveal"]["deaths"] == []
    assert ENGINE.view(state, 0)["me"]["ambush_prompt"] is None


def test_bad_input_raises_and_changes_nothing(ct):
    state = ct.new(4)
    snapshot = repr(state)
    for seat, action, error in [
        (0, Vote(0), IllegalAction), (0, Vote(9), IllegalAction), (0, LOCK, IllegalAction),
        (0, UNLOCK, IllegalAction), (0, AmbushPick(1), IllegalAction),
        (0, ShowdownPick(ShowdownChoice.SPLIT), IllegalAction), (7, Vote(1), UnknownSeat),
        (0, "vote", MalformedAction),
    ]:
        with pytest.raises(error):
            ENGINE.apply(state, seat, action)
    assert repr(state) == snapshot
    state2, _ = ENGINE.apply(state, 0, Vote(1))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state2, 0, Vote(1))  # the same card again changes nothing


def test_every_legal_action_applies(ct):
    state = ct.new(5)
    state, _ = ENGINE.apply(state, 0, Vote(1))
    for seat in range(5):
        for action in ENGINE.legal_actions(state, seat):
            ENGINE.apply(state, seat, action)


def test_game_over_refuses_actions(ct):
    state = ct.with_gold(ct.new(3), {0: (5, 5, 5, 5, 5)})
    state, _ = ct.vote(state, {0: 1, 1: 2, 2: None})
    assert state.phase is Phase.GAME_OVER
    assert ENGINE.seats_to_act(state) == () and all(ENGINE.legal_actions(state, s) == [] for s in range(3))
    with pytest.raises(GameOver):
        ENGINE.apply(state, 1, Vote(0))


def test_settings_round_trip_and_validation():
    settings = ENGINE.default_settings("rod_ruang")
    wire = ENGINE.settings_to_wire(settings)
    assert wire["target_score"] == 25 and wire["conspiracy_ms"] == 90_000
    assert wire["missed_vote"] == "nobody" and wire["showdown_default"] == "take_one"
    assert ENGINE.settings_from_wire(wire, "tabani") == settings
    for bad in ({"nope": 1}, {"conspiracy_ms": 5}, {"target_score": 0}, {"missed_vote": "x"},
                {"ambush_once_per_round": 1}):
        with pytest.raises(BadSettings):
            ENGINE.settings_from_wire(bad)
    with pytest.raises(BadSettings):
        ENGINE.default_settings("poker")


def test_timer_keys_and_labels(ct):
    state = ct.new(4)
    timer = ENGINE.timer(state)
    assert (timer.key, timer.label, timer.on_expiry) == ("vote:1:1", "conspiracy", Timeout("vote:1:1"))
    state, _ = ct.to_showdown(state, 0, 1)
    assert ENGINE.timer(state).key == "showdown:1"
    assert ENGINE.timer(ct.new(4, showdown_ms=5_000)).duration_ms == 300_000


def test_describe_event_speaks_plain_english(ct):
    state = ct.new(4)
    state, ev = ct.vote(state, {0: 1, 1: 0, 2: 1, 3: None})
    lines = [ENGINE.describe_event(e) for e in ct.wire(ev)]
    assert "Reveal of vote 1 (timer ran out): 0 → 1; 1 → 0; 2 → 1; 3: no card. Targets: 1 (C8)." in lines
    assert "3 dies: put no card down (C9)." in lines


def test_the_views_page_documents_every_action_and_event():
    page = (Path(__file__).resolve().parents[2] / "game" / "games" / "collusion" / "views.md").read_text(encoding="utf-8")
    documented = set(re.findall(r'\{"type": "(\w+)"', page))
    assert set(ENGINE.actions.tags) <= documented
    assert set(ENGINE.events.tags) <= documented
    assert documented <= set(ENGINE.actions.tags) | set(ENGINE.events.tags)
    for key in PUBLIC_KEYS | ME_KEYS:
        assert f'"{key}"' in page, key
    for name in ENGINE.settings_to_wire(ENGINE.default_settings()):
        assert f"`{name}`" in page, name


def test_every_event_type_has_a_plain_english_sentence(ct):
    events: list = []
    state = ct.new(5)
    for action in (Vote(1), LOCK, UNLOCK):
        state, ev = ENGINE.apply(state, 0, action)
        events += ev
    state, ev = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: ct.A})  # ambush, deaths, next vote
    events += ev
    state, ev = ct.pick(state, 4, 1)
    events += ev
    state, ev = ct.vote(state, {0: 2, 2: 4, 4: None})  # 2 and 4 are targets: 0 alone takes the pot
    events += ev
    state, ev = ct.vote(state, dict.fromkeys(range(5)))  # nobody votes: pot stays (C14)
    events += ev
    state, ev = ct.to_showdown(state, 1, 3)
    events += ev
    state, ev = ct.showdown(state, STEAL, STEAL)  # C15 draws
    events += ev
    rich = ct.with_gold(ct.new(3), {0: (5, 5, 5, 5, 4), 1: (5, 5, 5, 5, 4)})
    rich, ev = ct.vote(rich, {0: 1, 1: 2, 2: 0})  # 0 and 1 tie at 24: tie-break
    events += ev
    rich, ev = ct.showdown(rich, STEAL, SPLIT)
    events += ev
    wire = ENGINE.events_to_wire(events)
    assert {e["type"] for e in wire} == set(ENGINE.events.tags)
    for event in wire:
        line = ENGINE.describe_event(event)
        assert not line.startswith(f"{event['type']}:") and line.endswith((".", ")"))
