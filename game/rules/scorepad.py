"""The companion games' score pad: points per seat per round, kept as a visible history.

Pure and immutable. Every change is a :class:`Change` in ``pad.changes`` — a first entry, an edit
("Ali's round 2: 7 → 5, corrected by the host") or an undo of the latest change not yet undone —
and the values are what that history adds up to: nothing is ever changed silently. ``by`` names
who made a change: a seat number, or ``None`` for the host (the table).

Bad values raise :class:`BadEntry` (a ``RulesError``, wire code ``bad_entry``) whose ``reason``
(:class:`EntryProblem`) lets a phone say what was wrong in the player's language; the pad is
unchanged. Engines decide who may enter or correct what; the pad only keeps the numbers honest.

Usage::

    pad = ScorePad.empty(n_seats=4, high=200)
    pad = pad.enter(seat=0, round_no=1, points=7, by=0)
    pad = pad.edit(seat=0, round_no=1, points=5, by=None)   # the host corrects it
    pad = pad.undo(by=None)                                  # back to 7, with a trace line
    pad.total(0), pad.totals(), pad.trace()
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from .base import JSON, RulesError

DEFAULT_HIGH = 999


class EntryProblem(enum.Enum):
    NOT_A_NUMBER = "not_a_number"
    NEGATIVE = "negative"
    OUT_OF_RANGE = "out_of_range"
    NO_SUCH_SEAT = "no_such_seat"
    NO_SUCH_ROUND = "no_such_round"
    ALREADY_ENTERED = "already_entered"  # a first entry where one exists: use edit
    NOT_ENTERED = "not_entered"  # an edit where nothing was entered yet
    UNCHANGED = "unchanged"  # an edit to the same value would be an empty trace line
    NOTHING_TO_UNDO = "nothing_to_undo"


class BadEntry(RulesError):
    """A score pad entry the pad refuses; ``reason`` says why (phones translate it)."""

    code = "bad_entry"

    def __init__(self, reason: EntryProblem, message: str, **fields: str | int) -> None:
        super().__init__(message)
        self.reason = reason
        self.fields = fields  # the number refused ("value"), its range ("low", "high"), the seat (from 1) and round

    def wire_fields(self) -> dict[str, str | int]:
        return {"reason": self.reason.value, **self.fields}


class ChangeKind(enum.Enum):
    ENTER = "enter"
    EDIT = "edit"
    UNDO = "undo"


@dataclass(frozen=True, slots=True)
class Change:
    """One line of the pad's history. ``old`` is ``None`` for a first entry; ``new`` is ``None``
    when an undo takes a first entry back out. ``undoes``: the index of the change an undo reverts."""

    kind: ChangeKind
    seat: int
    round_no: int
    old: int | None
    new: int | None
    by: int | None
    undoes: int | None = None

    def to_wire(self) -> dict[str, JSON]:
        return {"kind": self.kind.value, "seat": self.seat, "round": self.round_no, "old": self.old,
                "new": self.new, "by": self.by, "undoes": self.undoes}


def check_points(points: Any, low: int = 0, high: int = DEFAULT_HIGH) -> int:
    """``points`` as a whole number in ``low..high``, or :class:`BadEntry` saying what is wrong."""
    if isinstance(points, bool) or not isinstance(points, int):
        if isinstance(points, float) and points.is_integer():
            points = int(points)
        else:
            raise BadEntry(EntryProblem.NOT_A_NUMBER, f"{points!r} is not a whole number", value=str(points)[:16])
    if points < 0 and low >= 0:
        raise BadEntry(EntryProblem.NEGATIVE, f"points cannot be negative ({points})", value=points)
    if not low <= points <= high:
        raise BadEntry(EntryProblem.OUT_OF_RANGE, f"points must be between {low} and {high}, not {points}",
                       value=points, low=low, high=high)
    return points


def parse_points(text: Any, low: int = 0, high: int = DEFAULT_HIGH) -> int:
    """Typed text (a host's keyboard, a form field) as points; Persian, Arabic-Indic and Thai digits
    welcome, any other digit form (superscripts, circled, full-width) refused as not a number."""
    if not isinstance(text, str):
        return check_points(text, low, high)
    digits = text.strip().translate(_DIGITS)
    body = digits[1:] if digits[:1] in "+-" else digits
    if not (body.isascii() and body.isdigit()):  # '²', '①', '１': digits int() misreads or refuses
        raise BadEntry(EntryProblem.NOT_A_NUMBER, f"{text!r} is not a whole number", value=str(text)[:16])
    return check_points(int(digits), low, high)


_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩๐๑๒๓๔๕๖๗๘๙", "0123456789" * 3)


@dataclass(frozen=True, slots=True)
class ScorePad:
    n_seats: int
    low: int = 0
    high: int = DEFAULT_HIGH
    changes: tuple[Change, ...] = ()
    cells: tuple[tuple[int, int, int], ...] = ()  # (seat, round, points), sorted: what ``changes`` add up to

    @classmethod
    def empty(cls, n_seats: int, *, low: int = 0, high: int = DEFAULT_HIGH) -> ScorePad:
        if n_seats < 1 or low > high:
            raise ValueError("a score pad needs at least one seat and low <= high")
        return cls(n_seats, low, high)

    # ---------------------------------------------------------------------------- queries
    def value(self, seat: int, round_no: int) -> int | None:
        for s, r, points in self.cells:
            if (s, r) == (seat, round_no):
                return points
        return None

    def total(self, seat: int) -> int:
        return sum(points for s, _, points in self.cells if s == seat)

    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(seat) for seat in range(self.n_seats))

    def rounds(self) -> int:
        """The highest round with an entry (0: none yet)."""
        return max((r for _, r, _ in self.cells), default=0)

    def entered(self, round_no: int) -> frozenset[int]:
        return frozenset(s for s, r, _ in self.cells if r == round_no)

    def row(self, seat: int, upto: int) -> tuple[int | None, ...]:
        """A seat's points for rounds 1..upto (``None``: not entered)."""
        return tuple(self.value(seat, r) for r in range(1, upto + 1))

    def trace(self) -> tuple[Change, ...]:
        """The corrections a table must see: every edit and undo, oldest first."""
        return tuple(c for c in self.changes if c.kind is not ChangeKind.ENTER)

    def to_wire(self, upto: int | None = None) -> dict[str, JSON]:
        last = max(self.rounds(), upto or 0)
        return {
            "rounds": last, "low": self.low, "high": self.high,
            "rows": [list(self.row(seat, last)) for seat in range(self.n_seats)],
            "totals": list(self.totals()),
            "trace": [c.to_wire() for c in self.trace()],
            "can_undo": self._undoable() is not None,
        }

    # ---------------------------------------------------------------------------- changes
    def enter(self, seat: int, round_no: int, points: Any, by: int | None) -> ScorePad:
        """A first entry for ``seat`` in ``round_no``."""
        points = self._check(seat, round_no, points)
        if self.value(seat, round_no) is not None:
            raise BadEntry(EntryProblem.ALREADY_ENTERED, f"seat {seat + 1} already has points for round {round_no}",
                           seat=seat + 1, round=round_no, value=points)
        return self._with(Change(ChangeKind.ENTER, seat, round_no, None, points, by))

    def edit(self, seat: int, round_no: int, points: Any, by: int | None) -> ScorePad:
        """A correction of an entry that exists; the old value stays in the history."""
        points = self._check(seat, round_no, points)
        old = self.value(seat, round_no)
        if old is None:
            raise BadEntry(EntryProblem.NOT_ENTERED, f"seat {seat + 1} has no points for round {round_no} yet",
                           seat=seat + 1, round=round_no, value=points)
        if old == points:
            raise BadEntry(EntryProblem.UNCHANGED, f"seat {seat + 1}'s round {round_no} is already {points}",
                           seat=seat + 1, round=round_no, value=points)
        return self._with(Change(ChangeKind.EDIT, seat, round_no, old, points, by))

    def undo(self, by: int | None) -> ScorePad:
        """Revert the latest change that is not an undo and not undone yet (itself kept as a line)."""
        index = self._undoable()
        if index is None:
            raise BadEntry(EntryProblem.NOTHING_TO_UNDO, "there is nothing to undo")
        target = self.changes[index]
        current = self.value(target.seat, target.round_no)
        return self._with(Change(ChangeKind.UNDO, target.seat, target.round_no, current, target.old, by, index))

    def _undoable(self) -> int | None:
        undone = {c.undoes for c in self.changes if c.kind is ChangeKind.UNDO}
        for index in range(len(self.changes) - 1, -1, -1):
            change = self.changes[index]
            if change.kind is not ChangeKind.UNDO and index not in undone:
                return index
        return None

    def _check(self, seat: Any, round_no: Any, points: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise BadEntry(EntryProblem.NO_SUCH_SEAT, f"no seat {seat!r} on this pad")
        if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no < 1:
            raise BadEntry(EntryProblem.NO_SUCH_ROUND, f"no round {round_no!r}")
        try:
            return check_points(points, self.low, self.high)
        except BadEntry as exc:  # say whose number it was
            raise BadEntry(exc.reason, str(exc), **exc.fields, seat=seat + 1, round=round_no) from None

    def _with(self, change: Change) -> ScorePad:
        others = tuple(c for c in self.cells if (c[0], c[1]) != (change.seat, change.round_no))
        cell = () if change.new is None else ((change.seat, change.round_no, change.new),)
        return replace(self, changes=(*self.changes, change), cells=tuple(sorted(others + cell)))


def replay_cells(pad: ScorePad) -> dict[tuple[int, int], int]:
    """The values ``pad.changes`` add up to, recomputed from the history alone (tests, audits)."""
    cells: dict[tuple[int, int], int] = {}
    for change in pad.changes:
        if change.new is None:
            cells.pop((change.seat, change.round_no), None)
        else:
            cells[(change.seat, change.round_no)] = change.new
    return cells
