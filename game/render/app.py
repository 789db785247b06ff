"""The big-screen window: pygame on the main thread, reading the session's latest snapshot and
sending every key and click back as an ``InputEvent``.

``run_window(runtime, config)`` needs only ``runtime.snapshot() -> TableSnapshot`` and
``runtime.send(InputEvent)`` (both thread-safe on the runtime's side). :class:`Screen` is the same
screen without a window (tests, screenshots, benchmarks).
"""
from __future__ import annotations

import ctypes
import dataclasses
import gc
import importlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Protocol, cast

import pygame

from game import catalog, i18n
from game.config import TableConfig
from game.lifeline import DaemonExecutor
from game.session.snapshot import InputEvent, InputKind, InputSource, RunMode, TablePhase, TableSnapshot

from .claims import claim_answer, draw_claims
from .howto import HowToPlay, intro_of, is_skip
from .kit import theme
from .kit.final import ARM_S, Choice
from .kit.qr import QrCache
from .kit.scene import ClockReads, Director, Frame, HostIntent, Intent, RenderContext, Scene, WindowOp, host
from .kit.sound import SoundBank
from .kit.text import TextProbe, TextRenderer
from .lobby import LobbyScene, next_language
from .pads import Pads
from .signal import RaceSignal
from .x11 import log_x_errors


class Overlay(Protocol):
    """What the window lets a layer over the table do (the café kiosk's lock, attract loop and
    hidden pointer, ``game.kiosk.screen.KioskLayer``): composed in ``game.__main__``, so the screen
    never imports the kiosk."""

    quit_confirmed: bool  # the window loop ends (a signal, or staff stopped the table)

    @property
    def exit_status(self) -> int: ...

    def consume(self, event: pygame.event.Event, screen: Screen) -> bool: ...

    def shown(self, real: TableSnapshot, screen: Screen) -> TableSnapshot: ...

    def tick(self) -> None: ...

    def needs_draw(self) -> bool: ...

    def demo_area(self, size: tuple[int, int], snapshot: TableSnapshot | None) -> pygame.Rect | None: ...

    def draw(self, window: pygame.Surface, snapshot: TableSnapshot, ctx: RenderContext) -> None: ...

    def close(self) -> None:
        """The window closes: stop what the layer runs beside it, at once."""


def draw_table(screen: Screen, window: pygame.Surface, layer: Overlay | None) -> pygame.Surface:
    """Draw the screen where it belongs (the demo beside an overlay's column, else the whole window);
    returns the surface it drew on (its size is the one the screen's steps should use)."""
    area = layer.demo_area(window.get_size(), screen.snapshot) if layer is not None else None
    if area is None:
        screen.draw(window)
        return window
    window.fill(theme.BACKGROUND)
    target = window.subsurface(area)
    screen.draw(target)
    return target

FPS = 60
STEP_S = 1 / FPS  # the fixed animation step
MAX_CATCH_UP_S = 0.25
WINDOW_TITLE = "Tabletop"
# the caches the TV has built are moved out of the cycle collector's way this often (see WindowLoop)
FREEZE_EVERY_S = 20.0
# the link to the table's process (its snapshot reader), or with TableRuntime the table's loop, waits
# at most this long for the interpreter while the TV draws in Python (CPython's default is 5 ms)
SWITCH_INTERVAL_S = 0.0005
# a tick with nothing to draw during a game warms the scene's caches for at most this long (a task
# at a time: one font or plate, a few ms), well under a frame
WARM_SLICE_S = 0.004


class Runtime(Protocol):
    def snapshot(self) -> TableSnapshot: ...

    def send(self, event: InputEvent) -> None: ...


class GameScreen(Protocol):
    """A game's screen package (``GameDescriptor.screen``: in the game's own package)."""

    def choose_base(self, snapshot: TableSnapshot) -> Scene: ...

    def beats_for(self, snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]: ...


@cache
def game_screen(game: str) -> GameScreen | None:
    """The screen package the game's catalog descriptor names (imported on first use), or None
    for a game the catalog does not know (the lobby stays up)."""
    try:
        path = catalog.get(game).screen
    except catalog.UnknownGame:
        return None
    return cast(GameScreen, importlib.import_module(path))


