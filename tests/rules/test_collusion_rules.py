"""One or more tests per Collusion rule id (C1–C20, docs/rules/collusion.md)."""
from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from game.games.collusion.rules import (
    AMBUSH,
    ENGINE,
    LOCK,
    AmbushPick,
    DryTie,
    Phase,
    ShowdownChoice,
    ShowdownPick,
    Timeout,
    Vote,
    _after_round,
    evolve,
    showdown_payout,
)
from game.rules.base import BadSettings, IllegalAction, NotYourTurn, StaleState

SPLIT, STEAL, TAKE = ShowdownChoice.SPLIT, ShowdownChoice.STEAL, ShowdownChoice.TAKE_ONE


# ---------------------------------------------------------------------------------- components
def test_C1_nobody_can_vote_for_themselves(ct):
    state = ct.new(6)
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 2, Vote(2))
    assert Vote(2) not in ENGINE.legal_actions(state, 2)
    assert ENGINE.view(state, 2)["me"]["vote_options"] == [0, 1, 3, 4, 5]


def test_C1_every_player_holds_a_card_per_other_colour_and_an_ambush(ct):
    state = ct.new(12)
    legal = ENGINE.legal_actions(state, 0)
    assert {a.target for a in legal if isinstance(a, Vote)} == set(range(1, 12))
    assert AMBUSH in legal


def test_C2_the_gold_deck_is_80_bars_split_28_32_20(ct):
    state = ct.new(6)
    bars = Counter(state.deck + state.pot)
    assert bars == {3: 28, 4: 32, 5: 20}


def test_C2_the_value_split_is_a_checked_setting(ct):
    state = ct.new(6, gold_threes=20, gold_fours=40, gold_fives=20)
    assert Counter(state.deck + state.pot) == {3: 20, 4: 40, 5: 20}
    with pytest.raises(BadSettings):
        ENGINE.settings_from_wire({"gold_threes": 10})


def test_C2_values_are_private_to_their_owner(ct):
    state = ct.with_gold(ct.new(6), {0: (5, 3), 1: (4,)})
    public = ENGINE.view(state, None)
    assert public["seats"][0]["bars"] == 2 and "me" not in public
    assert ENGINE.view(state, 0)["me"]["gold"] == [3, 5]
    assert ENGINE.view(state, 0)["me"]["total"] == 8
    assert ENGINE.view(state, 1)["me"]["gold"] == [4]


def test_C3_the_showdown_has_split_steal_and_take_one():
    assert {c.value for c in ShowdownChoice} == {"split", "steal", "take_one"}


# ----------------------------------------------------------------------------------------- setup
def test_C4_the_deck_is_shuffled_by_the_seed_and_4_bars_go_to_the_centre(ct):
    a, b, c = ct.new(6, seed=1), ct.new(6, seed=1), ct.new(6, seed=2)
    assert a.deck == b.deck and a.pot == b.pot
    assert a.deck + a.pot != c.deck + c.pot
    assert len(a.pot) == 4 and len(a.deck) == 76
    assert ENGINE.view(a, None)["pot"] == 4 and ENGINE.view(a, None)["deck"] == 76


def test_C5_three_to_five_players_are_allowed_with_a_notice(ct):
    assert ENGINE.view(ct.new(3), None)["small_table"] is True
    assert ENGINE.view(ct.new(5), None)["small_table"] is True
    assert ENGINE.view(ct.new(6), None)["small_table"] is False
    for n in (2, 13):
        with pytest.raises(BadSettings):
            ct.new(n)


# ------------------------------------------------------------------------------------ the votes
def test_C6_the_conspiracy_timer_follows_the_preset(ct):
    tabani = ENGINE.timer(ct.new(6, "tabani"))
    rod = ENGINE.timer(ct.new(6, "rod_ruang"))
    assert (tabani.duration_ms, tabani.label) == (300_000, "conspiracy")
    assert rod.duration_ms == 90_000
    assert ENGINE.timer(ct.new(6, conspiracy_ms=45_000)).duration_ms == 45_000


