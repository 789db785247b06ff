"""The seat-claim queue: phones asking for a held seat (its link or code was used on another
device, or a bot's seat mid-game), waiting for the host — or the seat's own phone — to answer.

:class:`ClaimQueue` only keeps the requests and decides which are open; the session moves the seat
(it is the one writer) and the hub tells the phones. The queue is the place for the rules on who
may ask and for how long (today: at most :data:`MAX_CLAIMS` open at once, ids a restarted table
never reuses).
"""
from __future__ import annotations

import secrets
from collections.abc import Container, Iterator
from dataclasses import dataclass, replace
from typing import Any

from game.config import LANGUAGES
from game.rules.base import IllegalAction, MalformedAction, UnknownSeat

from .seats import AskHost, NameNeeded, SeatRecord, clean_name, shown_name
from .snapshot import ClaimInfo, TablePhase
from .table import TableRecord

__all__ = ["CLAIM_ID_START", "MAX_CLAIMS", "Claim", "ClaimQueue", "HandedOver", "check_lang", "granted_record", "join"]

MAX_CLAIMS = 8  # phones waiting at once for the host to hand them a held seat
# Claim ids start anywhere below this (and stay below 2**53 for the phones' JavaScript): a request
# made again after a restart gets a new id, so an answer to the old one (a stale host console, a
# seated phone's old "give my seat?" card) can never land on another phone's request.
CLAIM_ID_START = 1 << 40


class HandedOver(UnknownSeat):
    """A link of a group the table was handed over from (kiosk): it shows nothing any more."""

    code = "new_group"


def check_lang(lang: Any) -> str:
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise MalformedAction(f"lang must be one of {', '.join(LANGUAGES)}")
    return lang


def join(table: TableRecord, token: Any, name: Any, lang: Any, retired: Container[str]) -> tuple[SeatRecord, SeatRecord]:
    """A phone says hello with ``token``: the seat it takes, as (before, after). Its own device
    key: back in its seat. The link of a free seat: the seat becomes this phone's (a new device
    key). The link of a bot seat: with a name, in the lobby, the bot steps aside. Anything else (a
    held seat, a bot mid-game) raises :class:`AskHost`: only the host hands it over (a claim)."""
    if not isinstance(token, str) or not token:
        raise UnknownSeat("this seat link is not valid at this table")
    record = table.seat_by_device(token)
    if record is not None:
        return record, _named(record, name, lang, names_beside(table, record.seat))
    record = table.seat_by_token(token)
    if record is None:
        if token in retired:
            raise HandedOver("this table has a new game: scan the big screen to play again")
        raise UnknownSeat("this seat link is not valid at this table")
    if record.bot is None and not record.joined:
        return record, _named(record.held_by(), name, lang, names_beside(table, record.seat))
    if record.bot is not None and name is None:
        raise NameNeeded("a bot plays this seat: type your name to take it", record.seat)
    if record.bot is not None and table.phase is TablePhase.LOBBY:
        return record, _named(record.held_by(), name, lang, names_beside(table, record.seat))
    raise AskHost("this seat is taken: the host must allow this phone", record.seat)


def names_beside(table: TableRecord, seat: int) -> list[str]:
    """The other seats' names: a new name for ``seat`` must be told apart from them (``names.py``)."""
    return [r.name for r in table.seats if r.seat != seat]


def _named(record: SeatRecord, name: Any, lang: Any, taken: list[str]) -> SeatRecord:
    if name is not None:
        record = replace(record, name=clean_name(name, taken))
    return replace(record, lang=check_lang(lang)) if lang is not None else record


def granted_record(table: TableRecord, claim: Claim) -> SeatRecord:
    """The seat of an allowed ``claim`` on its new phone: a new link, code and device key, with the
    asker's name and language."""
    updated = table.seats[claim.seat].rotated(table.codes()).held_by()
    if claim.name:
        updated = replace(updated, name=claim.name)
    return replace(updated, lang=claim.lang) if claim.lang is not None else updated


@dataclass(frozen=True, slots=True)
class Claim:
    """A new phone asking for a held seat (its link or code was used on another device, or a bot
    seat mid-game): the host allows or refuses it on the TV or the host console."""

    id: int
    seat: int
    name: str  # the asking phone's name; "" : the seat's own player on a new phone
    lang: str | None

    def info(self, table: TableRecord) -> ClaimInfo:
        """The request as the TV shows it."""
        record = table.seats[self.seat]
        return ClaimInfo(self.id, self.seat, self.name, shown_name(record, table.language), record.bot is not None)

    def to_json(self, table: TableRecord) -> dict[str, Any]:
        """The request as the host console reads it."""
        info = self.info(table)
        return {"id": info.id, "seat": info.seat, "name": info.name, "seat_name": info.seat_name, "bot": info.bot}


class ClaimQueue:
    """The open requests, oldest first."""

    def __init__(self, first_id: int | None = None) -> None:
        self._open: dict[int, Claim] = {}
        # random: a restarted table starts elsewhere
        self._seq = secrets.randbelow(CLAIM_ID_START) if first_id is None else first_id

    def __iter__(self) -> Iterator[Claim]:
        return iter(tuple(self._open.values()))

    def __len__(self) -> int:
        return len(self._open)

    def check_room(self) -> None:
        """Another request may join the queue."""
        if len(self._open) >= MAX_CLAIMS:
            raise IllegalAction("too many phones are asking for seats; try again in a moment")

    def request(self, seat: int, name: str, lang: str | None) -> Claim:
        """A new request for ``seat`` (the caller checked the seat, the name and the language)."""
        self.check_room()
        self._seq += 1
        claim = Claim(self._seq, seat, name, lang)
        self._open[claim.id] = claim
        return claim

    def get(self, claim_id: int) -> Claim | None:
        return self._open.get(claim_id)

    def for_seat(self, seat: int, claim_id: int) -> Claim:
        """The open request ``claim_id`` for ``seat`` (its holder gives the seat away)."""
        claim = self._open.get(claim_id)
        if claim is None or claim.seat != seat:
            raise IllegalAction("no phone is asking for this seat")
        return claim

    def ask(self, table: TableRecord, seat: Any, name: Any, lang: Any) -> Claim:
        """A phone asks for ``seat`` of ``table`` with its ``name`` and ``lang`` (either None)."""
        self.check_room()
        if not 0 <= seat < table.seat_count:
            raise UnknownSeat(f"no seat {seat} at this table")
        named = clean_name(name, names_beside(table, seat)) if name is not None else ""
        return self.request(seat, named, check_lang(lang) if lang is not None else None)

    def asking(self, claim_id: int) -> Claim:
        """The open request ``claim_id`` (the host answers it)."""
        claim = self._open.get(claim_id)
        if claim is None:
            raise IllegalAction("this phone is no longer asking")
        return claim

    def refuse(self, claim_id: int) -> Claim:
        """The host refuses the open request ``claim_id``: it leaves the queue."""
        claim = self.asking(claim_id)
        del self._open[claim_id]
        return claim

    def drop(self, claim_id: int) -> Claim | None:
        """The request leaves the queue (the phone went away, or it was refused)."""
        return self._open.pop(claim_id, None)

    def granted(self, claim: Claim) -> list[Claim]:
        """``claim`` got its seat: every request for that seat leaves; returns the others (refused)."""
        others = [c for c in self._open.values() if c.seat == claim.seat and c.id != claim.id]
        self._open = {i: c for i, c in self._open.items() if c.seat != claim.seat}
        return others
