"""The attract reel plays the ladder's ``search`` bots (the best demos), recorded off the render
thread like every tape (``test_attract_tapes.py``)."""
from __future__ import annotations

from game.bots import BotKind
from game.kiosk.attract import DEMO_BOTS, AttractReel, record_tape


def test_the_demo_tapes_are_played_by_search_bots() -> None:
    assert DEMO_BOTS is BotKind.SEARCH
    tape = record_tape("speakeasy", "en", 5, 3)
    assert tape == record_tape("speakeasy", "en", 5, 3, BotKind.SEARCH)
    assert tape != record_tape("speakeasy", "en", 5, 3, BotKind.HEURISTIC)


def test_the_reel_shows_the_search_bots_tape() -> None:
    reel = AttractReel(("en",), ["speakeasy"], seed=3)
    reel.start(0)
    assert reel.tape == record_tape("speakeasy", "en", 5, 3, BotKind.SEARCH)
