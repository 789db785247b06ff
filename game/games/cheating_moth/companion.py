"""Cheating Moth, companion mode: the program referees a real game of *Mogel Motte* on a real table.

The cards, the guard bug and the moths are physical; the program never pretends to know what is in
anybody's hand. It keeps what a table does badly: whose turn it is and who is the guard (rotating
each round, M18), the Mosquito and Beetle races judged to the millisecond (M14, M15, M16), the
penalty points each player enters at the round's end (M17) on the score pad
(:mod:`game.rules.scorepad`), the standings and the end of the game (M19).

A race is *called* by the player who put the card down (the seat whose turn it is; or the host for
them): one tap on the phone's big MOSQUITO / BEETLE button or the host's key. The call opens the
race at once; :meth:`CheatingMothCompanion.race` hands the session a
:class:`~game.rules.base.RaceRequest`, the session's race floor judges presses from arcade buttons,
phones and the keyboard and gives the counted presses back as one :class:`RaceDone` (seat
``None``). False starts are the session's business (shown, never counted).

What both modes share is the table engine's own (:mod:`game.games.cheating_moth.rules`): the
``next_round`` action and the ``guard_passed`` event are its classes, registered here under the same
tags; the companion declares only what a real table changes (calls, turns, entered points, races
without cards).

Pure: no clock, no I/O; the seeded :class:`Rng` in the state breaks ties (M14 [gap]). Wire forms
and views: ``game/games/cheating_moth/companion_views.md``.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from game.games.cheating_moth.rules import GuardPassed, NextRound
from game.rules import race as race_rule
from game.rules.base import (
    JSON,
    BadSettings,
    GameEngine,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RacePress,
    RaceRequest,
    Seat,
    WireCodec,
    check_seat,
)
from game.rules.base import RaceMode as JudgeMode
from game.rules.rng import Rng
from game.rules.scorepad import ScorePad

ENGINE_NAME = "cheating_moth_companion"
MIN_SEATS = 3  # M2
MAX_SEATS = 8  # M2 [gap]: two boxes
MAX_TIMER_MS = 60_000
MAX_POINTS = 500
MIN_BEETLE_WINDOW_MS = 150  # the judge's usual settle: a faster press in flight still counts
MAX_BEETLE_WINDOW_MS = 5000


class Phase(enum.Enum):
    PLAY = "play"  # M4–M6: cards go down on the real table; the screen shows whose turn
    MOSQUITO_RACE = "mosquito_race"  # M14: every other seat slaps; the slowest takes cards
    BEETLE_RACE = "beetle_race"  # M15: the fastest matching card stays
    SCORING = "scoring"  # M17: every player enters the penalty points left in hand
    GAME_OVER = "game_over"  # M19


class CallKind(enum.Enum):
    MOSQUITO = "mosquito"  # M14
    BEETLE = "beetle"  # M15


RULE_OF = {CallKind.MOSQUITO: "M14", CallKind.BEETLE: "M15"}
RACE_PHASE = {CallKind.MOSQUITO: Phase.MOSQUITO_RACE, CallKind.BEETLE: Phase.BEETLE_RACE}


@dataclass(frozen=True, slots=True)
class Settings:
    rounds: int = 0  # M18: 0 = as many rounds as there are players
    race_timeout_ms: int = 5000  # M14/M15 [gap]
    first_guard: int = 0  # M3: the oldest player (the host picks the seat)
    max_points: int = 150  # M17: the highest penalty a player can enter for one round
    beetle_window_ms: int = 1000  # M15 [gap]: a Beetle race stays open this long after its first press

    def validate(self) -> None:
        if not 0 <= self.rounds <= 20:
            raise BadSettings("rounds must be 0 (one per player, M18) to 20")
        if not 500 <= self.race_timeout_ms <= MAX_TIMER_MS:
            raise BadSettings(f"race_timeout_ms must be between 500 and {MAX_TIMER_MS}")
        if not 0 <= self.first_guard < MAX_SEATS:
            raise BadSettings(f"first_guard must be a seat between 0 and {MAX_SEATS - 1}")
        if not 1 <= self.max_points <= MAX_POINTS:
            raise BadSettings(f"max_points must be between 1 and {MAX_POINTS}")
        if not MIN_BEETLE_WINDOW_MS <= self.beetle_window_ms <= min(MAX_BEETLE_WINDOW_MS, self.race_timeout_ms):
            raise BadSettings(f"beetle_window_ms must be between {MIN_BEETLE_WINDOW_MS} and "
                              f"{MAX_BEETLE_WINDOW_MS} ms, and not longer than race_timeout_ms")


# --------------------------------------------------------------------------------------- actions
ACTIONS: WireCodec[Any] = WireCodec("action")


@ACTIONS.register("call")
@dataclass(frozen=True, slots=True)
class Call:
    """The seat in turn put a Mosquito or a Beetle down and calls its race (or the host for them)."""

    kind: CallKind


@ACTIONS.register("end_turn")
@dataclass(frozen=True, slots=True)
class EndTurn:
    """The seat in turn has played or drawn (M5, M6): the next seat's turn."""


