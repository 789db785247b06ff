"""The window loop draws only what changes: a still screen is not drawn again, a new snapshot that
shows something new, an input or a shown timer's next second is, and animations still run every
tick. Driven tick by tick with a fake clock (fixed ``dt``); it counts draws, never wall time. A TV started mid-game warms
the scene's caches before its first frame: the Collusion reveal that follows finds every font and
plate it draws made (a frame that made them took ~100 ms at 1080p); a race still comes first."""
from __future__ import annotations

import dataclasses
import gc
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

import pygame
import pytest

from game.games.collusion.tapes import busiest_reveal
from game.render import howto
from game.render.app import FREEZE_EVERY_S, Screen, WindowLoop, game_screen, same_picture
from game.render.howto import HowToPlay
from game.render.kit import plates
from game.render.kit.scene import Director, Frame, RenderContext, Scene
from game.render.kit.sound import SoundBank
from game.session.snapshot import InputEvent, InputKind, RaceInfo, RaceNow, TablePhase, TableSnapshot
from game.tapes import ScriptedTable, lobby_snapshot

TICK_S = 1 / 60
SIZE = (1280, 720)


class FakeRuntime:
    """Serves whatever snapshot the test puts in ``snap``."""

    def __init__(self, snap: TableSnapshot) -> None:
        self.snap = snap
        self.sent: list[InputEvent] = []

    def snapshot(self) -> TableSnapshot:
        return self.snap

    def send(self, event: InputEvent) -> None:
        self.sent.append(event)


def make_loop(snap: TableSnapshot) -> tuple[WindowLoop, FakeRuntime, pygame.Surface]:
    runtime = FakeRuntime(snap)
    screen = Screen(sound=SoundBank(enabled=False))
    return WindowLoop(runtime, screen, None, HowToPlay(screen.ctx, Screen)), runtime, pygame.Surface(SIZE)


def draws(loop: WindowLoop, window: pygame.Surface, ticks: int, dt: float = TICK_S,
          events: list[pygame.event.Event] | None = None) -> int:
    """Frames drawn over ``ticks`` ticks of ``dt`` seconds (``events`` on the first)."""
    before, drew = loop.screen.draws, 0
    for i in range(ticks):
        assert loop.step(dt, (events or []) if i == 0 else [], window) == []
        drew += loop.drew
    assert loop.screen.draws - before == drew  # the loop says when it drew (the window flips then)
    return drew


def table_started(n: int = 6) -> ScriptedTable:
    t = ScriptedTable("collusion", n, "en")
    t.start()
    return t


def test_a_still_lobby_is_drawn_once():
    loop, _, window = make_loop(lobby_snapshot(8, "fa"))
    assert draws(loop, window, 1) == 1  # the first tick shows it
    assert draws(loop, window, 600) == 0  # ten seconds of ticks: nothing changed, nothing drawn


def test_ticks_with_nothing_to_draw_warm_the_caches():
    loop, _, window = make_loop(lobby_snapshot(8, "fa"))
    draws(loop, window, 1)
    assert not loop.screen.warmed
    assert draws(loop, window, 400) == 0
    assert loop.screen.warmed  # every font the Persian screens need at this size, before a game needs it


def test_the_lobby_first_frame_leaves_the_game_screen_to_the_warm_ticks():
    game_screen.cache_clear()
    loop, _, window = make_loop(lobby_snapshot(6, "en"))
    draws(loop, window, 1)
    assert game_screen.cache_info().currsize == 0  # the lobby's first frame asked for no game's screen
    draws(loop, window, 5)
    assert game_screen.cache_info().currsize == 1  # the lobby's spare time imported it, before a game needs it


def test_during_a_game_idle_ticks_load_no_fonts():
    loop, _, window = make_loop(table_started().snapshot())
    draws(loop, window, 1)
    assert draws(loop, window, 400, dt=0.0) == 0
    assert not loop.screen.warmed  # a font's first load holds the interpreter the table's loop needs


def test_idle_ticks_move_the_long_lived_objects_out_of_the_collectors_way():
    loop, _, window = make_loop(lobby_snapshot(6, "en"))
    try:
        gc.unfreeze()
        draws(loop, window, 1)
        assert gc.get_freeze_count() == 0  # a tick that draws does not freeze
        draws(loop, window, 1)
        assert gc.get_freeze_count() > 0  # the first idle tick does
        gc.unfreeze()
        draws(loop, window, round(FREEZE_EVERY_S * 60) - 2)
        assert gc.get_freeze_count() == 0
        draws(loop, window, 3)
        assert gc.get_freeze_count() > 0  # and again FREEZE_EVERY_S later
    finally:
        gc.unfreeze()


def test_a_new_snapshot_is_drawn_on_the_next_tick():
    loop, runtime, window = make_loop(lobby_snapshot(8, "en", joined=2))
    draws(loop, window, 5)
    runtime.snap = lobby_snapshot(8, "en", joined=3)  # someone joined
    assert draws(loop, window, 1) == 1
    assert draws(loop, window, 60) == 0


