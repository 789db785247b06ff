"""What the Cheating Moth companion screen draws, read from the snapshot (pure: no pygame).

The engine's public view gives the round, the guard, the turn, the open race, the latest race and
the score pad; the session's race floor (``snapshot.race``) adds who has pressed so far, the false
starts and the time source of every counted press (M16)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from game.session.snapshot import FalseStartInfo, RaceInfo, TableSnapshot


@dataclass(frozen=True, slots=True)
class FalseStartModel:
    seat: int
    early_ms: int
    source: str


@dataclass(frozen=True, slots=True)
class OpenRace:
    race: int
    kind: str  # "mosquito" | "beetle"
    caller: int
    rule: str
    eligible: tuple[int, ...]
    pressed: tuple[int, ...]
    false_starts: tuple[FalseStartModel, ...]
    armed_at_ms: int | None
    timeout_ms: int
    closes_at_ms: float | None = None  # a Beetle with a press closes then (M15: the right card may follow)
    window_ms: float = 0.0  # how long it stays open after its first press


@dataclass(frozen=True, slots=True)
class RaceLine:
    seat: int
    ms: float  # full precision (an arcade board's fractions of a millisecond, M16)
    margin_ms: float | None  # behind the press before it
    source: str  # "arcade" | "phone" | "keyboard" | "bot" | "" (unknown)
    error_ms: float = 0.0  # this press's own error bound (its source's precision)


@dataclass(frozen=True, slots=True)
class DoneRace:
    race: int
    kind: str
    caller: int
    rule: str
    lines: tuple[RaceLine, ...]
    missing: tuple[int, ...]
    tied: tuple[int, ...]
    loser: int | None
    winner: int | None
    undone: tuple[int, ...]
    undo_open: bool
    error_ms: float
    false_starts: tuple[FalseStartModel, ...]
    within_ms: float = 0.0  # > 0: ``tied`` were within this many ms; a draw decided (game/rules/race.py)
    clamped: tuple[int, ...] = ()  # seats whose phone claimed an earlier press than the table could believe (M16)


@dataclass(frozen=True, slots=True)
class TraceLine:
    kind: str  # "edit" | "undo" | "annul_mosquito" | "annul_beetle" (the host annulled race ``race``)
    seat: int  # an annulled race: its caller, whose turn it is again
    round: int
    old: int | None
    new: int | None
    by: int | None
    race: int | None = None


@dataclass(frozen=True, slots=True)
class CompanionModel:
    phase: str
    round: int
    rounds: int
    n: int
    guard: int
    turn: int
    race: OpenRace | None
    last: DoneRace | None
    rows: tuple[tuple[int | None, ...], ...]
    totals: tuple[int, ...]
    trace: tuple[TraceLine, ...]
    out: int | None
    waiting_for: tuple[int, ...]
    places: tuple[int, ...] | None  # game over: place by seat (1 = best, equal totals share)
    ranking: tuple[int, ...] | None


def _ints(value: Any) -> tuple[int, ...]:
    return tuple(v for v in value if isinstance(v, int)) if isinstance(value, Sequence) else ()


def _nums(value: Any) -> tuple[float, ...]:
    """Times and errors: whole or fractional milliseconds (never a flag)."""
    if not isinstance(value, Sequence):
        return ()
    return tuple(v for v in value if isinstance(v, (int, float)) and not isinstance(v, bool))


def _int(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _num(value: Any) -> float:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _opt(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _starts(items: tuple[FalseStartInfo, ...]) -> tuple[FalseStartModel, ...]:
    return tuple(FalseStartModel(f.seat, round(f.early_by_ms), f.source) for f in items)


def _open_race(view: Mapping[str, Any], floor: RaceInfo) -> OpenRace | None:
    race = view.get("race")
    if not isinstance(race, Mapping):
        return None
    current = floor.current
    return OpenRace(_int(race.get("id")), str(race.get("kind", "")), _int(race.get("caller")), str(race.get("rule", "")),
                    _ints(race.get("eligible")), current.pressed if current else (),
                    _starts(current.false_starts) if current else (),
                    current.armed_at_ms if current else None, _int(race.get("timeout_ms"), 5000),
                    current.closes_at_ms if current else None, current.window_ms if current else 0.0)


def _sources(floor: RaceInfo, order: tuple[int, ...]) -> dict[int, str]:
    """The judge's source per seat for the latest race, when its outcome is this race's."""
    outcome = floor.last
    if outcome is None or outcome.order != order:
        return {}
    return dict(zip(order, outcome.sources))


def _done_race(view: Mapping[str, Any], floor: RaceInfo) -> DoneRace | None:
    last = view.get("last_race")
    if not isinstance(last, Mapping):
        return None
    order = _ints(last.get("order"))
    times = _nums(last.get("times_ms"))
    errors = _nums(last.get("error_ms"))
    sources = _sources(floor, order)
    lines = tuple(RaceLine(s, t, None if i == 0 else t - times[i - 1], sources.get(s, ""),
                           errors[i] if i < len(errors) else 0.0)
                  for i, (s, t) in enumerate(zip(order, times)))
    starts = _starts(floor.last.false_starts) if floor.last is not None and sources else ()
    clamped = floor.last.clamped if floor.last is not None and sources else ()
    return DoneRace(_int(last.get("race")), str(last.get("kind", "")), _int(last.get("caller")), str(last.get("rule", "")),
                    lines, _ints(last.get("missing")), _ints(last.get("tied")), _opt(last.get("loser")),
                    _opt(last.get("winner")), _ints(last.get("undone")), bool(last.get("undo_open")),
                    max(_nums(last.get("error_ms")), default=0), starts, _num(last.get("within_ms")), clamped)


def _trace(pad: Mapping[str, Any], annulled: Any) -> tuple[TraceLine, ...]:
    """The pad's corrections, then the races the host annulled (traced on the pad)."""
    items = pad.get("trace")
    lines = tuple(TraceLine(str(c.get("kind", "")), _int(c.get("seat")), _int(c.get("round")), _opt(c.get("old")),
                            _opt(c.get("new")), _opt(c.get("by")))
                  for c in (items if isinstance(items, Sequence) else ()) if isinstance(c, Mapping))
    races = tuple(TraceLine(f"annul_{a.get('kind')}", _int(a.get("caller")), _int(a.get("round")), None, None, None,
                            _int(a.get("race")))
                  for a in (annulled if isinstance(annulled, Sequence) else ()) if isinstance(a, Mapping))
    return lines + races


