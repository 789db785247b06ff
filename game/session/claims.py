"""The seat-claim queue: phones asking for a held seat (its link or code was used on another
device, or a bot's seat mid-game), waiting for the host — or the seat's own phone — to answer.

:class:`ClaimQueue` only keeps the requests and decides which are open; the session moves the seat
(it is the one writer) and the hub tells the phones. The queue is the place for the rules on who
may ask and for how long, so that no address on the LAN can lock the table's seats:

- one open request per asker (its address: on the table's LAN a phone is its address); asking
  again replaces the old request (the same seat: it keeps its id, place and deadline);
- a request expires :data:`CLAIM_TTL_MS` after it was made (on the session's scheduler);
- a refused asker waits before it may ask again, longer after each refusal (:data:`REFUSED_WAIT_MS`);
- requests are ranked by the evidence the asker brings (:class:`ClaimRank`): the device that held
  the seat (its address), then a phone with the seat's own link (its QR or code, shown on the TV
  while the seat was free), then the rest (the public "phone died?" link of ``/api/away``, which
  anyone on the LAN can read); within a rank "my phone died" (the seat's phone is away) first, then
  the oldest;
- at most :data:`MAX_PER_SEAT` open for one seat and :data:`MAX_CLAIMS` in all; when full, the
  first request of each seat stays (a flood never pushes it out, only a better-ranked request
  takes its place), and of the others the lowest ranked leaves, the oldest of that rank: a
  newcomer gets in unless every place it could take ranks higher (then it is refused);
- the TV shows one request at a time, the first of :meth:`ClaimQueue.ordered`; the host console
  one card per seat (its first) with the number of other phones asking for it (:meth:`firsts`).

Ids are ones a restarted table never reuses.
"""
from __future__ import annotations

import base64
import collections
import enum
import hashlib
import hmac
import math
import secrets
from collections.abc import Callable, Container, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from game.config import LANGUAGES
from game.rules.base import IllegalAction, MalformedAction, UnknownSeat

from .scheduler import Handle, Scheduler
from .seats import AskHost, NameNeeded, SeatRecord, clean_name, shown_name
from .snapshot import ClaimInfo, TablePhase
from .table import TableRecord

__all__ = ["CLAIM_TTL_MS", "CLAIM_ID_START", "MAX_CLAIMS", "MAX_PER_SEAT", "REFUSED_WAIT_MS", "AskLater", "Claim",
           "ClaimEnd", "ClaimQueue", "ClaimRank", "HandedOver", "QueueFull", "away_token", "check_lang",
           "first_per_seat", "granted_record", "join"]

MAX_CLAIMS = 8  # phones waiting at once for the host to hand them a held seat
MAX_PER_SEAT = 4  # of them, for one seat (a flood on one seat leaves room for the others)
CLAIM_TTL_MS = 60_000  # a request nobody answered ends after this (its phone may ask again)
REFUSED_WAIT_MS = (10_000, 600_000)  # a refused asker's wait: the first, doubling after each refusal up to the last
REFUSALS_KEPT = 1024  # askers whose refusals are remembered (oldest forgotten first)
# Claim ids start anywhere below this (and stay below 2**53 for the phones' JavaScript): a request
# made again after a restart gets a new id, so an answer to the old one (a stale host console, a
# seated phone's old "give my seat?" card) can never land on another phone's request.
CLAIM_ID_START = 1 << 40


class AskLater(IllegalAction):
    """This asker was refused a moment ago (or the queue is full of more urgent requests)."""

    code = "rate_limited"


class QueueFull(IllegalAction):
    """Every place (the seat's, or the table's) is taken by a request that ranks at least as high."""


class ClaimRank(enum.IntEnum):
    """What a request shows of being the seat's own player (lower: shown and kept first)."""

    HOLDER = 0  # from the device (address) that held the seat: its browser lost the seat's key
    OWN_LINK = 1  # the seat's own link (its QR or code): only its player saw it while the seat was free
    OTHER = 2  # the public "phone died?" link, or anything else


