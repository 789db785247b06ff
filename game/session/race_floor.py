"""The race floor: every race the engine asks for (``GameEngine.race(state)`` ->
:class:`~game.rules.base.RaceRequest`), judged from every press source (arcade buttons, phones,
the host keyboard, bots) and handed back to the engine as the table's action.

Two parts:

* :class:`RaceJudge` (pure, clock-free: every time is passed in, session clock in milliseconds,
  floats so arcade presses keep their sub-millisecond device precision) decides one race by time
  of press.
* :class:`RaceFloor` runs the judge on the session's loop (the one writer): it arms it when the
  engine's request appears (a new ``key`` = a new race), schedules the bots' presses and the moment
  the judge can decide, and finally applies ``request.on_result(presses)`` through the session.
  It never reads a game's view and never names a game.

Rules the judge applies:

* **Sources.** :class:`PressSource` ranks ARCADE > PAD > PHONE > KEYBOARD by precision (M16) (BOT for
  bot seats). When a seat has valid presses from several sources, the most precise source's press
  is used, even if a less precise one came first. Within one source the *earliest* press counts (by
  its time, not by when it arrived: the bridge and phones may deliver out of order).
* **Verdicts.** Every press gets a :class:`PressVerdict`: ``ACCEPTED`` (it is now the seat's
  counted press), ``DUPLICATE`` (the seat already has an earlier or more precise press),
  ``FALSE_START`` (stamped before ``armed_at_ms``: recorded, shown, ignored; the seat may still
  press validly), ``NOT_ELIGIBLE``, ``NOT_ARMED`` (no race running, or another race's id), and
  ``TOO_LATE`` (stamped at or after the timeout, or after a FASTEST_WINS race was decided).
* **Early presses.** Presses that arrive while nothing is armed are kept briefly: when the next race
  is armed, those of eligible seats within ``false_start_window_ms`` before ``armed_at_ms`` are
  listed as that race's false starts (a player who jumps the gun shortly before the lamps light).
* **Completion.** ``SLOWEST_LOSES``: complete when every eligible seat has a press and
  ``settle_ms`` has passed since the latest one (so a more precise press still in flight can
  replace a phone tap), or at the timeout; seats without a press are ``missing``.
  ``FASTEST_WINS``: complete ``settle_ms`` after the earliest press (a faster press arriving late
  over Wi-Fi still wins), when every eligible seat has pressed, or at the timeout.
* **Result.** :class:`RaceOutcome` gives the order (fastest first), each seat's time, the margins
  between consecutive places, the source used per seat, the error bound (largest ``error_ms``
  among the counted presses), groups of seats too close to call (``ties``, by the one rule of
  :mod:`game.rules.race`: consecutive places whose gap is within the sum of their errors — or of
  their resolutions when both were stamped by the same ``clock``, e.g. one arcade board; the
  engine draws among a tie by its seeded RNG, with the same rule on the same numbers), false
  starts and missing seats. ``presses()`` hands the engine the times since the race opened at
  full precision (never rounded), each with its error, clock and resolution. ``to_wire(public=...)`` gives the JSON the screen shows: for a
  race whose eligibility is secret (``RaceRequest.secret``) it leaves out who stayed still.

Errors: bad arguments raise :class:`RaceError` (a ``ValueError``) and change nothing.
"""
from __future__ import annotations

import enum
import functools
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.rules import race as race_rule
from game.rules.base import MalformedAction, RaceMode, RacePress, RaceRequest, RulesError, Seat, UnknownSeat

from .bots import Bot
from .scheduler import Handle, Scheduler
from .snapshot import FalseStartInfo, InputEvent, InputSource, RaceDone, RaceInfo, RaceNow

log = logging.getLogger(__name__)

