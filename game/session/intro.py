"""The how-to-play the TV runs before a game's first round (``game/howto`` has its slides): what
runs and since when (:data:`Intro`, the snapshot's ``HowToPlayInfo``), and its end on the scheduler."""
from __future__ import annotations

import logging
from collections.abc import Callable

from game import howto
from game.rules.base import IllegalAction, RulesError

from .journal import JournalError
from .scheduler import Handle, Scheduler
from .snapshot import HowToPlayInfo
from .table import TableRecord

__all__ = ["HowToPlay", "Intro"]

log = logging.getLogger(__name__)

Intro = HowToPlayInfo


class HowToPlay:
    """At the end of the how-to-play (or when the host skips it) the game starts (``start``), if
    the table is still in its lobby (``in_lobby``); if it cannot, the table stays there (``changed``)."""

    def __init__(self, clock: Callable[[], int], scheduler: Scheduler, *, start: Callable[[], None],
                 in_lobby: Callable[[], bool], changed: Callable[[], None]) -> None:
        self._clock = clock
        self._scheduler = scheduler
        self._start = start
        self._in_lobby = in_lobby
        self._changed = changed
        self._handle: Handle | None = None
        self.info: Intro | None = None  # the how-to-play running, if any

    def begin(self, table: TableRecord) -> bool:
        """The table's game's how-to-play starts now, if the table shows one (``over`` is called
        when it ends); returns whether it did."""
        length_ms = howto.duration_ms(table.game) if table.table_settings.how_to_play else 0
        if not length_ms:
            return False
        self.info = Intro(table.game, self._clock(), length_ms)
        self._handle = self._scheduler.call_later(length_ms, self.over)
        return True

    def stop(self) -> None:
        """Its end is no longer scheduled (it still shows until :meth:`clear`)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def clear(self) -> None:
        """No how-to-play runs."""
        self.stop()
        self.info = None

    def skip(self) -> None:
        """The host starts the game now."""
        if self.info is None:
            raise IllegalAction("no how-to-play is running")
        self.over()

    def over(self) -> None:
        """The explanation ended (or was skipped): the game starts."""
        self.stop()
        if self.info is None or not self._in_lobby():
            self.clear()
            return
        try:
            self._start()
        except (RulesError, JournalError) as exc:
            log.error("the game could not start after the how-to-play: %s", exc)
            self.clear()
            self._changed()
