"""Speakeasy bots: legal, deterministic, sensible (S6 host, S7 pointing with S8/S12 in mind)."""
from __future__ import annotations

import dataclasses
from collections import Counter

import pytest
from test_speakeasy_helpers import table

from game.games.speakeasy.bots import make_bot
from game.games.speakeasy.bots.heuristic import HeuristicBot, RandomBot, clue_fit
from game.games.speakeasy.rules import ENGINE, ChooseSubject, Continue, Phase, Point, SeatState, State


def _run(state: State, bots: dict[int, object]) -> State:
    """Bots act for every seat; when none acts the table's timer runs out."""
    while not ENGINE.is_over(state):
        for seat, bot in bots.items():
            legal = ENGINE.legal_actions(state, seat)
            action = bot.choose(ENGINE.view(state, seat), legal)
            if action is not None:
                assert action in legal
                state, _ = ENGINE.apply(state, seat, action)
                break
        else:
            state, _ = ENGINE.apply(state, None, ENGINE.legal_actions(state, None)[0])
    return state


def test_make_bot_kinds() -> None:
    assert isinstance(make_bot("random", 0, 1), RandomBot)
    assert isinstance(make_bot("heuristic", 2, 1), HeuristicBot)
    with pytest.raises(ValueError):
        make_bot("genius", 0, 1)
    bot = make_bot("heuristic", 0, 5)
    assert all(1_500 <= bot.think_ms() <= 6_000 for _ in range(50))


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_bots_play_whole_games_legally_and_deterministically(kind: str) -> None:
    for n in (3, 7, 12):
        start = ENGINE.new_game(ENGINE.default_settings(), n, seed=n)
        finals = [_run(start, {s: make_bot(kind, s, 100 + s) for s in range(n)}) for _ in range(2)]
        assert finals[0] == finals[1] and finals[0].phase is Phase.GAME_OVER


def test_bots_accept_wire_legal_actions_and_answer_in_kind() -> None:
    state = table("ICCIC", host=2)
    legal = [ENGINE.action_to_wire(a) for a in ENGINE.legal_actions(state, 2)]
    choice = make_bot("heuristic", 2, 3).choose(ENGINE.view(state, 2), legal)
    assert choice in legal and choice["type"] == "choose_subject" and choice["subject"] != 2


def test_bots_point_once_and_leave_the_reveal_to_its_timer() -> None:
    state, _ = ENGINE.apply(table("ICCIC", host=0), 0, ChooseSubject(1))
    state, _ = ENGINE.apply(state, 2, Point(1))
    bot = make_bot("random", 2, 1)
    assert bot.choose(ENGINE.view(state, 2), ENGINE.legal_actions(state, 2)) is None
    for seat in (1, 3, 4):
        state, _ = ENGINE.apply(state, seat, Point(1))
    assert ENGINE.legal_actions(state, 1) == [Continue()]
    assert bot.choose(ENGINE.view(state, 1), ENGINE.legal_actions(state, 1)) is None  # reveal_ms > 0
    untimed = dataclasses.replace(state, settings=dataclasses.replace(state.settings, reveal_ms=0))
    assert make_bot("heuristic", 1, 1).choose(ENGINE.view(untimed, 1), [Continue()]) == Continue()


DECK_SIZE = len(ENGINE.default_settings("en").texts)


def _clue_fitting(seat: int, seats: range) -> int:
    """A clue id of the built-in deck whose shared fit is clearly best for ``seat``."""
    return max(range(DECK_SIZE), key=lambda c: clue_fit(c, seat) - max(clue_fit(c, o) for o in seats if o != seat))


def _pointing_state(identities: str, seat_revealed: dict[int, bool], clue: int) -> State:
    state = table(identities, host=0)
    seats = tuple(
        SeatState(s.identity, revealed=seat_revealed.get(i, False)) for i, s in enumerate(state.seats)
    )
    order = (clue,) + tuple(c for c in state.clue_order if c != clue)[1:]
    state = dataclasses.replace(state, seats=seats, clue_order=order)
    state, _ = ENGINE.apply(state, 0, ChooseSubject(1))
    return state


def _quiet_bot(seat: int) -> HeuristicBot:
    bot = HeuristicBot(seat, 7)
    bot.noise = 0.0
    return bot


def test_heuristic_host_picks_whom_the_clue_fits() -> None:
    clue = _clue_fitting(3, range(1, 5))
    state = dataclasses.replace(table("ICCIC", host=0), clue_order=(clue,))
    picks = Counter()
    for seed in range(40):
        bot = HeuristicBot(0, seed)
        bot.noise = 0.0
        picks[bot.choose(ENGINE.view(state, 0), ENGINE.legal_actions(state, 0)).subject] += 1
    assert picks.most_common(1)[0][0] == 3 and 0 not in picks


def test_heuristic_citizen_points_at_itself_when_the_clue_fits_and_it_has_nothing_to_lose() -> None:
    clue = _clue_fitting(4, range(1, 5))
    state = _pointing_state("ICCIC", {4: True}, clue)  # seat 4: a revealed citizen
    assert _quiet_bot(4).choose(ENGINE.view(state, 4), ENGINE.legal_actions(state, 4)) == Point(4)


def test_heuristic_unrevealed_informant_does_not_point_at_itself() -> None:
    clue = _clue_fitting(3, range(1, 5))
    state = _pointing_state("ICCIC", {}, clue)  # seat 3: an unrevealed informant (S12 bonus at stake)
    assert _quiet_bot(3).choose(ENGINE.view(state, 3), ENGINE.legal_actions(state, 3)) != Point(3)


def test_heuristic_prefers_a_revealed_informant_over_a_revealed_citizen() -> None:
    clue = min(
        range(DECK_SIZE),
        key=lambda c: abs(clue_fit(c, 2) - clue_fit(c, 3))
        + max(clue_fit(c, s) for s in (1, 4)) - min(clue_fit(c, 2), clue_fit(c, 3)),
    )
    state = _pointing_state("ICCIC", {2: True, 3: True}, clue)  # 2 citizen, 3 informant, both revealed
    assert _quiet_bot(1).choose(ENGINE.view(state, 1), ENGINE.legal_actions(state, 1)) == Point(3)


def test_heuristic_bots_beat_random_bots() -> None:
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    for game in range(80):
        n = 4 + game % 6
        kinds = {s: ("heuristic" if (s + game) % 2 else "random") for s in range(n)}
        bots = {s: make_bot(k, s, game * 31 + s) for s, k in kinds.items()}
        final = _run(ENGINE.new_game(ENGINE.default_settings(), n, game), bots)
        for w in final.final.winners:
            wins[kinds[w]] += 1
        for s, k in kinds.items():
            points[k] += final.seats[s].score
    assert wins["heuristic"] > 1.5 * wins["random"] and points["heuristic"] > 1.1 * points["random"]
