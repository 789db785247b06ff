"""What the companion engines share: the quick-rules notes a table reads after each change.

A companion engine turns the events of its latest change into :class:`Note` lines (a rule id, a key
the phones translate, the seats it names) and keeps them in its state until the next change that
says something (``notes_after``). Each engine owns its own event -> note table.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .base import JSON


@dataclass(frozen=True, slots=True)
class Note:
    """One quick-rules line: a ``rule`` id, a ``key`` the phones translate, the seats it names."""

    rule: str
    key: str
    seats: tuple[int, ...] = ()
    value: int | None = None

    def to_wire(self) -> dict[str, JSON]:
        return {"rule": self.rule, "key": self.key, "seats": list(self.seats), "value": self.value}


NoteMakers = Mapping[str, Callable[[], Note]]
"""Wire event type -> the note it makes (lazily: only the matching maker reads its fields)."""


def note_of(kind: str, makers: NoteMakers) -> Note | None:
    """The note of an event of type ``kind`` (None: the event says nothing to the table)."""
    maker = makers.get(kind)
    return maker() if maker else None


def quick_notes(events: Iterable[Any], note: Callable[[Any], Note | None]) -> tuple[Note, ...]:
    """The notes of ``events`` in order, the silent ones left out."""
    return tuple(n for n in map(note, events) if n is not None)


def notes_after(events: Iterable[Any], note: Callable[[Any], Note | None], before: tuple[Note, ...]) -> tuple[Note, ...]:
    """The notes to show after a change: its own, or the ones ``before`` when it says nothing."""
    return quick_notes(events, note) or before
