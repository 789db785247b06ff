"""The bots' timetable (``bot_driver.py``) on virtual time, without a session: who acts when, the
streak guard, standing down, a failing bot, and bots that think off the loop (their work held by a
stand-in executor until the test lets it finish)."""
from __future__ import annotations

import logging
from typing import Any

import pytest
from tabletop_sessionkit import HeldTime

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


class Thinker(Picker):
    """A bot that thinks off the loop; it answers the first legal action it is shown."""

    thinks_off_loop = True

    def __init__(self, think: int = 0) -> None:
        super().__init__(think)
        self.asked: list[list[Any]] = []

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        self.asked.append(legal)
        return legal[0]


class Table:
    """What the driver calls back: each seat's view, the acts it is handed (with their time), the
    table's version and since which version each seat's choices stand."""

    def __init__(self, vt: VirtualTime) -> None:
        self.vt = vt
        self.acts: list[tuple[int, Any, int]] = []
        self.refuse = False
        self.now_version = 1
        self.since: dict[int, int] = {}

    def version(self) -> int:
        return self.now_version

    def is_current(self, seat: int, version: int, current: int) -> bool:
        return self.since.get(seat, 0) <= version <= current

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
    return BotDriver(lambda game, kind, seat, seed: Picker(0), vt, view=table.view, act=table.act, choices=table, version=table.version), table


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

    assert list(BotDriver(factory, VirtualTime(0), view=dict, act=print, choices=Table(VirtualTime(0)), version=int).make_all(table, 7)) == [1]  # seat 6 is not offered
    assert made == [("collusion", 1)]

    def none(game: str, kind: BotKind, seat: int, seed: int) -> Bot:
        raise NoBotForGame("no random bot for collusion")

    with pytest.raises(BadSettings):
        BotDriver(none, VirtualTime(0), view=dict, act=print, choices=Table(VirtualTime(0)), version=int).make("collusion", 0, BotKind.RANDOM, 1)


@pytest.fixture
def held() -> tuple[BotDriver, Table, HeldTime]:
    ht = HeldTime(0)
    table = Table(ht)
    return BotDriver(lambda game, kind, seat, seed: Picker(0), ht, view=table.view, act=table.act, choices=table,
                     version=table.version), table, ht


def test_a_thinking_bot_keeps_its_think_time_then_answers_off_the_loop(held: tuple[BotDriver, Table, HeldTime]) -> None:
    bots, table, ht = held
    thinker = Thinker(300)
    bots.seat_all({0: thinker, 1: Picker(100)})
    bots.schedule(True, {0: ["a"], 1: ["b"]})
    ht.advance(299)
    assert thinker.asked == [] and table.acts == [(1, "b", 100)]
    ht.advance(1)
    assert thinker.asked == [] and len(ht.held) == 1  # asked at 300 ms, thinking off the loop
    bots.schedule(True, {0: ["a"], 1: ["b"]})  # another seat acted meanwhile: still one move at a time
    ht.advance(1_000)
    assert len(ht.held) == 1
    ht.finish()
    assert thinker.asked == [["a"]] and table.acts[-1] == (0, "a", 1_300)


def test_an_answer_the_table_moved_past_is_dropped_and_the_bot_asked_again(held: tuple[BotDriver, Table, HeldTime]) -> None:
    bots, table, ht = held
    thinker = Thinker(0)
    bots.seat_all({0: thinker})
    bots.schedule(True, {0: ["old"]})
    ht.advance(0)
    table.now_version, table.since[0] = 2, 2  # a new step: the seat's choices changed meanwhile
    bots.schedule(True, {0: ["new"]})
    ht.finish()
    assert table.acts == [] and ht.pending() == 1  # dropped; asked again at once
    ht.advance(0)
    ht.finish()
    assert thinker.asked == [["old"], ["new"]] and table.acts == [(0, "new", 0)]


def test_another_seats_move_does_not_void_a_thinking_bots_answer(held: tuple[BotDriver, Table, HeldTime]) -> None:
    bots, table, ht = held
    thinker = Thinker(0)
    bots.seat_all({0: thinker})
    bots.schedule(True, {0: ["a"]})
    ht.advance(0)
    table.now_version, table.since[1] = 5, 5  # seat 1 voted: the table's version grew, seat 0's choices stand
    ht.finish()
    assert thinker.asked == [["a"]] and table.acts == [(0, "a", 0)]


def test_an_answer_after_the_bot_left_or_the_game_stopped_is_dropped(held: tuple[BotDriver, Table, HeldTime]) -> None:
    bots, table, ht = held
    leaving, staying = Thinker(0), Thinker(0)
    bots.seat_all({0: leaving, 1: staying})
    bots.schedule(True, {0: ["a"], 1: ["b"]})
    ht.advance(0)
    bots.drop(0)  # a person took seat 0
    bots.cancel()  # the table stopped
    ht.finish()
    assert len(leaving.asked) == len(staying.asked) == 1 and table.acts == [] and ht.pending() == 0
    bots.schedule(True, {0: ["a"], 1: ["b"]})  # the next change asks the seated bot again
    ht.advance(0)
    ht.finish()
    assert table.acts == [(1, "b", 0)]


def test_a_thinking_bots_bug_is_logged_and_the_table_goes_on(held: tuple[BotDriver, Table, HeldTime],
                                                            caplog: pytest.LogCaptureFixture) -> None:
    bots, table, ht = held

    class Broken(Thinker):
        def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
            raise RuntimeError("bug")

    bots.seat_all({0: Broken(0), 1: Thinker(0)})
    bots.schedule(True, {0: ["a"], 1: ["b"]})
    ht.advance(0)
    with caplog.at_level(logging.WARNING, logger="game.session.bot_driver"):
        ht.finish()
    assert "bot at seat 0 failed" in [r.getMessage() for r in caplog.records] and table.acts == [(1, "b", 0)]


def test_virtual_time_runs_off_loop_work_at_once(driver: tuple[BotDriver, Table], vt: VirtualTime) -> None:
    bots, table = driver
    bots.seat_all({0: Thinker(40)})
    bots.schedule(True, {0: ["a"]})
    vt.advance(40)
    assert table.acts == [(0, "a", 40)]
