"""Cheating Moth's explanation: a play, a cheat, the Guard Bug, a Mosquito race, a round's end."""
from __future__ import annotations

from game.howto import Slide

TAPE = "cheating_moth"

PLAY = Slide(TAPE, "m03_card_played", "howto.moth.play", "M5", 8.0)
CHEAT = Slide(TAPE, "m02_tell_trembles", "howto.moth.cheat", "M8", 8.0)
GUARD = Slide(TAPE, "m04_caught", "howto.moth.guard", "M10", 9.0)
MOSQUITO = Slide(TAPE, "m12_mosquito_result", "howto.moth.mosquito", "M14", 10.0)
END = Slide(TAPE, "m16_round_over", "howto.moth.end", "M17", 7.0)

SLIDES: tuple[Slide, ...] = (PLAY, CHEAT, GUARD, MOSQUITO, END)
