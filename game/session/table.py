"""The table's lobby record: seats, game, preset, settings, language, phase. An immutable value the
session replaces on every lobby change, and the journal stores as JSON."""
from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from game.bots import kind_choices
from game.rules.base import BadSettings
from game.seating import MAX_SEATS

from .pads import pad_map_from
from .seats import MIN_OFFERED_SEATS, BotKind, SeatRecord, fresh_seats
from .snapshot import ExtendedTimers, TablePhase

IDLE_MINUTES_RANGE = (1, 240)



@dataclass(frozen=True, slots=True)
class TableSettings:
    """Settings of the table itself (not of a game)."""

    idle_reset_minutes: int = 10  # kiosk: back to the lobby after this long without input
    default_bot: BotKind = BotKind.HEURISTIC  # fills free seats at start and kicked seats in play
    how_to_play: bool = False  # the TV explains the game before its first round (kiosk: on)
    extended_timers: ExtendedTimers = ExtendedTimers.NORMAL  # every timed step ×1.5 or ×2

    def to_json(self) -> dict[str, Any]:
        return {"idle_reset_minutes": self.idle_reset_minutes, "default_bot": self.default_bot.value,
                "how_to_play": self.how_to_play, "extended_timers": self.extended_timers.value}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableSettings:
        out = cls()
        for name, value in data.items():
            out = out.with_setting(name, value)
        return out

    def with_setting(self, name: str, value: Any) -> TableSettings:
        if name == "idle_reset_minutes":
            low, high = IDLE_MINUTES_RANGE
            if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
                raise BadSettings(f"idle_reset_minutes must be a whole number from {low} to {high}")
            return replace(self, idle_reset_minutes=value)
        if name == "how_to_play":
            if not isinstance(value, bool):
                raise BadSettings("how_to_play must be true or false")
            return replace(self, how_to_play=value)
        if name == "extended_timers":
            try:
                return replace(self, extended_timers=ExtendedTimers(value))
            except ValueError:
                choices = ", ".join(e.value for e in ExtendedTimers)
                raise BadSettings(f"extended_timers must be one of {choices}") from None
        if name == "default_bot":
            try:
                return replace(self, default_bot=BotKind(value))
            except ValueError:
                raise BadSettings(f"default_bot must be {kind_choices()}") from None
        raise BadSettings(f"unknown table setting {name!r}")

    @staticmethod
    def names() -> tuple[str, ...]:
        return ("idle_reset_minutes", "default_bot", "how_to_play", "extended_timers")


@dataclass(frozen=True, slots=True)
class TableRecord:
    game: str
    preset: str | None
    settings: dict[str, Any]  # the game's settings, wire form
    language: str
    seat_count: int
    seats: tuple[SeatRecord, ...]  # always MAX_SEATS records; the first ``seat_count`` are offered
    table_settings: TableSettings = field(default_factory=TableSettings)
    phase: TablePhase = TablePhase.LOBBY
    game_no: int | None = None  # the journal's number of the game in play (or just finished)
    admin_pin: str = ""
    arcade_map: tuple[tuple[int, int], ...] = ()  # arcade board: (seat, button) pairs; empty: button i is seat i
    pad_map: tuple[tuple[int, str], ...] = ()  # USB pads: (seat, "<pad>/<button>") pairs (pads.py); unmapped: no seat

    @property
    def offered(self) -> tuple[SeatRecord, ...]:
        return self.seats[: self.seat_count]

    def with_seat(self, record: SeatRecord) -> TableRecord:
        seats = list(self.seats)
        seats[record.seat] = record
        return replace(self, seats=tuple(seats))

    def seat_by_token(self, token: str) -> SeatRecord | None:
        """The offered seat whose link is ``token``."""
        wanted = _utf8(token)
        return next((r for r in self.offered if secrets.compare_digest(_utf8(r.token), wanted)), None)

    def seat_by_device(self, key: str) -> SeatRecord | None:
        """The offered seat held by the phone whose device key is ``key``."""
        wanted = _utf8(key)
        return next((r for r in self.offered if r.device and secrets.compare_digest(_utf8(r.device), wanted)), None)

    def seat_by_code(self, code: str) -> SeatRecord | None:
        return next((r for r in self.offered if r.code == code), None)

    def check_pin(self, pin: object) -> bool:
        """``pin`` is this table's admin PIN (compared in constant time; anything but text: no)."""
        if not isinstance(pin, str) or not pin:
            return False
        try:
            typed = pin.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate is never the PIN
            return False
        return secrets.compare_digest(typed, self.admin_pin.encode())

    def codes(self) -> set[str]:
        return {r.code for r in self.seats}

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game, "preset": self.preset, "settings": self.settings,
            "language": self.language, "seat_count": self.seat_count,
            "seats": [s.to_json() for s in self.seats],
            "table_settings": self.table_settings.to_json(), "phase": self.phase.value,
            "game_no": self.game_no, "admin_pin": self.admin_pin,
            "arcade_map": [list(pair) for pair in self.arcade_map],
            **({"pad_map": [list(pair) for pair in self.pad_map]} if self.pad_map else {}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableRecord:
        seats = tuple(SeatRecord.from_json(s) for s in data["seats"])
        if len(seats) != MAX_SEATS or [s.seat for s in seats] != list(range(MAX_SEATS)):
            raise ValueError("journal table has a wrong seat list")
        count = int(data["seat_count"])
        if not MIN_OFFERED_SEATS <= count <= MAX_SEATS:
            raise ValueError("journal table has a wrong seat count")
        game_no = data.get("game_no")
        return cls(
            game=str(data["game"]), preset=data.get("preset"), settings=dict(data["settings"]),
            language=str(data["language"]), seat_count=count, seats=seats,
            table_settings=TableSettings.from_json(data.get("table_settings", {})),
            phase=TablePhase(data["phase"]), game_no=int(game_no) if game_no is not None else None,
            admin_pin=str(data.get("admin_pin", "")), arcade_map=_arcade_map(data.get("arcade_map", [])),
            pad_map=pad_map_from(data.get("pad_map", [])),
        )

    @classmethod
    def fresh(cls, game: str, preset: str | None, settings: dict[str, Any], language: str,
              seat_count: int, admin_pin: str) -> TableRecord:
        return cls(game=game, preset=preset, settings=settings, language=language,
                   seat_count=seat_count, seats=fresh_seats(), admin_pin=admin_pin)


def _utf8(text: str) -> bytes:
    """Bytes to compare secrets by; text that is not valid Unicode (a lone surrogate) never matches."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return b"\xff"  # not valid UTF-8: no token's encoding


def _arcade_map(data: Any) -> tuple[tuple[int, int], ...]:
    """The journaled seat → button pairs (a seat and a button appear at most once)."""
    pairs = tuple((int(seat), int(button)) for seat, button in data)
    seats, buttons = [p[0] for p in pairs], [p[1] for p in pairs]
    if len(set(seats)) != len(seats) or len(set(buttons)) != len(buttons) or any(x < 0 for x in seats + buttons):
        raise ValueError("journal table has a wrong arcade button mapping")
    return tuple(sorted(pairs))
