"""When the kiosk hands the table over: ``results_s`` after a game ends, or ``idle_minutes``
without input; never while people are playing or in a table that is not a kiosk."""
from __future__ import annotations

from pathlib import Path

import tabletop_fakegame as fake
from tabletop_sessionkit import FakeClock, Recorder

from game.config import TableConfig
from game.kiosk.config import KioskConfig, Timers
from game.session.scheduler import VirtualTime
from game.session.session import NoticeCode, Session
from game.session.snapshot import InputSource, RunMode, TablePhase


def kiosk(tmp_path: Path, clock: FakeClock, mode: RunMode = RunMode.KIOSK) -> Session:
    config = TableConfig(mode=mode, data_dir=tmp_path, admin_pin="2468", seed=4,
                         kiosk=KioskConfig(timers=Timers(results_s=45), admin_pin="2468", how_to_play=False))
    session = Session.boot(config, None, None, engines=fake.engines, bot_factory=fake.bot_factory, clock=clock,
                           bot_delay_scale=1000.0)
    session.host_command({"command": "set_seats", "count": 3})
    return session


def finish(session: Session) -> None:
    session.host_command({"command": "start"})
    for _ in range(2):
        for seat in range(3):
            session.submit_action(seat, {"type": "pick", "value": 1}, None, InputSource.BOT)
    assert session.phase is TablePhase.FINISHED


async def test_the_table_is_handed_over_results_s_after_a_game_ends(tmp_path: Path) -> None:
    clock = FakeClock()
    session = kiosk(tmp_path, clock)
    rec = Recorder()
    session.attach(rec)
    token = session.table.seats[0].token
    session.join_seat(token, "Sara")
    finish(session)
    clock.now += 25_000  # the TV still plays the last reveal: the results time has not started
    session.check_idle()
    session.screen_shows("game_over")  # the final scores are on screen from now
    clock.now += 44_000
    session.check_idle()
    assert session.phase is TablePhase.FINISHED  # the scores are still on screen
    session.screen_shows("game_over")  # said again (a redraw): the count does not restart
    clock.now += 1_000
    session.check_idle()
    assert session.phase is TablePhase.LOBBY and NoticeCode.NEW_GROUP in rec.notices
    assert session.seat_by_token(token) is None and 0 in rec.revoked
    session.close()


async def test_without_a_screen_the_results_wait_for_the_longest_last_reveal(tmp_path: Path) -> None:
    """A headless kiosk never says the final scores are shown: they are given the longest last
    reveal (RESULTS_WAIT_MS) and then the full results time."""
    from game.session.policy import RESULTS_WAIT_MS

    clock = FakeClock()
    session = kiosk(tmp_path, clock)
    session.join_seat(session.table.seats[0].token, "Sara")
    finish(session)
    clock.now += RESULTS_WAIT_MS + 44_000
    session.check_idle()
    assert session.phase is TablePhase.FINISHED
    clock.now += 1_000
    session.check_idle()
    assert session.phase is TablePhase.LOBBY
    session.close()


async def test_a_table_mode_game_is_never_handed_over(tmp_path: Path) -> None:
    clock = FakeClock()
    session = kiosk(tmp_path, clock, RunMode.TABLE)
    finish(session)
    clock.now += 3_600_000
    session.check_idle()
    assert session.phase is TablePhase.FINISHED
    session.close()


async def test_an_empty_lobby_is_left_alone(tmp_path: Path) -> None:
    clock = FakeClock()
    session = kiosk(tmp_path, clock)
    tokens = [r.token for r in session.table.seats]
    clock.now += 3_600_000
    session.check_idle()
    assert [r.token for r in session.table.seats] == tokens  # the QR codes on the TV stay valid
    session.close()




async def test_the_hand_over_is_scheduled_for_exactly_results_s(tmp_path: Path) -> None:
    vt = VirtualTime()
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="2468", seed=4,
                         kiosk=KioskConfig(timers=Timers(results_s=45), admin_pin="2468", how_to_play=False))
    session = Session.boot(config, None, None, engines=fake.engines, bot_factory=fake.bot_factory, clock=vt,
                           scheduler=vt, bot_delay_scale=1000.0)
    session.host_command({"command": "set_seats", "count": 3})
    rec = Recorder()
    session.attach(rec)
    session.join_seat(session.table.seats[0].token, "Sara")
    finish(session)
    vt.advance(20_000)  # the last reveal plays on the TV
    session.screen_shows("game_over")  # the final scores are on screen: the results time starts
    vt.advance(44_999)  # nobody calls check_idle: the scheduler alone hands over
    assert session.phase is TablePhase.FINISHED and NoticeCode.NEW_GROUP not in rec.notices
    vt.advance(1)
    assert session.phase is TablePhase.LOBBY and NoticeCode.NEW_GROUP in rec.notices
    assert vt.pending() == 0
    session.close()


async def test_a_new_game_before_results_s_is_not_handed_over(tmp_path: Path) -> None:
    vt = VirtualTime()
    config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="2468", seed=4,
                         kiosk=KioskConfig(timers=Timers(results_s=45), admin_pin="2468", how_to_play=False))
    session = Session.boot(config, None, None, engines=fake.engines, bot_factory=fake.bot_factory, clock=vt,
                           scheduler=vt, bot_delay_scale=1000.0)
    session.host_command({"command": "set_seats", "count": 3})
    session.join_seat(session.table.seats[0].token, "Sara")
    finish(session)
    vt.advance(10_000)
    session.host_command({"command": "next"})
    session.host_command({"command": "start"})  # the same group plays again
    vt.advance(60_000)
    assert session.phase is TablePhase.PLAYING and session.table.seats[0].name == "Sara"
    session.close()