def choose_base(snapshot: TableSnapshot) -> Scene:
    # the lobby first: its first frame does not wait for the game's screen package (and its
    # engine), which the lobby's spare time imports (Screen.warm_step)
    if snapshot.phase is TablePhase.LOBBY or snapshot.public_view is None:
        return LobbyScene()
    scenes = game_screen(snapshot.game)
    return LobbyScene() if scenes is None else scenes.choose_base(snapshot)


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    if snapshot.public_view is None:
        return []
    scenes = game_screen(snapshot.game)
    return [] if scenes is None else scenes.beats_for(snapshot, previous)


def same_picture(old: TableSnapshot, new: TableSnapshot) -> bool:
    """Whether ``new`` shows what ``old`` did, its events aside: only the version, the clock and
    the events differ (a phone's secret vote changes the version and brings a ``vote_cast``
    event, not what the TV shows; the kiosk's attract reel makes a new snapshot every frame). The
    session makes a new snapshot only when something changed."""
    if new is old:
        return True
    if new.phase is not old.phase or new.public_view is not old.public_view and new.public_view != old.public_view:
        return False
    return dataclasses.replace(new, version=old.version, clock_ms=old.clock_ms, events=old.events,
                               event_seq=old.event_seq) == old


class Screen:
    """The scene stack, its services and the session-clock estimate; draws into any surface.

    It also knows whether the picture may have changed since it last drew (:meth:`needs_draw`):
    the window draws only then, so a still screen costs almost nothing."""

    def __init__(self, probe: TextProbe | None = None, sound: SoundBank | None = None,
                 ctx: RenderContext | None = None) -> None:
        self.ctx = ctx or RenderContext(TextRenderer(probe), QrCache(), sound or SoundBank(enabled=False))
        self.director = Director(choose_base, beats_for)
        self.snapshot: TableSnapshot | None = None
        self._version: int | None = None
        self._local_at_snapshot = 0.0  # local seconds when the current snapshot arrived
        self._local = 0.0  # local seconds (advanced by fixed steps)
        self._acc = 0.0  # time not yet covered by a whole step
        self._warm_key: tuple | None = None
        self._warmer: Iterator[None] | None = None
        self._scene_warm_key: tuple | None = None
        self._scene_warmer: Iterator[None] | None = None
        self._dirty = True  # something changed that the last draw did not show
        self._drawn: tuple[Scene, ...] = ()  # the scene stack the last draw showed
        self._drawn_size: tuple[int, int] | None = None
        self._reads = ClockReads(exact=True)  # how the last draw used the clock
        self.draws = 0  # frames drawn
        self._announced: Scene | None = None  # the last scene the table was told is on screen
        # the last progress with the news the table was told; the table starts knowing (0, 0), so a
        # screen with nothing followed yet sends nothing (a still lobby sends no event at all)
        self._told: tuple[int, int] = (0, 0)
        self._quiet_until = 0.0  # local seconds: presses wait until then after a final screen's choice

    # time ---------------------------------------------------------------------------------------
    def now_ms(self) -> int:
        if self.snapshot is None:
            return 0
        return self.snapshot.clock_ms + round((self._local - self._local_at_snapshot) * 1000)

    def frame(self, size: tuple[int, int]) -> Frame:
        if self.snapshot is None:
            raise RuntimeError("the screen has no snapshot yet")
        return Frame(self.snapshot, self.now_ms(), size)

    # the loop's three parts -----------------------------------------------------------------------
    def sync(self, snapshot: TableSnapshot) -> None:
        old = self.snapshot
        if snapshot is not old:
            self._dirty = self._dirty or old is None or not same_picture(old, snapshot) \
                or (snapshot.event_seq != old.event_seq and self.director.reacts_to_events())
            self._version = snapshot.version
            self.snapshot = snapshot
            self._local_at_snapshot = self._local
        self.director.sync(snapshot)  # beats it queues change the stack: needs_draw sees them

    def advance(self, seconds: float, size: tuple[int, int]) -> None:
        """Run whole fixed steps covering ``seconds``."""
        self._acc += max(0.0, seconds)
        while self._acc >= STEP_S - 1e-9:
            self._acc -= STEP_S
            self._local += STEP_S
            self.director.update(STEP_S, self.frame(size), self.ctx)

    def draw(self, surface: pygame.Surface) -> None:
        frame = self.frame(surface.get_size())
        self.director.draw(surface, frame, self.ctx)
        draw_claims(surface, frame, self.ctx)  # a phone asking for a held seat
        self._reads = frame.reads
        self._dirty = False
        self._drawn = tuple(self.director.stack)
        self._drawn_size = frame.size
        self.draws += 1

    def invalidate(self) -> None:
        """The picture must be drawn again (an input, the window exposed or resized)."""
        self._dirty = True

    def needs_draw(self, size: tuple[int, int]) -> bool:
        """Whether a frame drawn now could differ from the last one drawn: something changed (a
        new snapshot, an input, the scene stack, the size), a timer shown changed its second, the
        last draw read the clock to the millisecond, or a scene on screen animates."""
        if self.snapshot is None:
            return False
        stack = self.director.stack
        if self._dirty or size != self._drawn_size or len(stack) != len(self._drawn) \
                or any(a is not b for a, b in zip(stack, self._drawn, strict=True)):
            return True
        reads = self._reads
        if reads.exact or (reads.next_ms is not None and self.now_ms() >= reads.next_ms):
            return True
        return self.director.animating(self.frame(size))

    def handle(self, event: pygame.event.Event, size: tuple[int, int]) -> list[Intent]:
        self._dirty = True  # a key, a click, the pointer: the scene may show it
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_F11:
                return [WindowOp.TOGGLE_FULLSCREEN]
            if event.key == pygame.K_m:
                return [WindowOp.TOGGLE_MUTE]
            if event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL:
                return [WindowOp.QUIT]
            if event.key == pygame.K_SPACE and self.director.skip_beat():
                return []
        if self.snapshot is None:
            return []
        answer = claim_answer(event, self.frame(size))  # Y / N while a phone asks for a seat
        if answer is not None:
            return [answer]
        if self._local < self._quiet_until and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            return []  # the second press of a double press on the final screen reaches no other scene
        if event.type == pygame.KEYDOWN and event.key == pygame.K_l and self.snapshot.phase is not TablePhase.LOBBY:
            return [next_language(self.snapshot)]  # as in the lobby (its L button): mid-game too
        intents = self.director.handle(event, self.frame(size))
        if any(isinstance(i, HostIntent) and i.command in FINAL_CHOICES for i in intents):
            self._quiet_until = self._local + ARM_S
        return intents

    def staff_keys(self) -> frozenset[int]:
        """The keys that do a staff-only thing on the screen now (a kiosk asks for the PIN first)."""
        return self.director.staff_keys(self.snapshot) if self.snapshot is not None else frozenset()

    def warm_step(self, size: tuple[int, int]) -> None:
        """Prime one more cache for the current language, game and window size: the language's
        plural rules (a locale read from disk, ~30 ms the first time a count is shown), the game's
        screen package (imported, not on the lobby's first frame), then a font a step (cheap when
        all are). The window calls this on ticks with nothing to draw."""
        if self.snapshot is None:
            return
        key = (self.snapshot.language, self.snapshot.game, size)
        if key != self._warm_key:
            self._warm_key = key
            self._warmer = self._warm_tasks(self.snapshot.language, self.snapshot.game,
                                            Frame(self.snapshot, 0, size).scale.u)
        if self._warmer is not None and next(self._warmer, StopIteration) is StopIteration:
            self._warmer = None

    def _warm_tasks(self, lang: str, game: str, unit: float) -> Iterator[None]:
        i18n.plural_category(lang if lang in i18n.LANGUAGES else i18n.FALLBACK, 2)
        yield
        game_screen(game)
        yield
        yield from self.ctx.text.warm_steps(lang, unit)

    def warm_scene(self, size: tuple[int, int], budget_s: float | None = None) -> bool:
        """Run the base scene's warm tasks (:meth:`Scene.warm_tasks`, after the language's plural
        rules) for ``size``: all of them (``budget_s`` None: nothing is on screen yet) or until
        ``budget_s`` seconds have passed. Whether none is left (they run again when the base
        scene, the size, the language or the scene's ``warm_key`` changes)."""
        if self.snapshot is None or not self.director.stack:
            return True
        base, frame = self.director.stack[0], self.frame(size)
        key = (base, size, frame.lang, base.warm_key(frame))
        if key != self._scene_warm_key:
            self._scene_warm_key, self._scene_warmer = key, self._scene_tasks(base, frame)
        warmer = self._scene_warmer
        if warmer is None:
            return True
        end = None if budget_s is None else time.perf_counter() + budget_s
        for _ in warmer:
            if end is not None and time.perf_counter() >= end:
                return False
        self._scene_warmer = None
        return True

    @property
    def scene_warmed(self) -> bool:
        """Whether the base scene's warm tasks have all run (see :meth:`warm_scene`)."""
        return self._scene_warm_key is not None and self._scene_warmer is None

    def _scene_tasks(self, base: Scene, frame: Frame) -> Iterator[None]:
        i18n.plural_category(frame.lang, 2)  # a locale read from disk, ~30 ms the first time
        yield
        yield from base.warm_tasks(frame, self.ctx)

    @property
    def warmed(self) -> bool:
        """Whether :meth:`warm_step` has primed every font for the current language and size."""
        return self._warm_key is not None and self._warmer is None

    def shown_events(self) -> list[InputEvent]:
        """What the table is told of the screen: a scene that ``announces`` itself, once it alone is
        on screen (its beats played), once per scene (the final scores: a kiosk's results time)."""
        scene = self.director.showing()
        if scene is None or not scene.announces or scene is self._announced:
            return []
        self._announced = scene
        return [InputEvent(InputSource.KEYBOARD, InputKind.SHOWN, None, {"scene": scene.name}, self.now_ms())]

    def told_events(self) -> list[InputEvent]:
        """The TV's progress with the news, when it moved: the newest batch of events it follows and
        the newest it has told (``Director.told``). The phones wait for it (``session/news.py``)."""
        seen, told = self.director.seen, self.director.told()
        if seen is None or told is None or (seen, told) == self._told:
            return []
        self._told = (seen, told)
        return [InputEvent(InputSource.SCREEN, InputKind.TOLD, None, {"seen": seen, "told": told}, self.now_ms())]

    def input_event(self, command: HostIntent) -> InputEvent:
        return InputEvent(InputSource.KEYBOARD, InputKind.HOST, None, command.payload(), self.now_ms())

    def race_press(self, event: pygame.event.Event) -> InputEvent | None:
        """During a race, keys 1–9 and 0 press for seats 1–10 (the host keyboard, M16); the
        Cheating Moth scene draws the race, nothing new is shown here. Not on a kiosk: there the
        TV's keyboard is the guests', and a key cannot tell who pressed it, so the buttons and
        the phones judge the race."""
        snap = self.snapshot
        if event.type != pygame.KEYDOWN or snap is None or snap.phase is not TablePhase.PLAYING \
                or snap.mode is RunMode.KIOSK:
            return None
        race = snap.public_view.get("race") if isinstance(snap.public_view, dict) else None
        seat = RACE_KEYS.get(event.key)
        if not isinstance(race, dict) or seat is None or seat >= len(snap.seats):
            return None
        return InputEvent(InputSource.KEYBOARD, InputKind.PRESS, seat, {"race": race.get("id")}, self.now_ms())


