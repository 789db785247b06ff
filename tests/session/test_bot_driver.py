"""The bots' timetable (``bot_driver.py``) on virtual time, without a session: who acts when, the
streak guard, standing down, a failing bot."""
from __future__ import annotations

import logging
from typing import Any

import pytest

from game.bots import Bot
from game.rules.base import BadSettings, IllegalAction
from game.session.bot_driver import BotDriver
from game.session.bots import MAX_BOT_STREAK, NoBotForGame
from game.session.scheduler import VirtualTime
from game.session.seats import BotKind
from game.session.table import TableRecord


class Picker(Bot):
    def __init__(self, think: int, fail: bool = False) -> None:
        self.think, self.fail = think, fail

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        if self.fail:
            raise RuntimeError("bug")
        return legal[0]

    def think_ms(self) -> int:
        return self.think


class Table:
    """What the driver calls back: each seat's view, and the acts it is handed (with their time)."""

    def __init__(self, vt: VirtualTime) -> None:
        self.vt = vt
        self.acts: list[tuple[int, Any, int]] = []
        self.refuse = False

    def view(self, seat: int) -> dict[str, Any]:
        return {"seat": seat}

    def act(self, seat: int, action: Any) -> None:
        if self.refuse:
            raise IllegalAction("no")
        self.acts.append((seat, action, self.vt.now_ms()))


@pytest.fixture
def vt() -> VirtualTime:
    return VirtualTime(0)


@pytest.fixture
def driver(vt: VirtualTime) -> tuple[BotDriver, Table]:
    table = Table(vt)
    return BotDriver(lambda game, kind, seat, seed: Picker(0), vt, view=table.view, act=table.act), table


def test_each_bot_with_something_to_do_acts_after_its_think_time(driver: tuple[BotDriver, Table], vt: VirtualTime) -> None:
    bots, table = driver
    bots.seat_all({0: Picker(100), 1: Picker(250), 2: Picker(50)})
    bots.schedule(True, {0: ["a"], 1: ["b"], 2: []})  # seat 2 has nothing to do
    vt.advance(1_000)
    assert table.acts == [(0, "a", 100), (1, "b", 250)]


def test_a_bot_waits_after_max_streak_actions_in_a_row(driver: tuple[BotDriver, Table], vt: VirtualTime) -> None:
    bots, table = driver
    bots.seat_all({0: Picker(0)})
    for _ in range(MAX_BOT_STREAK):
        bots.count_streak(0)
    bots.schedule(True, {0: ["a"]})
    vt.advance(100)
    assert table.acts == []
    bots.count_streak(None)  # the table acted: the streak ends
    bots.schedule(True, {0: ["a"]})
    vt.advance(100)
    assert [seat for seat, _, _ in table.acts] == [0]


def test_bots_stand_down_when_the_game_stops_or_their_seat_has_nothing_to_do(driver: tuple[BotDriver, Table], vt: VirtualTime) -> None:
    bots, table = driver
    bots.seat_all({0: Picker(100), 1: Picker(100)})
    bots.schedule(True, {0: ["a"], 1: ["b"]})
    bots.schedule(True, {0: [], 1: ["b"]})
    bots.drop(1)
    vt.advance(500)
    assert table.acts == [] and vt.pending() == 0
    bots.schedule(True, {0: ["a"]})
    bots.schedule(False, {0: ["a"]})
    vt.advance(500)
    assert table.acts == []


def test_a_bots_bug_or_refused_choice_is_logged_and_the_table_goes_on(driver: tuple[BotDriver, Table], vt: VirtualTime,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    bots, table = driver
    bots.seat_all({0: Picker(10, fail=True), 1: Picker(10)})
    table.refuse = True
    with caplog.at_level(logging.WARNING, logger="game.session.bot_driver"):
        bots.schedule(True, {0: ["a"], 1: ["b"]})
        vt.advance(100)
    messages = [r.getMessage() for r in caplog.records]
    assert "bot at seat 0 failed" in messages and any(m.startswith("bot at seat 1 chose a refused action") for m in messages)


def test_make_all_seats_a_bot_per_offered_bot_seat_and_names_a_missing_bot() -> None:
    table = TableRecord.fresh("collusion", None, {}, "en", 4, "1")
    table = table.with_seat(table.seats[1].with_bot(BotKind.RANDOM)).with_seat(table.seats[5].with_bot(BotKind.RANDOM))
    made: list[tuple[str, int]] = []

    def factory(game: str, kind: BotKind, seat: int, seed: int) -> Bot:
        made.append((game, seat))
        return Picker(0)

    assert list(BotDriver(factory, VirtualTime(0), view=dict, act=print).make_all(table, 7)) == [1]  # seat 6 is not offered
    assert made == [("collusion", 1)]

    def none(game: str, kind: BotKind, seat: int, seed: int) -> Bot:
        raise NoBotForGame("no random bot for collusion")

    with pytest.raises(BadSettings):
        BotDriver(none, VirtualTime(0), view=dict, act=print).make("collusion", 0, BotKind.RANDOM, 1)
