"""Speakeasy's explanation: a clue, the pointing, a found Informant, nobody found."""
from __future__ import annotations

from game.howto import Slide

TAPE = "speakeasy"

CLUE = Slide(TAPE, "s01_choosing", "howto.speakeasy.clue", "S6", 9.0)
POINT = Slide(TAPE, "s02_pointing", "howto.speakeasy.point", "S7", 9.0)
INFORMANT = Slide(TAPE, "s07_reveal_points", "howto.speakeasy.informant", "S8", 10.0)
NOBODY = Slide(TAPE, "s10_nobody_found", "howto.speakeasy.nobody", "S9", 10.0)

SLIDES: tuple[Slide, ...] = (CLUE, POINT, INFORMANT, NOBODY)
