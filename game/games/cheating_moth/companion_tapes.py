"""The Cheating Moth companion's scripted evening, races slapped through the session's race floor (``game/tapes.py``)."""
from __future__ import annotations

from collections.abc import Iterator

from game.session.api import PressSource
from game.tapes import Moment, Tapes, companion_table

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


TAPES = Tapes(moth_moments)