def model_of(snapshot: TableSnapshot) -> CompanionModel:
    view = snapshot.public_view if isinstance(snapshot.public_view, Mapping) else {}
    pad_value = view.get("pad")
    pad: Mapping[str, Any] = pad_value if isinstance(pad_value, Mapping) else {}
    n = _int(view.get("n"), len(snapshot.seats))
    rows_value = pad.get("rows")
    rows: Sequence[Any] = rows_value if isinstance(rows_value, Sequence) else ()
    final = view.get("final") if isinstance(view.get("final"), Mapping) else None
    return CompanionModel(
        phase=str(view.get("phase", "play")), round=_int(view.get("round"), 1), rounds=_int(view.get("rounds"), 1), n=n,
        guard=_int(view.get("guard")), turn=_int(view.get("turn")), race=_open_race(view, snapshot.race),
        last=_done_race(view, snapshot.race),
        rows=tuple(tuple(_opt(v) for v in row) for row in rows if isinstance(row, Sequence)),
        totals=_ints(pad.get("totals")) or (0,) * n, trace=_trace(pad, view.get("annulled")), out=_opt(view.get("out")),
        waiting_for=_ints(view.get("waiting_for")),
        places=_ints(final.get("places")) if final else None, ranking=_ints(final.get("ranking")) if final else None,
    )
