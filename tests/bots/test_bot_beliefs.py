"""The belief updates, one pure function at a time (rule ids where a rule decides)."""
from __future__ import annotations

import random

import pytest

from game.bots.search import SearchBudget, Stats, search, softmax_share
from game.games.cheating_moth.bots import belief as moth
from game.games.cheating_moth.rules import Kind
from game.games.collusion.bots import belief as col
from game.games.collusion.rules import AMBUSH_CARD, OUT
from game.games.speakeasy.bots import belief as spk
from game.games.speakeasy.rules import Identity

I, C = Identity.INFORMANT, Identity.CITIZEN


# ------------------------------------------------------------------------------------- Speakeasy
def test_s8_a_subject_found_to_be_a_citizen_is_never_believed_an_informant_again() -> None:
    ratio: dict[int, float] = {}
    for _ in range(5):  # whatever it does afterwards (here: it looks like an informant)
        ratio[2] = ratio.get(2, 1.0) * 50
        odds = spk.informant_odds(range(6), 2, {2: C, 0: C}, ratio)
        assert odds[2] == 0.0


def test_s8_a_revealed_informant_is_certain_and_the_rest_share_what_is_left() -> None:
    odds = spk.informant_odds(range(6), 2, {0: C, 3: I}, {})
    assert odds[3] == 1.0 and odds[0] == 0.0
    assert odds[1] == pytest.approx(0.25) and sum(odds.values()) == pytest.approx(2.0)


def test_s1_when_every_informant_is_found_nobody_else_is_one() -> None:
    odds = spk.informant_odds(range(5), 1, {4: I, 0: C}, {1: 9.0})
    assert odds[1] == odds[2] == odds[3] == 0.0


def test_s12_a_self_point_while_unrevealed_makes_a_seat_likelier_a_citizen() -> None:
    ratio = spk.observe_self_point({}, 3, revealed_before=False)
    odds = spk.informant_odds(range(6), 2, {0: C}, ratio)
    assert odds[3] < odds[1] and sum(odds.values()) == pytest.approx(2.0)
    assert spk.observe_self_point({}, 3, revealed_before=True) == {}  # already revealed: nothing to lose


def test_symmetric_sums_of_ones_are_binomials() -> None:
    assert spk.symmetric_sums([1.0] * 5, 3) == [1, 5, 10, 10]


def test_s6_a_host_habit_moves_the_subject_odds_to_the_ranks_it_picks() -> None:
    options = [1, 2, 3, 4, 5]
    ranked = sorted(options, key=lambda s: -spk.clue_fit(7, s))
    habit = spk.HOST_RANK_PRIOR
    before = spk.subject_odds(7, options, habit)
    habits: dict[int, tuple[float, float, float]] = {}
    for _ in range(8):
        habits = spk.observe_host(habits, 0, spk.fit_rank(7, options, ranked[-1]))
    after = spk.subject_odds(7, options, habits[0])
    assert before[ranked[0]] == max(before.values())
    assert after[ranked[-1]] > before[ranked[-1]] and after[ranked[0]] < before[ranked[0]]
    assert sum(after.values()) == pytest.approx(1.0)


def test_sampled_identities_keep_the_informant_count_and_the_certainties() -> None:
    rng = random.Random(1)
    for _ in range(50):
        ids = spk.sample_identities({0: 0.0, 1: 1.0, 2: 0.5, 3: 0.5, 4: 0.0}, 2, rng)
        assert ids.count(I) == 2 and ids[1] is I and ids[0] is C and ids[4] is C


# -------------------------------------------------------------------------------------- Collusion
def test_bayes_moves_towards_the_likelier_story_and_stays_a_probability() -> None:
    assert col.bayes(0.5, 0.8, 0.2) == pytest.approx(0.8)
    assert col.bayes(0.5, 0.0, 1.0) == 0.01 and col.bayes(0.5, 1.0, 0.0) == 0.99


def test_c7_a_seat_that_votes_against_the_table_convention_is_believed_random() -> None:
    ctx = col.VoteContext(living=(0, 1, 2, 3, 4, 5), bars=(0, 9, 0, 0, 0, 0), tally=(0,) * 6, focal=1,
                          ambush_free=(True,) * 6)
    belief = col.TableBelief.fresh(6)
    cards = [1, AMBUSH_CARD, 1, 1, 5, 1]  # seat 4 votes for a poor nobody
    after = col.observe_reveal(belief, ctx, (1, 1), cards, me=0)
    assert after.reader[4] < belief.reader[4] < after.reader[2]
    assert after.votes[4][5] == 1 and after.ambushes[1] == 1 and (1, 1) in after.seen
    assert col.observe_reveal(after, ctx, (1, 1), cards, me=0) is after  # one reveal counts once


