"""The race judge: one interface for every press source (arcade buttons, phones, host keyboard).

Cheating Moth's Mosquito (M14, slowest loses) and Beetle (M15, fastest wins) races are judged here,
by time of press (M16). The judge is pure and clock-free: every time is passed in, on the session
clock in milliseconds (floats, so arcade presses keep their sub-millisecond device precision).

Use from the session (the one writer)::

    judge = RaceJudge()
    judge.arm("moth-7", eligible_seats={1, 2, 3}, armed_at_ms=now, timeout_ms=5000,
              mode=RaceMode.ALL)                      # Mosquito; RaceMode.FIRST for a Beetle
    verdict = judge.press(Press(seat=2, t_ms=now + 312.4, source=PressSource.ARCADE, error_ms=0.3))
    ...
    if judge.is_complete(now_ms):                     # call on every press and on a timer tick
        outcome = judge.result()                      # -> RaceOutcome (order, times, margins, ...)
        judge.disarm()

Rules the judge applies:

* **Sources.** :class:`PressSource` ranks ARCADE > PHONE > KEYBOARD by precision (M16) (BOT for
  bot seats). When a
  seat has valid presses from several sources, the most precise source's press is used, even if a
  less precise one came first. Within one source the *earliest* press counts (by its time, not by
  when it arrived: the bridge and phones may deliver out of order).
* **Verdicts.** Every press gets a :class:`PressVerdict`: ``ACCEPTED`` (it is now the seat's
  counted press), ``DUPLICATE`` (the seat already has an earlier or more precise press),
  ``FALSE_START`` (stamped before ``armed_at_ms``: recorded, shown, ignored; the seat may still
  press validly), ``NOT_ELIGIBLE``, ``NOT_ARMED`` (no race running, or another race's id), and
  ``TOO_LATE`` (stamped at or after the timeout, or after a FIRST race was decided).
* **Early presses.** Presses that arrive while nothing is armed are kept briefly: when the next race
  is armed, those of eligible seats within ``false_start_window_ms`` before ``armed_at_ms`` are
  listed as that race's false starts (a player who jumps the gun shortly before the lamps light).
* **Completion.** ``RaceMode.ALL``: complete when every eligible seat has a press and
  ``settle_ms`` has passed since the latest one (so a more precise press still in flight can
  replace a phone tap), or at the timeout; seats without a press are ``missing`` (M14 counts them
  as slowest). ``RaceMode.FIRST``: complete ``settle_ms`` after the earliest press (a faster press
  arriving late over Wi-Fi still wins), when every eligible seat has pressed, or at the timeout.
* **Result.** :class:`RaceOutcome` gives the order (fastest first), each seat's time, the margins
  between consecutive places, the source used per seat, the error bound (largest ``error_ms``
  among the counted presses), groups of seats too close to call (``ties``: consecutive places
  whose gap is within the sum of their errors — or of their resolutions when both were stamped
  by the same ``clock``, e.g. one arcade board; the engine breaks ties by its seeded RNG),
  false starts and missing seats. ``to_wire()`` gives the JSON the result screen shows.

Errors: bad arguments raise :class:`RaceError` (a ``ValueError``) and change nothing.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


class RaceError(ValueError):
    """A call the judge refuses (bad arguments, no race); the judge is unchanged."""


class PressSource(enum.IntEnum):
    """Where a press came from; a higher value is more precise (M16). ``BOT``: a bot seat's
    simulated press (exact, and a bot seat has no other source)."""

    BOT = 0
    KEYBOARD = 1
    PHONE = 2
    ARCADE = 3

    @property
    def wire(self) -> str:
        return self.name.lower()


class RaceMode(enum.Enum):
    ALL = "all"  # everybody presses; the slowest matters (Mosquito, M14)
    FIRST = "first"  # the fastest matters (Beetle, M15)


class PressVerdict(enum.Enum):
    ACCEPTED = "accepted"
    DUPLICATE = "duplicate"
    FALSE_START = "false_start"
    NOT_ELIGIBLE = "not_eligible"
    NOT_ARMED = "not_armed"
    TOO_LATE = "too_late"


@dataclass(frozen=True, slots=True)
class Press:
    """One press, already on the session clock. ``error_ms``: how far ``t_ms`` may be off the true
    moment of the press (arcade: clock-sync uncertainty; phone: its sync error; keyboard: a frame).
    ``race_id``: the race it was meant for, when the source knows (``None``: the armed one)."""

    seat: int
    t_ms: float
    source: PressSource
    error_ms: float = 0.0
    race_id: str | None = None
    clock: str = ""  # presses stamped by one shared clock (one arcade board, one clock map) ...
    resolution_ms: float = 0.0  # ... compare to within their resolution, not their error_ms

    def __post_init__(self) -> None:
        if not isinstance(self.seat, int) or isinstance(self.seat, bool) or self.seat < 0:
            raise RaceError(f"bad seat {self.seat!r}")
        if not isinstance(self.source, PressSource):
            raise RaceError(f"bad source {self.source!r}")
        if not _finite(self.t_ms) or not _finite(self.error_ms) or self.error_ms < 0:
            raise RaceError("press time and error must be finite, error >= 0")
        if not _finite(self.resolution_ms) or self.resolution_ms < 0 or not isinstance(self.clock, str):
            raise RaceError("bad clock or resolution")

    def too_close(self, other: Press) -> bool:
        """Can the order of these two presses not be told apart?"""
        gap = abs(other.t_ms - self.t_ms)
        if self.clock and self.clock == other.clock:
            return gap <= self.resolution_ms + other.resolution_ms
        return gap <= self.error_ms + other.error_ms


@dataclass(frozen=True, slots=True)
class FalseStart:
    seat: int
    t_ms: float
    source: PressSource
    early_by_ms: float  # how long before the race was armed


@dataclass(frozen=True, slots=True)
class RaceOutcome:
    race_id: str
    mode: RaceMode
    armed_at_ms: float
    order: tuple[int, ...]  # seats that pressed, fastest first
    times_ms: dict[int, float]  # seat -> counted press time (session clock)
    margins_ms: tuple[float, ...]  # margins_ms[i] = time of order[i + 1] - time of order[i]
    source_per_seat: dict[int, PressSource]
    error_bound_ms: float
    ties: tuple[tuple[int, ...], ...]  # consecutive places too close to call
    false_starts: tuple[FalseStart, ...]
    missing: tuple[int, ...]  # eligible seats with no valid press (sorted)
    timed_out: bool

    @property
    def winner(self) -> int | None:
        return self.order[0] if self.order else None

    def reaction_ms(self, seat: int) -> float | None:
        t = self.times_ms.get(seat)
        return None if t is None else t - self.armed_at_ms

    def to_wire(self) -> dict[str, Any]:
        return {
            "race": self.race_id,
            "mode": self.mode.value,
            "order": list(self.order),
            "reaction_ms": [round(self.times_ms[s] - self.armed_at_ms, 3) for s in self.order],
            "margins_ms": [round(m, 3) for m in self.margins_ms],
            "sources": [self.source_per_seat[s].wire for s in self.order],
            "error_bound_ms": round(self.error_bound_ms, 3),
            "ties": [list(group) for group in self.ties],
            "false_starts": [
                {"seat": f.seat, "early_by_ms": round(f.early_by_ms, 3), "source": f.source.wire}
                for f in self.false_starts
            ],
            "missing": list(self.missing),
            "timed_out": self.timed_out,
        }


def _finite(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


@dataclass(slots=True)
class _Race:
    race_id: str
    eligible: frozenset[int]
    armed_at_ms: float
    deadline_ms: float
    mode: RaceMode
    settle_ms: float
    best: dict[int, Press] = field(default_factory=dict)  # seat -> counted press
    false_starts: list[FalseStart] = field(default_factory=list)

    def earliest(self) -> float | None:
        return min((p.t_ms for p in self.best.values()), default=None)

    def latest(self) -> float | None:
        return max((p.t_ms for p in self.best.values()), default=None)


def _better(new: Press, old: Press | None) -> bool:
    """Is ``new`` the press to count instead of ``old``? More precise source first, then earlier."""
    if old is None:
        return True
    if new.source != old.source:
        return new.source > old.source
    return new.t_ms < old.t_ms


class RaceJudge:
    """Judges one race at a time (see the module docstring). Not thread-safe: the session's loop
    is its only caller."""

    def __init__(self, *, false_start_window_ms: float = 1000.0, early_keep: int = 64) -> None:
        if not _finite(false_start_window_ms) or false_start_window_ms < 0:
            raise RaceError("false_start_window_ms must be >= 0")
        self._window = float(false_start_window_ms)
        self._early_keep = early_keep
        self._early: list[Press] = []  # presses received while idle, newest last
        self._race: _Race | None = None

    # ------------------------------------------------------------------------------ arming
    @property
    def armed(self) -> bool:
        return self._race is not None

    @property
    def race_id(self) -> str | None:
        return self._race.race_id if self._race else None

    @property
    def eligible(self) -> frozenset[int]:
        return self._race.eligible if self._race else frozenset()

    def arm(
        self,
        race_id: str,
        eligible_seats: Iterable[int],
        armed_at_ms: float,
        timeout_ms: float,
        *,
        mode: RaceMode = RaceMode.ALL,
        settle_ms: float = 150.0,
    ) -> None:
        """Start judging a race (replacing any race still armed)."""
        seats = frozenset(eligible_seats)
        if not isinstance(race_id, str) or not race_id:
            raise RaceError("race_id must be a non-empty string")
        if not seats or any(not isinstance(s, int) or isinstance(s, bool) or s < 0 for s in seats):
            raise RaceError(f"eligible seats must be seat numbers, got {sorted(seats, key=str)}")
        if not (_finite(armed_at_ms) and _finite(timeout_ms) and timeout_ms > 0):
            raise RaceError("armed_at_ms must be finite and timeout_ms > 0")
        if not _finite(settle_ms) or settle_ms < 0 or not isinstance(mode, RaceMode):
            raise RaceError("bad mode or settle_ms")
        race = _Race(race_id, seats, float(armed_at_ms), float(armed_at_ms + timeout_ms), mode, float(settle_ms))
        for p in self._early:
            if p.seat in seats and armed_at_ms - self._window <= p.t_ms < armed_at_ms:
                race.false_starts.append(FalseStart(p.seat, p.t_ms, p.source, armed_at_ms - p.t_ms))
        self._early.clear()
        self._race = race

    def disarm(self) -> None:
        self._race = None

    # ------------------------------------------------------------------------------ presses
    def press(self, p: Press) -> PressVerdict:
        race = self._race
        if race is None or (p.race_id is not None and p.race_id != race.race_id):
            self._remember_early(p)
            return PressVerdict.NOT_ARMED
        if p.seat not in race.eligible:
            return PressVerdict.NOT_ELIGIBLE
        if p.t_ms < race.armed_at_ms:
            race.false_starts.append(FalseStart(p.seat, p.t_ms, p.source, race.armed_at_ms - p.t_ms))
            return PressVerdict.FALSE_START
        if p.t_ms >= race.deadline_ms or self._decided_before(race, p.t_ms):
            return PressVerdict.TOO_LATE
        if not _better(p, race.best.get(p.seat)):
            return PressVerdict.DUPLICATE
        race.best[p.seat] = p
        return PressVerdict.ACCEPTED

    def _remember_early(self, p: Press) -> None:
        self._early.append(p)
        if len(self._early) > self._early_keep:
            del self._early[0]

    @staticmethod
    def _decided_before(race: _Race, t_ms: float) -> bool:
        """A FIRST race is over once settled: a press stamped after that point cannot win."""
        first = race.earliest()
        return race.mode is RaceMode.FIRST and first is not None and t_ms > first + race.settle_ms

    # ------------------------------------------------------------------------------ outcome
    def is_complete(self, now_ms: float) -> bool:
        race = self._require()
        if now_ms >= race.deadline_ms:
            return True
        if race.mode is RaceMode.FIRST:
            first = race.earliest()
            if first is not None and now_ms >= first + race.settle_ms:
                return True
        latest = race.latest()
        everyone = len(race.best) == len(race.eligible)
        return everyone and latest is not None and now_ms >= latest + race.settle_ms

    def result(self, now_ms: float | None = None) -> RaceOutcome:
        """The outcome so far (final once ``is_complete``). ``now_ms`` only sets ``timed_out``."""
        race = self._require()
        ranked = sorted(race.best.values(), key=lambda p: (p.t_ms, -p.source, p.seat))
        order = tuple(p.seat for p in ranked)
        margins = tuple(b.t_ms - a.t_ms for a, b in zip(ranked, ranked[1:]))
        return RaceOutcome(
            race_id=race.race_id,
            mode=race.mode,
            armed_at_ms=race.armed_at_ms,
            order=order,
            times_ms={p.seat: p.t_ms for p in ranked},
            margins_ms=margins,
            source_per_seat={p.seat: p.source for p in ranked},
            error_bound_ms=max((p.error_ms for p in ranked), default=0.0),
            ties=_ties(ranked),
            false_starts=tuple(sorted(race.false_starts, key=lambda f: (f.t_ms, f.seat))),
            missing=tuple(sorted(race.eligible - race.best.keys())),
            timed_out=now_ms is not None and now_ms >= race.deadline_ms and len(race.best) < len(race.eligible),
        )

    def _require(self) -> _Race:
        if self._race is None:
            raise RaceError("no race is armed")
        return self._race


def _ties(ranked: list[Press]) -> tuple[tuple[int, ...], ...]:
    groups: list[list[int]] = []
    for a, b in zip(ranked, ranked[1:]):
        if a.too_close(b):
            if groups and groups[-1][-1] == a.seat:
                groups[-1].append(b.seat)
            else:
                groups.append([a.seat, b.seat])
    return tuple(tuple(g) for g in groups)