SETTLE_MS = 150.0  # after the deciding press, wait this long for a more precise press in flight
GESTURE_MS = 400.0  # two presses of one button this close, while no race runs, are a gesture (a call)
AFTER_WINDOW_MS = 1500.0  # after a race ends, presses are late slaps of it: never a gesture
KEYBOARD_ERROR_MS = 17.0  # a host key is stamped when the renderer sees it: about one frame
SIGNAL_WAIT_MS = 1500.0  # a race waiting for the TV's signal opens on the lamps if the TV says nothing by then
UNSYNCED_PHONE_ERROR_MS = 250.0  # a phone without a clock estimate: stamped on arrival


class RaceError(ValueError):
    """A call the judge refuses (bad arguments, no race); the judge is unchanged."""


class PressSource(enum.IntEnum):
    """Where a press came from; a higher value is more precise (M16). ``BOT``: a bot seat's
    simulated press (exact, and a bot seat has no other source)."""

    BOT = 0
    KEYBOARD = 1
    PHONE = 2
    PAD = 3  # a USB arcade encoder or game pad (SDL joystick), read by the TV's loop: game/session/pads.py
    ARCADE = 4

    @property
    def wire(self) -> str:
        return self.name.lower()


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
    clamped: bool = False  # the source claimed an earlier time than the server's evidence allows (M16)

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
        """Can the order of these two presses not be told apart? (:func:`game.rules.race.too_close`)"""
        return race_rule.too_close(self, other)


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
    error_per_seat: dict[int, float] = field(default_factory=dict)  # seat -> its counted press's error_ms
    clock_per_seat: dict[int, str] = field(default_factory=dict)  # seat -> the clock that stamped it
    resolution_per_seat: dict[int, float] = field(default_factory=dict)  # seat -> that clock's resolution
    clamped: tuple[int, ...] = ()  # seats (in ``order``) whose claimed press time was held to the bound (M16)

    @property
    def winner(self) -> int | None:
        return self.order[0] if self.order else None

    def reaction_ms(self, seat: int) -> float | None:
        t = self.times_ms.get(seat)
        return None if t is None else t - self.armed_at_ms

    def presses(self) -> tuple[RacePress, ...]:
        """The counted presses as the engine takes them: fastest first, ms since the race opened at
        full precision, with each press's error, clock and resolution (the engine applies the same
        :mod:`game.rules.race` rule to them as the judge's ``ties``)."""
        return tuple(RacePress(s, self.reaction(s), self.error_per_seat.get(s, self.error_bound_ms),
                               self.clock_per_seat.get(s, ""), self.resolution_per_seat.get(s, 0.0))
                     for s in self.order)

    def reaction(self, seat: int) -> float:
        """``seat``'s counted press in ms since the race opened (never negative)."""
        return max(0.0, self.times_ms[seat] - self.armed_at_ms)

    def info(self, *, public: bool = True) -> RaceDone:
        """The outcome as the snapshot shows it (the same facts as :meth:`to_wire`)."""
        return RaceDone(
            self.race_id, self.mode.value, self.order,
            tuple(round(self.times_ms[s] - self.armed_at_ms, 3) for s in self.order),
            tuple(round(m, 3) for m in self.margins_ms), tuple(self.source_per_seat[s].wire for s in self.order),
            round(self.error_bound_ms, 3), self.ties,
            () if not public else tuple(FalseStartInfo(f.seat, round(f.early_by_ms, 3), f.source.wire)
                                        for f in self.false_starts),
            self.missing if public else None, self.timed_out if public else None, self.clamped)

    def to_wire(self, *, public: bool = True) -> dict[str, Any]:
        """The outcome as JSON. ``public=False`` (a race whose eligible seats are secret) keeps only
        the presses made: no ``missing`` and no ``timed_out`` (both tell who else could have
        pressed), no false starts (only an eligible seat's would be listed)."""
        out = {
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
            "clamped": list(self.clamped),
        }
        if not public:
            del out["missing"], out["timed_out"]
            out["false_starts"] = []
        return out


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

    @property
    def settle_ms(self) -> float:
        """How long the armed race stays open after the press that could decide it."""
        return self._require().settle_ms

    def arm(
        self,
        race_id: str,
        eligible_seats: Iterable[int],
        armed_at_ms: float,
        timeout_ms: float,
        *,
        mode: RaceMode = RaceMode.SLOWEST_LOSES,
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
        """A FASTEST_WINS race is over once settled: a press stamped after that point cannot win."""
        first = race.earliest()
        return race.mode is RaceMode.FASTEST_WINS and first is not None and t_ms > first + race.settle_ms

    # ------------------------------------------------------------------------------ outcome
    def decides_at(self) -> float:
        """The earliest session time at which the race is complete with the presses so far
        (``is_complete(now)`` is ``now >= decides_at()``); a new press may bring it forward."""
        race = self._require()
        due = race.deadline_ms
        first = race.earliest()
        if race.mode is RaceMode.FASTEST_WINS and first is not None:
            due = min(due, first + race.settle_ms)
        latest = race.latest()
        if len(race.best) == len(race.eligible) and latest is not None:
            due = min(due, latest + race.settle_ms)
        return due

    def is_complete(self, now_ms: float) -> bool:
        race = self._require()
        if now_ms >= race.deadline_ms:
            return True
        if race.mode is RaceMode.FASTEST_WINS:
            first = race.earliest()
            if first is not None and now_ms >= first + race.settle_ms:
                return True
        latest = race.latest()
        everyone = len(race.best) == len(race.eligible)
        return everyone and latest is not None and now_ms >= latest + race.settle_ms

    def result(self, now_ms: float | None = None) -> RaceOutcome:
        """The outcome so far (final once ``is_complete``). ``now_ms`` only sets ``timed_out``."""
        race = self._require()
        ranked = race_rule.ranked(race.best.values())
        order = tuple(p.seat for p in ranked)
        since_open = [race_rule.Timing(p.seat, max(0.0, p.t_ms - race.armed_at_ms), p.error_ms, p.clock,
                                       p.resolution_ms) for p in ranked]  # the engine's numbers exactly
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
            ties=race_rule.tie_groups(race_rule.ranked(since_open)),
            false_starts=tuple(sorted(race.false_starts, key=lambda f: (f.t_ms, f.seat))),
            missing=tuple(sorted(race.eligible - race.best.keys())),
            timed_out=now_ms is not None and now_ms >= race.deadline_ms and len(race.best) < len(race.eligible),
            error_per_seat={p.seat: p.error_ms for p in ranked},
            clock_per_seat={p.seat: p.clock for p in ranked},
            resolution_per_seat={p.seat: p.resolution_ms for p in ranked},
            clamped=tuple(p.seat for p in ranked if p.clamped),
        )

    def _require(self) -> _Race:
        if self._race is None:
            raise RaceError("no race is armed")
        return self._race


