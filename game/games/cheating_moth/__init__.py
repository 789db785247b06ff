"""Cheating Moth: shed your hand, cheat under the guard's eyes, the Mosquito and Beetle races (rules
M1–M19 in ``rulebook.md``). The table game and its companion edition (real cards; the program
judges the races and keeps the score pad)."""
from __future__ import annotations

from game.catalog import GameDescriptor, PlayMode, SeatRange
from game.rules.base import RaceMode

_HERE = __path__[0]  # this package's folder (its strings/, phone/ and pages)
_SEATS = SeatRange(3, 8)  # M2 (two decks above 5)
_RACES = frozenset({RaceMode.SLOWEST_LOSES, RaceMode.FASTEST_WINS})  # the Mosquito (M14) and the Beetle (M15)

TABLE = GameDescriptor(
    id="cheating_moth", family="cheating_moth", mode=PlayMode.TABLE, engine=f"{__name__}.rules:ENGINE",
    bots=f"{__name__}.bots:make_bot", screen=f"{__name__}.screen", tapes=f"{__name__}.tapes:TAPES", phone="games/cheating_moth.js",
    strings=("screen_cheating_moth",), title_key="game.cheating_moth", folder=_HERE, seats=_SEATS,
    rulebook="rulebook.md", howto=f"{__name__}.howto:SLIDES", phone_strings=("web_cheating_moth",), races=_RACES,
    search_iterations=8, ladder_seats=4, rank=30,
)
COMPANION = GameDescriptor(
    id="cheating_moth_companion", family="cheating_moth", mode=PlayMode.COMPANION, engine=f"{__name__}.companion:ENGINE",
    bots=None,  # the cards are physical: a bot cannot hold, play or count them
    screen=f"{__name__}.companion_screen", tapes=f"{__name__}.companion_tapes:TAPES", phone="games/cheating_moth_companion.js",
    strings=("screen_cheating_moth_companion",), title_key="game.cheating_moth_companion", folder=_HERE, seats=_SEATS,
    views="companion_views.md", howto=f"{__name__}.companion_howto:SLIDES",
    phone_strings=("web_cheating_moth", "web_cheating_moth_companion"), races=_RACES, referee=True, rank=31,
)
DESCRIPTORS = (TABLE, COMPANION)
