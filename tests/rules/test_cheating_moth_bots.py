"""Cheating Moth bots: legal, deterministic, human-like timing, and whole games with a session clock."""
from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

import pytest

from game.bots import Bot, UnknownBot
from game.bots import make_bot as make_any_bot
from game.games.cheating_moth.bots import make_bot
from game.games.cheating_moth.bots.heuristic import HeuristicBot, RaceEntry, RandomBot
from game.games.cheating_moth.rules import (
    ENGINE,
    Accuse,
    CheatCancel,
    CheatFinish,
    CheatStart,
    Give,
    Kind,
    Play,
    RaceResult,
    Settings,
    State,
    build_deck,
)
from game.rules.base import IllegalAction


def table(hands: list[list[tuple[Kind, int]]], top: tuple[Kind, int] = (Kind.NUMBER, 3), guard: int = 0,
          turn: int | None = None, **settings: Any) -> State:
    s = ENGINE.settings_from_wire(settings)
    pool = list(build_deck(s))

    def take(kind: Kind, number: int) -> int:
        card = next(c for c in pool if c.kind is kind and c.number == number)
        pool.remove(card)
        return card.id

    hand_ids = tuple(tuple(take(*c) for c in hand) for hand in hands)
    top_id = take(*top)
    base = ENGINE.new_game(s, len(hands), 1)
    return dataclasses.replace(base, hands=hand_ids, draw_pile=tuple(c.id for c in pool), discard=(top_id,),
                               guard=guard, first_guard=guard, turn=guard if turn is None else turn)


N = Kind.NUMBER


def ask(bot: Any, state: State, seat: int) -> Any:
    return bot.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat))


def test_make_bot_kinds_and_protocol():
    for kind, cls in (("random", RandomBot), ("heuristic", HeuristicBot)):
        bot = make_any_bot("cheating_moth", kind, 2, 9)
        assert isinstance(bot, cls) and isinstance(bot, Bot) and bot.seat == 2
    with pytest.raises(UnknownBot):
        make_bot("clever", 0, 1)


def test_heuristic_sheds_the_costliest_card():
    state = table([[(N, 2), (Kind.ANT, 4), (N, 4)], [(N, 1)], [(N, 1)]])
    action = ask(make_bot("heuristic", 0, 1), state, 0)
    assert action == Play(next(c for c in state.hands[0] if state.card(c).kind is Kind.ANT))


def test_heuristic_draws_when_nothing_fits():
    state = table([[(N, 1), (N, 3)], [(N, 1)], [(N, 1)]])
    assert type(ask(make_bot("heuristic", 0, 1), state, 0)).__name__ == "Draw"


def test_heuristic_gives_away_action_cards_not_moths():
    state = table([[(Kind.SPIDER, 4), (Kind.MOTH, 2), (N, 5), (Kind.BEETLE, 1)], [(N, 1)] * 5, [(N, 1), (N, 1)]])
    state, _ = ENGINE.apply(state, 0, Play(state.hands[0][0]))
    action = ask(make_bot("heuristic", 0, 1), state, 0)
    assert isinstance(action, Give) and state.card(action.card).kind is Kind.BEETLE and action.to == 2


def test_heuristic_cheats_a_moth_while_the_guard_plays_and_holds_long_enough():
    state = table([[(N, 1), (N, 1)], [(Kind.MOTH, 2), (N, 5), (N, 1)], [(N, 1), (N, 1)]], guard=0)
    bot = make_bot("heuristic", 1, 3)
    action = ask(bot, state, 1)
    assert action == CheatStart(state.hands[1][0], 0)
    assert bot.think_ms() >= Settings().cheat_ms
    state, _ = ENGINE.apply(state, 1, dataclasses.replace(action, t_ms=1000))
    assert ask(bot, state, 1) == CheatFinish(0)


def test_a_bot_lets_go_when_its_finish_was_refused():
    state = table([[(N, 1), (N, 1)], [(Kind.MOTH, 2), (N, 5), (N, 1)], [(N, 1), (N, 1)]])
    state, _ = ENGINE.apply(state, 1, CheatStart(state.hands[1][0], 1000))
    for kind in ("random", "heuristic"):
        bot = make_bot(kind, 1, 4)
        assert ask(bot, state, 1) == CheatFinish(0)
        with pytest.raises(IllegalAction):
            ENGINE.apply(state, 1, CheatFinish(1200))  # the session's clock says: too early
        assert ask(bot, state, 1) == CheatCancel(0)


def test_heuristic_guard_accuses_on_a_tell_it_noticed_quickly():
    noticed: Counter[str] = Counter()
    for tell in ("subtle", "obvious"):
        state = table([[(N, 1), (N, 1)], [(Kind.MOTH, 2), (N, 5), (N, 1)], [(N, 1), (N, 1)]], turn=2, tell=tell)
        state, _ = ENGINE.apply(state, 1, CheatStart(state.hands[1][0], 1000))
        for seed in range(60):
            bot = make_bot("heuristic", 0, seed)
            first = ask(bot, state, 0)
            assert ask(bot, state, 0) == first  # a tell is noticed or missed once, not re-rolled
            if first is not None:
                assert first == Accuse(1, 0) and bot.think_ms() < Settings().cheat_ms  # reacts in the hold
                noticed[tell] += 1
    assert 10 < noticed["subtle"] < noticed["obvious"] < 60