@ACTIONS.register("pass_guard")
@dataclass(frozen=True, slots=True)
class PassGuard:
    """The guard caught a cheater, who becomes the guard (M10): the guard or the host taps it."""

    to: int


@ACTIONS.register("wrong_win")
@dataclass(frozen=True, slots=True)
class WrongWin:
    """The table checked the Beetle winner's card and it does not fit (M15): the next fastest wins."""


@ACTIONS.register("annul_race")
@dataclass(frozen=True, slots=True)
class AnnulRace:
    """The host: the open race, or the latest decided one (Mosquito too), did not happen — a call
    nobody meant, a race run on the wrong card. Its verdict is dropped, the turn goes back to the
    race's caller (the table hands back any card it moved), and the pad keeps a trace line."""


@ACTIONS.register("round_over")
@dataclass(frozen=True, slots=True)
class RoundOver:
    """``out`` has no cards left (M17): the player themselves or the host."""

    out: int


@ACTIONS.register("enter_points")
@dataclass(frozen=True, slots=True)
class EnterPoints:
    """A player's penalty points for the round being scored (M17): their own, or the host for them."""

    seat: int
    points: int


@ACTIONS.register("edit_points")
@dataclass(frozen=True, slots=True)
class EditPoints:
    """A correction on the pad (kept as a trace line): the host any round, a player their own entry
    of the round being scored."""

    seat: int
    round: int
    points: int


@ACTIONS.register("undo_points")
@dataclass(frozen=True, slots=True)
class UndoPoints:
    """The host takes back the pad's latest change (kept as a trace line)."""


ACTIONS.register("next_round")(NextRound)  # the table's: every penalty is in, the next round (M18) or the end (M19)


@ACTIONS.register("race_done")
@dataclass(frozen=True, slots=True)
class RaceDone:
    """The table: the judge's counted presses of race ``race``, fastest first (M16), at full
    precision, with the clock that stamped each and its resolution. ``rule``: the version of
    :mod:`game.rules.race` that decides it (0: journaled before it, decided as it was then)."""

    race: int
    seats: tuple[int, ...] = ()
    times_ms: tuple[float, ...] = ()
    error_ms: tuple[float, ...] = ()
    clocks: tuple[str, ...] = ()
    resolution_ms: tuple[float, ...] = ()
    rule: int = race_rule.LEGACY_RULE


TABLE_ONLY = (RaceDone, UndoPoints, AnnulRace)
ANYONE = (NextRound,)

# ---------------------------------------------------------------------------------------- events
EVENTS: WireCodec[Any] = WireCodec("event")


@EVENTS.register("round_started")
@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    guard: int
    turn: int
    cause: str = "M18"


@EVENTS.register("turn_passed")
@dataclass(frozen=True, slots=True)
class TurnPassed:
    seat: int
    cause: str = "M4"


@EVENTS.register("race_called")
@dataclass(frozen=True, slots=True)
class RaceCalled:
    race: int
    kind: CallKind
    caller: int
    eligible: tuple[int, ...]
    cause: str


@EVENTS.register("mosquito_decided")
@dataclass(frozen=True, slots=True)
class MosquitoDecided:
    race: int
    order: tuple[int, ...]  # seats that pressed, fastest first
    times_ms: tuple[float, ...]
    margins_ms: tuple[float, ...]
    missing: tuple[int, ...]  # never pressed within race_timeout_ms: slowest (M14)
    slowest: int
    tied: tuple[int, ...]  # seats too close to call for slowest; the seeded draw picked ``slowest``
    givers: tuple[int, ...]  # each hands the slowest one non-moth card (M14, M7)
    cause: str = "M14"
    within_ms: float = 0.0  # > 0: ``tied`` were within this many ms, closer than the sources can tell


@EVENTS.register("beetle_decided")
@dataclass(frozen=True, slots=True)
class BeetleDecided:
    race: int
    order: tuple[int, ...]
    times_ms: tuple[float, ...]
    margins_ms: tuple[float, ...]
    winner: int | None  # None: nobody pressed; no card added (M15 [gap])
    cause: str = "M15"
    tied: tuple[int, ...] = ()  # seats too close to call for fastest; the seeded draw picked ``winner``
    within_ms: float = 0.0  # > 0: ``tied`` were within this many ms, closer than the sources can tell


@EVENTS.register("win_undone")
@dataclass(frozen=True, slots=True)
class WinUndone:
    race: int
    loser: int  # their card goes back to hand
    winner: int | None  # the next fastest, or nobody
    by: int | None
    cause: str = "M15"


