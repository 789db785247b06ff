"""How to play, on the TV: before a game's first round, a short explanation played with the game's
own scenes (scripted moments of a real game on a real session: each game's tapes,
``game/tapes.py``), one worked example per key rule, each with a caption in the table's language. This package is the plan (pure data, shared by the session, which times the
intro, and the screen, which draws it).

A game's slides come through its catalog descriptor (``GameDescriptor.howto``, a lazy
``"module:attribute"`` path; the games' own plans are the sibling modules); nothing here names a game.
"""
from __future__ import annotations

from dataclasses import dataclass

from game import catalog


@dataclass(frozen=True, slots=True)
class Slide:
    tape: str  # the catalog game whose scripted moments (its ``tapes``) show the example; resolved by the screen
    moment: str  # the scripted moment showing the example
    caption: str  # the rule in a sentence: a string key in the ``strings`` domain
    rule: str  # the rule id it shows
    seconds: float
    strings: str = "screen"  # the i18n domain of ``caption``


def slides(game: str) -> tuple[Slide, ...]:
    """The game's explanation (none for a game without one, or not in the catalog)."""
    if game not in catalog.ids():
        return ()
    return catalog.get(game).how_to_play()


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