# ------------------------------------------------------------------------------------ the floor
class RaceLamps(Protocol):
    """The board side of a race (``game/session/arcade.py``): told when a race starts and ends."""

    def arm_race(self, race_id: str, seats: frozenset[int]) -> None: ...

    def end_race(self) -> None: ...


class BoardButton(Protocol):
    """An arcade button press as the bridge reports it (``firmware_bridge`` ``ButtonDown``)."""

    def to_press(self, race_id: str | None) -> Press | None: ...


@dataclass(slots=True)
class LiveRace:
    """The race being judged: the engine's latest request for it and when it opened. ``waiting``:
    the TV has not shown its signal yet (``armed_at_ms`` is then when it was asked for; the race
    opens at the flip the TV reports, :meth:`RaceFloor.signal`)."""

    request: RaceRequest
    armed_at_ms: float
    pressed: set[int] = field(default_factory=set)
    waiting: bool = False
    early: list[Press] = field(default_factory=list)  # presses while waiting: false starts, judged at the signal
    bot_delays: dict[int, float] = field(default_factory=dict)  # seat -> its bot's reaction after the signal

    @property
    def key(self) -> str:
        return self.request.key

    @property
    def deadline_ms(self) -> float:
        return self.armed_at_ms + self.request.timeout_ms

    @property
    def timer_key(self) -> str:
        """The key of the session timer that shows (and ends) this race."""
        return race_timer_key(self.request)


