"""The TV sets the pace of public news: phones learn an outcome when the big screen shows it.

A batch of events holding *news* (an outcome the TV tells with a beat: a vote's reveal and its
deaths, a Showdown, a race's verdict, a round's scores, the winner: ``GameEngine.news_events``)
is *held* while a TV is up: every ``state`` frame says ``look`` and the phones show "Look at the
screen" instead of the table, so no phone spoils the reveal the TV is about to make. Private news
(your own card, your vote accepted) is never held: a batch without news is not, and an action's
``ok`` reply is not a frame.

The TV reports, as it goes, the newest batch it has *seen* and the newest it has *told* (every beat
of it and of older batches at its outcome: ``Director.told``). The phones are let go when the TV
has told the held batch, or when it can't: no TV (headless), a TV that has not seen the batch
within :data:`SEEN_WAIT_MS` (hung, starved: the same rule as the race signal, a TV that does not
report does not hold the table), or one still telling it after :data:`TELL_WAIT_MS`.

Nothing here is journaled: a restarted table holds nothing, and its TV starts from the table as it is.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from game.rules.base import MalformedAction

from .scheduler import Handle, Scheduler

__all__ = ["SEEN_WAIT_MS", "TELL_WAIT_MS", "NewsGate", "TvReport"]

log = logging.getLogger(__name__)

SEEN_WAIT_MS = 1500  # a TV that has not seen the held batch by then does not hold the phones
# the longest a TV may take to tell one batch: its beats run 2-8 s, behind at most ~2 s; the batch
# that ends a game plays its beats whole before the final screen tells it (a last reveal and
# the round's summary: ~15 s)
TELL_WAIT_MS = 20000


class TvReport:
    """The TV's word on the news: the newest batch (``event_seq``) it has seen and has told."""

    __slots__ = ("seen", "told")

    def __init__(self, seen: int, told: int) -> None:
        self.seen, self.told = seen, told

    @classmethod
    def of(cls, payload: Mapping[str, Any]) -> TvReport:
        """From an ``InputKind.TOLD`` payload; a malformed one raises MalformedAction."""
        return cls(_batch(payload.get("seen")), _batch(payload.get("told")))


def _batch(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise MalformedAction("the TV's report needs the batches seen and told (whole numbers)")
    return value


class NewsGate:
    """Which batch of news the phones wait for, if any. ``changed`` runs when they are let go."""

    def __init__(self, scheduler: Scheduler, changed: Callable[[], None]) -> None:
        self._scheduler, self._changed = scheduler, changed
        self.held: int | None = None  # the batch (event_seq) the phones wait for the TV to tell
        self._report = TvReport(0, 0)
        self._deadline: Handle | None = None

    @property
    def look(self) -> bool:
        """Whether the phones should look at the screen now."""
        return self.held is not None

    def batch(self, seq: int, events: Iterable[Mapping[str, Any]], news: frozenset[str], tv_up: bool) -> None:
        """A new batch of events (``seq``): held while the TV tells it, if it holds news and a TV is up.
        Called before the change is published (so its frames already say ``look``)."""
        if not tv_up or not any(e.get("type") in news for e in events):
            return
        if self._report.told >= seq:
            return
        self.held = seq
        self._wait(TELL_WAIT_MS if self._report.seen >= seq else SEEN_WAIT_MS)

    def report(self, report: TvReport) -> None:
        """The TV's progress: lets the phones go once it told the held batch."""
        was_seen = self.held is not None and self._report.seen >= self.held
        self._report = report
        held = self.held
        if held is None:
            return
        if report.told >= held:
            self._let_go()
        elif report.seen >= held and not was_seen:
            self._wait(TELL_WAIT_MS)  # it saw the batch: it may take the beats' time to tell it

    def clear(self) -> None:
        """A new game, the lobby, a hand-over: nothing is held (no frame is sent here)."""
        self._cancel()
        self.held = None

    def screen_gone(self) -> None:
        """The TV went away (``InputKind.SCREEN`` off): the phones wait for nothing."""
        if self.held is not None:
            self._let_go()

    def _wait(self, ms: int) -> None:
        self._cancel()
        self._deadline = self._scheduler.call_later(ms, self._overdue)

    def _overdue(self) -> None:
        self._deadline = None
        if self.held is not None:
            log.warning("the TV did not tell batch %d in time (seen %d, told %d): the phones go on",
                        self.held, self._report.seen, self._report.told)
            self._let_go()

    def _let_go(self) -> None:
        self._cancel()
        self.held = None
        self._changed()

    def _cancel(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
