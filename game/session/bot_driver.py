"""The bots at the table: which seat has one, when each acts next, and how often in a row.

The session owns the :class:`BotDriver` and tells it about every change (:meth:`BotDriver.schedule`
with each seat's legal actions). A bot due to act gets its seat's view (``view``) and legal actions
and hands its choice to ``act``: the session checks and applies it like any input. Race presses of bots are asked by the race
floor (``race_floor.py``) from :attr:`BotDriver.bots`.

A bot that thinks long (:attr:`game.bots.Bot.thinks_off_loop`: the ``search`` bots) is asked
through the scheduler's :meth:`~game.session.scheduler.Scheduler.off_loop` (a thread executor at
the table), so the session's loop keeps taking phones, buttons and timers meanwhile. Its answer
comes back on the loop and is applied only if the seat's choices are still current at the table's
version it was asked at (the rule a phone's choice is judged by, ``legal.py``: another seat's vote
does not void it, a new step or a change to its own choices does); a stale answer is dropped and
the bot asked again at once (it has had its thinking time). A bot thinks one move at a time.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from game.rules.base import BadSettings, RulesError

from .bots import MAX_BOT_STREAK, Bot, BotFactory, NoBotForGame, bot_seed
from .journal import JournalError
from .scheduler import Handle, Outcome, Scheduler
from .seats import BotKind
from .table import TableRecord

__all__ = ["BotDriver"]

log = logging.getLogger(__name__)
REFUSED_RETRY_MS = 250  # a refused bot move is tried again no sooner than this


class Choices(Protocol):
    """Since which version each seat's choices stand (the session's :class:`~game.session.legal.LegalBook`)."""

    def is_current(self, seat: int, version: int, current: int) -> bool: ...


@dataclass(frozen=True, slots=True)
class _Asked:
    """When a bot thinking off the loop was asked: the table's version and the driver's epoch."""

    version: int
    epoch: int


class BotDriver:
    def __init__(self, factory: BotFactory, scheduler: Scheduler, *, view: Callable[[int], Any],
                 act: Callable[[int, Any], None], choices: Choices, version: Callable[[], int],
                 delay_scale: float = 1.0) -> None:
        """``view(seat)``: the seat's view of the game in play; ``act(seat, action)``: check and
        apply a bot's choice (raises RulesError / JournalError); ``choices`` and ``version()`` (the
        table's version) judge whether an answer thought off the loop still stands."""
        self._factory = factory
        self._scheduler = scheduler
        self._view = view
        self._act = act
        self._choices = choices
        self._version = version
        self._delay_scale = delay_scale
        self._legal: Mapping[int, list[Any]] = {}  # each seat's legal actions, as of the latest change
        self._bots: dict[int, Bot] = {}
        self._handles: dict[int, Handle] = {}
        self._streak: dict[int, int] = {}
        self._thinking: dict[int, Bot] = {}  # seat -> its bot whose choose runs off the loop now
        self._live = False  # between a schedule() of a game in play and the next cancel()
        self._epoch = 0  # grows at every cancel(): an answer asked before it is void

    @property
    def bots(self) -> Mapping[int, Bot]:
        """Seat -> its bot, for the game in play."""
        return self._bots

    def make(self, game: str, seat: int, kind: BotKind, seed: int) -> Bot:
        """A bot of ``kind`` for ``seat`` of a game with ``seed``; no such bot: BadSettings."""
        try:
            return self._factory(game, kind, seat, bot_seed(seed, seat))
        except NoBotForGame as exc:
            raise BadSettings(str(exc)) from None

    def make_all(self, table: TableRecord, seed: int) -> dict[int, Bot]:
        """A bot for every offered bot seat of ``table`` (nothing is seated yet: see :meth:`seat_all`)."""
        return {r.seat: self.make(table.game, r.seat, r.bot, seed) for r in table.offered if r.bot is not None}

    def seat_all(self, bots: dict[int, Bot]) -> None:
        """A new game's bots, with fresh streaks."""
        self._bots = bots
        self._streak.clear()

    def seat(self, seat: int, bot: Bot) -> None:
        self._bots[seat] = bot

    def drop(self, seat: int) -> None:
        """The seat's bot leaves (a person plays on from here)."""
        self._bots.pop(seat, None)
        self._cancel(seat)

    def cancel(self) -> None:
        """No bot acts until the next :meth:`schedule` (answers still being thought are void)."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        self._live = False
        self._epoch += 1

    def clear(self) -> None:
        """The game ended: no bots any more."""
        self.cancel()
        self._bots.clear()

    def reset_streaks(self) -> None:
        self._streak.clear()

    def count_streak(self, seat: int | None) -> None:
        """``seat`` (``None``: the table) acted: its bot's streak grows, everybody else's ends."""
        if seat is not None and seat in self._bots:
            self._streak[seat] = self._streak.get(seat, 0) + 1
        for other in list(self._streak):
            if other != seat:
                self._streak[other] = 0

    def schedule(self, playing: bool, legal: Mapping[int, list[Any]]) -> None:
        """After a change: each bot with something to do acts ``think_ms()`` from now (a bot at
        :data:`MAX_BOT_STREAK` waits for another seat or the table; a bot still thinking answers
        first); the others stand down."""
        self._legal = legal if playing else {}
        if not playing:
            self.cancel()
            return
        self._live = True
        for seat in self._bots:
            self._plan(seat)

    def _plan(self, seat: int, *, again: bool = False) -> None:
        """The seat's bot acts after its thinking time (``again``: at once, its answer was stale)."""
        bot = self._bots.get(seat)
        if not self._live or bot is None or not self._legal.get(seat):
            self._cancel(seat)
            return
        if seat in self._handles or self._thinking.get(seat) is bot or self._streak.get(seat, 0) >= MAX_BOT_STREAK:
            return
        delay = 0.0 if again else max(0, bot.think_ms()) * self._delay_scale
        self._handles[seat] = self._scheduler.call_later(delay, partial(self._turn, seat))

    def _retry(self, seat: int) -> None:
        """A refused move (too early: a cheat not yet held its time) is tried again after the bot's
        thinking time, at least :data:`REFUSED_RETRY_MS`: at machine speed (``delay_scale`` near
        0) the bot otherwise waited for another seat's move or a timer, and a table of bots whose
        move must wait its time (a gesture held long enough) could wait for ever."""
        bot = self._bots.get(seat)
        if not self._live or bot is None or seat in self._handles:
            return
        delay = max(REFUSED_RETRY_MS, max(0, bot.think_ms()) * self._delay_scale)
        self._handles[seat] = self._scheduler.call_later(delay, partial(self._turn, seat))

    def _cancel(self, seat: int) -> None:
        handle = self._handles.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _turn(self, seat: int) -> None:
        self._handles.pop(seat, None)
        bot, legal = self._bots.get(seat), self._legal.get(seat)
        if bot is None or not legal:
            return
        try:
            view = self._view(seat)
            if bot.thinks_off_loop:
                self._think_off_loop(seat, bot, view, list(legal))
                return
            action = bot.choose(view, list(legal))
        except Exception:  # a bot's bug must not stop the table
            log.exception("bot at seat %d failed", seat)
            return
        self._apply(seat, action)

    def _think_off_loop(self, seat: int, bot: Bot, view: Any, legal: list[Any]) -> None:
        self._thinking[seat] = bot
        asked = _Asked(self._version(), self._epoch)
        self._scheduler.off_loop(partial(bot.choose, view, legal), partial(self._answered, seat, bot, asked))

    def _answered(self, seat: int, bot: Bot, asked: _Asked, outcome: Outcome[Any]) -> None:
        """Back on the loop: apply the answer if the table has not moved on, else ask again."""
        if self._thinking.get(seat) is bot:
            del self._thinking[seat]
        if self._bots.get(seat) is not bot:  # the bot left its seat or the game meanwhile
            self._plan(seat)
            return
        try:
            action = outcome.result()
        except Exception:  # a bot's bug must not stop the table
            log.exception("bot at seat %d failed", seat)
            return
        if asked.epoch != self._epoch or not self._choices.is_current(seat, asked.version, self._version()):
            log.debug("bot at seat %d answered for version %d, the table moved on: asked again", seat, asked.version)
            self._plan(seat, again=True)
            return
        self._apply(seat, action)

    def _apply(self, seat: int, action: Any | None) -> None:
        if action is None:
            return
        try:
            self._act(seat, action)
        except RulesError as exc:
            log.warning("bot at seat %d chose a refused action %r: %s", seat, action, exc)
            self._retry(seat)
        except JournalError as exc:
            log.error("bot at seat %d: not applied: %s", seat, exc)
