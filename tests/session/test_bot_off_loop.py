"""A bot that thinks long (``Bot.thinks_off_loop``, the ``search`` bots) never holds up the table:
on the real asyncio loop, phones are heard while it thinks in the executor; on virtual time, its
answer is dropped and asked again when the table moved on meanwhile."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import tabletop_fakegame as fake
from tabletop_sessionkit import HeldTime

from game.bots import Bot
from game.bots.search import SearchBudget, set_default_budget
from game.config import TableConfig
from game.session.bots import default_bot_factory
from game.session.scheduler import LoopScheduler, session_ms
from game.session.session import Session
from game.session.snapshot import TablePhase

MakeFake = Callable[..., Session]
GUARD_S = 30  # only a guard against a hang: nothing here is timed


class SlowBot(fake.FakeBot):
    """Thinks until the test releases it; records the round and the thread it was asked on."""

    thinks_off_loop = True

    def __init__(self, seat: int, release: threading.Event) -> None:
        super().__init__(seat, think=0)
        self.started, self.release = threading.Event(), release
        self.asked: list[tuple[int, str]] = []

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any | None:
        self.asked.append((view["round"], threading.current_thread().name))
        self.started.set()
        self.release.wait(GUARD_S)
        return super().choose(view, legal)


def start_with_bot(s: Session, bot: SlowBot) -> None:
    s.host_command({"command": "set_seats", "count": 3})
    for i, record in enumerate(s.table.offered[:2]):
        s.join_seat(record.token, f"P{i}")
    s.host_command({"command": "start"})
    assert s.phase is TablePhase.PLAYING


async def until(done: Callable[[], bool]) -> None:
    async def poll() -> None:
        while not done():
            await asyncio.sleep(0.005)

    await asyncio.wait_for(poll(), GUARD_S)


async def test_a_phone_is_heard_while_a_search_bot_thinks_on_the_real_loop(make_fake: MakeFake) -> None:
    release = threading.Event()
    bot = SlowBot(2, release)
    s = make_fake(clock=session_ms, scheduler=LoopScheduler(), bot_factory=lambda *a: bot)
    try:
        start_with_bot(s, bot)
        await until(bot.started.is_set)  # the bot is thinking in the executor now
        s.submit_action(0, {"type": "pick", "value": 1}, s.version)  # on the loop, meanwhile
        assert s.run is not None and s.run.state.picks == (1, None, None) and not release.is_set()
        release.set()
        await until(lambda: s.run is not None and s.run.state.picks[2] is not None)
        assert s.run.state.picks == (1, None, 3)  # another seat's pick did not void its answer
        assert bot.asked == [(1, bot.asked[0][1])] and bot.asked[0][1] != threading.current_thread().name
    finally:
        release.set()
        s.close()


async def test_a_search_bots_answer_for_a_round_that_ended_is_dropped_and_it_is_asked_again(make_fake: MakeFake) -> None:
    ht, release = HeldTime(), threading.Event()
    release.set()
    bot = SlowBot(2, release)
    s = make_fake(clock=ht, scheduler=ht, bot_factory=lambda *a: bot)
    start_with_bot(s, bot)
    ht.advance(0)
    assert len(ht.held) == 1  # asked in round 1
    ht.advance(60_000)  # round 1's timer runs out while it thinks: round 2 begins
    assert s.run is not None and s.run.state.round == 2
    ht.finish()  # its round-1 pick comes back: stale, dropped
    assert s.run.state.picks == (None, None, None) and not s.run.state.scores[2]
    ht.advance(0)
    ht.finish()
    assert [r for r, _ in bot.asked] == [1, 2] and s.run.state.picks == (None, None, 3)


class Spy(Bot):
    """A catalog bot, and the threads its moves were thought on."""

    def __init__(self, inner: Bot, threads: set[str]) -> None:
        self.inner, self.threads = inner, threads
        self.thinks_off_loop = inner.thinks_off_loop

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        self.threads.add(threading.current_thread().name)
        return self.inner.choose(view, legal)

    def think_ms(self) -> int:
        return self.inner.think_ms()


async def test_a_table_of_search_bots_plays_collusion_to_the_end_thinking_off_the_loop(config: TableConfig) -> None:
    threads: set[str] = set()
    set_default_budget("collusion", SearchBudget(2))
    s = Session.boot(config, None, None, bot_delay_scale=0.0,
                     bot_factory=lambda *a: Spy(default_bot_factory(*a), threads))
    try:
        for command in ({"command": "set_game", "game": "collusion"}, {"command": "set_seats", "count": 6},
                        {"command": "fill_bots", "kind": "search"}, {"command": "start"}):
            s.host_command(command)
        await until(lambda: s.phase is TablePhase.FINISHED)
        assert threads and threading.current_thread().name not in threads
    finally:
        set_default_budget("collusion", None)
        s.close()
