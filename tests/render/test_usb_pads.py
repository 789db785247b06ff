"""M16: any USB arcade encoder or game pad is a race button. SDL joystick events (posted to pygame's
queue as the SDL joystick driver would, under the dummy video driver) go through the TV's one input
path (the window loop's tick, ``table_input``) to the session: a pad plugged in lets the arcade wizard map its buttons to
seats (journaled like the board's mapping), a mapped button's press reaches the judge as that seat's
press with the pad as its source, an unmapped pad does nothing in a race, and a pad unplugged and
plugged again keeps its mapping."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))
import tabletop_racekit as kit
from tabletop_racekit import seat_people

from game.config import TableConfig
from game.render.app import Screen, WindowLoop
from game.render.howto import HowToPlay
from game.render.lobby import ArcadeStage, ArcadeStatus
from game.render.pads import Pads
from game.session.journal import Journal
from game.session.race_floor import PressSource
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, TableSnapshot

pytestmark = pytest.mark.timeout(60)

SIZE = (1280, 720)
ZERO_DELAY = "03000000790000000600000010010000"  # DragonRise "Generic USB Joystick" (zero-delay encoder)


class FakeJoystick:
    """What SDL's joystick driver would open for a device index (no USB device on a test machine)."""

    def __init__(self, instance: int, guid: str, name: str) -> None:
        self.instance, self.guid, self.name = instance, guid, name

    def get_instance_id(self) -> int:
        return self.instance

    def get_guid(self) -> str:
        return self.guid

    def get_name(self) -> str:
        return self.name


class Table:
    """A live Cheating Moth table on virtual time, fed by the TV's input path."""

    def __init__(self, tmp_path: Path, shared_ctx: Any) -> None:
        self.vt = VirtualTime()
        self.config = TableConfig(data_dir=tmp_path / "data", seed=5, game="cheating_moth")
        self.journal, saved, _ = Journal.open(self.config.data_dir)
        self.session = Session.boot(self.config, self.journal, saved, clock=self.vt, scheduler=self.vt)
        seat_people(self.session)
        self.devices: dict[int, FakeJoystick] = {}
        self.pads = Pads(clock=self.vt, open_pad=lambda index: self.devices[index])
        self.screen = Screen(ctx=shared_ctx)
        self.loop = WindowLoop(self, self.screen, None, HowToPlay(self.screen.ctx, Screen), pads=self.pads)
        self.window = pygame.Surface(SIZE)
        self.sent: list[InputEvent] = []

    def snapshot(self) -> TableSnapshot:
        return self.session.snapshot

    def send(self, event: InputEvent) -> None:
        self.sent.append(event)
        self.session.handle_input(event)

    def plug(self, index: int, instance: int, guid: str = ZERO_DELAY) -> None:
        self.devices[index] = FakeJoystick(instance, guid, "Generic   USB  Joystick")
        pygame.event.post(pygame.event.Event(pygame.JOYDEVICEADDED, device_index=index, guid=guid))
        self.pump()

    def unplug(self, instance: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.JOYDEVICEREMOVED, instance_id=instance))
        self.pump()

    def press(self, instance: int, button: int) -> None:
        pygame.event.post(pygame.event.Event(pygame.JOYBUTTONDOWN, instance_id=instance, button=button, joy=0))
        self.pump()

    def pump(self) -> None:
        """One tick of the window loop: the queued SDL events through table_input to the session."""
        assert self.loop.step(0.0, pygame.event.get(), self.window) == []


@pytest.fixture
def table(tmp_path: Path, shared_ctx: Any):
    pygame.event.clear()
    t = Table(tmp_path, shared_ctx)
    yield t
    t.session.close()
    t.journal.close()


