"""Cheating Moth with real cards: the game's rules are the table game's (the same moments, shorter),
then what the program does: it judges the races to the millisecond and keeps the penalty pad."""
from __future__ import annotations

from dataclasses import replace

from game.games.cheating_moth import howto as table
from game.howto import Slide

TAPE = "cheating_moth_companion"
DOMAIN = "screen_cheating_moth_companion"

SLIDES: tuple[Slide, ...] = (
    replace(table.PLAY, seconds=6.0),
    replace(table.CHEAT, seconds=6.0),
    replace(table.GUARD, seconds=7.0),
    Slide(TAPE, "mosquito_race", "howto.race", "M14", 8.0, DOMAIN),
    replace(table.END, seconds=6.0),
    Slide(TAPE, "scoring", "howto.pad", "M17", 7.0, DOMAIN),
)
