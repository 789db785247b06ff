"""One rule for "too close to call" (M14–M16), shared by the session's race judge and every engine
that decides a race (a descriptor's ``races``).

Pure: no clock, no I/O; times are floats in milliseconds and are never rounded before the order is
decided (an arcade board's timestamps are exact to a fraction of a millisecond, M16).

* **Order** is by time of press, never by seat (presses at exactly the same time keep the order
  they were given in; they are too close to call anyway).
* **Too close**: two presses whose gap is within the sum of their errors — or, when both were
  stamped by the same clock (one arcade board, one clock map), within the sum of that clock's
  resolutions: one board orders its own buttons to a fraction of a millisecond even while its map
  to the session clock is a few milliseconds uncertain.
* **Groups**: consecutive places too close to call chain into one group (a–b close and b–c close
  make a, b and c one group).
* **Verdict**: the winner (first place) or the loser (last place) is the press at that end, unless
  its group has several seats: then a fair draw from the state's seeded :class:`Rng` decides among
  them, and the verdict says so (the seats drawn among and the error that made them too close).
"""
from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .rng import Rng

RULE = 1
"""The version of this rule a race result carries on the wire. ``LEGACY_RULE`` (0, the default of
the wire field) marks actions journaled before it: whole milliseconds and each engine's own rule,
which replay as they were decided."""
LEGACY_RULE = 0


class Timed(Protocol):
    """A press as the rule reads it (the judge's ``Press``, the engines' :class:`Timing`)."""

    @property
    def seat(self) -> int: ...

    @property
    def t_ms(self) -> float: ...

    @property
    def error_ms(self) -> float: ...

    @property
    def clock(self) -> str: ...

    @property
    def resolution_ms(self) -> float: ...


P = TypeVar("P", bound=Timed)


@dataclass(frozen=True, slots=True)
class Timing:
    """One counted press: ``t_ms`` since the race opened, ``error_ms`` how far it may be off,
    ``clock`` the shared clock that stamped it ("" = its own), ``resolution_ms`` that clock's step."""

    seat: int
    t_ms: float
    error_ms: float = 0.0
    clock: str = ""
    resolution_ms: float = 0.0


class End(enum.Enum):
    """Which place a race decides: a Beetle's fastest (M15) or a Mosquito's slowest (M14)."""

    FIRST = "first"
    LAST = "last"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The seat at the decided end. ``drawn``: the seats too close to call that a draw chose
    among (empty: decided by time alone); ``within_ms``: the error that made them too close."""

    seat: int
    drawn: tuple[int, ...] = ()
    within_ms: float = 0.0

    @property
    def by_draw(self) -> bool:
        return len(self.drawn) > 1


def tolerance_ms(a: Timed, b: Timed) -> float:
    """How far apart two presses may be and still not be told apart."""
    if a.clock and a.clock == b.clock:
        return a.resolution_ms + b.resolution_ms
    return a.error_ms + b.error_ms


def too_close(a: Timed, b: Timed) -> bool:
    """Can the order of these two presses not be told apart?"""
    return abs(b.t_ms - a.t_ms) <= tolerance_ms(a, b)


def ranked(presses: Iterable[P]) -> tuple[P, ...]:
    """Fastest first, by time alone (stable: equal times keep their given order)."""
    return tuple(sorted(presses, key=lambda p: p.t_ms))


def tie_groups(order: Sequence[Timed]) -> tuple[tuple[int, ...], ...]:
    """The groups of consecutive places too close to call (seats, in ``order``'s order)."""
    groups: list[list[int]] = []
    for a, b in zip(order, order[1:]):
        if too_close(a, b):
            if groups and groups[-1][-1] == a.seat:
                groups[-1].append(b.seat)
            else:
                groups.append([a.seat, b.seat])
    return tuple(tuple(g) for g in groups)


def _end_group(order: Sequence[Timed], end: End) -> tuple[Timed, ...]:
    """The presses at ``end`` that cannot be told apart from it, in time order."""
    seq = list(order) if end is End.FIRST else list(reversed(order))
    group = [seq[0]]
    for a, b in zip(seq, seq[1:]):
        if not too_close(a, b):
            break
        group.append(b)
    return tuple(group) if end is End.FIRST else tuple(reversed(group))


def within_ms(group: Sequence[Timed]) -> float:
    """The largest error between neighbours of a group (what the screen says it was 'within')."""
    return max((tolerance_ms(a, b) for a, b in zip(group, group[1:])), default=0.0)


def decide(order: Sequence[Timed], end: End, rng: Rng) -> tuple[Verdict, Rng]:
    """The seat at ``end`` of ``order`` (time order, see :func:`ranked`; not empty); a group too
    close to call is decided by one draw from ``rng`` (the new ``rng`` is returned)."""
    if not order:
        raise ValueError("a race with no presses has no verdict")
    group = _end_group(order, end)
    if len(group) == 1:
        return Verdict(group[0].seat), rng
    seats = tuple(p.seat for p in group)
    seat, rng = rng.choice(seats)
    return Verdict(seat, seats, within_ms(group)), rng


def draw_order(order: Sequence[Timed], verdict: Verdict) -> tuple[int, ...]:
    """The seats in the order a win passes on (M15: a wrong card passes the win to the next press):
    the verdict's seat first, then everybody else by time."""
    return (verdict.seat, *(p.seat for p in order if p.seat != verdict.seat))


def shown_ms(t_ms: float) -> str:
    """A time as the screen and the replay write it: whole milliseconds without a point, else to
    a tenth (``100``, ``100.2``)."""
    tenth = round(t_ms, 1)
    return str(int(tenth)) if math.isclose(tenth, round(tenth)) else f"{tenth:.1f}"