def test_M16_a_plugged_pad_is_mapped_seat_by_seat_by_the_arcade_wizard_and_journaled(table: Table) -> None:
    session = table.session
    assert ArcadeStatus.of(session.snapshot).stage is ArcadeStage.ABSENT  # nothing to map yet
    table.plug(0, instance=7)
    assert session.snapshot.arcade.pads and ArcadeStatus.of(session.snapshot).stage is ArcadeStage.READY
    session.host_command({"command": "map_buttons"})
    assert session.snapshot.arcade.mapping_in_progress and session.snapshot.arcade.waiting_for == 0
    for seat, button in enumerate((3, 1, 0, 2)):
        table.press(7, button)
        if seat < 3:
            assert session.snapshot.arcade.waiting_for == seat + 1
            assert dict(session.snapshot.arcade.done)[seat] == button
    assert not session.snapshot.arcade.mapping_in_progress
    expected = tuple((seat, f"{ZERO_DELAY}#0/{b}") for seat, b in enumerate((3, 1, 0, 2)))
    assert session.table.pad_map == expected
    _, saved, _ = Journal.open(table.config.data_dir)
    assert saved is not None and saved.table.pad_map == expected  # journaled like the board's mapping


async def map_one_pad(table: Table) -> None:
    table.plug(0, instance=7)
    table.session.host_command({"command": "map_buttons"})
    for button in range(4):
        table.press(7, button)  # seat n on button n


async def test_M16_a_mapped_pad_press_reaches_the_judge_as_its_seat_with_the_pad_source(table: Table) -> None:
    session, vt = table.session, table.vt
    await map_one_pad(table)
    table.plug(1, instance=8, guid="030000005e0400008e02000014010000")  # a second pad, never mapped
    session.host_command({"command": "start"})
    seat, action = await kit.move_until_playable(session, "mosquito", 0, vt=vt)
    session.submit_action(seat, action, None)
    race = session.snapshot.public_view["race"]
    for button in range(4):
        table.press(8, button)  # the unmapped pad: nothing
    assert session.snapshot.race.current.pressed == ()
    vt.advance(180)
    first = race["eligible"][0]
    table.press(7, first)
    assert session.snapshot.race.current.pressed == (first,)
    press = next(e for e in reversed(table.sent) if e.kind is InputKind.PAD_DOWN)
    assert press.payload["pad"] == f"{ZERO_DELAY}#0" and press.payload["button"] == first
    for other in race["eligible"][1:]:
        vt.advance(40)
        session.press(other, vt.now_ms(), PressSource.PHONE, error_ms=20.0, race=race["id"])
    vt.run_until(lambda: session.snapshot.race.current is None, limit_ms=10_000)
    done = session.snapshot.race.last
    assert done is not None and done.order[0] == first and done.sources[0] == "pad"
    assert done.error_bound_ms >= 8.0  # a pad press is good to ±8 ms at best (PAD_ERROR_MS)


def test_M16_a_pad_unplugged_and_plugged_again_keeps_its_mapping(table: Table) -> None:
    session = table.session
    table.plug(0, instance=7)
    table.plug(1, instance=8)  # two encoders of one model: told apart by their place (#0, #1)
    session.host_command({"command": "map_buttons"})
    for instance, button in ((7, 0), (8, 0), (7, 1), (8, 1)):
        table.press(instance, button)
    mapped = dict(session.table.pad_map)
    assert mapped == {0: f"{ZERO_DELAY}#0/0", 1: f"{ZERO_DELAY}#1/0", 2: f"{ZERO_DELAY}#0/1", 3: f"{ZERO_DELAY}#1/1"}
    table.unplug(7)
    assert session.snapshot.arcade.pads  # the other one is still there
    table.unplug(8)
    assert not session.snapshot.arcade.pads
    table.plug(0, instance=9)  # SDL gives a new instance id; the pad keeps its name and its seats
    plugged = [e.payload for e in table.sent if e.kind is InputKind.PAD_PLUGGED]
    assert plugged[-1] == {"pad": f"{ZERO_DELAY}#0", "name": "Generic   USB  Joystick", "on": True}
    assert dict(session.table.pad_map) == mapped


def test_M16_pad_presses_are_stamped_between_two_pumps(table: Table) -> None:
    table.plug(0, instance=7)
    table.vt.advance(16)
    table.press(7, 5)
    press = table.sent[-1]
    assert press.kind is InputKind.PAD_DOWN and press.payload["error_ms"] == 8.0
    assert press.t_ms == table.vt.now_ms() - 8.0  # half-way between the loop's two looks at SDL's queue
