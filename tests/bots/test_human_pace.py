"""Human pace and human limits (``game/bots/pace.py``): every level of every game acts at a person's
pace — race presses never faster than a reaction, votes and picks in seconds and varied, one
cheat at a time with a rest after it, a guard that misses tells while it plays — and the levels
differ by judgement, not by speed."""
from __future__ import annotations

import contextlib
import random
import statistics
from collections import defaultdict
from typing import Any

import pytest

from game import catalog, simulate
from game.bots import BotKind, make_bot
from game.bots.pace import (
    DECISION_MS,
    REACTION_CEIL_MS,
    REACTION_FLOOR_MS,
    REST_MS,
    OneHand,
    Pace,
    notices,
)
from game.bots.search import SearchBudget, set_default_budget
from game.records import Recorder, new_record
from game.rules.base import RulesError

LEVEL_KINDS = (BotKind.HEURISTIC, BotKind.BELIEF, BotKind.SEARCH)
GAMES = tuple(d.id for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots)


@pytest.fixture(autouse=True)
def _small_search():
    for game in GAMES:
        set_default_budget(game, SearchBudget(2))
    yield
    for game in GAMES:
        set_default_budget(game, None)


# ----------------------------------------------------------------------------------- the model
def test_a_reaction_is_never_faster_than_a_person_and_varies() -> None:
    pace = Pace(random.Random(1))
    times = [pace.reaction() for _ in range(2_000)]
    assert min(times) >= REACTION_FLOOR_MS and max(times) <= REACTION_CEIL_MS
    assert 230 <= statistics.median(times) <= 330 and statistics.pstdev(times) > 30


def test_a_choice_takes_seconds_and_longer_with_more_options() -> None:
    pace = Pace(random.Random(2))
    two = [pace.decision(2) for _ in range(2_000)]
    eleven = [pace.decision(11) for _ in range(2_000)]
    assert min(two + eleven) >= DECISION_MS[0] and max(two + eleven) <= DECISION_MS[1]
    assert statistics.median(eleven) > statistics.median(two) + 500
    assert statistics.pstdev(two) / statistics.mean(two) > 0.2  # people vary


def test_one_hand_owes_a_rest_after_a_gesture_and_counts_the_waits_it_handed_out() -> None:
    hand = OneHand(Pace(random.Random(3)))
    assert hand.free
    hand.gesture_done()
    owed = hand.owed_ms
    assert REST_MS[0] <= owed <= REST_MS[2] and not hand.free
    hand.waited()  # no wait handed out yet: nothing has passed
    assert hand.owed_ms == owed
    while not hand.free:
        assert hand.wait(1_000) == 1_000
        hand.waited()
        owed -= 1_000
        assert hand.owed_ms == max(0, owed)


def test_a_busy_person_notices_half_as_often() -> None:
    rng = random.Random(4)
    idle = sum(notices(rng, 0.8, busy=False) for _ in range(4_000)) / 4_000
    busy = sum(notices(rng, 0.8, busy=True) for _ in range(4_000)) / 4_000
    assert abs(idle - 0.8) < 0.03 and abs(busy - 0.4) < 0.03


# ------------------------------------------------------------------------------ every level, every game
def _situations(game: str, count: int) -> list[tuple[Any, list[Any], int]]:
    """(view, legal, seat) of ``count`` moments of random play where a seat has something to do."""
    engine = catalog.get_engine(game)
    rnd, out, seed = random.Random(7), [], 0
    while len(out) < count:
        seed += 1
        state = engine.new_game(engine.default_settings(), 4, seed)
        for _ in range(400):
            if engine.is_over(state):
                break
            moves = [(s, a) for s in range(4) for a in engine.legal_actions(state, s)]
            timer = engine.timer(state)
            if moves and rnd.random() < 0.3:
                seat = rnd.choice(moves)[0]
                out.append((engine.view(state, seat), engine.legal_actions(state, seat), seat))
            if not moves and timer is None:
                break
            seat, action = rnd.choice(moves) if moves and (timer is None or rnd.random() < 0.9) else (None, timer.on_expiry)
            with contextlib.suppress(RulesError):
                state, _ = engine.apply(state, seat, action)
    return out[:count]


def _next_waits(game: str, kind: BotKind, situations: list[tuple[Any, list[Any], int]]) -> dict[str, list[int]]:
    """For each situation a fresh bot of ``kind`` answers, then hands out the wait before its next
    act: grouped by its answer (the same answer in the same situation must take the same time)."""
    waits: dict[str, list[int]] = defaultdict(list)
    for i, (view, legal, seat) in enumerate(situations):
        bot = make_bot(game, kind, seat, i)
        answer = bot.choose(view, list(legal))
        waits[type(answer).__name__].append(int(bot.think_ms()))
    return waits


