"""Seat records of a table: colour + symbol (from :mod:`game.seating`), a secret token (the seat
link), a short typed code, the device key of the phone holding the seat, the player's name and
language, or a bot.

Tokens and device keys are ``secrets.token_urlsafe(18)`` (144 bits). Codes are 4 letters from an
alphabet without look-alikes, so they can be read off a TV and typed on a phone.

The link and the code claim a *free* seat. Once a person holds a seat, only its device key (kept by
that phone) returns silently; the link or code of a held seat only asks the host (see
``Session.join_seat``), and an allowed hand-over rotates the token, the code and the device key.
"""
from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from game.bots import BotKind
from game.rules.base import RulesError
from game.seating import MAX_SEATS, bot_name, look

from .names import NAME_MAX, BadName, clean_name, drawable, undrawable  # noqa: F401  (the name rules live in names.py)
from .snapshot import SeatStatus

CODE_ALPHABET = "ACDEFHJKMNPRTWXY"
CODE_LENGTH = 4
TOKEN_BYTES = 18
MIN_OFFERED_SEATS = 3


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


Choose = Callable[[Sequence[str]], str]  # picks one letter of the code alphabet


def new_code(taken: Collection[str], choose: Choose = secrets.choice) -> str:
    """A fresh code not in ``taken`` (16**4 = 65536 codes for at most 12 seats)."""
    while True:
        code = "".join(choose(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


def normalise_code(text: str) -> str | None:
    """The canonical code for what a person typed (any case, spaces ignored), or None."""
    code = "".join(text.split()).upper()
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


class NameNeeded(RulesError):
    """A bot plays this seat: only a named join takes it over (``seat``: which one)."""

    code = "name_needed"

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


class AskHost(RulesError):
    """This seat is held (by a person, or by a bot mid-game): only the host can hand it over."""

    code = "ask_host"

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    token: str
    code: str
    name: str = ""
    lang: str | None = None  # None: the phone follows the table's language
    bot: BotKind | None = None
    joined: bool = False  # a person has opened this seat's link
    device: str = ""  # the key of the phone holding the seat ("" while nobody does)

    @property
    def status(self) -> SeatStatus:
        if self.bot is not None:
            return SeatStatus.BOT
        return SeatStatus.JOINED if self.joined else SeatStatus.FREE

    def freed(self, taken_codes: Collection[str]) -> SeatRecord:
        """The seat with a new token and code, no person and no bot (after a kick)."""
        return SeatRecord(self.seat, new_token(), new_code(taken_codes))

    def rotated(self, taken_codes: Collection[str]) -> SeatRecord:
        """The same seat and player with a new link, code and device key: every old link, code and
        phone of this seat stops working (a hand-over to a new device)."""
        return replace(self, token=new_token(), code=new_code(set(taken_codes) - {self.code}),
                       device=new_token() if self.joined else "")

    def held_by(self) -> SeatRecord:
        """The seat taken by a person on a new device (a fresh device key; a bot steps aside)."""
        return replace(self, bot=None, joined=True, device=new_token())

    def with_bot(self, kind: BotKind | None) -> SeatRecord:
        if kind is None:
            return replace(self, bot=None)
        return replace(self, bot=kind, joined=False, name="", device="")

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "token": self.token, "code": self.code, "name": self.name,
                "lang": self.lang, "bot": self.bot.value if self.bot else None, "joined": self.joined,
                "device": self.device}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatRecord:
        bot = data.get("bot")
        joined = bool(data.get("joined", False))
        token = str(data["token"])
        # a journal from before device keys: the joined phone kept its link as its key
        device = str(data.get("device") or (token if joined else ""))
        return cls(seat=int(data["seat"]), token=token, code=str(data["code"]),
                   name=str(data.get("name", "")), lang=data.get("lang"),
                   bot=BotKind(bot) if bot else None, joined=joined, device=device)


def fresh_seats(avoid: Collection[str] = (), choose: Choose = secrets.choice) -> tuple[SeatRecord, ...]:
    """Every seat with a new link and a code unlike each other's and unlike ``avoid`` (the codes of
    the group a kiosk table was handed over from: an old group's typed code never opens a seat of
    the next group)."""
    codes: set[str] = set(avoid)
    seats = []
    for index in range(MAX_SEATS):
        code = new_code(codes, choose)
        codes.add(code)
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


def shown_name(record: SeatRecord, lang: str) -> str:
    """A seat's name as the big screen and every phone show it: the player's own, or its bot's."""
    return record.name or (bot_name(record.seat, lang) if record.bot is not None else "")