def test_heuristic_guard_spots_a_shrinking_hand_without_a_tell():
    state = table([[(N, 1), (N, 1)], [(Kind.MOTH, 2), (N, 5), (N, 1)], [(N, 1), (N, 1)]], turn=2, tell="none")
    bot = make_bot("heuristic", 0, 5)
    assert ask(bot, state, 0) is None
    state, _ = ENGINE.apply(state, 1, CheatStart(state.hands[1][0], 1000))
    state, _ = ENGINE.apply(state, 1, CheatFinish(2500))
    assert ask(bot, state, 0) == Accuse(1, 0)


def test_race_presses_and_reaction_times():
    state = table([[(Kind.BEETLE, 4), (N, 1)], [(N, 4), (N, 2)], [(N, 2), (N, 2)]])
    state, _ = ENGINE.apply(state, 0, Play(state.hands[0][0]))
    h1, h2 = make_bot("heuristic", 1, 1), make_bot("heuristic", 2, 1)
    assert h1.race_press(ENGINE.view(state, 1)) == RaceEntry(state.hands[1][0])
    times = [h1.think_ms() for _ in range(200)]
    assert min(times) >= 160 and max(times) <= 600 and 200 < sorted(times)[100] < 320
    assert h2.race_press(ENGINE.view(state, 2)) is None  # no 4 in hand
    assert ask(h1, state, 1) is None or isinstance(ask(h1, state, 1), CheatStart)


def test_bots_are_deterministic_per_seed():
    state = ENGINE.new_game(Settings(), 4, 8)
    for kind in ("random", "heuristic"):
        a, b = make_bot(kind, 0, 77), make_bot(kind, 0, 77)
        assert [ask(a, state, 0) for _ in range(5)] == [ask(b, state, 0) for _ in range(5)]
        assert [a.think_ms() for _ in range(5)] == [b.think_ms() for _ in range(5)]


# ----------------------------------------------------------------------------- a whole game
class MiniSession:
    """Plays a game like the session does: each bot decides ``think_ms`` after it was scheduled,
    actions are stamped with the clock, races are judged from bot presses, timers fire on time."""

    def __init__(self, kinds: list[str], seed: int, **settings: Any) -> None:
        self.n = len(kinds)
        self.state = ENGINE.new_game(ENGINE.settings_from_wire(settings), self.n, seed)
        self.bots = [make_bot(k, s, seed * 10 + s) for s, k in enumerate(kinds)]
        self.now = 0
        self.due = {s: self.bots[s].think_ms() for s in range(self.n)}
        self.timer_key: str | None = None
        self.deadline = 0
        self.tally: Counter[str] = Counter()

    def run(self, max_steps: int = 30_000) -> None:
        for _ in range(max_steps):
            if ENGINE.is_over(self.state):
                return
            self.step()
        raise AssertionError("the game did not end")

    def step(self) -> None:
        if self.state.race is not None and ENGINE.race(self.state) is not None:  # the race floor's turn
            return self.run_race(self.state.race.id)
        timer = ENGINE.timer(self.state)
        if timer is not None and timer.key != self.timer_key:
            self.timer_key, self.deadline = timer.key, self.now + timer.duration_ms
        seat = min(self.due, key=lambda s: (self.due[s], s))
        if timer is not None and self.deadline <= self.due[seat]:
            self.now = self.deadline
            self.timer_key = None
            return self.apply(None, timer.on_expiry)
        self.now = self.due[seat]
        action = self.bots[seat].choose(ENGINE.view(self.state, seat), ENGINE.legal_actions(self.state, seat))
        if action is not None:
            self.apply(seat, dataclasses.replace(action, t_ms=self.now) if hasattr(action, "t_ms") else action)
        self.due[seat] = self.now + self.bots[seat].think_ms()

    def run_race(self, race_id: int) -> None:
        start = self.now
        seats, times, cards = [], [], []
        for s in range(self.n):
            press = self.bots[s].race_press(ENGINE.view(self.state, s))
            if press is not None:
                seats.append(s)
                times.append(start + self.bots[s].think_ms())
                cards.append(press.card)
        self.now = max(times, default=start + self.state.settings.race_timeout_ms)
        self.timer_key = None
        self.tally["races"] += 1
        self.apply(None, RaceResult(race_id, start, tuple(seats), tuple(times), tuple(cards), (3,) * len(seats)))

    def apply(self, seat: int | None, action: Any) -> None:
        try:
            self.state, events = ENGINE.apply(self.state, seat, action)
        except IllegalAction:
            assert isinstance(action, CheatFinish), action
            self.tally["refused_finish"] += 1
            return
        self.tally[type(action).__name__] += 1
        for event in events:
            tag = ENGINE.events.tag_of(event)
            self.tally[tag] += 1
            if tag == "accused":
                self.tally["caught" if event.caught else "missed"] += 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_heuristic_bots_play_whole_games_with_cheats_accusations_and_races(seed):
    session = MiniSession(["heuristic", "heuristic", "random", "heuristic"][: 3 + seed % 2], seed)
    session.run()
    view = ENGINE.view(session.state, None)
    assert view["phase"] == "game_over" and view["winners"] and len(view["scores"]["rounds"]) == session.n
    tally = session.tally
    assert tally["CheatFinish"] >= 1 and tally["accused"] >= 1 and tally["races"] >= 1
    assert tally["refused_finish"] == 0  # bots hold at least cheat_ms


def test_heuristic_beats_random_on_average():
    totals: Counter[str] = Counter()
    for seed in range(4):
        session = MiniSession(["heuristic", "random", "heuristic", "random"], 100 + seed, hand_size=6)
        session.run()
        for s, kind in enumerate(["heuristic", "random", "heuristic", "random"]):
            totals[kind] += session.state.totals[s]
    assert totals["heuristic"] < totals["random"]
