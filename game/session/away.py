"""A seat whose phone walked away, freed by the other players' say-so (a kiosk's table).

At a café nobody holds the host's PIN, and a game that waits on a phone that left (a vote, a turn)
would wait until the idle reset hands the whole table over. Once a seated person's phone has been
away for :meth:`TablePolicy.away_free_ms`, every other seated person whose phone is here may agree to
free that seat; a majority of them frees it exactly as the host's "Free seat" does (a bot takes
it over where the game has bots, else it waits for a new phone). The phone coming back clears the
question and every agreement. Presence is not journaled, and neither is this: only the freeing is.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from game.rules.base import IllegalAction

from .scheduler import Handle, Scheduler
from .table import TableRecord

__all__ = ["AwayRoom", "AwaySeat", "AwayWatch", "NotAway"]

audit = logging.getLogger("game.audit")  # a seat freed without the host: one line each


class NotAway(IllegalAction):
    """The seat is here again, was never away long enough, or this phone may not say so."""

    code = "not_away"


@dataclass(frozen=True, slots=True)
class AwaySeat:
    """A seat away long enough to be freed: since when, who agreed, how many must."""

    seat: int
    since_ms: int
    agreed: frozenset[int]
    needed: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "since_ms": self.since_ms, "agreed": sorted(self.agreed), "needed": self.needed}


def needed(voters: int) -> int:
    """A majority of the phones that are here (one of one, two of two or three, …)."""
    return voters // 2 + 1


class AwayWatch:
    """When each seat's phone left, and who agreed to free it. ``after_ms`` None: never asked (a
    home table's host frees seats). ``due`` runs when a seat has been away long enough (the phones
    then hear of it)."""

    def __init__(self, after_ms: int | None, scheduler: Scheduler, clock: Callable[[], int], due: Callable[[], None]) -> None:
        self.after_ms = after_ms
        self._scheduler, self._clock, self._due = scheduler, clock, due
        self._since: dict[int, int] = {}
        self._agreed: dict[int, set[int]] = {}
        self._handles: dict[int, Handle] = {}

    def left(self, seat: int) -> None:
        """A seated person's phone went away during a game."""
        if self.after_ms is None or seat in self._since:
            return
        self._since[seat] = self._clock()
        self._handles[seat] = self._scheduler.call_later(self.after_ms, self._due)

    def back(self, seat: int) -> bool:
        """The phone is here again (or the seat was freed): no question any more. True if one was open."""
        handle = self._handles.pop(seat, None)
        if handle is not None:
            handle.cancel()
        self._agreed.pop(seat, None)
        was_open = self._open(seat)
        self._since.pop(seat, None)
        return was_open

    def clear(self) -> None:
        """A game ended, or the table was handed over."""
        for seat in list(self._since):
            self.back(seat)

    def away_ms(self, seat: int) -> int:
        """How long ``seat``'s phone has been away (0: it is here)."""
        since = self._since.get(seat)
        return 0 if since is None else self._clock() - since

    def _open(self, seat: int) -> bool:
        since = self._since.get(seat)
        return since is not None and self.after_ms is not None and self._clock() - since >= self.after_ms

    def questions(self, voters: Callable[[int], Collection[int]]) -> tuple[AwaySeat, ...]:
        """The seats away long enough, each with its agreements (only from phones still allowed to vote)."""
        out = []
        for seat in sorted(self._since):
            if self._open(seat):
                allowed = voters(seat)
                out.append(AwaySeat(seat, self._since[seat], frozenset(self._agreed.get(seat, set()) & set(allowed)),
                                    needed(len(allowed))))
        return tuple(out)

    def agree(self, voter: int, seat: int, voters: Collection[int]) -> bool:
        """``voter`` agrees to free ``seat``; True once a majority of ``voters`` has. Raises NotAway
        (and changes nothing) when the seat is not open to the question or ``voter`` may not answer."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not self._open(seat):
            raise NotAway("that seat's phone is here, or has not been away long enough to free it")
        if voter not in voters:
            raise NotAway("only the other players whose phones are here can free a seat")
        agreed = self._agreed.setdefault(seat, set())
        agreed.add(voter)
        return len(agreed & set(voters)) >= needed(len(voters))


class AwayRoom:
    """The session's side: which seats are seated people, who may answer, presence as it changes,
    and the answers. ``table``, ``connected`` and ``playing`` read the session's own state; a
    majority ``free``s the seat through the session (its one writer), an agreement short of one is
    only ``changed`` (shown)."""

    def __init__(self, watch: AwayWatch, table: Callable[[], TableRecord], connected: Collection[int],
                 playing: Callable[[], bool], free: Callable[[int], None], changed: Callable[[], None]) -> None:
        self.watch, self._table, self._connected, self._playing = watch, table, connected, playing
        self._free, self._changed = free, changed

    def _person(self, seat: int) -> bool:
        seats = self._table().seats
        return 0 <= seat < len(seats) and seats[seat].bot is None and seats[seat].joined

    def presence(self, seat: int, here: bool) -> None:
        """A phone came or went: a seated person's going during a game starts the clock."""
        if here:
            self.watch.back(seat)
        elif self._playing() and self._person(seat):
            self.watch.left(seat)

    def game_on(self) -> None:
        """A game starts or resumes: the seated people whose phones are not here are away from now."""
        for record in self._table().offered:
            if self._person(record.seat) and record.seat not in self._connected:
                self.watch.left(record.seat)

    def voters(self, seat: object) -> frozenset[int]:
        """Who may free ``seat``: the other seated people whose phones are here."""
        return frozenset(r.seat for r in self._table().offered
                         if r.seat != seat and r.seat in self._connected and self._person(r.seat))

    def questions(self) -> tuple[AwaySeat, ...]:
        """The seats the other players may free now (a kiosk's game only)."""
        return self.watch.questions(self.voters) if self._playing() else ()

    def agree(self, voter: int, seat: Any) -> None:
        """``voter``'s phone agrees to free ``seat`` (the ``free_away`` message): a majority of the
        phones here frees it as the host's "Free seat" would. Raises NotAway and changes nothing
        when the question is not open to this phone."""
        if not self._playing():
            raise NotAway("a seat is freed this way only during a game")
        voters = self.voters(seat)
        if not self.watch.agree(voter, seat, voters):
            self._changed()
            return
        audit.info("seat %d freed by %d of the %d other players here, its phone away %d s", seat,
                   needed(len(voters)), len(voters), self.watch.away_ms(seat) // 1000)
        self._free(seat)
