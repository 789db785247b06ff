"""Driving a live Cheating Moth table to a race through the session's public API (for the race tests
of the session, the server and the bridge)."""
from __future__ import annotations

import asyncio
import random
from typing import Any

from game.session.session import Session

MOVES = ("play", "draw", "give")


def seat_people(session: Session, seats: int = 4) -> None:
    """Lobby: ``seats`` seats, each joined by a person (no bots unless the test adds them)."""
    session.host_command({"command": "set_seats", "count": seats})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")


def _kind_of(session: Session, seat: int, card: int) -> str:
    hand = session.state_personal(seat)["view"]["you"]["hand"]
    return next(c["kind"] for c in hand if c["id"] == card)


async def move_until_playable(session: Session, kind: str, seed: int = 0, limit: int = 800) -> tuple[int, dict[str, Any]]:
    """Play random plain moves (no cheats, no accusations) until some seat may play a ``kind`` card;
    returns that seat and its ``play`` action (not yet played). Races of another kind on the way are
    run out by pressing every eligible seat."""
    rnd = random.Random(seed)
    for _ in range(limit):
        await _clear_race(session)
        moves = [(seat, a) for seat in range(session.table.seat_count) for a in session.legal_wire(seat)
                 if a["type"] in MOVES]
        wanted = [(s, a) for s, a in moves if a["type"] == "play" and _kind_of(session, s, a["card"]) == kind]
        if wanted:
            return wanted[0]
        if not moves:
            raise AssertionError(f"stuck: {session.snapshot.public_view and session.snapshot.public_view['phase']}")
        seat, action = rnd.choice(moves)
        session.submit_action(seat, action, None)
    raise AssertionError(f"no {kind} in {limit} moves")


async def _clear_race(session: Session) -> None:
    race = session.snapshot.public_view["race"] if session.snapshot.public_view else None
    while race is not None:
        session.press(race["eligible"][0], session.clock(), _keyboard(), race=race["id"])
        await asyncio.sleep(0.25)  # settle, then the session's tick hands the result in
        race = session.snapshot.public_view["race"]


def _keyboard() -> Any:
    from game.session.races import PressSource
    return PressSource.KEYBOARD


async def wait_decided(session: Session, race: int, timeout_s: float = 8.0) -> dict[str, Any]:
    """The public view's ``last_race`` once race ``race`` is decided."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout_s
    while loop.time() < end:
        last = session.snapshot.public_view["last_race"] if session.snapshot.public_view else None
        if last is not None and last["race"] == race:
            return last
        await asyncio.sleep(0.01)
    raise AssertionError(f"race {race} was not decided in {timeout_s} s")