@EVENTS.register("race_annulled")
@dataclass(frozen=True, slots=True)
class RaceAnnulled:
    race: int
    kind: CallKind
    caller: int  # their turn again
    decided: bool  # False: annulled while it ran
    cause: str


EVENTS.register("guard_passed")(GuardPassed)  # the table's: the caught cheater becomes the guard (M10)


@EVENTS.register("round_ended")
@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    out: int
    cause: str = "M17"


@EVENTS.register("points_entered")
@dataclass(frozen=True, slots=True)
class PointsEntered:
    seat: int
    round: int
    points: int
    by: int | None
    cause: str = "M17"


@EVENTS.register("points_corrected")
@dataclass(frozen=True, slots=True)
class PointsCorrected:
    seat: int
    round: int
    old: int | None
    new: int | None
    by: int | None
    undo: bool = False


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded:
    ranking: tuple[int, ...]  # best first
    totals: tuple[int, ...]  # by seat
    places: tuple[int, ...]  # by seat, 1 = best; equal totals share a place
    cause: str = "M19"


Events = list[Any]


# ----------------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class LastRace:
    """The latest decided race, for the screen and for undoing a wrong Beetle win."""

    race: int
    kind: CallKind
    caller: int
    order: tuple[int, ...]
    times_ms: tuple[float, ...]
    errors_ms: tuple[float, ...]
    loser: int | None = None  # Mosquito: the slowest
    missing: tuple[int, ...] = ()  # Mosquito: never pressed (slowest by M14)
    tied: tuple[int, ...] = ()  # too close to call; a seeded draw picked ``loser`` (Mosquito) or the winner (Beetle)
    winner_at: int = 0  # Beetle: index into ``passes`` of the current winner (len = nobody)
    undo_open: bool = False  # Beetle: the table may still undo the win
    passes: tuple[int, ...] = ()  # Beetle: the order the win passes on (M15): the winner, then by time
    within_ms: float = 0.0  # > 0: ``tied`` were within this many ms, decided by a draw


@dataclass(frozen=True, slots=True)
class Annulment:
    """A trace line: the host annulled race ``race`` (a ``kind`` called by ``caller``) in ``round``."""

    race: int
    kind: CallKind
    caller: int
    round: int


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    n: int
    rng: Rng
    phase: Phase
    round: int
    rounds: int
    round_guard: int  # who was guard when this round began (M18 counts from it)
    guard: int
    turn: int
    race_no: int = 0
    caller: int | None = None  # the open race's caller
    last: LastRace | None = None
    out: int | None = None  # the player who went out this round
    pad: ScorePad = ScorePad(1)
    final: GameEnded | None = None
    annulled: tuple[Annulment, ...] = ()  # every race the host annulled, oldest first (the pad's trace)

    @property
    def seats(self) -> range:
        return range(self.n)


# ------------------------------------------------------------------------------------ the rules
def new_game(settings: Settings, n_seats: int, seed: int) -> State:
    if not MIN_SEATS <= n_seats <= MAX_SEATS:
        raise BadSettings(f"Cheating Moth is for {MIN_SEATS} to {MAX_SEATS} players (M2)")
    settings.validate()
    guard = settings.first_guard if settings.first_guard < n_seats else 0
    rounds = settings.rounds or n_seats  # M18
    pad = ScorePad.empty(n_seats, high=settings.max_points)
    return State(settings, n_seats, Rng.from_seed(seed), Phase.PLAY, 1, rounds, guard, guard, guard, pad=pad)


def _next(state: State, seat: int) -> int:
    return (seat + 1) % state.n


def _require(condition: bool, message: str, error: type[IllegalAction] = IllegalAction) -> None:
    if not condition:
        raise error(message)


def _require_phase(state: State, *phases: Phase) -> None:
    _require(state.phase in phases, f"not now: the table is in {state.phase.value}")


def _close_undo(state: State) -> State:
    if state.last is not None and state.last.undo_open:
        return replace(state, last=replace(state.last, undo_open=False))
    return state


def _on_call(state: State, by: int | None, action: Call) -> tuple[State, Events]:
    _require_phase(state, Phase.PLAY)
    _require(by is None or by == state.turn, "only the player whose turn it is calls a race", NotYourTurn)
    caller = state.turn
    number = state.race_no + 1
    eligible = _eligible(state.n, action.kind, caller)
    state = replace(_close_undo(state), phase=RACE_PHASE[action.kind], race_no=number, caller=caller)
    return state, [RaceCalled(number, action.kind, caller, eligible, RULE_OF[action.kind])]


def _eligible(n: int, kind: CallKind, caller: int) -> tuple[int, ...]:
    """M14: everyone but the Mosquito's player; M15: anyone (the program cannot see who holds the number)."""
    return tuple(s for s in range(n) if kind is CallKind.BEETLE or s != caller)


