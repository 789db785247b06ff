"""Scripted Speakeasy companion games for screenshots and scene tests: a clue on the screen with
phones, a clue from the real deck with fingers recorded by the host, the reveal, the end."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from game.render.scripted import Moment, ScriptedTable

GAME = "speakeasy_companion"


def companion_table(language: str, n: int = 5, **overrides: Any) -> ScriptedTable:
    t = ScriptedTable(n, language, seed=4, preset=language, game=GAME)
    t.settings = t.engine.settings_from_wire({"clues_per_game": 2, **overrides}, language)
    t.state = t.engine.new_game(t.settings, n, t.seed)
    return t


def _others(t: ScriptedTable) -> list[int]:
    host = t.state.host
    return [s for s in range(t.n) if s != host]


def moments(language: str = "en") -> Iterator[Moment]:
    """Every companion scene: phones first, then real identity cards and fingers."""
    t = companion_table(language)
    start = t.snapshot()
    yield Moment("01_choosing", (start,), play_s=0.5)
    a, b, c, d = _others(t)
    informant = next(s for s in range(t.n) if t.state.identities[s] is not None and t.state.identities[s].value == "informant")
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
    for seat in (c, d):
        t.act(seat, {"type": "point", "target": subject if seat == c else seat})
    before = t.snapshot()
    if t.engine.view(t.state, None)["phase"] == "identity":
        yield Moment("04_identity", (before,), play_s=1.0)
        t.act(None, {"type": "reveal_identity", "identity": None, "seat": subject})
    yield Moment("05_scored", (before, t.snapshot()), play_s=1.0)
    t.act(None, {"type": "edit_score", "seat": d, "clue": 1, "points": 1})
    yield Moment("06_corrected", (t.snapshot(),), play_s=0.5)

    r = companion_table(language, identities="cards", pointing="hands", clue_source="cards")
    r.act(r.state.host, {"type": "choose_subject", "subject": _others(r)[0]})
    r.expire()
    host = r.state.host
    a, b, c, d = _others(r)
    r.act(host, {"type": "record_point", "seat": a, "target": b})
    r.act(host, {"type": "record_point", "seat": b, "target": a})
    yield Moment("07_recording", (r.snapshot(),), play_s=0.5)
    r.act(host, {"type": "record_point", "seat": c, "target": a})
    r.act(host, {"type": "record_point", "seat": d, "target": c})
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
