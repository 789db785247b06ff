"""Races in the live session (M14–M16): presses from every source through the one judge, the
engine's race_result journaled, false starts and the arcade state in the snapshot. The session
runs on virtual time: nothing here waits on the real clock."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tabletop_racekit as kit
from tabletop_racekit import private, seat_people

from game.config import TableConfig
from game.rules.base import MalformedAction, UnknownSeat
from game.seating import bot_name
from game.session.journal import Journal
from game.session.race_floor import PressSource, PressVerdict
from game.session.scheduler import VirtualTime
from game.session.session import ARCADE_UNPLUGGED, Session
from game.session.snapshot import InputEvent, InputKind, InputSource, TablePhase

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def vt() -> VirtualTime:
    return VirtualTime()


@pytest.fixture
def moth(tmp_path: Path, vt: VirtualTime):
    """A live Cheating Moth table with 4 people seated and a journal, on virtual time."""
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=5, game="cheating_moth")
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
    seat_people(session)
    yield session
    session.close()
    journal.close()


def _vt(session: Session) -> VirtualTime:
    assert isinstance(session.clock, VirtualTime)
    return session.clock


async def move_until_playable(session: Session, kind: str, seed: int = 0) -> tuple[int, dict[str, Any]]:
    return await kit.move_until_playable(session, kind, seed, vt=_vt(session))


async def wait_decided(session: Session, race: int, timeout_s: float = 8.0) -> dict[str, Any]:
    return await kit.wait_decided(session, race, timeout_s, vt=_vt(session))


def start(session: Session, **settings: Any) -> None:
    for name, value in settings.items():
        session.host_command({"command": "set_setting", "name": name, "value": value})
    session.host_command({"command": "start"})


async def mosquito(session: Session, seed: int = 0) -> dict[str, Any]:
    seat, action = await move_until_playable(session, "mosquito", seed)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    assert race is not None and race["kind"] == "mosquito" and seat not in race["eligible"]
    return race


def key(session: Session, seat: int, t_ms: float, race: int | None = None) -> None:
    payload = {} if race is None else {"race": race}
    session.handle_input(InputEvent(InputSource.KEYBOARD, InputKind.PRESS, seat, payload, t_ms))


async def test_M14_keyboard_presses_decide_a_mosquito_in_true_order(moth: Session) -> None:
    start(moth)
    race = await mosquito(moth)
    armed = moth.snapshot.race.current.armed_at_ms
    a, b, c = race["eligible"]
    for seat, after in ((c, 40), (a, 95), (b, 12)):  # handed in out of order
        key(moth, seat, armed + after)
    last = await wait_decided(moth, race["id"])
    assert last["order"] == [b, c, a] and last["slowest"] == a
    assert last["times_ms"] == [12, 40, 95] and last["margins_ms"] == [0, 28, 55]
    assert moth.snapshot.race.current is None
    assert moth.snapshot.race.last.sources == ("keyboard",) * 3
    assert moth.host_error is None


async def test_race_result_is_journaled_and_replays(moth: Session, tmp_path: Path) -> None:
    start(moth)
    race = await mosquito(moth, seed=3)
    armed = moth.snapshot.race.current.armed_at_ms
    for i, seat in enumerate(race["eligible"]):
        moth.press(seat, armed + 30 * (i + 1), PressSource.PHONE, error_ms=4.2)
    last = await wait_decided(moth, race["id"])
    assert last["error_ms"] == [4.2, 4.2, 4.2]  # each press's own bound, at full precision (M16)
    view = moth.snapshot.public_view
    journal, saved, _ = Journal.open(moth.config.data_dir)
    try:
        again = Session.boot(moth.config, None, saved)
        assert again.snapshot.public_view == view
        again.close()
    finally:
        journal.close()


async def test_mosquito_nobody_enters_times_out_with_everyone_missing(moth: Session) -> None:
    start(moth, race_timeout_ms=300)
    race = await mosquito(moth, seed=1)
    last = await wait_decided(moth, race["id"], timeout_s=5)
    assert last["order"] == [] and sorted(last["no_press"]) == sorted(race["eligible"])
    assert moth.snapshot.race.last.timed_out is True


async def test_false_starts_are_shown_and_ignored(moth: Session) -> None:
    start(moth)
    seat, action = await move_until_playable(moth, "mosquito", 2)
    jumper = next(s for s in range(4) if s != seat)
    key(moth, jumper, moth.clock())  # before the lamps light: remembered
    moth.clock.advance(10)  # type: ignore[attr-defined]
    moth.submit_action(seat, action, None)
    race = moth.snapshot.public_view["race"]
    current = moth.snapshot.race.current
    assert [f.seat for f in current.false_starts] == [jumper]
    other = next(s for s in race["eligible"] if s != jumper)
    assert moth.press(other, current.armed_at_ms - 5, PressSource.PHONE) is PressVerdict.FALSE_START
    assert moth.press(seat, current.armed_at_ms + 5, PressSource.PHONE) is PressVerdict.NOT_ELIGIBLE
    for i, s in enumerate(race["eligible"]):
        moth.press(s, current.armed_at_ms + 20 + i, PressSource.KEYBOARD)
    last = await wait_decided(moth, race["id"])
    assert sorted(last["order"]) == sorted(race["eligible"])  # the false starters still raced validly
    assert {f.seat for f in moth.snapshot.race.last.false_starts} == {jumper, other}


async def beetle(session: Session, seed: int) -> tuple[dict[str, Any], list[int]]:
    """Play until a Beetle race runs; its public entry and the seats holding its number."""
    seat, action = await move_until_playable(session, "beetle", seed)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    assert race["kind"] == "beetle" and sorted(race["eligible"]) == [0, 1, 2, 3]
    return race, [s for s in range(4) if private(session, s)["race_cards"]]


async def test_M15_beetle_first_holder_wins_and_the_public_stays_blind(moth: Session) -> None:
    start(moth)
    race, holders = await beetle(moth, 4)
    armed = moth.snapshot.race.current.armed_at_ms
    outsiders = [s for s in range(4) if s not in holders]
    for s in outsiders:
        assert moth.press(s, armed + 1, PressSource.PHONE) is PressVerdict.NOT_ELIGIBLE
    current = moth.snapshot.race.current
    assert current.pressed == () and current.eligible == ()
    last_view: dict[str, Any]
    if holders:
        assert moth.press(holders[-1], armed + 50, PressSource.PHONE) is PressVerdict.ACCEPTED
        last_view = await wait_decided(moth, race["id"])
        assert last_view["winner"] == holders[-1]
    else:
        last_view = await wait_decided(moth, race["id"], timeout_s=race["timeout_ms"] / 1000 + 2)
        assert last_view["winner"] is None


async def test_M15_holders_who_stay_still_are_not_shown_on_the_screen(moth: Session) -> None:
    """M16 (docs/rules/cheating-moth.md): the snapshot (screen, spectators) learns who pressed, never who held the
    number but did not press."""
    start(moth)
    for seed in range(4, 40):
        race, holders = await beetle(moth, seed)
        if len(holders) >= 2:
            break
        await wait_decided(moth, race["id"], timeout_s=10)
    else:
        pytest.skip("no Beetle race with two holders")
    armed = moth.snapshot.race.current.armed_at_ms
    presser = holders[0]
    assert moth.press(presser, armed + 80, PressSource.PHONE) is PressVerdict.ACCEPTED
    await wait_decided(moth, race["id"])
    outcome = moth.snapshot.race.last
    assert outcome is not None and outcome.order == (presser,)
    # a secret race: who held the number and stayed still, or that it ran out, is not shown
    assert outcome.missing is None and outcome.timed_out is None
    assert outcome.false_starts == ()  # only a holder's early press would be listed


async def test_bots_press_in_races(moth: Session) -> None:
    start(moth)
    seat, action = await move_until_playable(moth, "mosquito", 6)
    bot_seat = next(s for s in range(4) if s != seat)
    moth.host_command({"command": "kick", "seat": bot_seat})  # a bot takes the seat over
    assert moth.snapshot.seats[bot_seat].bot == "heuristic"
    moth.submit_action(seat, action, None)
    race = moth.snapshot.public_view["race"]
    armed = moth.snapshot.race.current.armed_at_ms
    for s in race["eligible"]:
        if s != bot_seat:
            moth.press(s, armed + 700, PressSource.KEYBOARD)  # slower than any bot reaction (<= 600 ms)
    last = await wait_decided(moth, race["id"])
    assert last["order"][0] == bot_seat  # the bot reacted within about 160–600 ms
    assert moth.snapshot.race.last.sources[0] == "bot"


async def test_bad_presses_change_nothing(moth: Session) -> None:
    start(moth)
    version = moth.version
    with pytest.raises(UnknownSeat):
        moth.press(9, moth.clock(), PressSource.PHONE)
    with pytest.raises(MalformedAction):
        moth.press(1, float("nan"), PressSource.PHONE)
    with pytest.raises(MalformedAction):
        moth.press(1, moth.clock(), PressSource.PHONE, race=True)
    assert moth.press(1, moth.clock(), PressSource.PHONE) is PressVerdict.NOT_ARMED
    assert moth.version == version


class FakeBridge:
    """What the session sees of the arcade bridge."""

    def __init__(self) -> None:
        self.connected = True
        self.mapping: dict[int, int] = {}
        self.mapping_in_progress = False
        self.calls: list[tuple[Any, ...]] = []
        self.listeners: list[Any] = []

    def add_listener(self, listener: Any) -> None:
        self.listeners.append(listener)

    def arm_race(self, race_id: str, seats: Any) -> None:
        self.calls.append(("arm", race_id, frozenset(seats)))

    def end_race(self) -> None:
        self.calls.append(("end",))

    def start_mapping(self, seats: Any) -> None:
        self.mapping_in_progress = True
        self.calls.append(("map", tuple(seats)))

    def cancel_mapping(self) -> None:
        self.mapping_in_progress = False

    def set_mapping(self, mapping: dict[int, int]) -> None:
        self.mapping = dict(mapping)

    def emit(self, event: Any) -> None:
        for listener in self.listeners:
            listener(event)


async def test_arcade_lamps_notice_and_mapping_saved(moth: Session) -> None:
    from firmware_bridge.bridge import BoardFound, BoardLost, MappingDone, MappingStep
    bridge = FakeBridge()
    moth.attach_arcade(bridge)
    moth.host_command({"command": "map_buttons"})
    assert bridge.calls[-1] == ("map", (0, 1, 2, 3))
    assert moth.snapshot.arcade.waiting_for == 0
    bridge.emit(MappingStep(0, 3, 1))
    assert moth.snapshot.arcade.waiting_for == 1
    bridge.emit(MappingDone({0: 3, 1: 2, 2: 1, 3: 0}))
    assert moth.table.arcade_map == ((0, 3), (1, 2), (2, 1), (3, 0))
    journal, saved, _ = Journal.open(moth.config.data_dir)
    journal.close()
    assert saved is not None and saved.table.arcade_map == moth.table.arcade_map  # survives a restart
    start(moth)
    race = await mosquito(moth)
    assert ("arm", str(race["id"]), frozenset(race["eligible"])) in bridge.calls
    bridge.emit(BoardLost("/dev/x", "unplugged"))
    assert ARCADE_UNPLUGGED in moth.snapshot.notices
    armed = moth.snapshot.race.current.armed_at_ms
    for i, s in enumerate(race["eligible"]):  # phones take over
        moth.press(s, armed + 10 * (i + 1), PressSource.PHONE)
    last = await wait_decided(moth, race["id"])
    assert last["order"] == list(race["eligible"])
    bridge.emit(BoardFound("/dev/x", None))
    assert ARCADE_UNPLUGGED not in moth.snapshot.notices
    assert moth.phase is TablePhase.PLAYING


async def test_map_buttons_without_a_board_is_refused(moth: Session) -> None:
    from game.rules.base import IllegalAction
    with pytest.raises(IllegalAction):
        moth.host_command({"command": "map_buttons"})


async def test_host_keyboard_digits_press_for_seats_during_a_race(moth: Session) -> None:
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from game.render.app import Screen
    screen = Screen()
    screen.sync(moth.snapshot)
    key_2 = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0)
    assert screen.race_press(key_2) is None  # in the lobby the digits do nothing
    start(moth)
    race = await mosquito(moth, seed=8)
    screen.sync(moth.snapshot)
    presses = []
    for seat in race["eligible"]:
        key = pygame.K_0 if seat == 9 else getattr(pygame, f"K_{seat + 1}")
        event = screen.race_press(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0))
        assert event is not None and event.seat == seat and event.source is InputSource.KEYBOARD
        presses.append(event)
    for event in presses:
        moth.handle_input(event)
    last = await wait_decided(moth, race["id"])
    assert sorted(last["order"]) == sorted(race["eligible"])
    assert moth.snapshot.race.last.sources == ("keyboard",) * len(race["eligible"])


async def test_lobby_bots_and_speakeasy_preset_follows_the_language(tmp_path: Path, vt: VirtualTime) -> None:
    config = TableConfig(data_dir=tmp_path / "d", admin_pin="2468", game="speakeasy", language="fa")
    session = Session.boot(config, None, None, clock=vt, scheduler=vt)
    try:
        assert session.table.preset == "fa"  # the deck of the table's language
        session.host_command({"command": "set_language", "language": "th"})
        assert session.table.preset == "th"
        session.host_command({"command": "set_preset", "preset": "en"})
        session.host_command({"command": "set_language", "language": "fa"})
        assert session.table.preset == "en"  # the host chose: kept
        session.host_command({"command": "set_bot", "seat": 1, "kind": "random"})
        seats = session.snapshot.seats
        assert [s.bot for s in seats[:2]] == [None, "random"]
        assert seats[1].name == bot_name(1, "fa") and seats[0].name == ""
    finally:
        session.close()
