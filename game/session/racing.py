"""Live races at the table: the bridge between the engine's race phases and the race judge.

The session (the one writer) owns one :class:`RaceFloor`, which holds one :class:`RaceDesk`.
When the engine's public view shows a race (Cheating Moth's ``race``: Mosquito M14, Beetle M15),
the floor arms the desk with the seats that may press; every press from any source (phone, arcade button, host keyboard, bot)
goes through :meth:`RaceDesk.press` into one :class:`~game.session.races.RaceJudge`; when the
judge says the race is complete (or the race timer runs out) :meth:`RaceDesk.finish` gives the
engine's ``race_result`` action in wire form (parallel lists, whole milliseconds on the session
clock, each press with its own error bound) and what the big screen shows about it.

:class:`RaceDesk` is pure: no clock, no asyncio; times come in as arguments (session clock, ms).
:class:`RaceFloor` runs the desk on the session's loop (the one writer): it arms and disarms it
as the game's public view changes, ticks while a race is armed, schedules the bots' presses,
takes presses from every source and hands the decided ``race_result`` back to the session.
"""
from __future__ import annotations

import asyncio
import enum
import logging
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from game.rules.base import MalformedAction, UnknownSeat

from .bots import Bot
from .races import Press, PressSource, PressVerdict, RaceError, RaceJudge, RaceMode
from .snapshot import InputEvent, InputSource

log = logging.getLogger(__name__)

SETTLE_MS = 150.0  # after the deciding press, wait this long for a more precise press in flight
KEYBOARD_ERROR_MS = 17.0  # a host key is stamped when the renderer sees it: about one frame
UNSYNCED_PHONE_ERROR_MS = 250.0  # a phone without a clock estimate: stamped on arrival
RACE_TICK_S = 0.02  # while a race is armed, check this often whether the judge has decided


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

    @property
    def timer_key(self) -> str:
        """The key of the engine's timer that ends this race."""
        return f"race:{self.race}"


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


_PRESS_SOURCES: dict[InputSource, PressSource] = {
    InputSource.ARCADE: PressSource.ARCADE, InputSource.PHONE: PressSource.PHONE, InputSource.BOT: PressSource.BOT,
}


@dataclass(frozen=True, slots=True)
class PressInput:
    """A PRESS input (keyboard, arcade through the runtime) read as a race press: ``payload``
    may hold ``race``, ``error_ms`` and ``card``."""

    seat: int
    t_ms: float
    source: PressSource
    error_ms: Any
    race: int | None
    card: Any

    @classmethod
    def of(cls, event: InputEvent) -> PressInput:
        if event.seat is None:
            raise UnknownSeat("a press needs a seat")
        source = _PRESS_SOURCES.get(event.source, PressSource.KEYBOARD)
        error = event.payload.get("error_ms", KEYBOARD_ERROR_MS if source is PressSource.KEYBOARD else 0.0)
        race = event.payload.get("race")
        return cls(event.seat, event.t_ms, source, error,
                   race if isinstance(race, int) and not isinstance(race, bool) else None, event.payload.get("card"))


@dataclass(frozen=True, slots=True)
class RaceGame:
    """What the floor reads of the game in play: its views by seat (``None``: the public view)."""

    view: Callable[[int | None], Any]
    n_seats: int

    def race_entry(self) -> Any:
        """The public view's ``race`` entry, ``None`` when no race is on."""
        public = self.view(None)
        return public.get("race") if isinstance(public, dict) else None

    def card_holders(self) -> tuple[int, ...]:
        """Beetle: the public view lists everyone; only the holders of a race card may race."""
        return tuple(seat for seat in range(self.n_seats) if self.view(seat)["you"]["race_cards"])


class RaceLamps(Protocol):
    """The board side of a race (``game/session/arcade.py``): told when a race starts and ends."""

    def arm_race(self, race_id: str, seats: frozenset[int]) -> None: ...

    def end_race(self) -> None: ...


class BoardButton(Protocol):
    """An arcade button press as the bridge reports it (``firmware_bridge`` ``ButtonDown``)."""

    def to_press(self, race_id: str | None) -> Press | None: ...


