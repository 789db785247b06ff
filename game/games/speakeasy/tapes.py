"""Speakeasy's scripted moments (S1–S13), recorded from a real session (``game/tapes.py``)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from game.session.snapshot import TableSnapshot
from game.tapes import Moment, ScriptedTable, Tapes


def speakeasy_table(n: int = 6, language: str = "en", seed: int = 11, settings: dict[str, Any] | None = None) -> ScriptedTable:
    """A Speakeasy table whose built-in deck is the table's language, started."""
    t = ScriptedTable("speakeasy", n, language, seed=seed, preset=language, settings=settings)
    t.start()
    return t


def _with_identity(t: ScriptedTable, identity: str, exclude: set[int]) -> list[int]:
    """Seats whose phone shows ``identity`` (each player knows their own)."""
    return [s for s in range(t.n) if s not in exclude and t.me(s).get("identity") == identity]


def speakeasy_moments(language: str = "en", n: int = 6) -> Iterator[Moment]:
    """Every scene of a Speakeasy game, in play order: the first clue catches an Informant (several
    right pointers, a self-point, a wrong one, one who never points), the second finds a Citizen,
    nobody finds the third subject; the rest is played out, then the last secrets and the winner."""
    t = speakeasy_table(n, language)
    start = t.snapshot()
    yield Moment("s01_choosing", (start,), play_s=1.0)
    host = t.view["host"]
    subject = _with_identity(t, "informant", {host})[0]
    others = [s for s in range(n) if s not in (host, subject)]
    t.act(host, {"type": "choose_subject", "subject": subject})
    chosen = t.snapshot()
    for seat, target in ((others[0], subject), (subject, subject), (others[1], others[0])):
        t.act(seat, {"type": "point", "target": target})
    yield Moment("s02_pointing", (chosen, t.snapshot()), play_s=1.0)
    t.act(others[2], {"type": "point", "target": subject})
    timer = t.snapshot().timer
    t.wait(max(0, (timer.deadline_ms if timer else t.vt.now_ms()) - t.vt.now_ms() - 7_500))
    before = t.snapshot()
    yield Moment("s03_last_seconds", (chosen, before), play_s=0.6)
    t.expire()
    reveal = t.snapshot()
    for name, play in (("s04_reveal_arrows", 1.0), ("s05_reveal_subject", 1.9), ("s06_reveal_identity", 3.0),
                       ("s07_reveal_points", 3.8)):
        yield Moment(name, (before, reveal), play_s=play)
    yield Moment("s08_revealed", (before, reveal), play_s=6.0)
    yield from _second_and_third_clue(t)
    while True:
        prev = t.snapshot()
        if not t.play_turn():
            break
        if t.over:
            yield Moment("s11_final_secrets", (prev, t.snapshot()), play_s=2.8)
            break
    yield Moment("s12_game_over", (t.snapshot(),), play_s=0.5)


def _second_and_third_clue(t: ScriptedTable) -> Iterator[Moment]:
    """Clue 2: a Citizen is found (only they score). Clue 3: nobody finds the subject (the host scores)."""
    t.expire()  # the reveal pause ends: clue 2
    host = t.view["host"]
    subject = _with_identity(t, "citizen", {host})[0]
    t.act(host, {"type": "choose_subject", "subject": subject})
    pointers = [s for s in range(t.n) if s != host]
    right = next(s for s in pointers if s != subject)
    before = t.snapshot()
    for seat in pointers:  # one finds the Citizen; everyone else suspects the one who did
        t.act(seat, {"type": "point", "target": subject if seat == right else right})
    yield Moment("s09_citizen_found", (before, t.snapshot()), play_s=4.6)
    t.expire()  # clue 3
    host = t.view["host"]
    pointers = [s for s in range(t.n) if s != host]
    subject = pointers[-1]
    t.act(host, {"type": "choose_subject", "subject": subject})
    before = t.snapshot()
    for seat in pointers:
        t.act(seat, {"type": "point", "target": pointers[0] if seat != pointers[0] else pointers[1]})
    yield Moment("s10_nobody_found", (before, t.snapshot()), play_s=4.6)


def speakeasy_busiest_reveal(n: int = 12, language: str = "en") -> tuple[TableSnapshot, TableSnapshot]:
    """(before, after) of a Speakeasy reveal at a full table: every pointer points (a few at
    themselves), an Informant is caught and several seats score."""
    t = speakeasy_table(n, language)
    host = t.view["host"]
    subject = _with_identity(t, "informant", {host})[0]
    t.act(host, {"type": "choose_subject", "subject": subject})
    pointers = [s for s in range(n) if s != host]
    for seat in pointers[:-1]:
        t.act(seat, {"type": "point", "target": subject if seat % 3 else seat})
    before = t.snapshot()
    t.act(pointers[-1], {"type": "point", "target": subject})
    return before, t.snapshot()


TAPES = Tapes(speakeasy_moments)
