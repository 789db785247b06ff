"""Cheating Moth's scripted moments (M1–M19), races through the session's race floor (``game/tapes.py``)."""
from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from game.rules.base import RulesError
from game.session.api import PressSource, Session
from game.session.snapshot import TablePhase, TableSnapshot
from game.tapes import Moment, PhoneShot, ScriptedTable, Tapes

MOTH_PRESS_SOURCES: dict[int, tuple[PressSource, float]] = {
    0: (PressSource.ARCADE, 0.4), 1: (PressSource.PHONE, 6.0), 2: (PressSource.KEYBOARD, 17.0)}


class MothTable(ScriptedTable):
    """Cheating Moth between three people (their moves and race presses made by bot brains; seat
    0 presses an arcade button, seat 1 a phone, seat 2 the keyboard, and seat 0 jumps the gun
    once) and the session's bots on the other seats."""

    def __init__(self, n: int = 4, language: str = "en", seed: int = 5, settings: dict[str, Any] | None = None) -> None:
        super().__init__("cheating_moth", n, language, seed=seed, people=3, bots=n - 3, settings=settings)
        self.jumped = False
        self._pressed_for: set[str] = set()

    def play(self, limit: int = 20_000) -> list[TableSnapshot]:
        """Every snapshot the session published from the deal to the final table."""
        self.start()
        for _ in range(limit):
            if self.over:
                return [s for s in self.recorder.snapshots if s.phase is not TablePhase.LOBBY]
            self._race_presses()
            self.play_turn()
        raise RuntimeError("the scripted Cheating Moth game did not end")

    def _race_presses(self) -> None:
        race = self.session.snapshot.race.current
        if race is None or race.key in self._pressed_for:
            return
        self._pressed_for.add(race.key)
        now = self.vt.now_ms()
        if race.mode == "slowest_loses" and not self.jumped and race.eligible:
            self.jumped = True  # one player slaps the pile just before it is time: a false start
            jumper = race.eligible[0]
            source, error = MOTH_PRESS_SOURCES.get(jumper, (PressSource.BOT, 0.0))
            self.session.press(jumper, now - 140.0, source, error_ms=error)
        for seat in range(3):
            press = self.brain(seat).race_press(self.session.update.seat(seat).view)
            if press is None:
                continue
            source, error = MOTH_PRESS_SOURCES[seat]
            at = now + max(1, int(self.brain(seat).think_ms()))
            self.vt.call_later(at - now, _pressing(self.session, seat, at, source, error, race.key))


def _pressing(session: Session, seat: int, at: float, source: PressSource, error: float, key: str) -> Callable[[], None]:
    def press() -> None:
        with contextlib.suppress(RulesError):  # the race was over before this hand came down
            session.press(seat, at, source, error_ms=error, race=key)

    return press


def _first(snaps: list[TableSnapshot], test: Callable[[TableSnapshot], bool], start: int = 1) -> int:
    """Index of the first snapshot (from ``start``) whose events or view pass ``test``."""
    for i in range(max(1, start), len(snaps)):
        if test(snaps[i]):
            return i
    raise LookupError("the scripted game has no such moment")


def _has(tag: str, **fields: Any) -> Callable[[TableSnapshot], bool]:
    return lambda snap: any(e.get("type") == tag and all(e.get(k) == v for k, v in fields.items()) for e in snap.events)


def _walks(cause: str) -> Callable[[TableSnapshot], bool]:
    """The guard passing to another seat (the bug walks); a round can start with the guard it ended on."""
    return lambda snap: any(e.get("type") == "guard_passed" and e.get("cause") == cause and e.get("old") != e.get("new")
                            for e in snap.events)


def _phase(name: str) -> Callable[[TableSnapshot], bool]:
    return lambda snap: (snap.public_view or {}).get("phase") == name


def _telling(flag: str) -> Callable[[TableSnapshot], bool]:
    return lambda snap: (snap.public_view or {}).get("phase") == "play" and any(
        s.get("tell") == flag for s in (snap.public_view or {}).get("seats", []))


def moth_moments(language: str = "en", n: int = 4, seed: int = 1) -> Iterator[Moment]:
    """Every scene of a Cheating Moth game (people and bots on virtual time, races through the
    session's race floor), in play order."""
    snaps = MothTable(n, language, seed).play()

    def at(name: str, test: Callable[[TableSnapshot], bool], play_s: float, start: int = 1) -> Moment:
        i = _first(snaps, test, start)
        return Moment(name, (snaps[i - 1], snaps[i]), play_s=play_s)

    yield Moment("m01_deal", (snaps[0],), play_s=0.5)
    yield at("m02_tell_trembles", _telling("tremble"), 0.6)
    yield at("m03_card_played", _has("played", kind="number", cause="M5"), 0.2)
    yield at("m04_caught", _has("accused", caught=True), 1.6)
    caught = _first(snaps, _has("accused", caught=True))
    yield at("m05_penalty_give", _phase("penalty_give"), 3.8, caught)  # after the accusation beat
    yield at("m06_bug_walks", _has("guard_passed", cause="M10"), 0.8, caught)
    yield at("m07_wrong_guess", _has("accused", caught=False), 1.6)
    yield at("m08_ant", _has("effect", kind="ant"), 0.9)
    yield at("m09_spider_give", _phase("spider_give"), 0.5)
    yield at("m10_spider_card", _has("card_given", cause="M13"), 0.6)
    yield at("m11_mosquito_race", _phase("mosquito_race"), 0.5)
    yield at("m12_mosquito_result", _has("race_decided", kind="mosquito"), 3.6)
    yield at("m13_mosquito_gives", _has("card_given", cause="M14"), 0.6)
    yield at("m14_beetle_race", _phase("beetle_race"), 0.5)
    yield at("m15_beetle_result", lambda s: _has("race_decided", kind="beetle")(s) and bool(
        (s.public_view or {}).get("last_race", {}).get("order")), 3.6)
    yield at("m16_round_over", _phase("round_over"), 2.0)
    yield at("m17_new_round", _walks("M18"), 1.2)
    yield Moment("m18_game_over", (snaps[-1],), play_s=0.5)
    yield _sleeve_moment(MothTable(n, language, seed, {"tell": "obvious"}))


def _sleeve_moment(table: MothTable) -> Moment:
    """The obvious tell (M11): a card sliding toward the cheater's sleeve."""
    snaps = table.play()
    i = _first(snaps, _telling("sleeve"))
    return Moment("m19_tell_sleeve", (snaps[i - 1], snaps[i]), play_s=0.4)


TAPES = Tapes(moth_moments, readme={"m12_mosquito_result": "tv_race_result.png"},
              phone=PhoneShot("phone_hand.png", seats=4, clicks=("hand-card-peek",), shown="hand-card-hide"))