def test_the_same_picture_with_a_new_clock_is_not_drawn_again():
    snap = lobby_snapshot(8, "th")
    loop, runtime, window = make_loop(snap)
    draws(loop, window, 2)
    runtime.snap = dataclasses.replace(snap, clock_ms=snap.clock_ms + 5_000)
    assert same_picture(snap, runtime.snap)
    assert draws(loop, window, 30) == 0


def test_an_input_is_drawn():
    loop, _, window = make_loop(lobby_snapshot(8, "en"))
    draws(loop, window, 3)
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=(10, 10), rel=(1, 1), buttons=(0, 0, 0))
    assert draws(loop, window, 1, events=[motion]) == 1
    assert draws(loop, window, 30) == 0
    exposed = pygame.event.Event(pygame.WINDOWEXPOSED)  # the window was uncovered
    assert draws(loop, window, 1, events=[exposed]) == 1


def test_a_shown_timer_is_drawn_once_a_second():
    t = table_started()
    loop, _, window = make_loop(t.snapshot())
    first = draws(loop, window, 1)
    assert first == 1 and t.snapshot().timer is not None  # the conspiracy shows its timer
    assert draws(loop, window, 60 * 5) == 5  # five seconds: the shown second changed five times


def test_a_secret_vote_is_not_drawn_but_a_card_put_down_slides():
    t = table_started()
    for seat in range(3):
        t.act(seat, {"type": "vote", "target": (seat + 1) % 6})
    loop, runtime, window = make_loop(t.snapshot())
    draws(loop, window, 5)
    draws(loop, window, 60, dt=0.0)  # no time passes: no timer second either
    t.act(0, {"type": "vote", "target": 4})  # seat 0 changes its mind: the TV shows the same card down
    runtime.snap = dataclasses.replace(t.snapshot(), clock_ms=runtime.snap.clock_ms)
    assert runtime.snap.version != loop.screen.snapshot.version
    assert draws(loop, window, 30, dt=0.0) == 0
    t.act(4, {"type": "vote", "target": 0})  # a new card goes down: it slides for a moment
    runtime.snap = dataclasses.replace(t.snapshot(), clock_ms=runtime.snap.clock_ms)
    sliding = draws(loop, window, 12)
    assert sliding == 12  # every tick while it slides (0.35 s = 21 ticks)
    draws(loop, window, 20)
    assert draws(loop, window, 20, dt=0.0) == 0  # landed: still again


def test_a_reveal_beat_is_drawn_every_tick_while_it_runs():
    before, after = busiest_reveal(12, "en")
    loop, runtime, window = make_loop(before)
    draws(loop, window, 2)
    runtime.snap = after  # the reveal beat starts
    assert draws(loop, window, 90) == 90
    assert loop.screen.director.names()[-1] == "reveal"  # still running after 1.5 s


# ------------------------------------------------------------------------- the scene base
class Pulse(Scene):
    name = "pulse"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        surface.fill((round(100 + 100 * (self.t % 1.0)), 0, 0))


class Still(Scene):
    name = "still"

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        surface.fill((0, 0, 80))


def test_a_scene_whose_draw_reads_its_clock_animates_and_one_that_does_not_is_still(shared_ctx):
    snap = lobby_snapshot(4, "en")
    surface = pygame.Surface((64, 36))
    for scene, moves in ((Pulse(), True), (Still(), False)):
        director = Director(lambda _s, sc=scene: sc, lambda _s, _p: [])
        director.sync(snap)
        frame = Frame(snap, 0, (64, 36))
        director.update(TICK_S, frame, shared_ctx)  # update reads t: that does not count
        director.draw(surface, frame, shared_ctx)
        assert director.animating(frame) is moves
        assert frame.reads.exact is False and frame.reads.next_ms is None


def test_a_frame_notes_when_a_shown_timer_changes_its_second():
    t = table_started()
    snap = t.snapshot()
    assert snap.timer is not None
    frame = Frame(snap, snap.timer.deadline_ms - 2_300, SIZE)
    assert frame.timer_left_ms() == 2_300
    assert frame.reads.next_ms == snap.timer.deadline_ms - 2_000 and not frame.reads.exact
    assert frame.now_ms == snap.timer.deadline_ms - 2_300 and frame.reads.exact


