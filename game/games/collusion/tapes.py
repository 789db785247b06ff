"""Collusion's scripted moments (C1–C20), recorded from a real session (``game/tapes.py``)."""
from __future__ import annotations

from collections.abc import Iterator

from game.session.snapshot import TableSnapshot
from game.tapes import Moment, ScriptedTable, Tapes, lobby_snapshot


def _vote(t: ScriptedTable, seat: int, target: int | None) -> None:
    t.act(seat, {"type": "vote", "target": target} if target is not None else {"type": "ambush"})


def moments(language: str = "en", n: int = 7) -> Iterator[Moment]:
    """Every scene of a Collusion game, in play order: the first round is scripted so every kind of
    drama happens (an Ambush by the target, who then picks a victim; a suicide by Ambush; a missing
    vote; a vote outside the majority; a targeted death; a Final Showdown), the rest is played out."""
    lobby = lobby_snapshot(max(n, 8), language, game="collusion")
    yield Moment("01_lobby", (lobby,))
    yield Moment("02_settings", (lobby,), settings_open=True)
    t = ScriptedTable("collusion", n, language, preset="tabani")
    t.start()
    start = t.snapshot()
    # vote 1: 1, 2, 3 name 0 who ambushes; 4 names 5; 5 ambushes (not a target); 6 puts nothing down
    for seat, target in ((1, 0), (2, 0), (0, None), (4, 5), (5, None)):
        _vote(t, seat, target)
    t.act(1, {"type": "lock"})
    t.act(2, {"type": "lock"})
    t.wait(220_000)
    mid_vote = t.snapshot()
    yield Moment("03_table", (start, mid_vote), play_s=1.0)
    _vote(t, 3, 0)
    deadline = mid_vote.timer.deadline_ms if mid_vote.timer else t.vt.now_ms()
    t.wait(max(0, deadline - t.vt.now_ms() - 8_000))
    yield Moment("04_last_seconds", (mid_vote, t.snapshot()), play_s=1.0)
    before = t.snapshot()
    t.expire()
    reveal = t.snapshot()
    yield Moment("05_reveal", (before, reveal), play_s=2.6)
    yield Moment("06_ambush", (before, reveal), play_s=3.3)
    yield Moment("07_ambush_choice", (before, reveal), play_s=12.0)
    t.act(0, {"type": "ambush_pick", "victim": 2})
    resolved = t.snapshot()
    yield Moment("08_deaths", (reveal, resolved), play_s=2.4)
    # vote 2: 0 and 1 name 3, 3 names 0 -> 3 dies, 0 and 1 go to the Final Showdown
    for seat, target in ((0, 3), (1, 3), (3, 0)):
        _vote(t, seat, target)
    pre = t.snapshot()
    for seat in (0, 1, 3):
        t.act(seat, {"type": "lock"})
    showdown_start = t.snapshot()
    yield Moment("09_vote_deaths", (pre, showdown_start), play_s=5.0)
    t.act(0, {"type": "showdown", "choice": "split"})
    picked = t.snapshot()
    yield Moment("10_showdown", (showdown_start, picked), play_s=14.0)
    t.act(1, {"type": "showdown", "choice": "steal"})
    t.act(0, {"type": "lock"})
    pre = t.snapshot()
    t.act(1, {"type": "lock"})
    done = t.snapshot()
    yield Moment("11_showdown_reveal", (pre, done), play_s=3.6)
    yield Moment("12_round_end", (pre, done), play_s=7.0 + 3.0)
    t.play_to_the_end()
    yield Moment("13_game_over", (t.snapshot(),), play_s=0.5)


def busiest_reveal(n: int = 12, language: str = "en") -> tuple[TableSnapshot, TableSnapshot]:
    """(before, after) of a reveal at a full table: every seat votes, several tied targets, an Ambush."""
    t = ScriptedTable("collusion", n, language, preset="tabani")
    t.start()
    for seat in range(n):
        _vote(t, seat, None if seat in (0, 6) else 0 if seat % 2 else 6)
    before = t.snapshot()
    t.expire()
    return before, t.snapshot()


TAPES = Tapes(moments, readme={"01_lobby": "tv_lobby.png", "05_reveal": "tv_reveal.png"})
