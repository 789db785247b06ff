"""A fast model of one Cheating Moth round for the ``search`` bot's rollouts.

The engine (:mod:`game.games.cheating_moth.rules`) is exact but builds a new immutable state per action;
a rollout needs thousands of actions per decision. :class:`RoundModel` keeps the round in plain
lists and plays the turn-taking rules — M5 (one up or down, wrapping), M6 (draw, refill from the
discard), M7 (moths: only the guard plays them, never given), M12–M15 (Ant, Spider, Mosquito,
Beetle) and M17 (the round ends when a hand is empty, before the card fires) — with one fixed
policy for everybody: shed the most valuable playable card (:func:`card_value`), give the
costliest non-moth card, races won or lost at random. Nobody cheats or accuses in a rollout:
those are the searching bot's own candidates, settled before the rollout starts.
"""
from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.bots.search import softmax_share
from game.games.cheating_moth.rules import PENALTY, Card, Kind, Settings, build_deck

TEMPO = 1.5  # what one card fewer to shed is worth, in penalty points
SHARPNESS = 0.2  # how sharply a point lead turns into "ahead" (softmax over the table's points)


def card_value(card: Card) -> float:
    """What shedding ``card`` is worth: its penalty (M17), and a Spider or a Mosquito sheds a
    second card (the heuristic bot's own values)."""
    return PENALTY[card.kind] + (2.0 if card.kind in (Kind.SPIDER, Kind.MOSQUITO) else 0.0)


@dataclass(frozen=True, slots=True)
class CardTable:
    """Per card id: number, kind, penalty (M17) and shedding value, for one deck (settings)."""

    number: tuple[int, ...]
    kind: tuple[Kind, ...]
    penalty: tuple[int, ...]
    value: tuple[float, ...]

    @classmethod
    def of(cls, settings: Settings) -> CardTable:
        deck = build_deck(settings)
        return cls(tuple(c.number for c in deck), tuple(c.kind for c in deck),
                   tuple(PENALTY[c.kind] for c in deck), tuple(card_value(c) for c in deck))


_TABLES: dict[Settings, CardTable] = {}


def card_table(settings: Settings) -> CardTable:
    if settings not in _TABLES:
        _TABLES[settings] = CardTable.of(settings)
    return _TABLES[settings]


def fits(a: int, b: int) -> bool:
    """M5: one higher or lower, wrapping 5 to 1."""
    return (a - b) % 5 in (1, 4)


