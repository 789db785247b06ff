"""M14–M16: the signal is the start. With a TV showing the races (InputKind.SCREEN), a race opens at
the flip of its first frame, which the TV reports through the one input path (InputKind.SIGNAL):
that instant is the judge's t0, the lamps light then, presses before it are false starts and
reaction times run from it. Without a TV the race opens when it is asked for (the lamps' and phones'
signal), as before. Virtual time throughout: nothing waits on the real clock."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import tabletop_racekit as kit
from tabletop_racekit import seat_people

from game.config import TableConfig
from game.session.journal import Journal
from game.session.race_floor import SIGNAL_WAIT_MS, PressSource, PressVerdict
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, InputSource
from game.session.table import TableRecord

pytestmark = pytest.mark.timeout(60)


class FakeBoard:
    """The arcade bridge as the session sees it: records when the lamps were lit (session clock)."""

    def __init__(self, clock: VirtualTime) -> None:
        self.clock = clock
        self.mapping: dict[int, int] = {}
        self.lit: list[tuple[str, int]] = []
        self.connected = True
        self.mapping_in_progress = False

    def add_listener(self, listener: Any) -> None:
        pass

    def arm_race(self, race_id: str, seats: Any) -> None:
        self.lit.append((race_id, self.clock.now_ms()))

    def end_race(self) -> None:
        pass

    def start_mapping(self, seats: Any) -> None:
        pass

    def cancel_mapping(self) -> None:
        pass

    def set_mapping(self, mapping: dict[int, int]) -> None:
        self.mapping = dict(mapping)


@pytest.fixture
def vt() -> VirtualTime:
    return VirtualTime()


@pytest.fixture
def table(tmp_path: Path, vt: VirtualTime):
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=5, game="cheating_moth")
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
    board = FakeBoard(vt)
    session.attach_arcade(board)
    seat_people(session)
    session.host_command({"command": "start"})
    yield session, board, config
    session.close()
    journal.close()


def tv(kind: InputKind, payload: dict[str, Any], t_ms: float) -> InputEvent:
    return InputEvent(InputSource.SCREEN, kind, None, payload, t_ms)


async def mosquito_asked(session: Session, board: FakeBoard, vt: VirtualTime, *, screen: bool) -> tuple[dict[str, Any], float]:
    """Play on until a Mosquito race is asked for (``screen``: with a TV up from then on); its view
    and the moment it was asked for. The lamps' log starts there."""
    seat, action = await kit.move_until_playable(session, "mosquito", 0, vt=vt)
    if screen:
        session.handle_input(tv(InputKind.SCREEN, {"on": True}, vt.now_ms()))
    board.lit.clear()
    asked = vt.now_ms()
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    assert race is not None and race["kind"] == "mosquito"
    return race, asked


def decided(session: Session, vt: VirtualTime, race: int) -> dict[str, Any]:
    vt.run_until(lambda: (session.snapshot.public_view or {}).get("last_race") is not None
                 and session.snapshot.public_view["last_race"]["race"] == race, limit_ms=20_000)
    return session.snapshot.public_view["last_race"]