def test_C6_each_vote_has_its_own_timer_key(ct):
    state = ct.new(6)
    first = ENGINE.timer(state).key
    state, _ = ct.vote(state, {0: 5, 1: 5, 2: 5, 3: 5, 4: 5, 5: 0})
    assert state.phase is Phase.VOTE and state.vote == 2
    assert ENGINE.timer(state).key != first


def test_C7_a_card_can_be_changed_until_the_reveal(ct):
    state = ct.new(6)
    state, ev = ENGINE.apply(state, 0, Vote(3))
    assert ct.wire(ev) == [{"type": "vote_cast", "seat": 0}]  # no target on the wire
    state, _ = ENGINE.apply(state, 0, LOCK)
    state, ev = ENGINE.apply(state, 0, Vote(4))
    assert [e["type"] for e in ct.wire(ev)] == ["vote_cast", "unlocked"]
    assert ENGINE.view(state, 0)["me"]["card"] == {"card": "target", "target": 4}
    state, _ = ENGINE.apply(state, 0, AMBUSH)
    assert ENGINE.view(state, 0)["me"]["card"] == {"card": "ambush", "target": None}


def test_C7_reveal_is_simultaneous_once_everyone_has_locked(ct):
    state = ct.new(4)
    for seat, target in ((0, 1), (1, 0), (2, 1), (3, 1)):
        state, ev = ENGINE.apply(state, seat, Vote(target))
    for seat in (0, 1, 2):
        state, ev = ENGINE.apply(state, seat, LOCK)
        assert not ct.of(ev, "reveal")
    state, ev = ENGINE.apply(state, 3, LOCK)
    (reveal,) = ct.of(ev, "reveal")
    assert reveal["voted_for"] == [1, 0, 1, 1] and reveal["targets"] == [1]
    assert reveal["timed_out"] is False


def test_C7_an_unlocked_card_counts_when_the_timer_runs_out(ct):
    state = ct.new(4)
    for seat, target in ((0, 1), (1, 0), (2, 1), (3, 1)):
        state, _ = ENGINE.apply(state, seat, Vote(target))
    state, ev = ct.expire(state)
    (reveal,) = ct.of(ev, "reveal")
    assert reveal["cards"] == ["target"] * 4 and reveal["timed_out"] is True


def test_C7_without_early_reveal_only_the_timer_reveals(ct):
    state = ct.new(3, reveal_when_all_locked=False)
    for seat, target in ((0, 1), (1, 0), (2, 1)):
        state, _ = ENGINE.apply(state, seat, Vote(target))
        state, ev = ENGINE.apply(state, seat, LOCK)
        assert not ct.of(ev, "reveal")
    state, ev = ct.expire(state)
    assert ct.of(ev, "reveal")


def test_C7_a_player_who_put_nothing_down_voted_for_nobody(ct):
    state = ct.new(4)
    state, ev = ct.vote(state, {0: 1, 1: 0, 2: 1, 3: None})
    assert ct.of(ev, "reveal")[0]["cards"][3] == "none"
    assert ct.deaths(ev)[3] == ("C9", "no_vote")


def test_C7_missed_vote_random_plays_a_random_target_card(ct):
    state = ct.new(4, missed_vote="random")
    state, ev = ct.vote(state, {0: 1, 1: 0, 2: 1, 3: None})
    reveal = ct.of(ev, "reveal")[0]
    assert reveal["cards"][3] == "target" and reveal["voted_for"][3] in (0, 1, 2)


def test_C7_target_cards_name_living_players_only(ct):
    state = ct.new(6)
    state, _ = ct.vote(state, {0: 5, 1: 5, 2: 5, 3: 5, 4: 5, 5: 0})
    assert not state.alive[5]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Vote(5))


def test_C8_the_player_with_most_target_cards_is_the_target(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 1, 3: 1, 4: 2, 5: 0})
    reveal = ct.of(ev, "reveal")[0]
    assert reveal["tally"] == [1, 3, 2, 0, 0, 0] and reveal["targets"] == [1]


