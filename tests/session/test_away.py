"""A seated phone that walked away during a kiosk's game: after a minute the other seated players
whose phones are here may free its seat themselves; a majority frees it as the host's kick would
(a bot takes it over), the phone coming back clears the question, and bad asks change nothing."""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from game.config import TableConfig
from game.rules.base import IllegalAction
from game.session.away import AwayWatch, NotAway, needed
from game.session.policy import AWAY_FREE_MS
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import RunMode, TablePhase


@pytest.fixture
def kiosk(tmp_path: Path) -> TableConfig:
    return TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=11, mode=RunMode.KIOSK)


def playing(make_fake: Callable[..., Session], cfg: TableConfig, people: int = 4) -> Session:
    """A game of ``people`` seated people, every phone here."""
    s = make_fake(cfg=cfg)
    s.host_command({"command": "set_seats", "count": people})
    s.host_command({"command": "set_setting", "name": "rounds", "value": 9})  # time passes: a long game
    s.host_command({"command": "set_setting", "name": "round_ms", "value": 3_600_000})
    for record in s.table.offered:
        s.join_seat(record.token, name=f"P{record.seat + 1}")
        s.set_connected(record.seat, True)
    s.host_command({"command": "start"})
    assert s.phase is TablePhase.PLAYING
    return s


def away(s: Session) -> list[dict[str, Any]]:
    return s.update.lobby_json(host=False)["away"]


def test_a_majority_needed_of_the_phones_here() -> None:
    assert [needed(n) for n in (1, 2, 3, 4, 5)] == [1, 2, 2, 3, 3]


def test_a_minute_away_then_the_others_free_the_seat_and_a_bot_plays_it(
        make_fake: Callable[..., Session], kiosk: TableConfig, vt: VirtualTime, caplog: pytest.LogCaptureFixture) -> None:
    s = playing(make_fake, kiosk)
    s.set_connected(3, False)
    vt.advance(AWAY_FREE_MS - 1_000)
    assert away(s) == []
    with pytest.raises(NotAway):  # not yet: a phone that only locked its screen is not gone
        s.away.agree(0, 3)
    version = s.version
    vt.advance(1_000)  # the minute is up: every phone hears of it without anyone acting
    assert away(s) == [{"seat": 3, "since_ms": vt.now_ms() - AWAY_FREE_MS, "agreed": [], "needed": 2}]
    s.away.agree(0, 3)
    assert away(s)[0]["agreed"] == [0] and s.table.seats[3].joined and s.table.seats[3].bot is None
    with caplog.at_level(logging.INFO, logger="game.audit"):
        s.away.agree(1, 3)
    record = s.table.seats[3]
    assert not record.joined and record.bot is not None and away(s) == []
    assert s.version > version  # the freeing is journaled like the host's kick
    assert any("seat 3 freed by 2 of the 3 other players here" in r.getMessage() for r in caplog.records)


def test_the_phone_coming_back_clears_the_question_and_every_agreement(
        make_fake: Callable[..., Session], kiosk: TableConfig, vt: VirtualTime) -> None:
    s = playing(make_fake, kiosk)
    s.set_connected(2, False)
    vt.advance(AWAY_FREE_MS)
    s.away.agree(0, 2)
    s.set_connected(2, True)
    assert away(s) == []
    with pytest.raises(NotAway):
        s.away.agree(1, 2)
    s.set_connected(2, False)  # away again: the minute starts over, the old agreement is gone
    vt.advance(AWAY_FREE_MS)
    assert away(s)[0]["agreed"] == []


def test_only_the_other_seated_phones_here_may_agree_and_bad_asks_change_nothing(
        make_fake: Callable[..., Session], kiosk: TableConfig, vt: VirtualTime) -> None:
    s = playing(make_fake, kiosk)
    s.set_connected(3, False)
    s.set_connected(2, False)
    vt.advance(AWAY_FREE_MS)
    before = away(s)
    assert [q["needed"] for q in before] == [2, 2]  # two phones here: both must agree
    for voter, seat in ((3, 2), (2, 3), (0, 0), (0, 1), (0, True), (0, "3"), (0, 99)):
        with pytest.raises(IllegalAction):
            s.away.agree(voter, seat)
    assert away(s) == before


def test_a_host_table_never_asks(make_fake: Callable[..., Session], config: TableConfig, vt: VirtualTime) -> None:
    s = playing(make_fake, config)
    s.set_connected(3, False)
    vt.advance(10 * AWAY_FREE_MS)
    assert away(s) == []
    with pytest.raises(NotAway):
        s.away.agree(0, 3)


def test_after_a_restart_a_phone_that_never_came_back_is_away(
        make_fake: Callable[..., Session], kiosk: TableConfig, vt: VirtualTime) -> None:
    s = playing(make_fake, kiosk)
    s.close()
    again = make_fake(cfg=kiosk)
    for seat in (0, 1, 2):
        again.set_connected(seat, True)
    vt.advance(AWAY_FREE_MS)
    assert [q["seat"] for q in away(again)] == [3]


def test_the_watch_alone(vt: VirtualTime) -> None:
    calls: list[int] = []
    watch = AwayWatch(1_000, vt, vt.now_ms, lambda: calls.append(vt.now_ms()))
    watch.left(1)
    watch.left(1)  # one clock per absence
    vt.advance(1_000)
    assert calls == [vt.now_ms()] and [q.seat for q in watch.questions(lambda seat: {0, 2})] == [1]
    assert not watch.agree(0, 1, {0, 2}) and watch.agree(2, 1, {0, 2})
    assert watch.back(1) and not watch.back(1) and watch.questions(lambda seat: {0}) == ()
    never = AwayWatch(None, vt, vt.now_ms, lambda: None)
    never.left(0)
    vt.advance(10_000)
    assert never.questions(lambda seat: {1}) == ()