async def test_M14_with_a_tv_the_flip_is_t0_presses_before_it_are_false_starts(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    key = session.snapshot.race.current.key
    assert session.snapshot.race.current.waiting and board.lit == []  # asked for: dark until the TV shows it
    a, b, c = race["eligible"]
    vt.advance(200)
    assert session.press(a, asked + 200, PressSource.ARCADE, race=race["id"]) is PressVerdict.FALSE_START
    vt.advance(100)
    session.handle_input(tv(InputKind.SIGNAL, {"race": key}, asked + 300))  # the TV flipped its frame at +300
    current = session.snapshot.race.current
    assert not current.waiting and current.armed_at_ms == asked + 300
    assert board.lit == [(key, asked + 300)]  # the lamps light in the same instant
    vt.advance(100)
    assert session.press(a, asked + 400, PressSource.ARCADE, race=race["id"]) is PressVerdict.ACCEPTED
    session.press(b, asked + 450, PressSource.ARCADE, race=race["id"])
    session.press(c, asked + 520, PressSource.ARCADE, race=race["id"])
    decided(session, vt, race["id"])
    done = session.snapshot.race.last
    assert done is not None and done.order == (a, b, c)
    assert done.reaction_ms == (100.0, 150.0, 220.0)  # measured from the flip
    assert [(f.seat, f.early_by_ms) for f in done.false_starts] == [(a, 100.0)]


async def test_M14_headless_the_race_opens_when_asked_for(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=False)
    current = session.snapshot.race.current
    assert not current.waiting and current.armed_at_ms == asked  # today's t0: the lamps' and phones' signal
    assert board.lit == [(current.key, asked)]
    session.handle_input(tv(InputKind.SIGNAL, {"race": current.key}, asked + 300))  # no TV asked: ignored
    assert session.snapshot.race.current.armed_at_ms == asked
    a = race["eligible"][0]
    assert session.press(a, asked + 200, PressSource.ARCADE, race=race["id"]) is PressVerdict.ACCEPTED


async def test_M14_a_silent_tv_does_not_hold_the_race(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    vt.advance(SIGNAL_WAIT_MS)
    current = session.snapshot.race.current
    assert not current.waiting and current.armed_at_ms == asked + SIGNAL_WAIT_MS
    assert board.lit == [(current.key, asked + SIGNAL_WAIT_MS)]
    session.handle_input(tv(InputKind.SIGNAL, {"race": current.key}, asked + SIGNAL_WAIT_MS + 50))  # too late: ignored
    assert session.snapshot.race.current.armed_at_ms == asked + SIGNAL_WAIT_MS


async def test_M14_the_timeout_runs_from_the_signal(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    timeout = session.snapshot.race.current.timeout_ms
    vt.advance(300)
    session.handle_input(tv(InputKind.SIGNAL, {"race": session.snapshot.race.current.key}, asked + 300))
    vt.advance(timeout - 1)  # the session's timer (started when asked for) has run out: the race has not
    assert session.snapshot.race.current is not None
    vt.advance(1)
    assert session.snapshot.race.current is None or session.snapshot.race.current.key != str(race["id"])


async def test_M16_a_press_stamped_after_the_flip_but_arriving_before_its_report_counts(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    a = race["eligible"][0]
    vt.advance(310)
    session.press(a, asked + 305, PressSource.ARCADE, race=race["id"])  # the report is still on its way
    session.handle_input(tv(InputKind.SIGNAL, {"race": session.snapshot.race.current.key}, asked + 300))
    assert session.snapshot.race.current.pressed == (a,)
    assert session.snapshot.race.current.false_starts == ()


async def test_M14_a_game_raced_on_the_tv_signal_replays_from_its_journal(table, vt: VirtualTime) -> None:
    session, board, config = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    vt.advance(300)
    session.handle_input(tv(InputKind.SIGNAL, {"race": session.snapshot.race.current.key}, asked + 300))
    for k, seat in enumerate(race["eligible"]):
        session.press(seat, asked + 400 + 30 * k, PressSource.ARCADE, race=race["id"])
    decided(session, vt, race["id"])
    view, version = session.snapshot.public_view, session.version
    journal, saved, _ = Journal.open(config.data_dir)
    try:
        again = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
        assert again.version == version and again.snapshot.public_view == view
        again.close()
    finally:
        journal.close()


async def test_M14_a_tv_that_closes_gives_the_start_back_to_the_lamps(table, vt: VirtualTime) -> None:
    session, board, _ = table
    session.handle_input(tv(InputKind.SCREEN, {"on": True}, vt.now_ms()))
    session.handle_input(tv(InputKind.SCREEN, {"on": False}, vt.now_ms()))
    race, asked = await mosquito_asked(session, board, vt, screen=False)
    assert not session.snapshot.race.current.waiting and session.snapshot.race.current.armed_at_ms == asked


def test_M16_a_malformed_tv_input_is_refused_and_changes_nothing(table, vt: VirtualTime) -> None:
    session, _, _ = table
    version, pad_map = session.version, session.table.pad_map
    for bad in (tv(InputKind.SIGNAL, {"race": 7}, vt.now_ms()),
                InputEvent(InputSource.PAD, InputKind.PAD_DOWN, None, {"pad": "g#0", "button": "x"}, vt.now_ms()),
                InputEvent(InputSource.PAD, InputKind.PAD_PLUGGED, None, {"pad": None, "on": True}, vt.now_ms())):
        session.handle_input(bad)
        assert session.host_error is not None and session.host_error.code == "malformed"
    assert session.version == version and session.table.pad_map == pad_map and not session.snapshot.arcade.pads


async def test_M14_a_flip_reported_from_the_future_opens_the_race_now(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    vt.advance(20)
    session.handle_input(tv(InputKind.SIGNAL, {"race": session.snapshot.race.current.key}, asked + 500))
    assert session.snapshot.race.current.armed_at_ms == asked + 20


def test_M16_a_table_record_from_before_pads_still_loads_and_saves_the_same(table) -> None:
    session, _, _ = table
    old = session.table.to_json()
    assert "pad_map" not in old  # no pads mapped: the record is written as before
    assert TableRecord.from_json(old).pad_map == ()
    mapped = replace(session.table, pad_map=((0, "g#0/3"),))
    assert TableRecord.from_json(mapped.to_json()) == mapped


async def test_M14_the_race_timer_shown_runs_from_the_signal(table, vt: VirtualTime) -> None:
    session, board, _ = table
    race, asked = await mosquito_asked(session, board, vt, screen=True)
    timeout = session.snapshot.race.current.timeout_ms
    vt.advance(300)
    assert session.update.timer_json(session.clock())["remaining_ms"] == timeout  # whole while it waits for its signal
    session.handle_input(tv(InputKind.SIGNAL, {"race": session.snapshot.race.current.key}, asked + 250))
    assert session.snapshot.timer.deadline_ms == asked + 250 + timeout
    assert session.update.timer_json(session.clock())["remaining_ms"] == timeout - 50