class RaceFloor:
    """The live race on the session's loop (see the module docstring). ``touched``: a press came
    in through :meth:`press` (counts as input at the table); ``changed``: publish a new snapshot;
    ``decided``: apply the engine's ``race_result`` (wire form)."""

    def __init__(self, clock: Callable[[], float], lamps: RaceLamps, *, touched: Callable[[], None],
                 changed: Callable[[], None], decided: Callable[[dict[str, Any]], None],
                 bot_delay_scale: float = 1.0) -> None:
        self._desk = RaceDesk()
        self._clock = clock
        self._lamps = lamps
        self._touched = touched
        self._changed = changed
        self._decided = decided
        self._bot_delay_scale = bot_delay_scale
        self._tick: asyncio.TimerHandle | None = None
        self._bot_presses: dict[int, asyncio.TimerHandle] = {}

    @property
    def current(self) -> LiveRace | None:
        return self._desk.current

    @property
    def armed(self) -> bool:
        return self._desk.armed

    @property
    def last(self) -> dict[str, Any] | None:
        """``extras["race_outcome"]``: the latest outcome."""
        return self._desk.last

    def to_json(self) -> dict[str, Any]:
        """``extras["race"]``."""
        return self._desk.to_json()

    def close(self) -> None:
        self._stop_clock()

    # ---------------------------------------------------------------------------- presses
    def press(self, seat: int, t_ms: float, source: PressSource, *, error_ms: float = 0.0,
              race: int | None = None, card: int | None = None) -> PressVerdict:
        """A press already on the session clock; bad input raises MalformedAction, nothing changed."""
        if card is not None and (not isinstance(card, int) or isinstance(card, bool)):
            raise MalformedAction("'card' must be a card id")
        try:
            verdict = self._desk.press(press_of(seat, t_ms, source, error_ms, race), card)
        except RaceError as exc:
            raise MalformedAction(str(exc)) from None
        if source is not PressSource.BOT:  # bots racing must not keep an idle kiosk awake
            self._touched()
        self._after_press(verdict)
        return verdict

    def press_button(self, button: BoardButton) -> None:
        """An arcade button; a press the judge refuses is logged."""
        live = self._desk.current
        press = button.to_press(live.judge_id if live is not None else None)
        if press is None:
            return
        try:
            verdict = self._desk.press(press)
        except RaceError as exc:
            log.warning("arcade press refused: %s", exc)
            return
        self._after_press(verdict)

    def _after_press(self, verdict: PressVerdict) -> None:
        if verdict in (PressVerdict.ACCEPTED, PressVerdict.FALSE_START):
            self._changed()  # the screen shows who pressed and the false starts
        self._check()

    # ------------------------------------------------------------------------ arm / disarm
    def sync(self, game: RaceGame | None, bots: Mapping[int, Bot]) -> None:
        """Arm or disarm the desk to match the engine's public view (called on every change)."""
        view_race = game.race_entry() if game is not None else None
        if game is None or view_race is None:
            self._disarm()
            return
        try:
            race, kind, timeout_ms, eligible = parse_race(view_race)
        except RaceSetupError as exc:
            log.error("cannot judge this race: %s", exc)
            return
        live = self._desk.current
        if live is not None and live.race == race:
            return
        if kind is RaceKind.BEETLE:
            eligible = game.card_holders()
        self._arm(self._desk.arm(race, kind, eligible, self._clock(), timeout_ms), game, bots)

    def _arm(self, live: LiveRace, game: RaceGame, bots: Mapping[int, Bot]) -> None:
        if live.eligible:
            self._lamps.arm_race(live.judge_id, live.eligible)
        self._start_clock(live.eligible, game, bots)

    def _disarm(self) -> None:
        if self._desk.current is None:
            return
        self._desk.disarm()
        self._stop_clock()
        self._lamps.end_race()

    # ------------------------------------------------------------------------ tick and bots
    def _start_clock(self, eligible: frozenset[int], game: RaceGame, bots: Mapping[int, Bot]) -> None:
        """The tick that checks the judge, and the bots' presses (``race_press`` + ``think_ms``)."""
        self._stop_clock()
        loop = asyncio.get_running_loop()
        self._tick = loop.call_later(RACE_TICK_S, self._on_tick)
        for seat, bot in bots.items():
            entry = self._bot_entry(bot, seat, eligible, game)
            if entry is not None:
                delay = max(0, bot.think_ms()) * self._bot_delay_scale / 1000
                self._bot_presses[seat] = loop.call_later(delay, self._bot_press, seat, getattr(entry, "card", None))

    @staticmethod
    def _bot_entry(bot: Bot, seat: int, eligible: frozenset[int], game: RaceGame) -> Any:
        """The bot's ``race_press`` answer for ``seat`` (``None``: it stays still)."""
        ask = getattr(bot, "race_press", None)
        return ask(game.view(seat)) if callable(ask) and seat in eligible else None

    def _stop_clock(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
            self._tick = None
        for handle in self._bot_presses.values():
            handle.cancel()
        self._bot_presses.clear()

    def _bot_press(self, seat: int, card: int | None) -> None:
        self._bot_presses.pop(seat, None)
        if self._desk.current is not None:
            self.press(seat, self._clock(), PressSource.BOT, card=card)

    def _on_tick(self) -> None:
        self._tick = None
        if self._desk.current is None:
            return
        self._check()
        if self._desk.current is not None:
            self._tick = asyncio.get_running_loop().call_later(RACE_TICK_S, self._on_tick)

    # ------------------------------------------------------------------------------ finish
    def expire(self, timer_key: str) -> bool:
        """The engine's timer ran out: when it is the armed race's, the presses collected so far
        stand in for the result (True: handled here)."""
        live = self._desk.current
        if live is None or timer_key != live.timer_key:
            return False
        self._finish()
        return True

    def _check(self) -> None:
        if self._desk.complete(self._clock()):
            self._finish()

    def _finish(self) -> None:
        if self._desk.current is None:
            return
        wire = self._desk.finish(self._clock())
        self._stop_clock()
        self._lamps.end_race()
        self._decided(wire)
