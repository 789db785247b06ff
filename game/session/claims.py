"""The seat-claim queue: phones asking for a held seat (its link or code was used on another
device, or a bot's seat mid-game), waiting for the host — or the seat's own phone — to answer.

:class:`ClaimQueue` only keeps the requests and decides which are open; the session moves the seat
(it is the one writer) and the hub tells the phones. The queue is the place for the rules on who
may ask and for how long, so that no address on the LAN can lock the table's seats:

- one open request per asker (its address: on the table's LAN a phone is its address); asking
  again replaces the old request (the same seat: it keeps its id, place and deadline);
- a request expires :data:`CLAIM_TTL_MS` after it was made (on the session's scheduler);
- a refused asker waits before it may ask again, longer after each refusal (:data:`REFUSED_WAIT_MS`);
- at most :data:`MAX_CLAIMS` open at once; when full, a new asker's request pushes out the oldest
  one that is not more urgent, and "my phone died" (the seat's own phone is not connected) comes
  first and is only pushed out by another such request, so a flood never refuses it;
- the TV and the seat's holder see one request at a time, the first of :meth:`ClaimQueue.ordered`.

Ids are ones a restarted table never reuses.
"""
from __future__ import annotations

import collections
import enum
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

__all__ = ["CLAIM_TTL_MS", "CLAIM_ID_START", "MAX_CLAIMS", "REFUSED_WAIT_MS", "AskLater", "Claim", "ClaimEnd",
           "ClaimQueue", "HandedOver", "check_lang", "granted_record", "join"]

MAX_CLAIMS = 8  # phones waiting at once for the host to hand them a held seat
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
    name: str  # what the asking phone typed as its name; "" : the seat's own player on a new phone
    lang: str | None
    asker: str = ""  # who asks: the phone's address ("" : unknown, never limited with others)
    urgent: bool = False  # the seat's own phone is not connected: likely "my phone died"

    def info(self, table: TableRecord) -> ClaimInfo:
        """The request as the TV shows it."""
        record = table.seats[self.seat]
        return ClaimInfo(self.id, self.seat, self.name, shown_name(record, table.language), record.bot is not None)

    def to_json(self, table: TableRecord) -> dict[str, Any]:
        """The request as the host console reads it."""
        info = self.info(table)
        return {"id": info.id, "seat": info.seat, "name": info.name, "seat_name": info.seat_name, "bot": info.bot}


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
        """The open requests in the order they are shown: urgent ones first, each oldest first."""
        return tuple(sorted(self, key=lambda c: not c.urgent))

    def request(self, seat: int, name: str, lang: str | None, asker: str = "", urgent: bool = False) -> Claim:
        """A new request for ``seat`` (the caller checked the seat, the name and the language)."""
        return self._add(seat, name, lang, asker, urgent)

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
            connected: Container[int] = ()) -> Claim:
        """A phone (``asker``: its address) asks for ``seat`` of ``table`` with its ``name`` and
        ``lang`` (either None); ``connected``: the seats whose phones are here (a person's seat
        whose phone is away makes the request urgent: "my phone died")."""
        if not isinstance(seat, int) or not 0 <= seat < table.seat_count:
            raise UnknownSeat(f"no seat {seat} at this table")
        wait = self.wait_ms(asker)
        if wait > 0:
            raise AskLater(f"the host said no a moment ago; ask again in {math.ceil(wait / 1000)} s")
        name = clean_name(name, names_beside(table, seat)) if name is not None else ""
        lang = check_lang(lang) if lang is not None else None
        return self._add(seat, name, lang, asker, table.seats[seat].joined and seat not in connected)

    def _add(self, seat: int, name: str, lang: str | None, asker: str, urgent: bool) -> Claim:
        ended: list[tuple[Claim, ClaimEnd]] = []
        earlier = next((o for o in self._open.values() if asker and o.claim.asker == asker), None)
        if earlier is not None and earlier.claim.seat == seat:  # asked again: renewed in place
            earlier.claim = replace(earlier.claim, name=name, lang=lang, urgent=earlier.claim.urgent or urgent)
            return earlier.claim
        if earlier is not None:
            ended.append((self._remove(earlier.claim.id), ClaimEnd.REPLACED))
        if len(self._open) >= MAX_CLAIMS:
            ended.append((self._push_out(urgent), ClaimEnd.PUSHED_OUT))
        self._seq += 1
        claim = Claim(self._seq, seat, name, lang, asker, urgent)
        entry = self._open[claim.id] = _Open(claim)
        if self._scheduler is not None:
            entry.handle = self._scheduler.call_later(CLAIM_TTL_MS, lambda: self._expire(claim.id))
        for old, why in ended:
            self._ended(old, why)
        return claim

    def _push_out(self, urgent: bool) -> Claim:
        """Room for a new request: the oldest one not more urgent than it leaves."""
        victim = next((o.claim for o in self._open.values() if urgent or not o.claim.urgent), None)
        if victim is None:
            raise IllegalAction("too many phones are asking for seats; try again in a moment")
        return self._remove(victim.id)

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
