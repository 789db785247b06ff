"""The Collusion companion's scripted evening, recorded from a real companion-mode session (``game/tapes.py``)."""
from __future__ import annotations

from collections.abc import Iterator

from game.tapes import Moment, ScriptedTable, Tapes, companion_table


def _vote(t: ScriptedTable, plan: dict[int, int | str]) -> None:
    for seat, card in plan.items():
        t.act(seat, {"type": "ambush"} if card == "A" else {"type": "vote", "target": card}, think_ms=1_500)
    for seat in plan:
        if t.view["phase"] == "vote":
            t.act(seat, {"type": "lock"}, think_ms=300)


def collusion_moments(language: str = "en") -> Iterator[Moment]:
    """Every Collusion companion scene of a five-player game with real gold, in play order: the
    votes on the phones, an Ambush, the C17 check, a showdown split, the secret count, a correction."""
    t = companion_table("collusion", language, 5, seed=3, preset="rod_ruang",
                        settings={"gold": "physical", "target_score": 14})
    start = t.snapshot()
    t.act(0, {"type": "vote", "target": 1})
    t.act(1, {"type": "vote", "target": 2})
    t.act(0, {"type": "lock"})
    t.act(1, {"type": "lock"})
    t.wait(30_000)
    yield Moment("01_vote", (start, t.snapshot()), play_s=0.6)
    before = t.snapshot()
    _vote(t, {2: 0, 3: 4, 4: "A"})  # a four-way tie: seats 0–3 die (C9/C10), seat 4 ambushes seat 3
    reveal = t.snapshot()
    yield Moment("02_reveal_ambush", (before, reveal), play_s=3.2)
    t.act(4, {"type": "ambush_pick", "victim": 3})
    check = t.snapshot()
    yield Moment("03_deaths_pot", (reveal, check), play_s=2.6)
    for seat in (0, 2, 3):
        t.act(seat, {"type": "reached", "reached": False}, think_ms=4_000)
    yield Moment("04_check", (check, t.snapshot()), play_s=12.0)
    t.act(1, {"type": "reached", "reached": False})
    t.act(4, {"type": "reached", "reached": False})
    # round 2: 0 and 1 tie as targets, 2 and 3 split the pot in the showdown
    _vote(t, {0: 1, 1: 0, 2: 1, 3: 0, 4: 2})
    yield Moment("05_showdown", (t.snapshot(),), play_s=0.6)
    for seat in (2, 3):
        t.act(seat, {"type": "showdown", "choice": "split"})
    t.act(2, {"type": "lock"})
    pre = t.snapshot()
    t.act(3, {"type": "lock"})
    yield Moment("06_showdown_paid", (pre, t.snapshot()), play_s=4.0)
    for seat in range(5):
        t.act(seat, {"type": "reached", "reached": seat in (2, 4)})
    counting = t.snapshot()
    for seat, total in ((0, 0), (2, 8), (4, 17)):
        t.act(seat, {"type": "enter_total", "points": total}, think_ms=6_000)
    yield Moment("07_count", (counting, t.snapshot()), play_s=6.0)
    t.act(1, {"type": "enter_total", "points": 0})
    t.act(None, {"type": "enter_total", "points": 10, "seat": 3})  # the host for a player without a phone
    revealed = t.snapshot()
    t.act(None, {"type": "enter_total", "points": 9, "seat": 2})  # seat 2 miscounted: the host corrects
    yield Moment("08_review_corrected", (revealed, t.snapshot()), play_s=1.5)
    t.act(None, {"type": "confirm_totals"})
    yield Moment("09_game_over", (t.snapshot(),), play_s=0.5)


TAPES = Tapes(collusion_moments)