class ClaimEnd(enum.Enum):
    """Why an open request ended without the seat (the asking phone is told)."""

    REFUSED = "refused"  # the host said no
    EXPIRED = "expired"  # nobody answered within CLAIM_TTL_MS: the phone may ask again
    REPLACED = "replaced"  # the same asker asked again (another page, or another seat)
    PUSHED_OUT = "pushed_out"  # the queue was full and a newer or more urgent request took its place
    GONE = "gone"  # its phone went away
    NEW_GROUP = "new_group"  # the table was handed to the next group (the phone hears so when it asks again)


class HandedOver(UnknownSeat):
    """A link of a group the table was handed over from (kiosk): it shows nothing any more."""

    code = "new_group"


def check_lang(lang: Any) -> str:
    if not isinstance(lang, str) or lang not in LANGUAGES:
        raise MalformedAction(f"lang must be one of {', '.join(LANGUAGES)}")
    return lang


AWAY_KEY = secrets.token_bytes(16)  # the away links of this run of the program (a restart makes new ones)


def away_token(record: SeatRecord, key: bytes = AWAY_KEY) -> str:
    """The public "phone died?" link of a held seat (``/api/away``): not its own link, so a phone
    that read it from the list asks with the lowest rank (:class:`ClaimRank`). Derived from the
    seat's link with ``key``: a new link (the seat moved) makes a new one."""
    digest = hmac.new(key, record.token.encode(), hashlib.sha256).digest()[:18]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def seat_by_away(table: TableRecord, token: str, key: bytes = AWAY_KEY) -> SeatRecord | None:
    """The held seat whose away link is ``token``."""
    return next((r for r in table.seats if r.joined and hmac.compare_digest(away_token(r, key), token)), None)


def first_per_seat(ordered: tuple[Claim, ...]) -> tuple[tuple[Claim, int], ...]:
    """One entry per seat asked for, from requests in their order: its first request and how many
    other phones ask for it (the host's cards)."""
    per_seat: dict[int, list[Claim]] = {}
    for claim in ordered:
        per_seat.setdefault(claim.seat, []).append(claim)
    return tuple((claims[0], len(claims) - 1) for claims in per_seat.values())


def join(table: TableRecord, token: Any, name: Any, lang: Any, retired: Container[str]) -> tuple[SeatRecord, SeatRecord]:
    """A phone says hello with ``token``: the seat it takes, as (before, after). Its own device
    key: back in its seat. The link of a free seat: the seat becomes this phone's (a new device
    key). The link of a bot seat: with a name, in the lobby, the bot steps aside. Anything else (a
    held seat, a bot mid-game, a held seat's away link) raises :class:`AskHost`: only the host
    hands it over (a claim)."""
    if not isinstance(token, str) or not token:
        raise UnknownSeat("this seat link is not valid at this table")
    record = table.seat_by_device(token)
    if record is not None:
        return record, _named(record, name, lang, names_beside(table, record.seat))
    record = table.seat_by_token(token)
    away = seat_by_away(table, token) if record is None else None
    if away is not None:
        raise AskHost("this seat is taken: the host must allow this phone", away.seat)
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
    name: str  # what the asking phone typed as its name; "" : the seat's own player on a new phone
    lang: str | None
    asker: str = ""  # who asks: the phone's address ("" : unknown, never limited with others)
    urgent: bool = False  # the seat's own phone is not connected: likely "my phone died"
    rank: ClaimRank = ClaimRank.OTHER

    @property
    def order(self) -> tuple[int, bool, int]:
        """Its place: the better rank first, then "my phone died", then the older."""
        return (self.rank, not self.urgent, self.id)

    def info(self, table: TableRecord, others: int = 0) -> ClaimInfo:
        """The request as the TV shows it (``others``: more phones asking for the same seat)."""
        record = table.seats[self.seat]
        return ClaimInfo(self.id, self.seat, self.name, shown_name(record, table.language), record.bot is not None, others)

    def to_json(self, table: TableRecord, others: int = 0) -> dict[str, Any]:
        """The request as the host console reads it."""
        info = self.info(table, others)
        return {"id": info.id, "seat": info.seat, "name": info.name, "seat_name": info.seat_name, "bot": info.bot,
                "others": info.others}