def test_C8_ambush_cards_are_not_votes(ct):
    state = ct.new(4)
    state, ev = ct.vote(state, {0: 1, 1: ct.A, 2: ct.A, 3: ct.A})
    reveal = ct.of(ev, "reveal")[0]
    assert reveal["tally"] == [0, 1, 0, 0] and reveal["targets"] == [1]
    assert reveal["ambushers"] == [1, 2, 3]


def test_C8_a_tie_of_two_makes_both_targets(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: 0, 5: 0})
    assert ct.of(ev, "reveal")[0]["targets"] == [0, 4]
    assert ct.deaths(ev) == {0: ("C10", "targeted"), 4: ("C10", "targeted")}
    assert [s for s in range(6) if state.alive[s]] == [1, 2, 3, 5]


def test_C8_a_tie_of_all_makes_everyone_a_target(ct):
    state = ct.new(3)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 0})
    assert ct.of(ev, "reveal")[0]["targets"] == [0, 1, 2]
    assert ct.deaths(ev) == dict.fromkeys(range(3), ("C10", "targeted"))
    assert ct.of(ev, "round_ended")[0]["outcome"] == "stays"


def test_C8_no_target_card_at_all_means_no_target(ct):
    state = ct.new(3)
    state, ev = ct.vote(state, {0: ct.A, 1: ct.A, 2: ct.A})
    assert ct.of(ev, "reveal")[0]["targets"] == []
    assert ct.deaths(ev) == dict.fromkeys(range(3), ("C9", "ambush_suicide"))


def test_C9_who_did_not_vote_for_a_target_dies(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 1, 3: 1, 4: 2, 5: 0})
    assert ct.deaths(ev) == {
        1: ("C10", "targeted"), 4: ("C9", "not_in_majority"), 5: ("C9", "not_in_majority")}
    assert [s for s in range(6) if state.alive[s]] == [0, 2, 3]


def test_C9_an_ambush_by_a_non_target_is_suicide(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: ct.A, 1: 2, 2: 1, 3: 2, 4: 2, 5: 2})
    assert ct.deaths(ev) == {0: ("C9", "ambush_suicide"), 2: ("C10", "targeted")}
    assert not ct.of(ev, "ambush_needed")


def test_C9_nobody_voting_kills_everyone(ct):
    state = ct.new(5)
    state, ev = ct.vote(state, dict.fromkeys(range(5)))
    assert ct.deaths(ev) == dict.fromkeys(range(5), ("C9", "no_vote"))
    assert ct.of(ev, "round_ended")[0]["outcome"] == "stays"


def test_C10_a_target_who_did_not_ambush_dies(ct):
    state = ct.new(4)
    state, ev = ct.vote(state, {0: 3, 1: 3, 2: 3, 3: 0})
    assert ct.deaths(ev)[3] == ("C10", "targeted")


def test_C10_an_ambushing_target_survives_and_chooses_a_voter(ct):
    state = ct.new(5)
    state, ev = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: ct.A})
    assert state.phase is Phase.AMBUSH_CHOICE
    assert ct.of(ev, "ambush_needed") == [{"type": "ambush_needed", "seats": [4], "candidates": [[0, 1, 2]]}]
    assert ct.deaths(ev) == {}  # C11: nobody dies before the choice is made
    assert ENGINE.view(state, 4)["me"]["ambush_prompt"] == {"candidates": [0, 1, 2]}
    assert ENGINE.legal_actions(state, 4) == [AmbushPick(0), AmbushPick(1), AmbushPick(2)]
    with pytest.raises(IllegalAction):
        ct.pick(state, 4, 3)
    with pytest.raises(NotYourTurn):
        ct.pick(state, 0, 1)
    state, ev = ct.pick(state, 4, 1)
    assert ct.deaths(ev) == {1: ("C10", "ambushed"), 3: ("C9", "not_in_majority")}
    assert ct.of(ev, "died")[0]["by"] == 4
    assert [s for s in range(5) if state.alive[s]] == [0, 2, 4]


