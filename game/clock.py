"""The table's one clock, shared by every layer that stamps time (the session's scheduler, the TV's
race signal and its USB pads, the arcade bridge): ``time.monotonic`` in ms with sub-ms precision.
A leaf module, so the screen reads the clock without importing the session."""
from __future__ import annotations

import time


def monotonic_ms() -> float:
    """The one clock of the table (``time.monotonic``), in ms with sub-ms precision: what the
    arcade bridge stamps presses with."""
    return time.monotonic_ns() / 1e6