FINAL_CHOICES = frozenset(c.value for c in Choice)  # the host commands that leave the final screen

RACE_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{n}"): n - 1 for n in range(1, 10)}, pygame.K_0: 9,
    **{getattr(pygame, f"K_KP{n}"): n - 1 for n in range(1, 10)}, pygame.K_KP0: 9,
}  # key -> seat during a race


def table_input(event: pygame.event.Event, screen: Screen, kiosk: Overlay | None,
                size: tuple[int, int], pads: Pads | None = None) -> list[InputEvent | WindowOp]:
    """What one key, click or window event at the TV does: a USB pad's (``pads``: the guests' race
    buttons, never held by the kiosk lock), the kiosk lock first (it may hold the event for the
    PIN), then skipping the how-to-play, a race press, and the screen's own keys."""
    if pads is not None and pads.owns(event):
        return [*pads.input(event)]
    if kiosk is not None and kiosk.consume(event, screen):
        return []
    if event.type == pygame.QUIT:
        return [WindowOp.QUIT]
    if intro_of(screen.snapshot) is not None and is_skip(event):
        return [screen.input_event(host("skip_intro"))]
    press = screen.race_press(event)
    if press is not None:
        return [press]
    return [screen.input_event(i) if isinstance(i, HostIntent) else i for i in screen.handle(event, size)
            if isinstance(i, (HostIntent, WindowOp))]


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return cast(Callable[[int], int], ctypes.CDLL(None).malloc_trim)
    except (OSError, AttributeError):  # not glibc
        return None


