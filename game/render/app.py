"""The big-screen window: pygame on the main thread, reading the session's latest snapshot and
sending every key and click back as an ``InputEvent``.

``run_window(runtime, config)`` needs only ``runtime.snapshot() -> TableSnapshot`` and
``runtime.send(InputEvent)`` (both thread-safe on the runtime's side). :class:`Screen` is the same
screen without a window (tests, screenshots, benchmarks).
"""
from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Protocol, cast

import pygame

from game import catalog
from game.config import TableConfig
from game.session.snapshot import InputEvent, InputKind, InputSource, Mode, TablePhase, TableSnapshot

from .claims import claim_answer, draw_claims
from .howto import HowToPlay, intro_of, is_skip
from .kit.qr import QrCache
from .kit.scene import Director, Frame, HostCommand, Intent, RenderContext, Scene, WindowOp, host
from .kit.sound import SoundBank
from .kit.text import TextProbe, TextRenderer
from .lobby import LobbyScene
from .pads import Pads
from .signal import RaceSignal

if TYPE_CHECKING:
    from game.kiosk.screen import KioskLayer

FPS = 60
STEP_S = 1 / FPS  # the fixed animation step
MAX_CATCH_UP_S = 0.25
WINDOW_TITLE = "Tabletop"


class Runtime(Protocol):
    def snapshot(self) -> TableSnapshot: ...

    def send(self, event: InputEvent) -> None: ...


class GameScreen(Protocol):
    """A game's screen package (``game/render/games/<game>/``)."""

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
    scenes = game_screen(snapshot.game)
    if snapshot.phase is TablePhase.LOBBY or snapshot.public_view is None or scenes is None:
        return LobbyScene()
    return scenes.choose_base(snapshot)


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    scenes = game_screen(snapshot.game)
    if scenes is None or snapshot.public_view is None:
        return []
    return scenes.beats_for(snapshot, previous)


class Screen:
    """The scene stack, its services and the session-clock estimate; draws into any surface."""

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
        self._announced: Scene | None = None  # the last scene the table was told is on screen

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
        if snapshot is not self.snapshot:
            self._version = snapshot.version
            self.snapshot = snapshot
            self._local_at_snapshot = self._local
        self.director.sync(snapshot)

    def advance(self, seconds: float, size: tuple[int, int]) -> None:
        """Run whole fixed steps covering ``seconds``."""
        self._acc += max(0.0, seconds)
        while self._acc >= STEP_S - 1e-9:
            self._acc -= STEP_S
            self._local += STEP_S
            self.director.update(STEP_S, self.frame(size), self.ctx)

    def draw(self, surface: pygame.Surface) -> None:
        self.director.draw(surface, self.frame(surface.get_size()), self.ctx)
        draw_claims(surface, self.frame(surface.get_size()), self.ctx)  # a phone asking for a held seat

    def handle(self, event: pygame.event.Event, size: tuple[int, int]) -> list[Intent]:
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
        return self.director.handle(event, self.frame(size))

    def staff_keys(self) -> frozenset[int]:
        """The keys that do a staff-only thing on the screen now (a kiosk asks for the PIN first)."""
        return self.director.staff_keys(self.snapshot) if self.snapshot is not None else frozenset()

    def warm_step(self, size: tuple[int, int]) -> None:
        """Prime one more font for the current language and window size (cheap when all are)."""
        if self.snapshot is None:
            return
        key = (self.snapshot.language, size)
        if key != self._warm_key:
            self._warm_key = key
            self._warmer = self.ctx.text.warm_steps(self.snapshot.language, Frame(self.snapshot, 0, size).scale.u)
        if self._warmer is not None and next(self._warmer, StopIteration) is StopIteration:
            self._warmer = None

    def shown_events(self) -> list[InputEvent]:
        """What the table is told of the screen: a scene that ``announces`` itself, once it alone is
        on screen (its beats played), once per scene (the final scores: a kiosk's results time)."""
        scene = self.director.showing()
        if scene is None or not scene.announces or scene is self._announced:
            return []
        self._announced = scene
        return [InputEvent(InputSource.KEYBOARD, InputKind.SHOWN, None, {"scene": scene.name}, self.now_ms())]

    def input_event(self, command: HostCommand) -> InputEvent:
        return InputEvent(InputSource.KEYBOARD, InputKind.HOST, None, command.payload(), self.now_ms())

    def race_press(self, event: pygame.event.Event) -> InputEvent | None:
        """During a race, keys 1–9 and 0 press for seats 1–10 (the host keyboard, M16); the
        Cheating Moth scene draws the race, nothing new is shown here. Not on a kiosk: there the
        TV's keyboard is the guests', and a key cannot tell who pressed it, so the buttons and
        the phones judge the race."""
        snap = self.snapshot
        if event.type != pygame.KEYDOWN or snap is None or snap.phase is not TablePhase.PLAYING \
                or snap.mode is Mode.KIOSK:
            return None
        race = snap.public_view.get("race") if isinstance(snap.public_view, dict) else None
        seat = RACE_KEYS.get(event.key)
        if not isinstance(race, dict) or seat is None or seat >= len(snap.seats):
            return None
        return InputEvent(InputSource.KEYBOARD, InputKind.PRESS, seat, {"race": race.get("id")}, self.now_ms())


