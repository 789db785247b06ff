"""Speakeasy: hidden Informants and Citizens, a clue about someone at the table, everyone points
(rules S1–S13 in ``rulebook.md``). The table game and its companion edition (real identity cards
and real fingers optional); the built-in clue decks are in ``decks/``."""
from __future__ import annotations

from game.catalog import GameDescriptor, PlayMode, SeatRange

_HERE = __path__[0]  # this package's folder (its strings/, phone/ and pages)
_SEATS = SeatRange(3, 12)

TABLE = GameDescriptor(
    id="speakeasy", family="speakeasy", mode=PlayMode.TABLE, engine=f"{__name__}.rules:ENGINE",
    bots=f"{__name__}.bots:make_bot", screen=f"{__name__}.screen", tapes=f"{__name__}.tapes:TAPES", phone="games/speakeasy.js",
    strings=("screen_speakeasy",), title_key="game.speakeasy", folder=_HERE, seats=_SEATS, rulebook="rulebook.md",
    howto=f"{__name__}.howto:SLIDES", phone_strings=("web_speakeasy",), phone_data=f"{__name__}.clues:phone_data",
    search_iterations=32, rank=20,
)
COMPANION = GameDescriptor(
    id="speakeasy_companion", family="speakeasy", mode=PlayMode.COMPANION, engine=f"{__name__}.companion:ENGINE",
    bots=None,  # the clues describe the real people at the table: a bot can be neither described nor point
    screen=f"{__name__}.companion_screen", tapes=f"{__name__}.companion_tapes:TAPES", phone="games/speakeasy_companion.js",
    strings=("screen", "screen_speakeasy_companion"), title_key="game.speakeasy_companion", folder=_HERE,
    seats=_SEATS, views="companion_views.md", howto=f"{__name__}.companion_howto:SLIDES",
    phone_strings=("web_speakeasy", "web_speakeasy_companion"), phone_data=f"{__name__}.clues:phone_data",
    referee=True, rank=21,
)
DESCRIPTORS = (TABLE, COMPANION)
