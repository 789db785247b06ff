"""The bots at the table: which seat has one, when each acts next, and how often in a row.

The session owns the :class:`BotDriver` and tells it about every change (:meth:`BotDriver.schedule`
with each seat's legal actions). A bot due to act gets its seat's view (``view``) and legal actions
and hands its choice to ``act``: the session checks and applies it like any input. Race presses of bots are asked by the race
floor (``race_floor.py``) from :attr:`BotDriver.bots`.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from game.rules.base import BadSettings, RulesError

from .bots import MAX_BOT_STREAK, Bot, BotFactory, NoBotForGame, bot_seed
from .journal import JournalError
from .scheduler import Handle, Scheduler
from .seats import BotKind
from .table import TableRecord

__all__ = ["BotDriver"]

log = logging.getLogger(__name__)


class BotDriver:
    def __init__(self, factory: BotFactory, scheduler: Scheduler, *, view: Callable[[int], Any],
                 act: Callable[[int, Any], None], delay_scale: float = 1.0) -> None:
        """``view(seat)``: the seat's view of the game in play; ``act(seat, action)``: check and
        apply a bot's choice (raises RulesError / JournalError)."""
        self._factory = factory
        self._scheduler = scheduler
        self._view = view
        self._act = act
        self._delay_scale = delay_scale
        self._legal: Mapping[int, list[Any]] = {}  # each seat's legal actions, as of the latest change
        self._bots: dict[int, Bot] = {}
        self._handles: dict[int, Handle] = {}
        self._streak: dict[int, int] = {}

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
        """No bot acts until the next :meth:`schedule`."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()

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
        :data:`MAX_BOT_STREAK` waits for another seat or the table); the others stand down."""
        self._legal = legal if playing else {}
        if not playing:
            self.cancel()
            return
        for seat, bot in self._bots.items():
            if not legal.get(seat):
                self._cancel(seat)
                continue
            if seat in self._handles or self._streak.get(seat, 0) >= MAX_BOT_STREAK:
                continue
            delay = max(0, bot.think_ms()) * self._delay_scale
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
            action = bot.choose(self._view(seat), list(legal))
        except Exception:  # a bot's bug must not stop the table
            log.exception("bot at seat %d failed", seat)
            return
        if action is None:
            return
        try:
            self._act(seat, action)
        except RulesError as exc:
            log.warning("bot at seat %d chose a refused action %r: %s", seat, action, exc)
        except JournalError as exc:
            log.error("bot at seat %d: not applied: %s", seat, exc)
