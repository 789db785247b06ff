"""C15: every cell of the Final Showdown table, played through the engine with a full pot of 4."""
from __future__ import annotations

import pytest

from game.games.collusion.rules import ENGINE, ShowdownChoice, showdown_payout

SPLIT, STEAL, TAKE = ShowdownChoice.SPLIT, ShowdownChoice.STEAL, ShowdownChoice.TAKE_ONE

TABLE = [
    (SPLIT, SPLIT, (2, 2)), (SPLIT, STEAL, (0, 4)), (SPLIT, TAKE, (3, 1)),
    (STEAL, SPLIT, (4, 0)), (STEAL, STEAL, (0, 0)), (STEAL, TAKE, (3, 1)),
    (TAKE, SPLIT, (1, 3)), (TAKE, STEAL, (1, 3)), (TAKE, TAKE, (1, 1)),
]


@pytest.mark.parametrize(("a", "b", "payout"), TABLE, ids=[f"{a.value}-{b.value}" for a, b, _ in TABLE])
def test_C15_showdown_table_row(ct, a, b, payout):
    assert showdown_payout(a, b, 4) == payout
    state = ct.with_pot(ct.new(5), (3, 4, 5, 5))
    state, _ = ct.to_showdown(state, 1, 3)
    before = [len(g) for g in state.gold]
    state, ev = ct.showdown(state, a, b)
    (reveal,) = ct.of(ev, "showdown_reveal")
    assert reveal["seats"] == [1, 3] and reveal["choices"] == [a.value, b.value]
    assert reveal["payout"] == list(payout) and reveal["pot_left"] == 4 - sum(payout)
    drawn = [e["seat"] for e in ct.of(ev, "bar_drawn")]
    assert drawn == ([0, 2, 4] if (a, b) == (STEAL, STEAL) else [])
    gained = [len(g) - n for g, n in zip(state.gold, before)]
    assert gained[1] == payout[0] and gained[3] == payout[1]
    assert ct.bars_in_play(state) == 80
    last = ENGINE.view(state, None)["last_showdown"]
    assert last["payout"] == list(payout) and last["choices"] == [a.value, b.value]