@pytest.mark.parametrize("game", GAMES)
def test_levels_differ_by_judgement_not_speed(game: str) -> None:
    """After the same answer in the same situations, every level waits alike (medians within 20 %)."""
    situations = _situations(game, 300)
    by_level = {kind: _next_waits(game, kind, situations) for kind in LEVEL_KINDS}
    compared = 0
    for act in set.intersection(*(set(w) for w in by_level.values())):
        samples = [by_level[kind][act] for kind in LEVEL_KINDS]
        if min(len(s) for s in samples) < 30:
            continue
        medians = [statistics.median(s) for s in samples]
        assert max(medians) <= 1.2 * min(medians), (game, act, medians)
        compared += 1
    assert compared, {k: {a: len(w) for a, w in v.items()} for k, v in by_level.items()}


@pytest.mark.parametrize(("game", "after"), [("collusion", "Lock"), ("speakeasy", "Point"), ("speakeasy", "ChooseSubject")])
def test_votes_and_picks_take_seconds_varied_at_every_level(game: str, after: str) -> None:
    """The wait before a vote, a point or a pick is a person's choice time: seconds, never the same."""
    situations = _situations(game, 300)
    for kind in LEVEL_KINDS:
        waits = _next_waits(game, kind, situations)[after]
        assert len(waits) >= 10 and min(waits) >= DECISION_MS[0], (kind, sorted(waits)[:5])
        assert statistics.pstdev(waits) > 400 and len(set(waits)) > len(waits) // 2, kind


@pytest.mark.parametrize("kind", [*LEVEL_KINDS, BotKind.RANDOM])
def test_race_presses_are_never_faster_than_a_reaction(kind: BotKind) -> None:
    from game.games.cheating_moth.rules import Kind

    view = {"race": {"kind": Kind.MOSQUITO.value, "eligible": [0, 1]}, "me": {"race_cards": []}}
    bot = make_bot("cheating_moth", kind, 0, 5)
    times = []
    for _ in range(300):
        assert bot.race_press(view) is not None
        times.append(bot.think_ms())
    assert min(times) >= REACTION_FLOOR_MS and max(times) <= REACTION_CEIL_MS


def _cheat_times(kind: BotKind, games: int, seats: int = 4) -> list[dict[int, list[tuple[str, int]]]]:
    """Per game, each seat's cheat starts and ends on the simulator's clock (the session's pace)."""
    engine = catalog.get_engine("cheating_moth")
    out = []
    for seed in range(games):
        bots = [make_bot("cheating_moth", kind, seat, 17 * seed + seat) for seat in range(seats)]
        recorder = Recorder(new_record("cheating_moth", seats, seed))
        simulate.play_game(engine, engine.default_settings(), seats, seed, bots, recorder)
        cheats: dict[int, list[tuple[str, int]]] = defaultdict(list)
        for a in recorder.record.actions:
            if a.seat is not None and a.action["type"].startswith("cheat_") and a.t_ms is not None:
                cheats[a.seat].append((a.action["type"], a.t_ms))
        out.append(cheats)
    return out


@pytest.mark.parametrize("kind", LEVEL_KINDS)
def test_one_hand_a_bot_cheats_one_card_at_a_time_and_rests_before_the_next(kind: BotKind) -> None:
    """M8's hold, then a person's rest: no bot starts a cheat sooner than the rest's floor after its
    last one ended, so no bot sheds more than two cards by cheating in any 8 s."""
    games = _cheat_times(kind, 6)
    starts = 0
    for cheats in games:
        for moves in cheats.values():
            ended = None
            finishes = [t for kind_, t in moves if kind_ == "cheat_finish"]
            for move, t in moves:
                if move == "cheat_start":
                    starts += 1
                    assert ended is None or t - ended >= REST_MS[0], (moves, t, ended)
                else:
                    ended = t
            for i, t in enumerate(finishes):
                assert sum(1 for u in finishes[i:] if u - t < 8_000) <= 2, finishes
    assert starts >= 5, "the bots never cheated: nothing was tested"


def test_a_hard_guard_misses_tells_while_it_plays_its_own_turn() -> None:
    def spotted(turn: int, seed: int) -> bool:
        bot = make_bot("cheating_moth", BotKind.SEARCH, 0, seed)
        view = {"seats": [{"seat": s, "tell": "tremble" if s == 2 else None} for s in range(4)], "turn": turn,
                "pending": None, "race": None, "settings": {"cheat_ms": 1500, "caught_window_ms": 1000}}
        return 2 in bot._spotted_tells(view)

    idle = sum(spotted(1, seed) for seed in range(400)) / 400
    busy = sum(spotted(0, seed) for seed in range(400)) / 400
    assert idle == 1.0 and 0.35 < busy < 0.65
