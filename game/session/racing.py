"""Live races at the table: the bridge between the engine's race phases and the race judge.

The session (the one writer) owns one :class:`RaceDesk`. When the engine's public view shows a
race (Cheating Moth's ``race``: Mosquito M14, Beetle M15), the session arms the desk with the
seats that may press; every press from any source (phone, arcade button, host keyboard, bot)
goes through :meth:`RaceDesk.press` into one :class:`~game.session.races.RaceJudge`; when the
judge says the race is complete (or the race timer runs out) :meth:`RaceDesk.finish` gives the
engine's ``race_result`` action in wire form (parallel lists, whole milliseconds on the session
clock, each press with its own error bound) and what the big screen shows about it.

Pure: no clock, no asyncio. Times come in as arguments (session clock, ms).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any, Iterable

from .races import Press, PressSource, PressVerdict, RaceError, RaceJudge, RaceMode

SETTLE_MS = 150.0  # after the deciding press, wait this long for a more precise press in flight
KEYBOARD_ERROR_MS = 17.0  # a host key is stamped when the renderer sees it: about one frame
UNSYNCED_PHONE_ERROR_MS = 250.0  # a phone without a clock estimate: stamped on arrival


class RaceKind(enum.Enum):
    MOSQUITO = "mosquito"  # everybody presses, the slowest loses (M14): RaceMode.ALL
    BEETLE = "beetle"  # the fastest holder of the number wins (M15): RaceMode.FIRST

    @property
    def mode(self) -> RaceMode:
        return RaceMode.ALL if self is RaceKind.MOSQUITO else RaceMode.FIRST


class RaceSetupError(ValueError):
    """The engine's race description cannot be armed (unknown kind, bad fields)."""


@dataclass(frozen=True, slots=True)
class Counted:
    """What the desk keeps about a seat's counted press besides the judge's time."""

    error_ms: float
    card: int | None


@dataclass(slots=True)
class LiveRace:
    race: int  # the engine's race number
    kind: RaceKind
    armed_at_ms: float
    timeout_ms: float
    eligible: frozenset[int]  # empty: nobody can enter (a Beetle nobody holds); the timer ends it
    counted: dict[int, Counted] = field(default_factory=dict)
    pressed: set[int] = field(default_factory=set)

    @property
    def judge_id(self) -> str:
        return race_key(self.race)


def race_key(race: int) -> str:
    """The judge's and the arcade board's id of engine race ``race``."""
    return f"race-{race}"


def parse_race(view_race: Any) -> tuple[int, RaceKind, float, tuple[int, ...]]:
    """``(race, kind, timeout_ms, eligible)`` from a public view's ``race`` entry."""
    if not isinstance(view_race, dict):
        raise RaceSetupError("a race must be an object")
    try:
        race, kind = view_race["id"], RaceKind(view_race["kind"])
        timeout, eligible = view_race["timeout_ms"], tuple(view_race["eligible"])
    except (KeyError, TypeError, ValueError) as exc:
        raise RaceSetupError(f"bad race description {view_race!r}: {exc}") from None
    if not isinstance(race, int) or not isinstance(timeout, (int, float)) or timeout <= 0:
        raise RaceSetupError(f"bad race description {view_race!r}")
    return race, kind, float(timeout), eligible


class RaceDesk:
    """One race at a time (see the module docstring)."""

    def __init__(self, *, settle_ms: float = SETTLE_MS) -> None:
        self._judge = RaceJudge()
        self._settle_ms = settle_ms
        self.current: LiveRace | None = None
        self.last: dict[str, Any] | None = None  # the latest outcome, RaceOutcome.to_wire() form

    @property
    def armed(self) -> bool:
        return self.current is not None

    def arm(self, race: int, kind: RaceKind, eligible: Iterable[int], armed_at_ms: float, timeout_ms: float) -> LiveRace:
        seats = frozenset(eligible)
        live = LiveRace(race, kind, float(armed_at_ms), float(timeout_ms), seats)
        if seats:
            self._judge.arm(live.judge_id, seats, armed_at_ms, timeout_ms, mode=kind.mode, settle_ms=self._settle_ms)
        else:
            self._judge.disarm()
        self.current = live
        return live

    def disarm(self) -> None:
        self._judge.disarm()
        self.current = None

    def press(self, press: Press, card: int | None = None) -> PressVerdict:
        """Hand a press to the judge; remember its error bound and card when it counts."""
        live = self.current
        if live is not None and not live.eligible:
            return PressVerdict.NOT_ELIGIBLE
        verdict = self._judge.press(press)
        if verdict is PressVerdict.ACCEPTED and live is not None:
            live.counted[press.seat] = Counted(press.error_ms, card)
            live.pressed.add(press.seat)
        return verdict

    def complete(self, now_ms: float) -> bool:
        live = self.current
        if live is None:
            return False
        if not live.eligible:
            return False  # only the race timer ends a race nobody can enter
        return self._judge.is_complete(now_ms)

    def finish(self, now_ms: float) -> dict[str, Any]:
        """The engine's ``race_result`` (wire form) for the armed race; the desk is disarmed."""
        live = self.current
        if live is None:
            raise RaceError("no race is armed")
        seats: list[int] = []
        times: list[int] = []
        cards: list[int | None] = []
        errors: list[int] = []
        if live.eligible:
            outcome = self._judge.result(now_ms)
            self.last = outcome.to_wire()
            for seat in outcome.order:
                counted = live.counted.get(seat, Counted(outcome.error_bound_ms, None))
                seats.append(seat)
                times.append(round(outcome.times_ms[seat]))
                cards.append(counted.card)
                errors.append(math.ceil(counted.error_ms))
        else:
            self.last = {"race": live.judge_id, "mode": live.kind.mode.value, "order": [], "reaction_ms": [],
                         "margins_ms": [], "sources": [], "error_bound_ms": 0, "ties": [], "false_starts": [],
                         "missing": [], "timed_out": True}
        self.disarm()
        return {"type": "race_result", "race": live.race, "start_ms": round(live.armed_at_ms), "seats": seats,
                "times_ms": times, "cards": cards, "error_ms": errors}

    def false_starts(self) -> list[dict[str, Any]]:
        """False starts of the armed race so far (for the big screen)."""
        live = self.current
        if live is None or not live.eligible:
            return []
        return self._judge.result().to_wire()["false_starts"]

    def to_json(self) -> dict[str, Any]:
        """``extras["race"]``: the armed race (or null) and the latest outcome."""
        live = self.current
        current = None
        if live is not None:
            pressed = sorted(live.pressed) if live.kind is RaceKind.MOSQUITO else []  # Beetle: holders stay secret
            current = {"race": live.race, "kind": live.kind.value, "armed_at_ms": round(live.armed_at_ms),
                       "timeout_ms": round(live.timeout_ms), "pressed": pressed,
                       "false_starts": self.false_starts()}
        return {"current": current, "last": self.last}


def press_of(seat: int, t_ms: float, source: PressSource, error_ms: float, race: int | None) -> Press:
    """A judge :class:`Press` for engine race ``race`` (``None``: whichever race is armed)."""
    return Press(seat, float(t_ms), source, float(error_ms), race_key(race) if race is not None else None)
