"""Helpers for the Collusion engine tests, offered as a fixture (``table``) so no test module
imports another."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from game.games.collusion.rules import (
    AMBUSH,
    ENGINE,
    LOCK,
    AmbushPick,
    Phase,
    ShowdownChoice,
    ShowdownPick,
    State,
    Vote,
    evolve,
)

A = "ambush"  # a plan entry: play the Ambush card


class Table:
    """Builds and drives Collusion states for tests."""

    engine = ENGINE
    A = A

    def new(self, n: int = 6, preset: str | None = None, seed: int = 7, **overrides: Any) -> State:
        settings = ENGINE.settings_from_wire(overrides, preset)
        return ENGINE.new_game(settings, n, seed)

    def with_gold(self, state: State, gold: Mapping[int, tuple[int, ...]]) -> State:
        """Give seats fixed bars, taking them out of the deck so 80 bars stay in play."""
        deck = list(state.deck)
        for seat, bars in gold.items():
            for value in state.gold[seat]:
                deck.append(value)
            for value in bars:
                deck.remove(value)
        new_gold = tuple(tuple(gold.get(s, state.gold[s])) for s in range(state.n))
        return evolve(state, gold=new_gold, deck=tuple(deck))

    def with_pot(self, state: State, pot: tuple[int, ...]) -> State:
        """Put exact bars in the pot (swapped with the deck, so 80 bars stay in play)."""
        deck = list(state.deck) + list(state.pot)
        for value in pot:
            deck.remove(value)
        return evolve(state, pot=tuple(pot), deck=tuple(deck))

    def wire(self, events: list[Any]) -> list[dict[str, Any]]:
        return ENGINE.events_to_wire(events)

    def of(self, events: list[Any], kind: str) -> list[dict[str, Any]]:
        return [e for e in self.wire(events) if e["type"] == kind]

    def deaths(self, events: list[Any]) -> dict[int, tuple[str, str]]:
        return {e["seat"]: (e["cause"], e["kind"]) for e in self.of(events, "died")}

    def vote(self, state: State, plan: Mapping[int, int | str | None]) -> tuple[State, list[Any]]:
        """Every living seat plays its plan entry (a target seat, ``A`` or ``None`` for no card);
        all who played lock; when someone played nothing the timer runs out."""
        events: list[Any] = []
        before = (state.round, state.vote)
        alive = [s for s in range(state.n) if state.alive[s]]
        assert sorted(plan) == alive, f"plan must cover exactly the living seats {alive}"
        for seat, card in plan.items():
            if card is None:
                continue
            action = AMBUSH if card == A else Vote(int(card))
            state, ev = ENGINE.apply(state, seat, action)
            events += ev
        for seat, card in plan.items():
            if card is not None:
                state, ev = ENGINE.apply(state, seat, LOCK)
                events += ev
        still = state.phase is Phase.VOTE and (state.round, state.vote) == before
        if still and any(card is None for card in plan.values()):
            state, ev = self.expire(state)
            events += ev
        return state, events

    def expire(self, state: State) -> tuple[State, list[Any]]:
        timer = ENGINE.timer(state)
        assert timer is not None
        return ENGINE.apply(state, None, timer.on_expiry)

    def pick(self, state: State, by: int, victim: int) -> tuple[State, list[Any]]:
        return ENGINE.apply(state, by, AmbushPick(victim))

    def showdown(self, state: State, a: ShowdownChoice | None, b: ShowdownChoice | None
                 ) -> tuple[State, list[Any]]:
        """The two survivors pick (``None``: picks nothing) and lock; the timer runs out if needed."""
        assert state.phase is Phase.SHOWDOWN and state.showdown is not None
        events: list[Any] = []
        seats, round_before = state.showdown.seats, state.round
        for seat, choice in zip(seats, (a, b)):
            if choice is not None:
                state, ev = ENGINE.apply(state, seat, ShowdownPick(choice))
                events += ev
        for seat, choice in zip(seats, (a, b)):
            if choice is not None:
                state, ev = ENGINE.apply(state, seat, LOCK)
                events += ev
        if state.phase is Phase.SHOWDOWN and state.round == round_before:
            state, ev = self.expire(state)
            events += ev
        return state, events

    def to_showdown(self, state: State, a: int, b: int) -> tuple[State, list[Any]]:
        """One vote that leaves exactly ``a`` and ``b`` alive: both name a third seat ``c`` (the
        target, who names ``a``); everyone else plays nothing and dies by C9."""
        alive = [s for s in range(state.n) if state.alive[s]]
        c = next(s for s in alive if s not in (a, b))
        plan: dict[int, int | str | None] = dict.fromkeys(alive)
        plan.update({a: c, b: c, c: a})
        return self.vote(state, plan)

    def totals(self, state: State) -> tuple[int, ...]:
        return state.totals

    def bars_in_play(self, state: State) -> int:
        return len(state.deck) + len(state.pot) + sum(len(g) for g in state.gold)


@pytest.fixture
def ct() -> Table:
    return Table()
