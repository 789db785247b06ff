"""Collusion's explanation: a vote, who dies and why, the Ambush, the Final Showdown."""
from __future__ import annotations

from game.howto import Slide

TAPE = "collusion"

VOTE = Slide(TAPE, "03_table", "howto.collusion.vote", "C7", 8.0)
TARGET = Slide(TAPE, "09_vote_deaths", "howto.collusion.target", "C8", 8.0)
DEATHS = Slide(TAPE, "08_deaths", "howto.collusion.deaths", "C9", 8.0)
AMBUSH = Slide(TAPE, "06_ambush", "howto.collusion.ambush", "C10", 8.0)
SHOWDOWN = Slide(TAPE, "11_showdown_reveal", "howto.collusion.showdown", "C15", 8.0)

SLIDES: tuple[Slide, ...] = (VOTE, TARGET, DEATHS, AMBUSH, SHOWDOWN)