def test_c8_to_c10_survival_of_one_full_set_of_cards() -> None:
    living = (0, 1, 2, 3)
    assert col.survival([1, 0, 1, 1], living, 0) == (1.0, 1)  # C10: only the target 1 dies
    assert col.survival([2, 2, 0, 0, 2], (0, 1, 2, 3, 4), 1) == (1.0, 2)  # C9: 3 voted for a non-target
    assert col.survival([AMBUSH_CARD, 0, 0, 1], living, 0) == (1.0, 1)  # 0 is the target and ambushes: 3 dies
    assert col.survival([AMBUSH_CARD, 2, 1, 1], living, 0)[0] == 0.0  # C9: ambush when not a target
    assert col.survival([1, AMBUSH_CARD, 1, 1], living, 0) == (pytest.approx(2 / 3), 0)  # C10: 1 picks one of 3


def test_c2_an_unseen_bar_is_worth_the_deck_minus_my_own_bars() -> None:
    assert col.bar_mean([5, 5], [3, 4, 5, 5]) == pytest.approx(3.5)
    assert col.near_target_chance(0, 3.9, 24) == 0.0
    assert col.near_target_chance(6, 3.9, 24) > col.near_target_chance(3, 3.9, 24)


def test_c4_a_determinised_table_matches_the_view() -> None:
    from game.games.collusion.rules import ENGINE

    state = ENGINE.new_game(ENGINE.default_settings(None), 6, 3)
    view = ENGINE.view(state, 2)
    guess = col.determinise(view, 2, random.Random(0))
    assert ENGINE.view(guess, 2)["me"]["gold"] == view["me"]["gold"]
    assert [len(g) for g in guess.gold] == [len(g) for g in state.gold]
    assert len(guess.pot) == len(state.pot) and len(guess.deck) == len(state.deck)
    assert sorted(b for g in guess.gold for b in g) + sorted(guess.pot + guess.deck) != [] and OUT not in guess.cards


# ------------------------------------------------------------------------------------ Cheating Moth
def test_m10_a_guard_who_lets_tells_pass_is_believed_less_watchful() -> None:
    watch = moth.prior_watch("tremble")
    lax = watch
    for _ in range(4):
        lax = moth.observe_tell(lax, accused=False)
    sharp = moth.observe_tell(watch, accused=True)
    assert moth.notice_rate(lax) < moth.notice_rate(watch) < moth.notice_rate(sharp)


def test_m8_a_busy_guard_catches_half_as_often() -> None:
    watch = (1.0, 1.0)
    assert moth.caught_chance(watch, guard_busy=True) == pytest.approx(moth.caught_chance(watch, False) / 2)


def test_m17_a_moth_is_worth_cheating_away_long_before_a_number_card() -> None:
    assert moth.cheat_worth(Kind.MOTH, 0.5) > 0 > moth.cheat_worth(Kind.NUMBER, 0.5)
    assert moth.cheat_worth(Kind.NUMBER, 0.0) > 0


def test_m11_hand_sizes_exact_where_shown_and_the_rest_shared_out() -> None:
    sizes = moth.hand_sizes([2, "many", "many", 3], mine=5, me=0, hidden_cards=16)
    assert sizes == [5, 6, 7, 3]
    assert moth.hand_sizes([1, "many"], mine=1, me=0, hidden_cards=0) == [1, 4]  # never fewer than "many"


# ------------------------------------------------------------------------------------------ search
class _Coin:
    """Candidate i scores 1 with probability p[i]."""

    def __init__(self, p: list[float]) -> None:
        self.p = p

    def determinise(self, rng: random.Random) -> None:
        return None

    def rollout(self, state: None, action: int, rng: random.Random) -> float:
        return 1.0 if rng.random() < self.p[action] else 0.0


def test_search_picks_the_best_candidate_by_visits_and_replays_for_a_seed() -> None:
    problem = _Coin([0.2, 0.8, 0.5])
    picks = [search(problem, [0, 1, 2], SearchBudget(200), random.Random(s)) for s in range(5)]
    assert picks == [1] * 5
    assert search(problem, [0, 1, 2], SearchBudget(30), random.Random(9)) == \
        search(problem, [0, 1, 2], SearchBudget(30), random.Random(9))


def test_a_prior_counts_as_pretend_visits() -> None:
    stats = Stats.empty(2, [1.0, 0.0])
    assert stats.visits == [2, 2] and stats.best() == 0
    assert softmax_share([0.0, 0.0], 0, 1.0) == pytest.approx(0.5)
