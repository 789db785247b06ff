"""Driving a live Cheating Moth table to a race through the session's public API (for the race tests
of the session, the server and the bridge).

Time: give ``vt`` (the session's :class:`~game.session.scheduler.VirtualTime`) and the helpers move
virtual time; without it (a session on the real loop, e.g. behind a real server) they yield to the
loop until the table has moved on."""
from __future__ import annotations

import asyncio
import random
from typing import Any

from game.session.race_floor import PressSource
from game.session.scheduler import VirtualTime
from game.session.session import Session

MOVES = ("play", "draw", "give")


def seat_people(session: Session, seats: int = 4) -> None:
    """Lobby: ``seats`` seats, each joined by a person (no bots unless the test adds them)."""
    session.host_command({"command": "set_seats", "count": seats})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")


def private(session: Session, seat: int) -> dict[str, Any]:
    """A seat's private part of its view (the game's own key)."""
    view = session.update.seat(seat).view
    return view["me"]


def _kind_of(session: Session, seat: int, card: int) -> str:
    hand = private(session, seat)["hand"]
    return next(c["kind"] for c in hand if c["id"] == card)


async def move_until_playable(session: Session, kind: str, seed: int = 0, limit: int = 800,
                              vt: VirtualTime | None = None) -> tuple[int, dict[str, Any]]:
    """Play random plain moves (no cheats, no accusations) until some seat may play a ``kind`` card;
    returns that seat and its ``play`` action (not yet played). Races of another kind on the way are
    run out by pressing every eligible seat."""
    rnd = random.Random(seed)
    for _ in range(limit):
        await _clear_race(session, vt)
        moves = [(seat, a) for seat in range(session.table.seat_count) for a in session.update.seat(seat).legal
                 if a["type"] in MOVES]
        wanted = [(s, a) for s, a in moves if a["type"] == "play" and _kind_of(session, s, a["card"]) == kind]
        if wanted:
            return wanted[0]
        if not moves:
            raise AssertionError(f"stuck: {session.snapshot.public_view and session.snapshot.public_view['phase']}")
        seat, action = rnd.choice(moves)
        session.submit_action(seat, action, None)
    raise AssertionError(f"no {kind} in {limit} moves")


def _race(session: Session) -> Any:
    return session.snapshot.public_view["race"] if session.snapshot.public_view else None


async def _clear_race(session: Session, vt: VirtualTime | None) -> None:
    race = _race(session)
    if race is None:
        return
    for seat in race["eligible"]:
        session.press(seat, session.clock(), PressSource.KEYBOARD, race=race["id"])
    await until(lambda: _race(session) is None or _race(session)["id"] != race["id"], vt, 10.0)


async def until(done: Any, vt: VirtualTime | None, timeout_s: float) -> None:
    """Wait (virtual or real time) until ``done()``."""
    if vt is not None:
        vt.run_until(done, limit_ms=timeout_s * 1000)
        return
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout_s
    while not done():
        if loop.time() > end:
            raise AssertionError(f"not done within {timeout_s} s")
        await asyncio.sleep(0.01)


async def wait_decided(session: Session, race: int, timeout_s: float = 8.0, vt: VirtualTime | None = None
                       ) -> dict[str, Any]:
    """The public view's ``last_race`` once race ``race`` is decided."""
    def last() -> Any:
        view = session.snapshot.public_view
        found = view["last_race"] if view else None
        return found if found is not None and found["race"] == race else None

    await until(lambda: last() is not None, vt, timeout_s)
    return last()