def _on_end_turn(state: State, by: int | None, action: EndTurn) -> tuple[State, Events]:
    _require_phase(state, Phase.PLAY)
    _require(by is None or by == state.turn, "it is not your turn", NotYourTurn)
    nxt = _next(state, state.turn)
    return replace(_close_undo(state), turn=nxt), [TurnPassed(nxt)]


def _on_pass_guard(state: State, by: int | None, action: PassGuard) -> tuple[State, Events]:
    _require_phase(state, Phase.PLAY)
    _require(by is None or by == state.guard, "only the guard hands the guard bug on (M10)")
    _require(0 <= action.to < state.n and action.to != state.guard, "hand the guard bug to another player")
    return replace(state, guard=action.to), [GuardPassed(state.guard, action.to, "M10")]


def _annullable(state: State) -> tuple[int, CallKind, int, bool] | None:
    """The race the host may annul now: the open one, else the round's latest decided one."""
    if state.phase in (Phase.MOSQUITO_RACE, Phase.BEETLE_RACE):
        return state.race_no, _open_kind(state), _caller(state), False
    if state.phase is Phase.PLAY and state.last is not None:
        return state.last.race, state.last.kind, state.last.caller, True
    return None


def _on_annul_race(state: State, by: int | None, action: AnnulRace) -> tuple[State, Events]:
    _require(by is None, "only the host annuls a race")
    race = _annullable(state)
    _require(race is not None, "there is no race to annul now")
    assert race is not None
    number, kind, caller, decided = race
    trace = Annulment(number, kind, caller, state.round)
    state = replace(state, phase=Phase.PLAY, caller=None, last=None, turn=caller, annulled=state.annulled + (trace,))
    return state, [RaceAnnulled(number, kind, caller, decided, RULE_OF[kind]), TurnPassed(caller)]


def _on_round_over(state: State, by: int | None, action: RoundOver) -> tuple[State, Events]:
    _require_phase(state, Phase.PLAY)
    _require(0 <= action.out < state.n, f"no seat {action.out}")
    _require(by is None or by == action.out, "only the player who has no cards left says so (or the host)")
    state = replace(_close_undo(state), phase=Phase.SCORING, out=action.out)
    pad = state.pad.enter(action.out, state.round, 0, by)  # M17: the player who went out scores nothing
    events: Events = [RoundEnded(state.round, action.out), PointsEntered(action.out, state.round, 0, by)]
    return replace(state, pad=pad), events


def _on_enter_points(state: State, by: int | None, action: EnterPoints) -> tuple[State, Events]:
    _require_phase(state, Phase.SCORING)
    _require(by is None or by == action.seat, "enter your own points (the host may enter anybody's)")
    pad = state.pad.enter(action.seat, state.round, action.points, by)
    return replace(state, pad=pad), [PointsEntered(action.seat, state.round, action.points, by)]


def _on_edit_points(state: State, by: int | None, action: EditPoints) -> tuple[State, Events]:
    if by is not None:
        own = action.seat == by and action.round == state.round and state.phase is Phase.SCORING
        _require(own, "players correct only their own points of this round; the host corrects the rest")
    pad = state.pad.edit(action.seat, action.round, action.points, by)
    change = pad.changes[-1]
    return replace(state, pad=pad), [PointsCorrected(action.seat, action.round, change.old, change.new, by)]


def _on_undo_points(state: State, by: int | None, action: UndoPoints) -> tuple[State, Events]:
    pad = state.pad.undo(by)
    change = pad.changes[-1]
    scoring_now = state.phase is Phase.SCORING and change.round_no == state.round
    _require(change.new is not None or scoring_now,
             "that would empty a finished round's entry: correct it with an edit instead")
    event = PointsCorrected(change.seat, change.round_no, change.old, change.new, by, undo=True)
    return replace(state, pad=pad), [event]


def _all_entered(state: State) -> bool:
    return len(state.pad.entered(state.round)) == state.n


def _on_next_round(state: State, by: int | None, action: NextRound) -> tuple[State, Events]:
    _require_phase(state, Phase.SCORING)
    missing = sorted(set(state.seats) - state.pad.entered(state.round))
    _require(not missing, f"still waiting for the points of seat(s) {', '.join(str(s + 1) for s in missing)}")
    if state.round >= state.rounds:
        final = _ranking(state)
        return replace(state, phase=Phase.GAME_OVER, final=final), [final]
    guard = _next(state, state.round_guard)  # M18: left of the previous round's first guard
    nxt = replace(state, phase=Phase.PLAY, round=state.round + 1, round_guard=guard, guard=guard, turn=guard,
                  out=None, last=None, caller=None)
    return nxt, [RoundStarted(nxt.round, guard, guard)]


