"""What a game's settings may be set to, declared once and read by every editor (the TV's settings
screen, the host console): :class:`SettingSpec`, one per editable setting, derived from the fields
of the game's Settings dataclass (:func:`settings_schema`).

A ``bool`` field is a switch; an ``int`` field a number (``*_ms`` ones a duration in milliseconds,
shown and typed in seconds; a seat field, named by the engine, a seat picked by name and colour); an enum field, or a text field the engine gives a word list for, a
choice among its values. Other fields (lists, free text) are not edited from a menu.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MS_STEP = 5_000  # a duration steps by 5 s on the TV's arrows


class SettingKind(enum.Enum):
    """How a setting is edited."""

    BOOL = "bool"  # on / off
    INT = "int"  # a whole number between ``minimum`` and ``maximum`` (None: no upper bound)
    CHOICE = "choice"  # one of ``choices``


class SettingUnit(enum.Enum):
    """What an INT setting counts."""

    COUNT = "count"
    MS = "ms"  # milliseconds, shown and typed in seconds; 0 often means untimed
    SEAT = "seat"  # a seat of the table (its index): shown and picked as the seat (name, colour), never as a number


@dataclass(frozen=True, slots=True)
class SettingSpec:
    """One editable setting: its kind, its values and the i18n key of its label (the same key in
    the TV's ``screen`` and the phone's ``web`` strings). The engine still validates every change."""

    key: str
    kind: SettingKind
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int | None = None
    step: int = 1
    unit: SettingUnit = SettingUnit.COUNT

    @property
    def label_key(self) -> str:
        return f"settings.{self.key}"

    def stepped(self, value: Any, direction: int, seat_count: int = 0) -> Any:
        """The next value in ``direction`` (+1 / -1): a switch flips, a number moves by ``step``
        within its range, a seat goes round the table's ``seat_count`` seats, a choice cycles. A
        value the spec does not know stays as it is."""
        if self.kind is SettingKind.BOOL:
            return not value if isinstance(value, bool) else value
        if self.kind is SettingKind.INT:
            if not isinstance(value, int) or isinstance(value, bool):
                return value
            if self.unit is SettingUnit.SEAT and seat_count > 0:
                return (value + direction) % seat_count
            moved = max(self.minimum, value + direction * self.step)
            return moved if self.maximum is None else min(self.maximum, moved)
        if value not in self.choices:
            return value
        return self.choices[(self.choices.index(value) + direction) % len(self.choices)]

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind.value, "choices": list(self.choices), "min": self.minimum,
                "max": self.maximum, "step": self.step, "unit": self.unit.value, "label": self.label_key}


def _spec(name: str, hint: Any, words: Mapping[str, tuple[str, ...]], seats: frozenset[str]) -> SettingSpec | None:
    if hint is bool:
        return SettingSpec(name, SettingKind.BOOL)
    if hint is int and name in seats:
        return SettingSpec(name, SettingKind.INT, unit=SettingUnit.SEAT)
    if hint is int:
        ms = name.endswith("_ms")
        return SettingSpec(name, SettingKind.INT, step=MS_STEP if ms else 1,
                           unit=SettingUnit.MS if ms else SettingUnit.COUNT)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return SettingSpec(name, SettingKind.CHOICE, choices=tuple(str(m.value) for m in hint))
    if hint is str and len(words.get(name, ())) > 1:
        return SettingSpec(name, SettingKind.CHOICE, choices=tuple(words[name]))
    return None


@functools.cache
def _hints(settings_type: type) -> dict[str, Any]:
    """The resolved field types of a settings dataclass (resolved once per type)."""
    return typing.get_type_hints(settings_type)


def settings_schema(settings_type: type, words: Mapping[str, tuple[str, ...]] | None = None,
                    seats: frozenset[str] = frozenset()) -> tuple[SettingSpec, ...]:
    """The editable settings of a Settings dataclass, in field order. ``words``: the values of
    text fields that are one of a few words (a deck's language); ``seats``: int fields that name a
    seat (a first guard)."""
    hints = _hints(settings_type)
    specs = (_spec(f.name, hints[f.name], words or {}, seats) for f in dataclasses.fields(settings_type))
    return tuple(s for s in specs if s is not None)