def race_timer_key(request: RaceRequest) -> str:
    return f"race:{request.key}"


_PRESS_SOURCES: dict[InputSource, PressSource] = {
    InputSource.ARCADE: PressSource.ARCADE, InputSource.PHONE: PressSource.PHONE, InputSource.BOT: PressSource.BOT,
    InputSource.PAD: PressSource.PAD,
}


@dataclass(frozen=True, slots=True)
class PressInput:
    """A PRESS input (keyboard, arcade through the runtime) read as a race press: ``payload``
    may hold ``race`` (the race it was meant for) and ``error_ms``."""

    seat: int
    t_ms: float
    source: PressSource
    error_ms: Any
    race: int | str | None

    @classmethod
    def of(cls, event: InputEvent) -> PressInput:
        if event.seat is None:
            raise UnknownSeat("a press needs a seat")
        source = _PRESS_SOURCES.get(event.source, PressSource.KEYBOARD)
        error = event.payload.get("error_ms", KEYBOARD_ERROR_MS if source is PressSource.KEYBOARD else 0.0)
        race = event.payload.get("race")
        return cls(event.seat, event.t_ms, source, error, race if isinstance(race, (int, str)) else None)


def race_id_of(race: object) -> str | None:
    """A press's race as the floor names it: the request's key (a number is read as its digits)."""
    if race is None:
        return None
    if isinstance(race, bool) or not isinstance(race, (int, str)):
        raise MalformedAction("'race' must name a race")
    return str(race)