def test_C10_several_ambushing_targets_choose_independently(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: 1, 2: 1, 3: 4, 5: 4, 1: ct.A, 4: ct.A})
    assert ct.of(ev, "ambush_needed")[0]["seats"] == [1, 4]
    state, ev = ct.pick(state, 4, 5)
    assert ct.wire(ev) == [{"type": "ambush_chosen", "seat": 4}]  # the victim stays secret
    assert ENGINE.view(state, None)["ambush_pending"] == [1]
    state, ev = ct.pick(state, 1, 0)
    assert ct.deaths(ev) == {0: ("C10", "ambushed"), 5: ("C10", "ambushed")}
    assert [e["by"] for e in ct.of(ev, "ambush_resolved")] == [1, 4]  # seat order
    assert [s for s in range(6) if state.alive[s]] == [1, 2, 3, 4]


def test_C10_the_choice_excludes_voters_already_dying(ct):
    state = ct.new(4)
    state, ev = ct.vote(state, {0: 1, 1: ct.A, 2: 0, 3: None})
    assert ct.of(ev, "reveal")[0]["targets"] == [0, 1]
    assert ct.of(ev, "ambush_resolved") == [{"type": "ambush_resolved", "by": 1, "victim": None, "random": False}]
    assert ct.deaths(ev) == {0: ("C10", "targeted"), 3: ("C9", "no_vote")}
    assert state.phase is Phase.SHOWDOWN


def test_C10_option_may_choose_a_voter_who_dies_anyway(ct):
    state = ct.new(4, ambush_victims_not_dying=False)
    state, ev = ct.vote(state, {0: 1, 1: ct.A, 2: 0, 3: None})
    assert state.phase is Phase.AMBUSH_CHOICE
    state, ev = ct.pick(state, 1, 0)
    assert ct.deaths(ev)[0] == ("C10", "targeted")  # one death per seat


def test_C10_a_timed_out_choice_is_made_at_random(ct):
    victims = set()
    for seed in range(12):
        state = ct.new(5, seed=seed)
        state, _ = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: ct.A})
        assert ENGINE.timer(state).label == "ambush_choice"
        state, ev = ct.expire(state)
        (resolved,) = ct.of(ev, "ambush_resolved")
        assert resolved["random"] is True and resolved["victim"] in (0, 1, 2)
        victims.add(resolved["victim"])
    assert len(victims) > 1


def test_C11_deaths_are_simultaneous_and_the_dead_sit_out(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 1, 3: 1, 4: 2, 5: 0})
    kinds = [e["type"] for e in ct.wire(ev)]
    first_death = kinds.index("died")
    assert kinds[first_death:first_death + 3] == ["died"] * 3 and "vote_started" in kinds[first_death:]
    assert ENGINE.legal_actions(state, 1) == []
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 1, Vote(0))
    assert 1 not in ENGINE.seats_to_act(state)


def test_C12_the_ambush_card_returns_after_each_vote_by_default(ct):
    state = ct.new(5)
    state, _ = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: ct.A})
    state, _ = ct.pick(state, 4, 1)
    assert state.phase is Phase.VOTE and AMBUSH in ENGINE.legal_actions(state, 4)


def test_C12_option_ambush_once_per_round(ct):
    state = ct.new(5, ambush_once_per_round=True)
    state, _ = ct.vote(state, {0: 4, 1: 4, 2: 4, 3: 0, 4: ct.A})
    state, _ = ct.pick(state, 4, 1)
    assert AMBUSH not in ENGINE.legal_actions(state, 4)
    assert ENGINE.view(state, 4)["me"]["can_ambush"] is False
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 4, AMBUSH)
    state, _ = ct.vote(state, {0: 2, 2: 0, 4: 0})  # 0 is the target: 2 and 4 go to the showdown
    state, _ = ct.showdown(state, SPLIT, SPLIT)
    assert state.round == 2 and AMBUSH in ENGINE.legal_actions(state, 4)


# ---------------------------------------------------------------------------- end of a round
def test_C13_a_lone_survivor_takes_the_pot(ct):
    state = ct.with_pot(ct.new(3), (5, 5, 4, 3))
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: None})
    assert ct.of(ev, "round_ended")[0] == {"type": "round_ended", "round": 1, "outcome": "taken", "survivors": [0]}
    assert ct.of(ev, "pot_taken") == [{"type": "pot_taken", "seat": 0, "bars": 4, "cause": "C13"}]
    assert sorted(state.gold[0]) == [3, 4, 5, 5]
    assert ENGINE.view(state, None)["last_round_end"]["bars_taken"] == 4