def trim_heap() -> None:
    """Give the C heap's free pages back to the system (glibc's ``malloc_trim``): the pictures the
    bounded caches drop (SDL surfaces, a few MB each at 1080p) are freed inside the heap, and
    without a trim the process kept their pages (the TV's PSS rose game after game)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


def _open_window(config: TableConfig, fullscreen: bool) -> pygame.Surface:
    flags = pygame.RESIZABLE
    if fullscreen:
        return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    return pygame.display.set_mode(config.window_size, flags)


class WindowLoop:
    """One pass of the window's loop at a time (``run_window`` drives it each tick; tests drive it
    with a fake clock): read the latest snapshot, take the inputs, advance the animation, and draw
    only when the picture may have changed (:meth:`Screen.needs_draw`). A still screen costs a
    snapshot read and an event poll a tick; a new snapshot is drawn on the next tick."""

    def __init__(self, runtime: Runtime, screen: Screen, kiosk: Overlay | None, how_to_play: HowToPlay,
                 signal: RaceSignal | None = None, pads: Pads | None = None) -> None:
        self.runtime = runtime
        self.screen = screen
        self.kiosk = kiosk
        self.how_to_play = how_to_play
        self.signal = signal or RaceSignal()  # races open at this TV's flip (signal.py)
        self.pads = pads or Pads()  # USB pads (pads.py)
        self.drew = False  # whether the last step drew a frame (the window flips it)
        self.racing = False  # whether a race waits for the frame the last step drew (see flipped)
        self.in_lobby = False  # whether the table is in its lobby (the time to warm caches)
        self.since_freeze_s = FREEZE_EVERY_S  # the first idle tick freezes what start-up built

    def _freeze(self, dt: float) -> None:
        """On an idle tick every ``FREEZE_EVERY_S``: move every object alive now to the collector's
        permanent generation (``gc.freeze``). The TV's caches (fonts, text, layers) are tens of
        thousands of long-lived objects; a full collection traversing them took 100-170 ms, with
        the interpreter held, in the middle of a phone's action (the table's loop shares it)."""
        self.since_freeze_s += dt
        if self.since_freeze_s >= FREEZE_EVERY_S:
            self.since_freeze_s = 0.0
            gc.freeze()
            trim_heap()

    def step(self, dt: float, events: list[pygame.event.Event], window: pygame.Surface) -> list[WindowOp]:
        """One tick; returns what the window itself must do (quit, full screen)."""
        screen, kiosk = self.screen, self.kiosk
        real = self.runtime.snapshot()
        screen.sync(kiosk.shown(real, screen) if kiosk else real)
        self.racing = self.signal.front(screen.director, screen.snapshot)  # a race waits for this frame
        ops: list[WindowOp] = []
        for event in events:
            screen.invalidate()  # a key, the pointer, the window exposed: draw again
            for out in table_input(event, screen, kiosk, window.get_size(), self.pads):
                if isinstance(out, InputEvent):
                    self.runtime.send(out)
                elif out is WindowOp.TOGGLE_MUTE:
                    screen.ctx.sound.toggle_mute()
                else:
                    ops.append(out)
        self.pads.pumped()
        if kiosk is not None and kiosk.quit_confirmed:
            ops.append(WindowOp.QUIT)
        if WindowOp.QUIT in ops:
            return ops  # a stop: not one more frame (a busy machine takes seconds for one)
        if kiosk is not None:
            kiosk.tick()
            if kiosk.needs_draw():
                screen.invalidate()  # the padlock's seconds left
        area = kiosk.demo_area(window.get_size(), screen.snapshot) if kiosk is not None else None
        size = area.size if area is not None else window.get_size()  # the attract demo beside its column
        screen.advance(dt, size)
        snapshot = screen.snapshot
        intro = snapshot is not None and intro_of(snapshot) is not None
        if snapshot is not None and intro:
            self.how_to_play.update(snapshot, screen.now_ms(), dt, size)
        self.in_lobby = real.phase is TablePhase.LOBBY and real.how_to_play is None
        self.drew = intro or self.racing or screen.needs_draw(size)
        if self.drew and screen.draws == 0 and real.race.current is None:
            screen.warm_scene(size)  # nothing on screen yet (a TV started mid-game): its caches first
        if self.drew:
            draw_table(screen, window, kiosk)
            for shown in screen.shown_events():  # the final scores are on screen: a kiosk's results time starts
                self.runtime.send(shown)
                trim_heap()  # a still moment after a game's scenes: their freed pictures' pages go back
            if snapshot is not None and intro:
                self.how_to_play.draw(window, snapshot, screen.now_ms())
            if kiosk is not None and snapshot is not None:
                kiosk.draw(window, snapshot, screen.ctx)
        else:
            if self.in_lobby:  # not during a game: loading a font holds the interpreter for 25-200 ms
                screen.warm_step(size)  # nothing to draw: prime a cache for the game's scenes
                if real.lobby.table_settings.get("how_to_play"):
                    self.how_to_play.prefetch(real.game, real.language)  # recorded off this thread
            elif real.race.current is None:  # never while a race runs: its presses are stamped per tick
                screen.warm_scene(size, WARM_SLICE_S)  # a game's next moment (the reveal) finds them cached
            self._freeze(dt)
            self._report_told()  # nothing new to draw: what the screen has told is on it already
        return ops

    def flipped(self) -> None:
        """The frame the last step drew is on screen now (the window flipped it): report the flip
        of a waiting race's first frame, the race's start (once per race, see signal.py), and
        what the screen has told."""
        report = self.signal.flipped(self.screen.snapshot)
        if report is not None:
            self.runtime.send(report)
        self._report_told()

    def _report_told(self) -> None:
        """The phones show the news once the TV has (session/news.py): reported once the frame that
        shows it is on screen, not when the tick decided to draw it (a final screen's first frame
        takes a few hundred milliseconds on a busy machine, and the phones named the winner first)."""
        for told in self.screen.told_events():
            self.runtime.send(told)


def stopping(kiosk: Overlay | None) -> bool:
    """The program is stopping (a kiosk's SIGTERM or staff's stop; elsewhere a quit is queued):
    whatever the window was doing on the side gives way."""
    return kiosk.quit_confirmed if kiosk is not None else bool(pygame.event.peek(pygame.QUIT))


def run_window(runtime: Runtime, config: TableConfig, kiosk: Overlay | None = None) -> int:
    """Open the table window and run it until it is closed (Ctrl+Q or the window's close button);
    ``kiosk``: a layer over the table (made before this call: it may set SDL's signal handling)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

    sys.setswitchinterval(SWITCH_INTERVAL_S)  # the snapshot reader (or TableRuntime's loop) shares this interpreter
    # SDL on Linux otherwise opens an OpenGL context just to ask whose driver it is (about 110 MB
    # of Mesa resident for the whole run) and then draws through the plain framebuffer anyway
    # unless the vendor is NVIDIA or ATI: the plain framebuffer (X11 shared memory) it is
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")

    pygame.init()
    pygame.display.set_caption(WINDOW_TITLE)
    fullscreen = config.fullscreen
    window = _open_window(config, fullscreen)
    if pygame.display.get_driver() == "x11":
        log_x_errors(os.environ.get("DISPLAY", ""))  # a lost display or an X error: one line in the log (x11.py)
    screen = Screen(sound=SoundBank())
    how_to_play = HowToPlay(screen.ctx, Screen, DaemonExecutor("howto-tapes"), partial(stopping, kiosk))  # before round one
    signal, pads = RaceSignal(), Pads()  # races open at this TV's flip (signal.py); USB pads (pads.py)
    loop = WindowLoop(runtime, screen, kiosk, how_to_play, signal, pads)
    clock = pygame.time.Clock()
    sounds_ready = False
    runtime.send(signal.hello())
    try:
        while True:
            dt = min(MAX_CATCH_UP_S, clock.tick(FPS) / 1000)
            ops = loop.step(dt, pygame.event.get(), window)
            if WindowOp.QUIT in ops:  # staff's stop: a status the systemd unit does not restart
                return int(kiosk.exit_status) if kiosk is not None else 0
            if WindowOp.TOGGLE_FULLSCREEN in ops:
                fullscreen = not fullscreen
                window = _open_window(config, fullscreen)
                screen.invalidate()
            if loop.drew:
                pygame.display.flip()
                loop.flipped()  # a race's first frame is on screen: it opens now
            window = pygame.display.get_surface() or window
            if not sounds_ready:  # after the lobby is on screen; a stop does not wait for them
                sounds_ready = screen.ctx.sound.load(partial(stopping, kiosk))
            elif loop.drew and loop.in_lobby and not loop.racing and clock.get_rawtime() < 1000 / FPS / 2:
                screen.warm_step(window.get_size())  # spare time while the lobby animates: a font too
    finally:
        if kiosk is not None:
            kiosk.close()  # its helpers (the attract loop's worker process): killed, never waited for
        pygame.quit()