class InPlacePool(Executor):
    """Runs what is submitted at once (in the test's thread) and notes it."""

    def __init__(self) -> None:
        self.submitted: list[tuple[Any, ...]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.submitted.append(args)
        future: Future[Any] = Future()
        future.set_result(fn(*args, **kwargs))
        return future


def test_the_lobby_has_the_how_to_play_tapes_recorded_ahead_and_the_first_slide_uses_them(monkeypatch):
    t = ScriptedTable("collusion", 5, "fa", settings={"how_to_play": True})
    runtime = FakeRuntime(t.snapshot())
    screen = Screen(sound=SoundBank(enabled=False))
    pool = InPlacePool()
    loop, window = WindowLoop(runtime, screen, None, howto.HowToPlay(screen.ctx, Screen, pool)), pygame.Surface(SIZE)
    draws(loop, window, 30)
    assert pool.submitted == [("collusion", "fa")]  # once, while the lobby is up

    def too_late(tape: str, lang: str) -> dict[str, Any]:
        raise AssertionError(f"{tape} recorded when the slide came on")

    monkeypatch.setattr(howto, "record_tape", too_late)
    t.start()
    runtime.snap = t.snapshot()
    assert runtime.snap.how_to_play is not None
    assert draws(loop, window, 3) == 3  # the slideshow plays, from the tape recorded ahead


def test_no_tapes_are_recorded_ahead_when_the_table_skips_the_how_to_play():
    t = ScriptedTable("collusion", 5, "en", settings={"how_to_play": False})
    pool = InPlacePool()
    screen = Screen(sound=SoundBank(enabled=False))
    loop = WindowLoop(FakeRuntime(t.snapshot()), screen, None, howto.HowToPlay(screen.ctx, Screen, pool))
    draws(loop, pygame.Surface(SIZE), 10)
    assert pool.submitted == []


def plates_drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The seats whose plate is drawn anew from now on (a plate found in its cache is not)."""
    drawn: list[int] = []
    draw_plate = plates.draw_plate
    monkeypatch.setattr(plates, "draw_plate", lambda surface, rect, seat, *rest: (drawn.append(seat.seat),
                                                                                draw_plate(surface, rect, seat, *rest)))
    return drawn


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_a_mid_game_start_warms_the_reveal_before_the_first_frame(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before, after = busiest_reveal(12, lang)
    loop, runtime, window = make_loop(before)
    loop.step(TICK_S, [], window)
    assert loop.drew and loop.screen.draws == 1
    assert loop.screen.scene_warmed  # the warming ran to its end before that first frame
    fonts = loop.screen.ctx.text.fonts_loaded
    drawn = plates_drawn(monkeypatch)
    runtime.snap = after  # the votes are in, on the very next tick: no idle tick to warm in
    names: set[str] = set()
    for _ in range(round(6.5 / TICK_S)):
        loop.step(TICK_S, [], window)
        names.update(loop.screen.director.names())
    assert "reveal" in names
    assert loop.screen.ctx.text.fonts_loaded == fonts  # no frame of the reveal loaded a font
    assert drawn == []  # nor drew a seat's plate (each highlighted, fallen: made before)


def test_M14_a_race_on_the_first_frame_is_not_delayed_by_warming(monkeypatch: pytest.MonkeyPatch) -> None:
    before, _ = busiest_reveal(12, "en")
    now = RaceNow("7", "slowest_loses", 0, 5000, "race", (0, 1), (), (), waiting=True)
    loop, _, window = make_loop(dataclasses.replace(before, race=RaceInfo(now)))
    loop.step(TICK_S, [], window)
    assert loop.drew and loop.racing
    assert not loop.screen.scene_warmed  # drawn at once; the caches wait for a tick with time
    loop.flipped()  # its signal reported: the race is open
    drawn = plates_drawn(monkeypatch)
    assert draws(loop, window, 30, dt=0.0) == 0
    assert drawn == [] and not loop.screen.scene_warmed  # idle ticks warm nothing while a race runs


def test_the_tv_reports_news_told_only_once_its_frame_is_on_screen():
    """The phones show a batch's news when the TV reports it told (session/news.py): the report
    waits for the flip of the frame that shows it, not the tick that decided to draw it (the
    final screen's first frame took a few hundred ms with the machine busy, and the phones named
    the winner while the TV still showed the last secrets)."""
    table = ScriptedTable("speakeasy", 5, "en", seed=4, people=5)
    table.start()
    table.play_to_the_end()
    snaps = [s for s in table.recorder.snapshots if s.phase is not TablePhase.LOBBY]
    loop, runtime, window = make_loop(snaps[-2])
    loop.step(TICK_S, [], window)
    loop.flipped()
    runtime.snap = snaps[-1]  # the game's last batch: its beats, then the final screen
    told: list[int] = []
    for _ in range(round(30 / TICK_S)):
        runtime.sent.clear()
        loop.step(TICK_S, [], window)
        before_flip = [e for e in runtime.sent if e.kind is InputKind.TOLD]
        if loop.drew:
            loop.flipped()
        reports = [e.payload["told"] for e in runtime.sent if e.kind is InputKind.TOLD]
        if loop.drew:
            assert before_flip == []  # a drawn tick reports at its flip
        told += reports
        if snaps[-1].event_seq in told:
            break
    assert told and told[-1] == snaps[-1].event_seq
    assert loop.screen.director.showing() is not None and loop.screen.director.showing().announces
