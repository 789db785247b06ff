"""Companion tapes: the companion games' scripted evenings recorded from a REAL companion-mode
session on virtual time (``tapes.ScriptedTable`` with ``Mode.COMPANION``: the session picks the
family's companion variant). People act from their phones, the host acts as the table (a referee's
taps, ``table_action``), and Cheating Moth's races are slapped through the session's race floor.
Used by the companion scene tests and tools/screenshots.py; no snapshot is made by hand.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from game.render.tapes import Moment, ScriptedTable
from game.session.race_floor import PressSource
from game.session.snapshot import Mode

__all__ = ["collusion_moments", "moth_moments", "speakeasy_moments"]


def companion_table(family: str, language: str, n: int, *, seed: int, preset: str | None,
                    settings: dict[str, Any]) -> ScriptedTable:
    """A companion-mode table of ``n`` named people (the family's companion variant), started."""
    t = ScriptedTable(family, n, language, seed=seed, preset=preset, settings=settings, mode=Mode.COMPANION)
    assert t.session.table.game == f"{family}_companion", t.session.table.game
    t.start()
    return t


# ----------------------------------------------------------------------------------- Collusion
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


# ----------------------------------------------------------------------------------- Speakeasy
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


# ------------------------------------------------------------------------------ Cheating Moth
MOTH_SOURCES: dict[int, tuple[PressSource, float]] = {
    0: (PressSource.ARCADE, 1.0), 1: (PressSource.PHONE, 9.0), 2: (PressSource.ARCADE, 1.0),
    3: (PressSource.KEYBOARD, 17.0)}


class MothCompanionTable:
    """A Cheating Moth companion evening between four people with real cards: calls from the
    phones, slaps through the session's race floor (arcade, phone and keyboard), the host's taps."""

    def __init__(self, language: str) -> None:
        self.t = companion_table("cheating_moth", language, 4, seed=7, preset=None, settings={"rounds": 2})

    def call(self, kind: str) -> None:
        self.t.act(self.t.view["turn"], {"type": "call", "kind": kind})

    def false_start(self, seat: int) -> None:
        """A hand comes down just before the call is made: shown, not counted (M14)."""
        self.t.session.press(seat, self.t.vt.now_ms() - 140.0, PressSource.ARCADE, error_ms=1.0,
                             race=self.race_id)

    @property
    def race_id(self) -> int:
        race = self.t.view.get("race")
        assert race is not None, "no race is open"
        return int(race["id"])

    def slap(self, seat: int, after_ms: int) -> None:
        """``seat`` slaps ``after_ms`` after the race was armed (the clock runs to that moment)."""
        current = self.t.session.snapshot.race.current
        assert current is not None and current.armed_at_ms is not None
        at = current.armed_at_ms + after_ms
        self.t.vt.advance(max(0.0, at - self.t.vt.now_ms()))
        source, error = MOTH_SOURCES[seat]
        self.t.session.press(seat, at, source, error_ms=error, race=self.race_id)

    def decide(self) -> None:
        """Let the race floor judge (everyone eligible pressed, or the timeout)."""
        race = self.race_id
        self.t.vt.run_until(lambda: (self.t.view.get("last_race") or {}).get("race") == race, limit_ms=10_000)


def moth_moments(language: str = "en") -> Iterator[Moment]:
    """A turn, a Mosquito race with a false start, its verdict, a Beetle win undone, the round's
    scoring, a corrected pad and the final standings."""
    m = MothCompanionTable(language)
    t = m.t
    yield Moment("turn", (t.snapshot(),), play_s=1.0)
    before = t.snapshot()
    m.call("mosquito")
    m.false_start(3)
    m.slap(2, 212)
    t.wait(300)
    yield Moment("mosquito_race", (before, t.snapshot()), play_s=1.2)
    before = t.snapshot()
    m.slap(1, 268)
    m.slap(3, 431)
    m.decide()
    yield Moment("mosquito_slowest", (before, t.snapshot()))
    t.act(t.view["turn"], {"type": "end_turn"})
    m.call("beetle")
    before = t.snapshot()
    for seat, after in ((0, 188), (3, 204), (1, 330)):
        if seat in (t.session.snapshot.race.current.eligible if t.session.snapshot.race.current else ()):
            m.slap(seat, after)
    m.decide()
    yield Moment("beetle_fastest", (before, t.snapshot()))
    before = t.snapshot()
    t.act(t.view["last_race"]["winner"], {"type": "wrong_win"})
    yield Moment("beetle_undone", (before, t.snapshot()))
    t.act(None, {"type": "round_over", "out": 2})
    before = t.snapshot()
    t.act(0, {"type": "enter_points", "seat": 0, "points": 14})
    yield Moment("scoring", (before, t.snapshot()))
    t.act(1, {"type": "enter_points", "seat": 1, "points": 6})
    t.act(3, {"type": "enter_points", "seat": 3, "points": 23})
    t.act(None, {"type": "edit_points", "seat": 0, "round": 1, "points": 12})
    before = t.snapshot()
    t.act(1, {"type": "next_round"})
    yield Moment("round_two_corrected", (before, t.snapshot()))
    t.act(None, {"type": "round_over", "out": 0})
    for seat, points in ((1, 11), (2, 9), (3, 2)):
        t.act(seat, {"type": "enter_points", "seat": seat, "points": points})
    before = t.snapshot()
    t.act(None, {"type": "next_round"})
    yield Moment("final", (before, t.snapshot()))
