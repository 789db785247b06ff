"""Seat records of a table: colour + symbol (from :mod:`game.seating`), a secret token (the seat
link), a short typed code, the player's name and language, or a bot.

Tokens are ``secrets.token_urlsafe(18)`` (144 bits). Codes are 4 letters from an alphabet without
look-alikes, so they can be read off a TV and typed on a phone.
"""
from __future__ import annotations

import enum
import secrets
import unicodedata
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

from game.rules.base import MalformedAction
from game.seating import MAX_SEATS, look

from .snapshot import SeatStatus

CODE_ALPHABET = "ACDEFHJKMNPRTWXY"
CODE_LENGTH = 4
TOKEN_BYTES = 18
NAME_MAX = 24
MIN_OFFERED_SEATS = 3


class BotKind(enum.Enum):
    RANDOM = "random"
    HEURISTIC = "heuristic"


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_code(taken: Collection[str]) -> str:
    """A fresh code not in ``taken`` (16**4 = 65536 codes for at most 12 seats)."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def normalise_code(text: str) -> str | None:
    """The canonical code for what a person typed (any case, spaces ignored), or None."""
    code = "".join(text.split()).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def clean_name(name: Any) -> str:
    """A player's name, trimmed; 1..24 characters, no control or line-breaking characters."""
    if not isinstance(name, str):
        raise MalformedAction("name must be text")
    name = unicodedata.normalize("NFC", name.strip())
    if not 1 <= len(name) <= NAME_MAX:
        raise MalformedAction(f"name must be 1 to {NAME_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs", "Co") for ch in name):
        raise MalformedAction("name has control characters")
    return name


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    token: str
    code: str
    name: str = ""
    lang: str | None = None  # None: the phone follows the table's language
    bot: BotKind | None = None
    joined: bool = False  # a person has opened this seat's link

    @property
    def status(self) -> SeatStatus:
        if self.bot is not None:
            return SeatStatus.BOT
        return SeatStatus.JOINED if self.joined else SeatStatus.FREE

    def freed(self, taken_codes: Collection[str]) -> SeatRecord:
        """The seat with a new token and code, no person and no bot (after a kick)."""
        return SeatRecord(self.seat, new_token(), new_code(taken_codes))

    def with_bot(self, kind: BotKind | None) -> SeatRecord:
        return replace(self, bot=kind, joined=False if kind is not None else self.joined,
                       name="" if kind is not None else self.name)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "token": self.token, "code": self.code, "name": self.name,
                "lang": self.lang, "bot": self.bot.value if self.bot else None, "joined": self.joined}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatRecord:
        bot = data.get("bot")
        return cls(seat=int(data["seat"]), token=str(data["token"]), code=str(data["code"]),
                   name=str(data.get("name", "")), lang=data.get("lang"),
                   bot=BotKind(bot) if bot else None, joined=bool(data.get("joined", False)))


def fresh_seats() -> tuple[SeatRecord, ...]:
    codes: list[str] = []
    seats = []
    for index in range(MAX_SEATS):
        code = new_code(codes)
        codes.append(code)
        seats.append(SeatRecord(index, new_token(), code))
    return tuple(seats)


def seat_public_json(record: SeatRecord, connected: bool, *, secrets_too: bool, base_url: str) -> dict[str, Any]:
    """What a phone's lobby shows about a seat; tokens and codes only for the host."""
    seat_look = look(record.seat)
    out: dict[str, Any] = {
        "seat": record.seat, "status": record.status.value, "name": record.name,
        "colour": seat_look.colour, "colour_name": seat_look.colour_name, "symbol": seat_look.symbol,
        "connected": connected, "lang": record.lang, "bot": record.bot.value if record.bot else None,
    }
    if secrets_too:
        out["code"] = record.code
        out["url"] = f"{base_url}/s/{record.token}"
    return out
