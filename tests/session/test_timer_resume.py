"""After kill -9 and a restart, a running game timer resumes with the time that
was left (its deadline is journaled on the wall clock), not with a fresh duration."""
from __future__ import annotations

from pathlib import Path

from game.config import TableConfig
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import Session


class Wall:
    """The wall clock (epoch ms), which keeps running while the table is down."""

    def __init__(self) -> None:
        self.now = 1_700_000_000_000

    def __call__(self) -> int:
        return self.now


def test_a_running_timer_resumes_with_what_was_left_after_a_restart(tmp_path: Path) -> None:
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="246813", seed=4, game="collusion", language="en")
    wall, vt = Wall(), VirtualTime(50_000)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, clock=vt, scheduler=vt, wall=wall)
    session.host_command({"command": "set_seats", "count": 4})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")
    session.host_command({"command": "start"})
    timer = session.timer
    assert timer is not None
    duration = timer.request.duration_ms
    vt.advance(50_000)
    wall.now += 50_000
    journal.close()  # kill -9: nothing else is written

    wall.now += 7_000  # down for 7 s
    after = VirtualTime(900_000)  # a new process: its monotonic clock has nothing to do with the old one
    journal, saved, _ = Journal.open(config.data_dir)
    again = Session.boot(config, journal, saved, clock=after, scheduler=after, wall=wall)
    try:
        resumed = again.timer
        assert resumed is not None and resumed.request.key == timer.request.key
        assert resumed.deadline_ms - after.now_ms() == duration - 57_000
        after.advance(duration - 57_000 - 1)
        assert again.timer is not None and again.timer.request.key == timer.request.key
        after.advance(1)
        assert again.timer is None or again.timer.request.key != timer.request.key  # it ran out on time
    finally:
        again.close()
        journal.close()


def test_a_timer_whose_deadline_passed_while_down_runs_out_at_once(tmp_path: Path) -> None:
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="246813", seed=4, game="collusion", language="en")
    wall, vt = Wall(), VirtualTime()
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, clock=vt, scheduler=vt, wall=wall)
    session.host_command({"command": "set_seats", "count": 4})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")
    session.host_command({"command": "start"})
    key = session.timer.request.key if session.timer else None
    journal.close()
    wall.now += 24 * 3_600_000
    after = VirtualTime()
    journal, saved, _ = Journal.open(config.data_dir)
    again = Session.boot(config, journal, saved, clock=after, scheduler=after, wall=wall)
    try:
        assert again.timer is not None and again.timer.request.key == key
        assert again.timer.deadline_ms == after.now_ms()
        after.advance(0)
        assert again.timer is None or again.timer.request.key != key
    finally:
        again.close()
        journal.close()