def _ranking(state: State) -> GameEnded:
    """M19: lowest total wins. The moths each player took are physical cards the program never saw,
    so equal totals share a place (the M19 [gap] tie-break cannot be applied here)."""
    totals = state.pad.totals()
    ranking = tuple(sorted(state.seats, key=lambda s: (totals[s], s)))
    places = tuple(1 + sum(1 for other in totals if other < totals[s]) for s in state.seats)
    return GameEnded(ranking, totals, places)


# ---------------------------------------------------------------------------------------- races
def _presses(state: State, result: RaceDone) -> list[RacePress]:
    n = len(result.seats)
    if not n == len(result.times_ms) == len(result.error_ms) or any(
            len(column) not in (0, n) for column in (result.clocks, result.resolution_ms)):
        raise MalformedAction("race_done needs one time and one error (and clock, resolution) per seat")
    if result.rule not in (race_rule.LEGACY_RULE, race_rule.RULE):
        raise MalformedAction(f"race_done: unknown race rule {result.rule}")
    eligible = set(_eligible(state.n, _open_kind(state), _caller(state)))
    if len(set(result.seats)) != len(result.seats) or not set(result.seats) <= eligible:
        raise MalformedAction("race_done names a seat twice or a seat that was not in the race")
    if any(t < 0 or e < 0 for t, e in zip(result.times_ms, result.error_ms)) or any(r < 0 for r in result.resolution_ms):
        raise MalformedAction("race times, errors and resolutions are never negative")
    clocks = result.clocks or ("",) * n
    resolutions = result.resolution_ms or (0.0,) * n
    presses = [RacePress(*p) for p in zip(result.seats, result.times_ms, result.error_ms, clocks, resolutions)]
    if result.rule == race_rule.LEGACY_RULE:
        return sorted(presses, key=lambda p: (p.t_ms, p.seat))
    return list(race_rule.ranked(presses))


def _caller(state: State) -> int:
    return state.caller if state.caller is not None else state.turn


def _open_kind(state: State) -> CallKind:
    return CallKind.MOSQUITO if state.phase is Phase.MOSQUITO_RACE else CallKind.BEETLE


def _margins(presses: list[RacePress]) -> tuple[float, ...]:
    return tuple(b.t_ms - a.t_ms for a, b in zip(presses, presses[1:]))


def _on_race_done(state: State, action: RaceDone) -> tuple[State, Events]:
    _require_phase(state, Phase.MOSQUITO_RACE, Phase.BEETLE_RACE)
    _require(action.race == state.race_no, f"race {action.race} is not the open race ({state.race_no})")
    presses = _presses(state, action)
    if state.phase is Phase.MOSQUITO_RACE:
        return _decide_mosquito(state, presses, action.rule)
    return _decide_beetle(state, presses, action.rule)


def _legacy_slowest_candidates(presses: list[RacePress]) -> tuple[int, ...]:
    """Races journaled before :mod:`game.rules.race` (rule 0) replay with the rule they were decided
    by: the last press and any press within the two errors of it."""
    last = presses[-1]
    return tuple(p.seat for p in presses if last.t_ms - p.t_ms <= last.error_ms + p.error_ms)


def _slowest(state: State, presses: list[RacePress], missing: tuple[int, ...],
             rule: int) -> tuple[race_rule.Verdict, Rng]:
    """M14: a seat that never pressed (a draw among several); else the last press, a draw among
    the presses too close to call with it (M16, :func:`game.rules.race.decide`)."""
    if missing or rule == race_rule.LEGACY_RULE:
        candidates = missing or _legacy_slowest_candidates(presses)
        if len(candidates) == 1:
            return race_rule.Verdict(candidates[0]), state.rng
        seat, rng = state.rng.choice(candidates)  # M14 [gap]: a seeded draw, shown as such
        return race_rule.Verdict(seat, candidates), rng
    return race_rule.decide(presses, race_rule.End.LAST, state.rng)


def _decide_mosquito(state: State, presses: list[RacePress], rule: int) -> tuple[State, Events]:
    caller = _caller(state)
    pressed = {p.seat for p in presses}
    missing = tuple(s for s in _eligible(state.n, CallKind.MOSQUITO, caller) if s not in pressed)
    verdict, rng = _slowest(state, presses, missing, rule)
    slowest = verdict.seat
    givers = tuple(s for s in state.seats if s != slowest)  # the Mosquito's player gives too (M14 [pub])
    event = MosquitoDecided(state.race_no, tuple(p.seat for p in presses), tuple(p.t_ms for p in presses),
                            _margins(presses), missing, slowest, verdict.drawn if verdict.by_draw else (), givers,
                            within_ms=verdict.within_ms)
    last = LastRace(state.race_no, CallKind.MOSQUITO, caller, event.order, event.times_ms,
                    tuple(p.error_ms for p in presses), loser=slowest, missing=missing, tied=event.tied,
                    within_ms=verdict.within_ms)
    nxt = _next(state, caller)
    return (replace(state, rng=rng, phase=Phase.PLAY, caller=None, last=last, turn=nxt),
            [event, TurnPassed(nxt)])


