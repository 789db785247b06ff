"""The Speakeasy companion's scripted evening, recorded from a real companion-mode session (``game/tapes.py``)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from game.tapes import Moment, ScriptedTable, Tapes, companion_table


def _speakeasy(language: str, n: int, **settings: Any) -> ScriptedTable:
    return companion_table("speakeasy", language, n, seed=4, preset=language,
                           settings={"clues_per_game": 2, **settings})


def _others(t: ScriptedTable) -> list[int]:
    return [s for s in range(t.n) if s != t.state.host]


def speakeasy_moments(language: str = "en", n: int = 5) -> Iterator[Moment]:
    """Every Speakeasy companion scene: a clue on the screen with phones (the countdown, the
    pointing, the identity, a corrected score), then a game with real identity cards, a clue from
    the real deck and fingers recorded by the host, to the final identities. ``n``: 3 to 12 people
    (the first two others point first; of the rest the last points at themselves)."""
    t = _speakeasy(language, n)
    yield Moment("01_choosing", (t.snapshot(),), play_s=0.5)
    a, b, *rest = _others(t)
    informant = next(s for s, who in enumerate(t.state.identities) if who is not None and who.value == "informant")
    subject = informant if informant != t.state.host else a
    t.act(t.state.host, {"type": "choose_subject", "subject": subject})
    counting = t.snapshot()
    t.wait(1_200)
    yield Moment("02_countdown", (counting, t.snapshot()), play_s=0.3)
    t.expire()
    pointing = t.snapshot()
    for seat in (a, b):
        t.act(seat, {"type": "point", "target": subject})
    yield Moment("03_pointing", (pointing, t.snapshot()), play_s=0.5)
    for seat in rest:
        t.act(seat, {"type": "point", "target": subject if seat != rest[-1] else seat})
    before = t.snapshot()
    if t.view["phase"] == "identity":
        yield Moment("04_identity", (before,), play_s=1.0)
        t.act(None, {"type": "reveal_identity", "identity": None, "seat": subject})
    yield Moment("05_scored", (before, t.snapshot()), play_s=1.0)
    corrected = rest[-1] if rest else b
    t.act(None, {"type": "edit_score", "seat": corrected, "clue": 1, "points": 1 - (t.state.pad.value(corrected, 1) or 0)})
    yield Moment("06_corrected", (t.snapshot(),), play_s=0.5)

    r = _speakeasy(language, n, identities="cards", pointing="hands", clue_source="cards")
    r.act(r.state.host, {"type": "choose_subject", "subject": _others(r)[0]})
    r.expire()
    host = r.state.host
    a, b, *rest = _others(r)
    r.act(host, {"type": "record_point", "seat": a, "target": b})
    r.act(host, {"type": "record_point", "seat": b, "target": a})
    yield Moment("07_recording", (r.snapshot(),), play_s=0.5)
    for i, seat in enumerate(rest):
        r.act(host, {"type": "record_point", "seat": seat, "target": rest[i - 1] if i else a})
    r.act(host, {"type": "pointing_done"})
    r.act(a, {"type": "reveal_identity", "identity": "citizen", "seat": None})
    r.act(r.state.next_host, {"type": "continue"})
    r.act(r.state.host, {"type": "choose_subject", "subject": _others(r)[1]})
    r.expire()
    host = r.state.host
    for seat in _others(r):
        r.act(host, {"type": "record_point", "seat": seat, "target": None})
    r.act(host, {"type": "pointing_done"})
    r.act(r.state.next_host, {"type": "continue"})
    yield Moment("08_final_identities", (r.snapshot(),), play_s=0.5)
    for seat in range(r.n):
        if not r.state.revealed[seat]:
            r.act(seat, {"type": "reveal_identity", "identity": "informant" if seat == host else "citizen", "seat": None})
    yield Moment("09_game_over", (r.snapshot(),), play_s=0.5)



TAPES = Tapes(speakeasy_moments)
