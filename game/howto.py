"""How to play, on the TV: before a game's first round, a short explanation played with the game's
own scenes (scripted moments of a real game on a real session, ``game/render/tapes.py``), one worked example per key
rule, each with a caption in the table's language. This module is the plan (pure data, shared by the
session, which times the intro, and the screen, which draws it)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Slide:
    moment: str  # the scripted moment showing the example
    caption: str  # screen string key: the rule in a sentence
    rule: str  # the rule id it shows
    seconds: float


SLIDES: dict[str, tuple[Slide, ...]] = {
    "collusion": (
        Slide("03_table", "howto.collusion.vote", "C7", 8.0),
        Slide("09_vote_deaths", "howto.collusion.target", "C8", 8.0),
        Slide("08_deaths", "howto.collusion.deaths", "C9", 8.0),
        Slide("06_ambush", "howto.collusion.ambush", "C10", 8.0),
        Slide("11_showdown_reveal", "howto.collusion.showdown", "C15", 8.0),
    ),
    "speakeasy": (
        Slide("s01_choosing", "howto.speakeasy.clue", "S6", 9.0),
        Slide("s02_pointing", "howto.speakeasy.point", "S7", 9.0),
        Slide("s07_reveal_points", "howto.speakeasy.informant", "S8", 10.0),
        Slide("s10_nobody_found", "howto.speakeasy.nobody", "S9", 10.0),
    ),
    "cheating_moth": (
        Slide("m03_card_played", "howto.moth.play", "M5", 8.0),
        Slide("m02_tell_trembles", "howto.moth.cheat", "M8", 8.0),
        Slide("m04_caught", "howto.moth.guard", "M10", 9.0),
        Slide("m12_mosquito_result", "howto.moth.mosquito", "M14", 10.0),
        Slide("m16_round_over", "howto.moth.end", "M17", 7.0),
    ),
}


def slides(game: str) -> tuple[Slide, ...]:
    return SLIDES.get(game, ())


def duration_ms(game: str) -> int:
    """How long the game's explanation runs (0: the game has none)."""
    return round(sum(s.seconds for s in slides(game)) * 1000)


def slide_at(game: str, elapsed_ms: int) -> tuple[int, Slide] | None:
    """The slide on screen ``elapsed_ms`` into the explanation (its index), or None when over."""
    t = elapsed_ms / 1000
    for i, slide in enumerate(slides(game)):
        if t < slide.seconds:
            return i, slide
        t -= slide.seconds
    return None
