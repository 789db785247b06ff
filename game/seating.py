"""Seat identities shared by the big screen and the phones: a colour *and* a symbol per seat,
so colour-blind players can tell seats apart (colours after Okabe–Ito and Tol's palettes, each seat
also has a distinct shape)."""
from __future__ import annotations

from dataclasses import dataclass

MAX_SEATS = 12


@dataclass(frozen=True, slots=True)
class SeatLook:
    colour: str  # "#rrggbb"
    colour_name: str  # English key, translated by game.i18n
    symbol: str  # shape key: drawn by the renderer, SVG on the phone


SEAT_LOOKS: tuple[SeatLook, ...] = (
    SeatLook("#E69F00", "orange", "circle"),
    SeatLook("#56B4E9", "sky", "square"),
    SeatLook("#009E73", "green", "triangle"),
    SeatLook("#F0E442", "yellow", "diamond"),
    SeatLook("#0072B2", "blue", "star"),
    SeatLook("#D55E00", "vermilion", "hexagon"),
    SeatLook("#CC79A7", "pink", "cross"),
    SeatLook("#FFFFFF", "white", "heart"),
    SeatLook("#882255", "wine", "moon"),
    SeatLook("#44AA99", "teal", "drop"),
    SeatLook("#999933", "olive", "bolt"),
    SeatLook("#AA4499", "purple", "ring"),
)


def look(seat: int) -> SeatLook:
    return SEAT_LOOKS[seat % MAX_SEATS]


def bot_name(seat: int, lang: str) -> str:
    """A bot's one name, the name of its seat's colour in ``lang`` ("Yellow", "زرد", "เหลือง"):
    what the phones call a seat without a player's name, so the TV and the phones agree."""
    from game import i18n

    return i18n.text(lang if lang in i18n.LANGUAGES else i18n.FALLBACK, "web", f"colour.{look(seat).colour_name}")
