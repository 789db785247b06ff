"""Property tests and a golden replay for the Collusion companion: random games where any seat
takes any legal action, the host corrects, undoes and confirms, and timers run out at random."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.games.collusion import rules as table
from game.games.collusion.companion import ENGINE, ConfirmTotals, EnterTotal, Phase, State, UndoEntry, total_range
from game.rules.base import RulesError
from game.rules.scorepad import replay_cells

GOLDEN = Path(__file__).with_name("golden") / "collusion_companion.json"
PROPS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MAX_STEPS = 3_000


def host_move(state: State, rng: random.Random) -> Any | None:
    """What a host might do in the review: correct a total, take a correction back, or confirm."""
    if state.phase is not Phase.REVIEW or state.count is None:
        return None
    roll = rng.random()
    if roll < 0.3:
        seat = rng.choice(state.count.seats)
        low, high = total_range(state, seat)
        return EnterTotal(rng.randint(low, high), seat=seat)
    return UndoEntry() if roll < 0.45 else ConfirmTotals()


def step(state: State, rng: random.Random) -> tuple[Any, Any] | None:
    """(seat, action) for one random legal move, a host move or a timer; None when stuck."""
    host = host_move(state, rng)
    if host is not None and rng.random() < 0.7:
        return None, host
    seats = [s for s in range(state.n) if ENGINE.legal_actions(state, s)]
    timer = ENGINE.timer(state)
    if timer is not None and (not seats or rng.random() < 0.05):
        return None, timer.on_expiry
    if not seats:
        return (None, host) if host is not None else None
    seat = rng.choice(seats)
    action = rng.choice(ENGINE.legal_actions(state, seat))
    if isinstance(action, EnterTotal):  # the legal form: fill in a number, now and then a bad one
        low, high = total_range(state, seat)
        action = EnterTotal(rng.randint(low, high) if rng.random() < 0.9 else high + 1)
    return seat, action


def play(seed: int, n: int, gold: str, target: int) -> tuple[State, list[tuple[Any, dict[str, Any]]], list[Any]]:
    rng = random.Random(seed)
    state = ENGINE.new_game(ENGINE.settings_from_wire({"gold": gold, "target_score": target}, "rod_ruang"), n, seed)
    moves: list[tuple[Any, dict[str, Any]]] = []
    events: list[Any] = []
    for _ in range(MAX_STEPS):
        if ENGINE.is_over(state):
            break
        move = step(state, rng)
        assert move is not None, f"stuck in {state.phase}"
        seat, action = move
        before = state
        try:
            state, ev = ENGINE.apply(state, seat, action)
        except RulesError:
            assert ENGINE.view(before, None) == ENGINE.view(state, None)  # refused: nothing changed
            continue
        moves.append((seat, ENGINE.action_to_wire(action)))
        events += ENGINE.events_to_wire(ev)
        check(before, state)
    return state, moves, events


def check(before: State, state: State) -> None:
    t = state.table
    assert sum(state.bars(s) for s in range(state.n)) + len(t.pot) + len(t.deck) == table.TOTAL_BARS
    cells = replay_cells(state.pad)
    assert state.pad.totals() == tuple(sum(p for (s, _), p in cells.items() if s == seat) for seat in range(state.n))
    public = ENGINE.view(state, None)
    assert "me" not in public
    for seat in range(state.n):
        view = ENGINE.view(state, seat)
        me = view.pop("me")
        assert view == public  # a seat sees the public table and only its own "me"
        if state.physical:
            assert me["gold"] is None and me["total"] is None
    if state.phase is Phase.COUNT:
        assert public["companion"]["count"]["totals"] is None  # secret until everyone entered


@PROPS
@given(seed=st.integers(0, 2**32), n=st.integers(3, 8), gold=st.sampled_from(["physical", "digital"]),
       target=st.integers(4, 30))
def test_companion_random_games_keep_the_invariants_and_end(seed: int, n: int, gold: str, target: int) -> None:
    state, moves, _ = play(seed, n, gold, target)
    assert ENGINE.is_over(state), f"{len(moves)} moves and not over"
    assert state.winners


@PROPS
@given(seed=st.integers(0, 2**32), n=st.integers(3, 6))
def test_companion_a_replay_of_the_moves_reproduces_every_event(seed: int, n: int) -> None:
    state, moves, events = play(seed, n, "physical", 12)
    assert replay(seed, n, moves) == events


def replay(seed: int, n: int, moves: list[tuple[Any, dict[str, Any]]], gold: str = "physical",
           target: int = 12) -> list[Any]:
    state = ENGINE.new_game(ENGINE.settings_from_wire({"gold": gold, "target_score": target}, "rod_ruang"), n, seed)
    events: list[Any] = []
    for seat, wire in moves:
        state, ev = ENGINE.apply(state, seat, ENGINE.action_from_wire(wire))
        events += ENGINE.events_to_wire(ev)
    return events


def test_companion_golden_replay() -> None:
    """A recorded physical-gold game (checks, counts, corrections, a tie-break) replays to the very
    same events. Regenerate only on a deliberate rules change: ``python3 tests/rules/test_collusion_companion_props.py``."""
    golden = json.loads(GOLDEN.read_text())
    moves = [(m["seat"], m["action"]) for m in golden["moves"]]
    assert replay(golden["seed"], golden["n"], moves, golden["gold"], golden["target"]) == golden["events"]
    kinds = {e["type"] for e in golden["events"]}
    assert {"check_started", "totals_revealed", "total_corrected", "tie_break", "game_over"} <= kinds


def write_golden(seed: int = 58, n: int = 5) -> None:
    _, moves, events = play(seed, n, "physical", 12)
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps({"seed": seed, "n": n, "gold": "physical", "target": 12,
                                  "moves": [{"seat": s, "action": a} for s, a in moves], "events": events},
                                 ensure_ascii=False, indent=0) + "\n")


if __name__ == "__main__":
    write_golden()
