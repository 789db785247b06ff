"""When the TV last drew a frame: the table's app keeps one (``FRAMES``), ``/metrics`` reads it
(:mod:`game.server.metrics`). Its own module, so the server imports no ``prometheus_client``
(only the kiosk's ``/metrics`` does)."""
from __future__ import annotations

import time
from collections.abc import Callable


class FrameClock:
    """When the TV last drew a frame (the render loop reads a snapshot per frame)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._at: float | None = None
        self.watchdog_misses: int | None = None  # pings systemd's watchdog held back (None: no watchdog)

    def seen(self) -> None:
        self._at = self._clock()

    def age_s(self) -> float | None:
        """Seconds since the last frame; None before the first (a table without a screen)."""
        return None if self._at is None else self._clock() - self._at