def _decide_beetle(state: State, presses: list[RacePress], rule: int) -> tuple[State, Events]:
    """M15: the fastest press wins (a draw among presses too close to call, M16); a wrong card
    passes the win to the next press in :attr:`LastRace.passes`."""
    caller = _caller(state)
    order = tuple(p.seat for p in presses)
    rng, verdict = state.rng, race_rule.Verdict(order[0]) if order else None
    if verdict is not None and rule != race_rule.LEGACY_RULE:
        verdict, rng = race_rule.decide(presses, race_rule.End.FIRST, rng)
    winner = verdict.seat if verdict is not None else None
    tied = verdict.drawn if verdict is not None and verdict.by_draw else ()
    within = verdict.within_ms if verdict is not None else 0.0
    event = BeetleDecided(state.race_no, order, tuple(p.t_ms for p in presses), _margins(presses), winner,
                          tied=tied, within_ms=within)
    passes = race_rule.draw_order(presses, verdict) if verdict is not None else ()
    last = LastRace(state.race_no, CallKind.BEETLE, caller, order, event.times_ms,
                    tuple(p.error_ms for p in presses), winner_at=0, undo_open=winner is not None,
                    tied=tied, passes=passes, within_ms=within)
    nxt = _next(state, winner if winner is not None else caller)  # M15 [gap]
    return (replace(state, rng=rng, phase=Phase.PLAY, caller=None, last=last, turn=nxt), [event, TurnPassed(nxt)])


def _passes(last: LastRace) -> tuple[int, ...]:
    """The order a Beetle win passes on (a race decided before ``passes`` existed: by time)."""
    return last.passes or last.order


def _on_wrong_win(state: State, by: int | None, action: WrongWin) -> tuple[State, Events]:
    _require_phase(state, Phase.PLAY)
    last = state.last
    _require(last is not None and last.kind is CallKind.BEETLE and last.undo_open,
             "there is no Beetle win to undo now")
    assert last is not None
    passes = _passes(last)
    loser = passes[last.winner_at]
    _require(by is None or by == loser, "only the winner or the host undoes a Beetle win")
    at = last.winner_at + 1
    winner = passes[at] if at < len(passes) else None
    nxt = _next(state, winner if winner is not None else last.caller)
    last = replace(last, winner_at=at, undo_open=winner is not None)
    return replace(state, last=last, turn=nxt), [WinUndone(last.race, loser, winner, by), TurnPassed(nxt)]


def current_winner(last: LastRace | None) -> int | None:
    if last is None or last.kind is not CallKind.BEETLE or last.winner_at >= len(_passes(last)):
        return None
    return _passes(last)[last.winner_at]


# ---------------------------------------------------------------------------------- legal moves
def legal_actions(state: State, seat: int | None) -> list[Any]:
    """What ``seat`` (``None``: the host, as the table) may do now. Points actions are listed with
    0 points: the session compares :func:`_open_match` forms, and :func:`apply` checks the value."""
    if state.phase is Phase.GAME_OVER:
        return []
    host = seat is None
    out: list[Any] = []
    if state.phase is Phase.PLAY:
        if host or seat == state.turn:
            out += [Call(CallKind.MOSQUITO), Call(CallKind.BEETLE), EndTurn()]
        if host or seat == state.guard:
            out += [PassGuard(s) for s in state.seats if s != state.guard]
        out += [RoundOver(s) for s in state.seats if host or s == seat]
        if state.last is not None and state.last.undo_open and (host or seat == current_winner(state.last)):
            out.append(WrongWin())
    if state.phase is Phase.SCORING:
        todo = [s for s in state.seats if s not in state.pad.entered(state.round)]
        out += [EnterPoints(s, 0) for s in todo if host or s == seat]
        done = state.pad.entered(state.round)
        out += [EditPoints(s, state.round, 0) for s in sorted(done) if host or s == seat]
        if not todo:
            out.append(NextRound())
    if host and _annullable(state) is not None:
        out.append(AnnulRace())
    if host and state.pad.changes:
        out += [UndoPoints()] if state.pad.to_wire()["can_undo"] else []
        out += [EditPoints(s, r, 0) for s, r, _ in state.pad.cells
                if r < state.round or state.phase is not Phase.SCORING]
    return out


def _open_match(action: Any) -> Any:
    """The form an action has in :func:`legal_actions` (points zeroed)."""
    if isinstance(action, (EnterPoints, EditPoints)):
        return replace(action, points=0)
    return action