class RoundModel:
    """One round in plain lists: hands, the draw pile (the last card on top), the discard under the top,
    the guard and whose turn it is. ``out`` is the seat that emptied its hand, once one has."""

    __slots__ = ("cards", "n", "guard", "turn", "top", "hands", "draw", "under", "out", "rng")

    def __init__(self, cards: CardTable, guard: int, turn: int, top: int, hands: Sequence[Sequence[int]],
                 draw: Sequence[int], under: Sequence[int], rng: random.Random) -> None:
        self.cards, self.n, self.guard, self.turn, self.top = cards, len(hands), guard, turn, top
        self.hands = [list(h) for h in hands]
        self.draw, self.under = list(draw), list(under)
        self.out: int | None = None
        self.rng = rng

    def copy(self, rng: random.Random) -> RoundModel:
        return RoundModel(self.cards, self.guard, self.turn, self.top, self.hands, self.draw, self.under, rng)

    # -- the rules
    def playable(self, seat: int) -> list[int]:
        """M5/M7: the cards of ``seat`` that fit the top (moths only for the guard)."""
        top, number, kind = self.cards.number[self.top], self.cards.number, self.cards.kind
        guard = seat == self.guard
        return [c for c in self.hands[seat] if fits(number[c], top) and (guard or kind[c] is not Kind.MOTH)]

    def draw_one(self, seat: int) -> None:
        """M6: the top of the draw pile; an empty pile is refilled from the discard but its top."""
        if not self.draw and self.under:
            self.draw, self.under = self.under, []
            self.rng.shuffle(self.draw)
        if self.draw:
            self.hands[seat].append(self.draw.pop())

    def take_turn_draw(self, seat: int) -> None:
        self.draw_one(seat)
        self.turn = (seat + 1) % self.n

    def play(self, seat: int, card: int) -> None:
        """M5: the card goes on the pile; M17: an empty hand ends the round before it fires."""
        self.hands[seat].remove(card)
        self.under.append(self.top)
        self.top = card
        if not self.hands[seat]:
            self.out = seat
            return
        kind = self.cards.kind[card]
        nxt = (seat + 1) % self.n
        if kind is Kind.ANT:  # M12
            for k in range(1, self.n):
                self.draw_one((seat + k) % self.n)
        elif kind is Kind.SPIDER:  # M13
            to = min((s for s in range(self.n) if s != seat), key=lambda s: (len(self.hands[s]), self.rng.random()))
            self.give(seat, to)
        elif kind is Kind.MOSQUITO:  # M14
            slowest = self.rng.choice([s for s in range(self.n) if s != seat])
            for giver in range(self.n):
                if giver != slowest and self.out is None:
                    self.give(giver, slowest)
        elif kind is Kind.BEETLE:  # M15
            nxt = self.beetle_race(seat, self.cards.number[card])
        self.turn = nxt

    def give(self, giver: int, to: int) -> None:
        """M13/M14: the giver's costliest non-moth card (M7: a hand of moths gives nothing)."""
        hand, penalty, kind = self.hands[giver], self.cards.penalty, self.cards.kind
        options = [c for c in hand if kind[c] is not Kind.MOTH]
        if not options:
            return
        card = max(options, key=lambda c: penalty[c])
        hand.remove(card)
        self.hands[to].append(card)
        if not hand:
            self.out = giver

    def beetle_race(self, player: int, number: int) -> int:
        """M15: a random holder of a plain card of the number lays it; play goes on after them."""
        holders = [(s, c) for s in range(self.n) for c in self.hands[s]
                   if self.cards.kind[c] is Kind.NUMBER and self.cards.number[c] == number]
        if not holders:
            return (player + 1) % self.n
        seat, card = holders[self.rng.randrange(len(holders))]
        self.hands[seat].remove(card)
        self.under.append(self.top)
        self.top = card
        if not self.hands[seat]:
            self.out = seat
        return (seat + 1) % self.n

    # -- the policy
    def step(self) -> None:
        """The turn's player sheds its most valuable playable card (ties at random) or draws."""
        seat = self.turn
        options = self.playable(seat)
        if not options:
            self.take_turn_draw(seat)
            return
        value, rnd = self.cards.value, self.rng.random
        self.play(seat, max(options, key=lambda c: (value[c], rnd())))

    def run(self, max_turns: int) -> None:
        for _ in range(max_turns):
            if self.out is not None:
                return
            self.step()

    def points(self) -> list[float]:
        """M17's penalty points if the round ended, else each hand's penalty plus :data:`TEMPO` per card."""
        penalty = self.cards.penalty
        if self.out is not None:
            return [0.0 if s == self.out else float(sum(penalty[c] for c in h)) for s, h in enumerate(self.hands)]
        return [sum(penalty[c] for c in h) + TEMPO * len(h) for h in self.hands]

    def share(self, seat: int) -> float:
        """How far ahead ``seat`` ends, in [0, 1]: its softmax share of the table's negated points."""
        return softmax_share([-p for p in self.points()], seat, SHARPNESS)


def deal_hidden(view: Mapping[str, Any], me: int, sizes: Sequence[int], cards: CardTable,
                rng: random.Random) -> RoundModel:
    """A round consistent with ``view``: the cards this seat has not seen dealt at random to the
    other hands (``sizes``), the draw pile and the discard under the top."""
    mine = [c["id"] for c in view["me"]["hand"]]
    top = view["top"]["id"]
    seen = set(mine)
    seen.add(top)
    unseen = [c for c in range(len(cards.number)) if c not in seen]
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    for s, size in enumerate(sizes):
        if s == me:
            hands.append(mine)
        else:
            hands.append(unseen[:size])
            del unseen[:size]
    draw_size = view["draw_size"]
    return RoundModel(cards, view["guard"], view["turn"] if view["turn"] is not None else me, top, hands,
                      unseen[:draw_size], unseen[draw_size: draw_size + view["discard_size"] - 1], rng)
