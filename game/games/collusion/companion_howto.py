"""Collusion with a real table: the game's rules are the table game's (the same moments, shorter),
then what the program does with real gold: who takes how many bars, and the secret count."""
from __future__ import annotations

from dataclasses import replace

from game.games.collusion import howto as table
from game.howto import Slide

TAPE = "collusion_companion"
DOMAIN = "screen_collusion_companion"

SLIDES: tuple[Slide, ...] = (
    *(replace(s, seconds=6.0) for s in table.SLIDES),
    Slide(TAPE, "03_deaths_pot", "howto.gold", "C13", 7.0, DOMAIN),
    Slide(TAPE, "07_count", "howto.count", "C17", 7.0, DOMAIN),
)