RACE_KEYS: dict[int, int] = {
    **{getattr(pygame, f"K_{n}"): n - 1 for n in range(1, 10)}, pygame.K_0: 9,
    **{getattr(pygame, f"K_KP{n}"): n - 1 for n in range(1, 10)}, pygame.K_KP0: 9,
}  # key -> seat during a race


def table_input(event: pygame.event.Event, screen: Screen, kiosk: KioskLayer | None,
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
    return [screen.input_event(i) if isinstance(i, HostCommand) else i for i in screen.handle(event, size)
            if isinstance(i, (HostCommand, WindowOp))]


def _open_window(config: TableConfig, fullscreen: bool) -> pygame.Surface:
    flags = pygame.RESIZABLE
    if fullscreen:
        return pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    return pygame.display.set_mode(config.window_size, flags)


def run_window(runtime: Runtime, config: TableConfig) -> int:
    """Open the table window and run it until it is closed (Ctrl+Q or the window's close button)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from game.kiosk.screen import draw_table, kiosk_layer

    kiosk = kiosk_layer(config)  # kiosk mode: the PIN lock, the attract loop, the hidden pointer
    pygame.init()
    pygame.display.set_caption(WINDOW_TITLE)
    fullscreen = config.fullscreen
    window = _open_window(config, fullscreen)
    screen = Screen(sound=SoundBank())
    how_to_play = HowToPlay(screen.ctx)  # the explanation before a game's first round
    clock = pygame.time.Clock()
    first = True
    signal, pads = RaceSignal(), Pads()  # races open at this TV's flip (signal.py); USB pads (pads.py)
    runtime.send(signal.hello())
    try:
        while True:
            dt = min(MAX_CATCH_UP_S, clock.tick(FPS) / 1000)
            screen.sync(kiosk.shown(runtime.snapshot(), screen) if kiosk else runtime.snapshot())
            racing = signal.front(screen.director, screen.snapshot)  # a race waits for this frame
            for event in pygame.event.get():
                for out in table_input(event, screen, kiosk, window.get_size(), pads):
                    if out is WindowOp.QUIT:
                        return 0
                    if out is WindowOp.TOGGLE_FULLSCREEN:
                        fullscreen = not fullscreen
                        window = _open_window(config, fullscreen)
                    elif out is WindowOp.TOGGLE_MUTE:
                        screen.ctx.sound.toggle_mute()
                    elif isinstance(out, InputEvent):
                        runtime.send(out)
            pads.pumped()
            if kiosk is not None:
                if kiosk.quit_confirmed:
                    return int(kiosk.exit_status)  # staff's stop: a status the systemd unit does not restart
                kiosk.tick()
            window = pygame.display.get_surface() or window
            area = kiosk.demo_area(window.get_size(), screen.snapshot) if kiosk is not None else None
            screen.advance(dt, area.size if area is not None else window.get_size())
            draw_table(screen, window, kiosk)
            for shown in screen.shown_events():  # the final scores are on screen: a kiosk's results time starts
                runtime.send(shown)
            if screen.snapshot is not None and intro_of(screen.snapshot) is not None:
                how_to_play.update(screen.snapshot, screen.now_ms(), dt, window.get_size())
                how_to_play.draw(window, screen.snapshot, screen.now_ms())
            if kiosk is not None and screen.snapshot is not None:
                kiosk.draw(window, screen.snapshot, screen.ctx)
            pygame.display.flip()
            flipped = signal.flipped(screen.snapshot)  # the race's first frame is on screen: it opens now
            if flipped is not None:
                runtime.send(flipped)
            if first:
                first = False
                screen.ctx.sound.load()  # after the lobby is on screen
            elif not racing and clock.get_rawtime() < 1000 / FPS / 2:
                screen.warm_step(window.get_size())  # spare time: prime a font for later scenes
    finally:
        pygame.quit()