_HANDLERS: dict[type, Callable[[State, int | None, Any], tuple[State, Events]]] = {
    Call: _on_call, EndTurn: _on_end_turn, PassGuard: _on_pass_guard, WrongWin: _on_wrong_win,
    RoundOver: _on_round_over, EnterPoints: _on_enter_points, EditPoints: _on_edit_points,
    UndoPoints: _on_undo_points, NextRound: _on_next_round, AnnulRace: _on_annul_race,
}


def apply(state: State, seat: int | None, action: Any) -> tuple[State, Events]:
    check_seat(seat, state.n)
    if state.phase is Phase.GAME_OVER:
        raise GameOver("the game is over")
    if isinstance(action, RaceDone):
        _require(seat is None, "race results come from the table's judge")
        return _on_race_done(state, action)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise MalformedAction(f"{type(action).__name__} is not a Cheating Moth companion action")
    if seat is not None and isinstance(action, (UndoPoints, AnnulRace)):
        raise IllegalAction("only the host undoes a score pad change or annuls a race")
    return handler(state, seat, action)


# ---------------------------------------------------------------------------------------- views
def _race_view(state: State) -> dict[str, JSON] | None:
    if state.phase not in (Phase.MOSQUITO_RACE, Phase.BEETLE_RACE):
        return None
    kind = _open_kind(state)
    caller = _caller(state)
    return {"id": state.race_no, "kind": kind.value, "caller": caller, "rule": RULE_OF[kind],
            "eligible": list(_eligible(state.n, kind, caller)), "timeout_ms": state.settings.race_timeout_ms}


def _last_view(last: LastRace | None) -> dict[str, JSON] | None:
    if last is None:
        return None
    margins = [b - a for a, b in zip(last.times_ms, last.times_ms[1:])]
    return {"race": last.race, "kind": last.kind.value, "caller": last.caller, "rule": RULE_OF[last.kind],
            "order": list(last.order), "times_ms": list(last.times_ms), "error_ms": list(last.errors_ms),
            "margins_ms": margins, "loser": last.loser, "missing": list(last.missing), "tied": list(last.tied),
            "winner": current_winner(last),
            "undone": list(_passes(last)[: last.winner_at]) if last.kind is CallKind.BEETLE else [],
            "undo_open": last.undo_open, "within_ms": last.within_ms}


def public_view(state: State) -> dict[str, JSON]:
    final = state.final
    return {
        "game": ENGINE_NAME, "phase": state.phase.value, "round": state.round, "rounds": state.rounds,
        "guard": state.guard, "round_guard": state.round_guard, "turn": state.turn, "n": state.n,
        "race": _race_view(state), "last_race": _last_view(state.last), "out": state.out,
        "pad": state.pad.to_wire(upto=state.round),
        "annulled": [{"race": a.race, "kind": a.kind.value, "caller": a.caller, "round": a.round} for a in state.annulled],
        "waiting_for": sorted(set(state.seats) - state.pad.entered(state.round)) if state.phase is Phase.SCORING else [],
        "final": None if final is None else {"ranking": list(final.ranking), "totals": list(final.totals),
                                             "places": list(final.places), "rule": final.cause},
        "settings": {"race_timeout_ms": state.settings.race_timeout_ms, "max_points": state.settings.max_points,
                     "beetle_window_ms": state.settings.beetle_window_ms},
    }


def seat_view(state: State, seat: int) -> dict[str, JSON]:
    view = public_view(state)
    me = {
        "seat": seat, "my_turn": state.phase is Phase.PLAY and state.turn == seat,
        "guard": state.guard == seat,
        "may_undo_win": state.last is not None and state.last.undo_open and current_winner(state.last) == seat,
        "points": state.pad.value(seat, state.round), "total": state.pad.total(seat),
        "must_enter": state.phase is Phase.SCORING and state.pad.value(seat, state.round) is None,
    }
    return {**view, "me": me}