def test_C14_no_survivor_the_pot_stays_and_the_earlier_dead_draw(ct):
    state = ct.new(6)
    state, ev = ct.vote(state, {0: 5, 1: 5, 2: 5, 3: 5, 4: None, 5: 0})
    assert not state.alive[4] and not state.alive[5]
    deck_before = len(state.deck)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 3, 3: 0})
    assert ct.of(ev, "pot_stays") == [{"type": "pot_stays", "bars": 4, "cause": "C14"}]
    assert [(e["seat"], e["cause"]) for e in ct.of(ev, "bar_drawn")] == [(4, "C14"), (5, "C14")]
    assert [len(g) for g in state.gold] == [0, 0, 0, 0, 1, 1]
    assert len(state.deck) == deck_before - 2 and len(state.pot) == 4
    assert ENGINE.view(state, None)["last_round_end"]["draws"] == [4, 5]


def test_C14_nobody_draws_when_all_die_in_the_first_vote(ct):
    state = ct.new(3)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 0})
    assert ct.of(ev, "bar_drawn") == []


def test_C15_two_survivors_play_the_final_showdown(ct):
    state = ct.new(4)
    state, ev = ct.to_showdown(state, 0, 1)
    assert ct.of(ev, "showdown_started") == [{"type": "showdown_started", "round": 1, "seats": [0, 1], "pot": 4}]
    assert ct.of(ev, "round_ended")[0]["outcome"] == "showdown"
    assert state.phase is Phase.SHOWDOWN and ENGINE.seats_to_act(state) == (0, 1)
    assert ENGINE.timer(state).label == "showdown"
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 2, LOCK)


def test_C15_picks_are_secret_until_the_reveal(ct):
    state, _ = ct.to_showdown(ct.new(4), 0, 1)
    state, ev = ENGINE.apply(state, 0, ShowdownPick(STEAL))
    assert ct.wire(ev) == [{"type": "showdown_picked", "seat": 0}]
    assert ENGINE.view(state, None)["showdown"]["picked"] == [True, False]
    assert ENGINE.view(state, 0)["me"]["showdown_choice"] == "steal"
    assert ENGINE.view(state, 1)["me"]["showdown_choice"] is None


def test_C15_steal_and_steal_the_others_draw(ct):
    state, _ = ct.to_showdown(ct.new(5), 1, 3)
    state, ev = ct.showdown(state, STEAL, STEAL)
    assert ct.of(ev, "showdown_reveal")[0]["payout"] == [0, 0]
    assert [(e["seat"], e["cause"]) for e in ct.of(ev, "bar_drawn")] == [(0, "C15"), (2, "C15"), (4, "C15")]
    assert ENGINE.view(state, None)["last_showdown"]["draws"] == [0, 2, 4]
    assert len(state.pot) == 4  # the pot stayed; nothing to refill


def test_C15_take_and_take_leave_two_in_the_pot(ct):
    state, _ = ct.to_showdown(ct.new(4), 0, 1)
    state, ev = ct.showdown(state, TAKE, TAKE)
    reveal = ct.of(ev, "showdown_reveal")[0]
    assert reveal["payout"] == [1, 1] and reveal["pot_left"] == 2
    assert ct.of(ev, "round_started")[0]["refilled"] == 2


def test_C16_a_missing_showdown_pick_is_take_one(ct):
    state, _ = ct.to_showdown(ct.new(4), 0, 1)
    state, ev = ct.showdown(state, STEAL, None)
    reveal = ct.of(ev, "showdown_reveal")[0]
    assert reveal["choices"] == ["steal", "take_one"] and reveal["timed_out"] == [False, True]
    assert reveal["payout"] == [3, 1]


