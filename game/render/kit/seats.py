"""A seat as every game's screen shows it: the look the lobby gave it (name, colour, symbol, phone
away or not, bot or not). Each game's model extends :class:`SeatModel` with its public state."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from game import i18n
from game.session.snapshot import SeatInfo, SeatStatus, TableSnapshot

from .glyphs import strip_pictographs

if TYPE_CHECKING:  # the models stay free of pygame
    from .scene import Frame


@dataclass(frozen=True, slots=True)
class SeatModel:
    """One seat's look (the layer caches key on these, so it stays small and hashable)."""

    seat: int
    name: str
    colour: str
    symbol: str
    connected: bool
    bot: bool


def look_of(snapshot: TableSnapshot, seat: int) -> dict[str, Any]:
    """The :class:`SeatModel` fields of ``seat`` (keyword arguments for a game's seat model)."""
    info: SeatInfo | None = snapshot.seats[seat] if 0 <= seat < len(snapshot.seats) else None
    if info is None:
        return {"seat": seat, "name": "", "colour": "", "symbol": "circle", "connected": False, "bot": False}
    return {"seat": seat, "name": shown_name(info.name), "colour": info.colour, "symbol": info.symbol,
            "connected": bool(info.connected), "bot": info.status is SeatStatus.BOT}


def shown_name(name: str) -> str:
    """A player's name as the screen can show it: "" when nothing but emoji is left (the screen
    then says "Seat n"); otherwise the name as typed (the text renderer drops the emoji)."""
    return name if strip_pictographs(name or "").strip() else ""


def seat_name(frame: Frame, seats: Sequence[SeatModel], seat: int | None) -> str:
    """A seat's name, or "Seat n" when it has none."""
    if seat is None or not 0 <= seat < len(seats):
        return "?"
    return plate_name(frame.lang, seats[seat].name) or frame.s("seat.name", n=seat + 1)


def plate_name(lang: str, name: str) -> str:
    """A player's name as a piece of the screen's text, isolated (FSI ... PDI) when its direction
    differs from the screen's (:func:`i18n.isolate`): "+1+1" or "R2-D2" keeps its own order on a
    Persian screen ("1+1+" otherwise), "سارا 2" on a Thai or English one (its "2" on the left, as
    on the phones), on a plate, in a results row and inside a sentence alike."""
    return i18n.isolate(lang, name) if name else name


def names(frame: Frame, seats: Sequence[SeatModel], which: Sequence[int]) -> str:
    """Several seats' names as a list in the table's language ("A, B and C")."""
    items = [seat_name(frame, seats, s) for s in which]
    if len(items) <= 1:
        return "".join(items)
    return frame.s("list.sep").join(items[:-1]) + frame.s("list.last") + items[-1]


def look(seat: SeatModel) -> SeatModel:
    """Only the look of a game's seat (what a plate cache may key on when the rest changes often)."""
    return SeatModel(seat.seat, seat.name, seat.colour, seat.symbol, seat.connected, seat.bot)
