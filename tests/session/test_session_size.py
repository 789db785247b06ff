"""The session stays a small writer: its rooms (lobby, claims, bot driver, policy, presenter, races)
live in their own modules, so a new feature lands in a room, not in the writer."""
from __future__ import annotations

from pathlib import Path

import game.session.session as writer

MAX_LINES = 600


def test_the_writer_stays_small() -> None:
    lines = Path(writer.__file__).read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"game/session/session.py has {lines} lines: move the new part into a room"