def test_C16_an_unlocked_pick_counts_at_the_timer(ct):
    state, _ = ct.to_showdown(ct.new(4), 0, 1)
    state, _ = ENGINE.apply(state, 0, ShowdownPick(SPLIT))
    state, _ = ENGINE.apply(state, 1, ShowdownPick(SPLIT))
    state, ev = ct.expire(state)
    assert ct.of(ev, "showdown_reveal")[0]["payout"] == [2, 2]


# ------------------------------------------------------------------------------ end of the game
@pytest.mark.parametrize(("preset", "players", "target"), [
    ("tabani", 6, 24), ("tabani", 12, 24), ("rod_ruang", 6, 25), ("rod_ruang", 9, 25),
    ("rod_ruang", 10, 24), ("rod_ruang", 12, 24),
])
def test_C17_the_target_score_per_preset(ct, preset, players, target):
    assert ENGINE.view(ct.new(players, preset), None)["target_score"] == target


def test_C17_a_player_reaching_the_target_wins(ct):
    state = ct.with_gold(ct.new(3, "rod_ruang"), {0: (5, 5, 5, 5, 3)})
    state = ct.with_pot(state, (3, 3, 3, 3))
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: None})  # 0 alone survives: 23 + 12
    (over,) = ct.of(ev, "game_over")
    assert over["winners"] == [0] and over["reason"] == "target" and over["cause"] == "C18"
    assert over["totals"][0] == 35
    assert ENGINE.is_over(state) and ENGINE.timer(state) is None
    view = ENGINE.view(state, None)
    assert view["phase"] == "game_over" and view["winners"] == [0] and view["final"]["totals"][0] == 35


def test_C17_below_the_target_play_goes_on(ct):
    state = ct.with_gold(ct.new(3, "rod_ruang"), {0: (5, 5, 5, 3)})
    state = ct.with_pot(state, (3, 3, 3, 3))  # 18 + 12 = 30 >= 25: use a smaller start
    state = ct.with_gold(state, {0: (3,)})
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: None})
    assert not ct.of(ev, "game_over") and state.round == 2 and ENGINE.view(state, None)["final"] is None


def test_C18_several_over_the_target_the_highest_total_wins(ct):
    state = ct.with_gold(ct.new(4), {0: (5, 5, 5, 5, 5), 1: (5, 5, 5, 5)})  # 25 and 20
    state = ct.with_pot(state, (4, 4, 3, 3))
    state, _ = ct.to_showdown(state, 0, 1)
    state, ev = ct.showdown(state, SPLIT, SPLIT)  # 0: +8 = 33, 1: +6 = 26
    (over,) = ct.of(ev, "game_over")
    assert over["winners"] == [0] and over["totals"][:2] == [33, 26]


def test_C18_a_tie_for_the_highest_is_broken_by_a_tie_break_round(ct):
    state = ct.with_gold(ct.new(4), {0: (5, 5, 5, 5, 3), 1: (5, 5, 5, 5, 3)})  # 23 and 23
    state = ct.with_pot(state, (4, 4, 4, 4))
    state, _ = ct.to_showdown(state, 0, 1)
    state, ev = ct.showdown(state, SPLIT, SPLIT)  # both 31
    assert ct.of(ev, "tie_break") == [{"type": "tie_break", "seats": [0, 1], "cause": "C18"}]
    started = ct.of(ev, "round_started")[0]
    assert started["tie_break"] is True and started["seats"] == [0, 1]
    assert state.phase is Phase.SHOWDOWN  # two players: straight to the showdown
    view = ENGINE.view(state, None)
    assert view["tie_break"] == [0, 1] and [s["in_round"] for s in view["seats"]] == [True, True, False, False]
    state, ev = ct.showdown(state, STEAL, SPLIT)
    assert ct.of(ev, "game_over")[0]["winners"] == [0]


def test_C18_players_outside_the_tie_break_cannot_act(ct):
    gold = {0: (5, 5, 5, 5, 4), 1: (5, 5, 5, 5, 4), 2: (5, 5, 5, 5, 4), 3: (5, 5, 5, 5)}
    state = ct.with_gold(ct.new(4), gold)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: 0, 3: None})  # everyone dies; 0,1,2 tie at 24
    assert ct.of(ev, "tie_break")[0]["seats"] == [0, 1, 2]
    assert state.phase is Phase.VOTE and ENGINE.legal_actions(state, 3) == []
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 3, Vote(0))
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, Vote(3))
    assert ENGINE.view(state, 0)["me"]["vote_options"] == [1, 2]


