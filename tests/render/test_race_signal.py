"""M14, M15: the signal is the start, from the TV's side. The window says it shows the races'
signal, draws a waiting race on its next frame ahead of any beat, and reports the flip of that
frame once through the one input path; the session opens the race at that instant."""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pygame
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))
import tabletop_racekit as kit
from tabletop_racekit import seat_people

from game.config import TableConfig
from game.render.app import Screen, WindowLoop, run_window
from game.render.howto import HowToPlay
from game.render.kit.scene import Director, Scene
from game.render.kit.sound import SoundBank
from game.render.signal import RaceSignal
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, RaceInfo, RaceNow
from game.tapes import lobby_snapshot

pytestmark = pytest.mark.timeout(60)


class LiveRuntime:
    """The window's runtime over a live session on this thread: every input applied at once."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.sent: list[InputEvent] = []
        self.frames = 0

    def snapshot(self):
        self.frames += 1
        if self.frames == 6:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return self.session.snapshot

    def send(self, event: InputEvent) -> None:
        self.sent.append(event)
        self.session.handle_input(event)


async def test_M14_the_window_reports_the_flip_of_a_waiting_race_once_and_it_opens_then(tmp_path: Path) -> None:
    vt = VirtualTime(start_ms=10**13)  # later than the machine's monotonic clock: the flip is in the past
    config = TableConfig(data_dir=tmp_path, seed=5, game="cheating_moth")
    session = Session.boot(config, None, None, clock=vt, scheduler=vt)
    seat_people(session)
    session.host_command({"command": "start"})
    seat, action = await kit.move_until_playable(session, "mosquito", 0, vt=vt)
    session.handle_input(RaceSignal.hello())
    session.submit_action(seat, action, None)
    waiting = session.snapshot.race.current
    assert waiting is not None and waiting.waiting
    runtime = LiveRuntime(session)
    try:
        assert run_window(runtime, dataclasses.replace(config, window_size=(640, 360))) == 0
    finally:
        pygame.init()  # the loop quit pygame; the other tests need it back
        pygame.display.set_mode((64, 64))
    kinds = [e.kind for e in runtime.sent]
    assert kinds[0] is InputKind.SCREEN and kinds.count(InputKind.SIGNAL) == 1
    flip = next(e for e in runtime.sent if e.kind is InputKind.SIGNAL)
    assert flip.payload == {"race": waiting.key}
    opened = session.snapshot.race.current
    assert opened is not None and not opened.waiting and opened.armed_at_ms == round(flip.t_ms)
    session.close()


class Base(Scene):
    name = "base"


class Beat(Scene):
    name = "beat"
    duration_s = 3.0


def racing(waiting: bool = True):
    now = RaceNow("7", "slowest_loses", 0, 5000, "race", (0, 1), (), (), waiting=waiting)
    return dataclasses.replace(lobby_snapshot(4, "en"), race=RaceInfo(now))


def test_M14_a_race_goes_in_front_of_the_beats_until_it_is_over() -> None:
    beats = [Beat(), Beat()]
    director = Director(lambda snap: Base(), lambda snap, prev: list(beats))
    quiet = lobby_snapshot(4, "en")
    director.sync(quiet)
    director.sync(dataclasses.replace(quiet, event_seq=quiet.event_seq + 1))
    assert director.names() == ["base", "beat"] and director.pending == 1
    signal = RaceSignal()
    race = dataclasses.replace(racing(), event_seq=quiet.event_seq + 1)
    director.sync(race)
    assert signal.front(director, race)
    assert director.names() == ["base"] and director.pending == 2  # the running beat waits too, in order
    director.sync(dataclasses.replace(race, race=RaceInfo(dataclasses.replace(race.race.current, waiting=False))))
    assert director.names() == ["base"]  # the race runs: still in front
    director.sync(dataclasses.replace(race, race=RaceInfo()))
    assert director.names() == ["base", "beat"] and director.top is beats[0]


def test_M14_one_report_per_race_and_none_for_an_open_race() -> None:
    signal = RaceSignal()
    assert signal.flipped(racing(waiting=False), 5.0) is None
    report = signal.flipped(racing(), 5.0)
    assert report is not None and report.kind is InputKind.SIGNAL and report.payload == {"race": "7"} and report.t_ms == 5.0
    assert signal.flipped(racing(), 22.0) is None
    assert not signal.front(Director(lambda snap: Base(), lambda snap, prev: []), racing())


class Served:
    """The window's runtime: serves ``snap``, keeps what is sent."""

    def __init__(self, snap) -> None:
        self.snap = snap
        self.sent: list[InputEvent] = []

    def snapshot(self):
        return self.snap

    def send(self, event: InputEvent) -> None:
        self.sent.append(event)


def test_M14_the_loop_draws_a_waiting_race_on_its_first_tick_and_its_flip_is_reported_once() -> None:
    runtime = Served(lobby_snapshot(4, "en"))
    screen = Screen(sound=SoundBank(enabled=False))
    loop, window = WindowLoop(runtime, screen, None, HowToPlay(screen.ctx, Screen)), pygame.Surface((640, 360))

    def tick() -> list[InputEvent]:
        """One tick as run_window runs it: a drawn frame is flipped, then reported."""
        assert loop.step(1 / 60, [], window) == []
        before = len(runtime.sent)
        if loop.drew:
            loop.flipped()
        return runtime.sent[before:]

    for _ in range(30):
        assert tick() == []
    assert not loop.drew and not loop.racing  # a still lobby: idle ticks
    runtime.snap = racing()
    reports = tick()
    assert loop.racing and loop.drew  # drawn on the tick it arrived
    assert [(e.kind, e.payload) for e in reports] == [(InputKind.SIGNAL, {"race": "7"})]
    for _ in range(30):
        assert tick() == []  # one report per race
        assert not loop.racing