# --------------------------------------------------------------------------------------- engine
class CheatingMothCompanion(GameEngine[State]):
    name = ENGINE_NAME
    seat_settings = frozenset({"first_guard"})  # M3: the host picks the first guard's seat
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    actions = ACTIONS
    events = EVENTS

    settings_presets = {"classic": Settings()}

    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        return new_game(settings, n_seats, seed)

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        check_seat(seat, state.n)
        return legal_actions(state, seat)

    def table_actions(self, state: State) -> list[Any]:
        """What the host may do as the table (seat ``None``): a referee's taps for any player."""
        return legal_actions(state, None)

    def legal_form(self, action: Any) -> Any:
        """The form ``action`` takes in :meth:`legal_actions`: points zeroed, so any number reaches
        :meth:`apply`, whose score pad says what is wrong with a bad one (the session asks this)."""
        return _open_match(action)

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, list[Any]]:
        return apply(state, seat, action)

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return public_view(state) if seat is None else seat_view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def button_action(self, state: State, seat: Seat, presses: int) -> Any | None:
        """A double-press of the arcade button of the seat in turn calls a Mosquito (M14); a Beetle
        is called on the phone or with the host's key (one gesture, one meaning)."""
        if presses == 2 and state.phase is Phase.PLAY and seat == state.turn:
            return Call(CallKind.MOSQUITO)
        return None

    def race(self, state: State) -> RaceRequest | None:
        race = _race_view(state)
        if race is None:
            return None
        kind = _open_kind(state)
        mode = JudgeMode.SLOWEST_LOSES if kind is CallKind.MOSQUITO else JudgeMode.FASTEST_WINS
        number = state.race_no
        # the key is the race number the views show, so a phone's or a key's press names its race
        window = state.settings.beetle_window_ms if kind is CallKind.BEETLE else None  # M15: the right card
        return RaceRequest(key=str(number), mode=mode, eligible=frozenset(race["eligible"]),
                           timeout_ms=state.settings.race_timeout_ms,
                           on_result=lambda presses: race_done(number, presses), label="race", settle_ms=window)

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        return describe_event(event, name)


def race_done(race: int, presses: tuple[RacePress, ...]) -> RaceDone:
    """The table's action for the judge's presses (fastest first)."""
    return RaceDone(race, tuple(p.seat for p in presses), tuple(p.t_ms for p in presses),
                    tuple(p.error_ms for p in presses), tuple(p.clock for p in presses),
                    tuple(p.resolution_ms for p in presses), race_rule.RULE)


# ------------------------------------------------------------------------------ replay in words
def _names(seats: Any, name: Callable[[int], str]) -> str:
    return ", ".join(name(s) for s in seats) or "nobody"


def _times(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    return ", ".join(f"{name(s)} {race_rule.shown_ms(t)} ms" for s, t in zip(e.get("order", ()), e.get("times_ms", ())))


def _drawn(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    """How a too-close place was decided, in words (empty: by time alone)."""
    if e.get("within_ms"):
        return (f" ({_names(e['tied'], name)} within {race_rule.shown_ms(e['within_ms'])} ms, closer than the "
                "sources can tell: decided by a draw)")
    return " (too close to call: a seeded draw)" if e.get("tied") else ""


def describe_event(e: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    kind = e.get("type")
    if kind == "round_started":
        return f"Round {e['round']}: {name(e['guard'])} is the guard and plays first (M18, M4)."
    if kind == "turn_passed":
        return f"{name(e['seat'])}'s turn."
    if kind == "race_called":
        return f"{name(e['caller'])} put down a {e['kind']} and called the race ({e['cause']})."
    if kind == "mosquito_decided":
        drawn = _drawn(e, name)
        late = f"; no press: {_names(e['missing'], name)}" if e.get("missing") else ""
        return (f"Mosquito race: {_times(e, name)}{late}. Slowest: {name(e['slowest'])}{drawn}; "
                f"every other player hands them a card, never a moth (M14).")
    if kind == "beetle_decided":
        won = f"{name(e['winner'])} was fastest{_drawn(e, name)}" if e.get("winner") is not None else "nobody pressed"
        return f"Beetle race: {_times(e, name) or 'no presses'}; {won} (M15)."
    if kind == "win_undone":
        nxt = name(e["winner"]) if e.get("winner") is not None else "nobody"
        return f"{name(e['loser'])}'s card did not fit: the Beetle goes to {nxt} (M15)."
    if kind == "race_annulled":
        when = "after its verdict" if e.get("decided") else "while it ran"
        return f"The host annulled race {e['race']} ({e['kind']}, {e['cause']}) {when}: {name(e['caller'])}'s turn again."
    if kind == "guard_passed":
        return f"{name(e['new'])} caught cheating: now the guard (M10)."
    if kind == "round_ended":
        return f"{name(e['out'])} has no cards left: round {e['round']} ends (M17)."
    if kind == "points_entered":
        return f"{name(e['seat'])}'s round {e['round']}: {e['points']} penalty points (M17)."
    if kind == "points_corrected":
        who = "the host" if e.get("by") is None else name(e["by"])
        how = "undone" if e.get("undo") else "corrected"
        old = "–" if e.get("old") is None else e["old"]
        new = "–" if e.get("new") is None else e["new"]
        return f"{name(e['seat'])}'s round {e['round']}: {old} → {new}, {how} by {who}."
    if kind == "game_ended":
        ranking = ", ".join(f"{name(s)} {e['totals'][s]}" for s in e.get("ranking", ()))
        return f"Game over, lowest total wins (M19): {ranking}."
    return str(kind)


ENGINE = CheatingMothCompanion()