def test_C19_the_next_round_stands_everyone_up_and_refills_the_pot(ct):
    state = ct.new(4)
    deck = len(state.deck)
    state, _ = ct.to_showdown(state, 0, 1)
    state, ev = ct.showdown(state, SPLIT, TAKE)  # 3 / 1: the pot is empty
    started = ct.of(ev, "round_started")[0]
    assert started == {"type": "round_started", "round": 2, "seats": [0, 1, 2, 3], "tie_break": False,
                       "pot": 4, "deck": deck - 4, "refilled": 4}
    assert all(state.alive) and state.vote == 1 and state.phase is Phase.VOTE


def test_C20_the_pot_holds_what_is_left_of_the_deck(ct):
    state = ct.new(3)
    state = evolve(state, deck=state.deck[-2:])
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: None})
    started = ct.of(ev, "round_started")[0]
    assert started["pot"] == 2 and started["deck"] == 0


def test_C20_a_deck_shorter_than_the_pot_moves_every_bar_it_has(ct):
    """3 bars left and 4 needed: all 3 go to the pot (the refill slice once wrapped and moved 1)."""
    state = ct.new(3)
    left = state.deck[-3:]
    state = evolve(state, deck=left)
    in_play = ct.bars_in_play(state)
    state, ev = ct.vote(state, {0: 1, 1: 2, 2: None})
    started = ct.of(ev, "round_started")[0]
    assert started["pot"] == 3 and started["deck"] == 0 and started["refilled"] == 3
    assert state.deck == () and sorted(state.pot) == sorted(left)
    assert ct.bars_in_play(state) == in_play


def test_C20_no_gold_left_the_highest_total_wins(ct):
    state = ct.with_gold(ct.new(3), {1: (5, 5)})
    state = evolve(state, deck=())
    state, ev = ct.vote(state, {0: 2, 1: 2, 2: 0})  # 2 dies alone... 0 and 1 survive
    state, ev = ct.showdown(state, SPLIT, SPLIT)  # pot emptied, deck empty: the end
    (over,) = ct.of(ev, "game_over")
    assert over["reason"] == "deck_empty" and over["cause"] == "C20" and over["winners"] == [1]


def test_C20_ties_go_to_more_bars_then_are_shared(ct):
    base = evolve(ct.with_gold(ct.new(3), {0: (4, 4, 4), 1: (3, 3, 3, 3), 2: (4, 4, 4)}), deck=())
    state = evolve(base, pot=())
    events: list = []
    over = _after_round(state, events)
    assert ENGINE.is_over(over) and ct.wire(events)[-1]["winners"] == [1]
    shared_state = evolve(state, settings=replace(state.settings, dry_tie=DryTie.SHARED))
    events = []
    _after_round(shared_state, events)
    assert ct.wire(events)[-1]["winners"] == [0, 1, 2]
    equal = evolve(state, gold=((4, 4, 4), (3, 3, 3, 3), (3, 3, 3, 3)))
    events = []
    _after_round(equal, events)
    assert ct.wire(events)[-1]["winners"] == [1, 2]


def test_C20_showdown_with_a_short_pot_caps_the_shares(ct):
    assert showdown_payout(SPLIT, SPLIT, 3) == (1, 1)
    assert showdown_payout(STEAL, SPLIT, 2) == (2, 0)
    assert showdown_payout(SPLIT, TAKE, 1) == (0, 1)
    assert showdown_payout(TAKE, TAKE, 1) == (0, 0)


def test_timeouts_are_the_tables_and_must_name_the_running_timer(ct):
    state = ct.new(4)
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, 0, ENGINE.timer(state).on_expiry)
    with pytest.raises(StaleState):
        ENGINE.apply(state, None, Timeout("vote:9:9"))
    with pytest.raises(NotYourTurn):
        ENGINE.apply(state, None, Vote(1))