@dataclass(slots=True)
class _Open:
    claim: Claim
    handle: Handle | None = field(default=None)


class ClaimQueue:
    """The open requests, oldest first (urgent ones first in :meth:`ordered`). ``scheduler``: where
    requests expire (``None``: they never do, for tests of the other rules); ``ended``: told of
    each request that leaves unanswered (:class:`ClaimEnd`); ``clock``: the session clock (ms) a refused asker's wait is kept on."""

    def __init__(self, first_id: int | None = None, *, scheduler: Scheduler | None = None,
                 ended: Callable[[Claim, ClaimEnd], None] = lambda claim, why: None, clock: Callable[[], int] = lambda: 0) -> None:
        self._open: dict[int, _Open] = {}
        # random: a restarted table starts elsewhere
        self._seq = secrets.randbelow(CLAIM_ID_START) if first_id is None else first_id
        self._scheduler = scheduler
        self._ended = ended
        self._clock = clock
        self._refused: collections.OrderedDict[str, tuple[int, int]] = collections.OrderedDict()  # asker: (times, until_ms)

    def __iter__(self) -> Iterator[Claim]:
        return iter(tuple(o.claim for o in self._open.values()))

    def __len__(self) -> int:
        return len(self._open)

    def ordered(self) -> tuple[Claim, ...]:
        """The open requests in the order they are shown (:attr:`Claim.order`)."""
        return tuple(sorted(self, key=lambda c: c.order))

    def firsts(self) -> tuple[tuple[Claim, int], ...]:
        """One entry per seat asked for: its first request and how many other phones ask for it."""
        return first_per_seat(self.ordered())

    def request(self, seat: int, name: str, lang: str | None, asker: str = "", urgent: bool = False,
                rank: ClaimRank = ClaimRank.OTHER) -> Claim:
        """A new request for ``seat`` (the caller checked the seat, the name and the language)."""
        return self._add(seat, name, lang, asker, urgent, rank)

    def get(self, claim_id: int) -> Claim | None:
        entry = self._open.get(claim_id)
        return entry.claim if entry is not None else None

    def for_seat(self, seat: int, claim_id: int) -> Claim:
        """The open request ``claim_id`` for ``seat`` (its holder gives the seat away)."""
        claim = self.get(claim_id)
        if claim is None or claim.seat != seat:
            raise IllegalAction("no phone is asking for this seat")
        return claim

    def ask(self, table: TableRecord, seat: Any, name: Any, lang: Any, asker: str = "",
            connected: Container[int] = (), rank: ClaimRank = ClaimRank.OTHER) -> Claim:
        """A phone (``asker``: its address) asks for ``seat`` of ``table`` with its ``name`` and
        ``lang`` (either None); ``connected``: the seats whose phones are here (a person's seat
        whose phone is away makes the request urgent: "my phone died"); ``rank``: what it shows of
        being the seat's own player (:class:`ClaimRank`)."""
        if not isinstance(seat, int) or not 0 <= seat < table.seat_count:
            raise UnknownSeat(f"no seat {seat} at this table")
        wait = self.wait_ms(asker)
        if wait > 0:
            raise AskLater(f"the host said no a moment ago; ask again in {math.ceil(wait / 1000)} s")
        name = clean_name(name, names_beside(table, seat)) if name is not None else ""
        lang = check_lang(lang) if lang is not None else None
        return self._add(seat, name, lang, asker, table.seats[seat].joined and seat not in connected, rank)

    def _add(self, seat: int, name: str, lang: str | None, asker: str, urgent: bool, rank: ClaimRank) -> Claim:
        earlier = next((o for o in self._open.values() if asker and o.claim.asker == asker), None)
        if earlier is not None and earlier.claim.seat == seat:  # asked again: renewed in place
            earlier.claim = replace(earlier.claim, name=name, lang=lang, urgent=earlier.claim.urgent or urgent,
                                    rank=min(earlier.claim.rank, rank))
            return earlier.claim
        claim = Claim(self._seq + 1, seat, name, lang, asker, urgent, rank)
        leaving = self._room_for(claim, None if earlier is None else earlier.claim)
        self._seq += 1
        ended = [] if earlier is None else [(self._remove(earlier.claim.id), ClaimEnd.REPLACED)]
        ended += [(self._remove(c.id), ClaimEnd.PUSHED_OUT) for c in leaving]
        entry = self._open[claim.id] = _Open(claim)
        if self._scheduler is not None:
            entry.handle = self._scheduler.call_later(CLAIM_TTL_MS, lambda: self._expire(claim.id))
        for old, why in ended:
            self._ended(old, why)
        return claim

    def _room_for(self, claim: Claim, leaving: Claim | None) -> list[Claim]:
        """The requests ``claim`` pushes out to fit under the seat's cap, then the table's. The
        first request of each seat (in :attr:`Claim.order`, ``claim`` counted) never leaves; of the
        others the lowest ranked goes, the oldest of that rank, so a newcomer gets in unless every
        place it could take ranks higher. Raises :class:`QueueFull` (nothing changed) then."""
        staying = [c for c in self if c is not leaving]
        firsts = {min((c for c in [*staying, claim] if c.seat == seat), key=lambda c: c.order).id
                  for seat in {c.seat for c in [*staying, claim]}}
        out: list[Claim] = []
        for cap, group in ((MAX_PER_SEAT, lambda c: c.seat == claim.seat), (MAX_CLAIMS, lambda c: True)):
            members = [c for c in staying if group(c) and c not in out]
            if len(members) < cap:
                continue
            movable = [c for c in members if c.id not in firsts]
            victim = max(movable, key=lambda c: (c.rank, c.urgent is False, -c.id), default=None)
            if victim is None or (victim.rank, not victim.urgent) < (claim.rank, not claim.urgent):
                raise QueueFull("too many phones are asking for this seat; try again in a moment")
            out.append(victim)
        return out

    def _expire(self, claim_id: int) -> None:
        entry = self._open.pop(claim_id, None)
        if entry is not None:
            self._ended(entry.claim, ClaimEnd.EXPIRED)

    def _remove(self, claim_id: int) -> Claim:
        entry = self._open.pop(claim_id)
        if entry.handle is not None:
            entry.handle.cancel()
        return entry.claim

    def wait_ms(self, asker: str) -> int:
        """How long ``asker`` must still wait after a refusal (0: it may ask)."""
        times_until = self._refused.get(asker) if asker else None
        return max(0, times_until[1] - self._clock()) if times_until is not None else 0

    def asking(self, claim_id: int) -> Claim:
        """The open request ``claim_id`` (the host answers it)."""
        claim = self.get(claim_id)
        if claim is None:
            raise IllegalAction("this phone is no longer asking")
        return claim

    def refuse(self, claim_id: int) -> Claim:
        """The host refuses the open request ``claim_id``: it leaves the queue, and its asker waits
        before asking again (twice as long as last time)."""
        claim = self._remove(self.asking(claim_id).id)
        if claim.asker:
            times = self._refused.pop(claim.asker, (0, 0))[0] + 1
            first, most = REFUSED_WAIT_MS
            self._refused[claim.asker] = (times, self._clock() + min(most, first << min(times - 1, 20)))
            while len(self._refused) > REFUSALS_KEPT:
                self._refused.popitem(last=False)
        return claim

    def drop(self, claim_id: int) -> None:
        """The request leaves the queue (the phone went away)."""
        if claim_id in self._open:
            self._ended(self._remove(claim_id), ClaimEnd.GONE)

    def granted(self, claim: Claim) -> list[Claim]:
        """``claim`` got its seat: every request for that seat leaves; returns the others (refused)."""
        leaving = [c for c in self if c.seat == claim.seat]
        for c in leaving:
            self._remove(c.id)
        return [c for c in leaving if c.id != claim.id]

    def clear(self) -> None:
        """Every request leaves (the table was handed to the next group)."""
        for c in list(self):
            self._ended(self._remove(c.id), ClaimEnd.NEW_GROUP)