class RaceFloor:
    """The live race on the session's loop (see the module docstring). ``touched``: a person
    pressed (counts as input at the table); ``changed``: publish a new snapshot; ``decided``: apply
    the table's action that ``request.on_result`` made of the presses.

    The signal is the start (M14, M15): with a TV showing races (:attr:`screen`), a new race waits
    for the TV to report the flip of its first frame (:meth:`signal`, the session clock); that
    instant is the judge's t0, the lamps are lit then, the bots' reaction times run from it, and a
    press before it is a false start. A TV that says nothing within ``SIGNAL_WAIT_MS`` (hung,
    starved) does not hold the table: the race opens on the lamps then. Without a TV the race
    opens when it is asked for (the lamps' and phones' signal)."""

    def __init__(self, clock: Callable[[], float], scheduler: Scheduler, lamps: RaceLamps, *,
                 touched: Callable[[], None], changed: Callable[[], None], decided: Callable[[Any], None],
                 bot_delay_scale: float = 1.0, settle_ms: float = SETTLE_MS) -> None:
        self._judge = RaceJudge()
        self._clock = clock
        self._scheduler = scheduler
        self._lamps = lamps
        self._touched = touched
        self._changed = changed
        self._decided = decided
        self._bot_delay_scale = bot_delay_scale
        self._settle_ms = settle_ms
        self._live: LiveRace | None = None
        self._decided_key: str | None = None  # a race already judged is not armed again
        self._decision: Handle | None = None
        self._bot_presses: dict[int, Handle] = {}
        self.last: dict[str, Any] | None = None  # the latest outcome, public facts only
        self._last_info: RaceDone | None = None  # the same, as the snapshot shows it
        self._gesture_first: dict[int, float] = {}  # seat -> the first press of a possible double press
        self._quiet_until = -math.inf  # the end of the latest race's after-window (session ms)
        self.screen = False  # a TV shows the races' signal (InputKind.SCREEN): races open at its flip
        self._overdue: Handle | None = None  # the race opens on the lamps if the TV stays silent

    @property
    def current(self) -> LiveRace | None:
        return self._live

    @property
    def armed(self) -> bool:
        return self._live is not None

    def close(self) -> None:
        self._cancel_schedule()

    # ------------------------------------------------------------------------ arm / disarm
    def sync(self, request: RaceRequest | None, bots: Mapping[Seat, Bot], view: Callable[[Seat], Any]) -> None:
        """Follow the engine's race request (called after every change): a new key arms a new race,
        the same key keeps it (with the latest request, whose ``on_result`` knows the latest
        state), ``None`` ends it unjudged."""
        live = self._live
        if request is None:
            self._decided_key = None
            if live is not None:
                self._disarm()
            return
        if live is not None and live.key == request.key:
            live.request = request
            return
        if request.key == self._decided_key:
            return  # judged; the engine refused its result (logged) and the race waits for the table
        if live is not None:
            self._disarm()
        self._arm(request, bots, view)

    def _arm(self, request: RaceRequest, bots: Mapping[Seat, Bot], view: Callable[[Seat], Any]) -> None:
        now = float(self._clock())
        live = self._live = LiveRace(request, now, waiting=self.screen and bool(request.eligible))
        for seat, bot in bots.items():
            if seat in request.eligible and bot.race_press(view(seat)) is not None:
                live.bot_delays[seat] = max(0, bot.think_ms()) * self._bot_delay_scale
        if live.waiting:  # the TV's flip opens it (signal); until then the lamps stay dark
            self._overdue = self._scheduler.call_later(SIGNAL_WAIT_MS, self._signal_overdue)
            return
        self._open(live, now)

    def _open(self, live: LiveRace, t0: float) -> None:
        """The race starts at ``t0`` (session ms): the judge, the lamps, the bots, the decision."""
        request, now = live.request, self._clock()
        live.armed_at_ms, live.waiting = t0, False
        if request.eligible:
            settle = self._settle_ms if request.settle_ms is None else request.settle_ms
            self._judge.arm(request.key, request.eligible, t0, request.timeout_ms, mode=request.mode,
                            settle_ms=settle)
            self._lamps.arm_race(request.key, request.eligible)
        else:
            self._judge.disarm()  # nobody can press: only the timeout ends it
        for press in live.early:  # stamped before t0: false starts (a report still in flight: counted)
            self._press(press)
        live.early.clear()
        self._schedule_decision()
        for seat, delay in live.bot_delays.items():
            wait = max(0.0, t0 + delay - now)
            self._bot_presses[seat] = self._scheduler.call_later(wait, functools.partial(self._bot_press, seat))

    def signal(self, race: str, t_ms: float) -> bool:
        """The TV flipped the first frame of race ``race``'s signal at ``t_ms`` (session clock): the
        race opens then (True), unless it is not the race waiting for its signal (False: ignored)."""
        live = self._live
        if live is None or not live.waiting or live.key != race or not _finite(t_ms):
            return False
        self._cancel_overdue()
        now = float(self._clock())  # whole ms: the true now is within [now, now + 1)
        self._open(live, float(t_ms) if t_ms < now + 1 else now)  # a flip from the future is not believed
        self._changed()
        return True

    def _signal_overdue(self) -> None:
        self._overdue = None
        live = self._live
        if live is not None and live.waiting:
            log.warning("race %s: the TV showed no signal in %d ms; it opens on the lamps", live.key, SIGNAL_WAIT_MS)
            self._open(live, float(self._clock()))
            self._changed()

    def _cancel_overdue(self) -> None:
        if self._overdue is not None:
            self._overdue.cancel()
            self._overdue = None

    def _disarm(self) -> None:
        had_judge = self._live is not None and bool(self._live.request.eligible) and not self._live.waiting
        if self._live is not None:
            self._quiet_until = self._clock() + AFTER_WINDOW_MS
            self._gesture_first.clear()
        self._judge.disarm()
        self._live = None
        self._cancel_schedule()
        if had_judge:
            self._lamps.end_race()

    # ---------------------------------------------------------------------------- presses
    def press(self, seat: Seat, t_ms: float, source: PressSource, *, error_ms: float = 0.0,
              race: int | str | None = None, clamped: bool = False) -> PressVerdict:
        """A press already on the session clock (``clamped``: its source claimed an earlier time
        than the server's evidence allows, M16); bad input raises MalformedAction, nothing changed."""
        try:
            verdict = self._press(Press(seat, float(t_ms), source, float(error_ms), race_id_of(race), clamped=clamped))
        except RaceError as exc:
            raise MalformedAction(str(exc)) from None
        if source is not PressSource.BOT:  # bots racing must not keep an idle kiosk awake
            self._touched()
        return verdict

    def press_button(self, button: BoardButton) -> None:
        """An arcade button; a press the judge refuses is logged."""
        press = button.to_press(self._live.key if self._live is not None else None)
        if press is None:
            return
        try:
            self._press(press)
        except RaceError as exc:
            log.warning("arcade press refused: %s", exc)

    def _press(self, press: Press) -> PressVerdict:
        live = self._live
        if live is not None and not live.request.eligible:
            return PressVerdict.NOT_ELIGIBLE
        if live is not None and live.waiting and press.seat in live.request.eligible \
                and press.race_id in (None, live.key):
            live.early.append(press)  # before the signal: a false start (the judge lists it at t0)
            self._changed()
            return PressVerdict.FALSE_START
        verdict = self._judge.press(press)
        if verdict is PressVerdict.ACCEPTED and live is not None:
            live.pressed.add(press.seat)
        if verdict in (PressVerdict.ACCEPTED, PressVerdict.FALSE_START):
            self._changed()  # the screen shows who pressed and the false starts
            self._schedule_decision()
        return verdict

    def _bot_press(self, seat: Seat) -> None:
        self._bot_presses.pop(seat, None)
        if self._live is not None:
            self.press(seat, self._clock(), PressSource.BOT)

    # ---------------------------------------------------------------------------- gestures
    def double_press(self, seat: Seat, t_ms: float) -> bool:
        """Is this button press (``t_ms`` on the session clock) the second of a double press that
        may call a race? Never while a race runs or within ``AFTER_WINDOW_MS`` after one ended
        (slapping on after the verdict is part of that race: four slaps 150 ms apart call nothing),
        and never with a first press from then."""
        if self._live is not None or t_ms < self._quiet_until:
            self._gesture_first.pop(seat, None)
            return False
        first = self._gesture_first.pop(seat, None)
        if first is not None and 0 <= t_ms - first <= GESTURE_MS:
            return True
        self._gesture_first[seat] = t_ms
        return False

    # ------------------------------------------------------------------------ the decision
    def _schedule_decision(self) -> None:
        live = self._live
        if live is None or live.waiting:
            return
        if self._decision is not None:
            self._decision.cancel()
        due = self._judge.decides_at() if live.request.eligible else live.deadline_ms
        self._decision = self._scheduler.call_later(max(0.0, due - self._clock()), self._decide)

    def _decide(self) -> None:
        self._decision = None
        live = self._live
        if live is None:
            return
        now = self._clock()
        if live.request.eligible and not self._judge.is_complete(now):
            self._schedule_decision()  # the clock's whole milliseconds lag the judge's floats
            return
        if now < live.deadline_ms and not live.request.eligible:
            self._schedule_decision()
            return
        self._finish(now)

    def expire(self, timer_key: str) -> bool:
        """The race's timeout ran out on the session's timer: decide with the presses so far
        (True: ``timer_key`` was this race's)."""
        live = self._live
        if live is None or timer_key != live.timer_key:
            return False
        if live.waiting or self._clock() < live.deadline_ms:
            return True  # it opened at the TV's signal, after its timer started: the floor decides at its deadline
        self._finish(max(self._clock(), live.deadline_ms))
        return True

    def _finish(self, now: float) -> None:
        live = self._live
        assert live is not None
        request = live.request
        self._decided_key = request.key
        if request.eligible:
            outcome = self._judge.result(now)
            presses = outcome.presses()
            self.last = outcome.to_wire(public=not request.secret)
            self._last_info = outcome.info(public=not request.secret)
        else:
            presses = ()
            self.last = {"race": request.key, "mode": request.mode.value, "order": [], "reaction_ms": [],
                         "margins_ms": [], "sources": [], "error_bound_ms": 0, "ties": [], "false_starts": [],
                         "clamped": []}
            if not request.secret:
                self.last.update(missing=[], timed_out=True)
            self._last_info = RaceDone(request.key, request.mode.value, (), (), (), (), 0.0, (), (),
                                       None if request.secret else (), None if request.secret else True)
        self._disarm()
        try:
            action = request.on_result(presses)
        except RulesError as exc:
            log.error("race %s: the engine made no result of %s: %s", request.key, presses, exc)
            self._changed()
            return
        self._decided(action)

    def _cancel_schedule(self) -> None:
        self._cancel_overdue()
        if self._decision is not None:
            self._decision.cancel()
            self._decision = None
        for handle in self._bot_presses.values():
            handle.cancel()
        self._bot_presses.clear()

    # ----------------------------------------------------------------------------- the screen
    def to_json(self) -> dict[str, Any]:
        """The races as JSON (the snapshot's ``RaceInfo`` is made from it): the armed race (or null) and the latest outcome, public facts only:
        a secret race shows no eligible seats and nobody's press until it is decided."""
        live = self._live
        current = None
        if live is not None:
            secret = live.request.secret
            current = {"race": live.key, "mode": live.request.mode.value, "armed_at_ms": round(live.armed_at_ms),
                       "timeout_ms": live.request.timeout_ms, "label": live.request.label,
                       "eligible": [] if secret else sorted(live.request.eligible),
                       "pressed": [] if secret else sorted(live.pressed),
                       "false_starts": [] if secret else self.false_starts(), "waiting": live.waiting,
                       **self._closing(live)}
        return {"current": current, "last": self.last}

    def info(self) -> RaceInfo:
        """The races as the snapshot shows them (the same public facts as :meth:`to_json`)."""
        live, current = self._live, None
        if live is not None:
            secret = live.request.secret
            starts = () if secret or not self._judge.armed else tuple(
                FalseStartInfo(f.seat, round(f.early_by_ms, 3), f.source.wire) for f in self._judge.result().false_starts)
            current = RaceNow(str(live.key), live.request.mode.value, round(live.armed_at_ms), live.request.timeout_ms,
                              live.request.label, () if secret else tuple(sorted(live.request.eligible)),
                              () if secret else tuple(sorted(live.pressed)), starts, waiting=live.waiting,
                              **self._closing(live))
        return RaceInfo(current, self._last_info)

    def _closing(self, live: LiveRace) -> dict[str, float]:
        """A public fastest-wins race with a press closes ``settle`` after it: the screen shows the
        moment (a closing bar) so a right card after a wrong one is still laid in time (M15)."""
        if live.request.secret or live.request.mode is not RaceMode.FASTEST_WINS or not live.pressed:
            return {}
        return {"closes_at_ms": round(self._judge.decides_at(), 3), "window_ms": self._judge.settle_ms}

    def false_starts(self) -> list[dict[str, Any]]:
        """False starts of the armed race so far (for the big screen)."""
        if self._live is None or not self._judge.armed:
            return []  # none yet, or waiting for the signal: the judge lists them at t0
        return list(self._judge.result().to_wire()["false_starts"])
