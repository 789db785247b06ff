"""Speakeasy with a real table: the game's rules are the table game's (the same moments, shorter),
then what the program does: it takes real fingers and cards from the host's taps and keeps the pad."""
from __future__ import annotations

from dataclasses import replace

from game.games.speakeasy import howto as table
from game.howto import Slide

TAPE = "speakeasy_companion"
DOMAIN = "screen_speakeasy_companion"

SLIDES: tuple[Slide, ...] = (
    replace(table.CLUE, seconds=6.0),
    replace(table.POINT, seconds=6.0),
    replace(table.INFORMANT, seconds=8.0),
    replace(table.NOBODY, seconds=7.0),
    Slide(TAPE, "07_recording", "howto.recording", "S7", 7.0, DOMAIN),
    Slide(TAPE, "06_corrected", "howto.pad", "S8", 7.0, DOMAIN),
)
