"""Collusion (*Tabani* / *Rod Ruang*, published as *Dead Last*): rules C1–C20 in ``rulebook.md``.
The table game and its companion edition (real gold optional, the phones as vote cards)."""
from __future__ import annotations

from game.catalog import GameDescriptor, PlayMode, SeatRange

_HERE = __path__[0]  # this package's folder (its strings/, phone/ and pages)
_SEATS = SeatRange(3, 12)  # C5 (3–5 with a notice), C1

TABLE = GameDescriptor(
    id="collusion", family="collusion", mode=PlayMode.TABLE, engine=f"{__name__}.rules:ENGINE",
    bots=f"{__name__}.bots:make_bot", screen=f"{__name__}.screen", tapes=f"{__name__}.tapes:TAPES", phone="games/collusion.js",
    strings=("screen",), title_key="game.collusion", folder=_HERE, seats=_SEATS, rulebook="rulebook.md",
    howto=f"{__name__}.howto:SLIDES", phone_strings=("web_collusion",), search_iterations=48, rank=10,
)
COMPANION = GameDescriptor(
    id="collusion_companion", family="collusion", mode=PlayMode.COMPANION, engine=f"{__name__}.companion:ENGINE",
    bots=f"{__name__}.bots:make_companion_bot",  # digital gold only: a bot holds no real bars
    screen=f"{__name__}.companion_screen", tapes=f"{__name__}.companion_tapes:TAPES", phone="games/collusion_companion.js",
    strings=("screen", "screen_collusion_companion"), title_key="game.collusion_companion", folder=_HERE,
    seats=_SEATS, views="companion_views.md", howto=f"{__name__}.companion_howto:SLIDES",
    phone_strings=("web_collusion", "web_collusion_companion"), referee=True, search_iterations=48, rank=11,
)
DESCRIPTORS = (TABLE, COMPANION)
