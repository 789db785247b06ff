"""The scene stack: what the screen shows, scene by scene.

A :class:`Scene` has three parts (after Tuxemon's ``State``): ``update(dt)`` advances its animation
by a fixed time step, ``draw`` paints the current frame and changes nothing (not the snapshot, not
the scene), and ``handle`` turns a pygame event into :class:`Intent`s (host commands for the session,
or pushing/popping a scene). The :class:`Director` picks the base scene from the latest snapshot
and queues the timed "beats" (a reveal, a showdown, a round's end) that the new events call for.
"""
from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from game import catalog, i18n
from game.session.snapshot import RunMode, TableSnapshot

from . import pace
from .qr import QrCache
from .sound import SoundBank
from .text import TextRenderer
from .theme import Scale


@dataclass(slots=True)
class ClockReads:
    """How a draw used the session clock, so the window knows when the picture changes by time alone:
    ``exact`` when it read ``now_ms`` itself (a smooth countdown), else ``next_ms``, the session time
    at which a timer it showed changes its shown second (None: no timer shown)."""

    exact: bool = False
    next_ms: int | None = None

    def timer_at(self, at_ms: int) -> None:
        self.next_ms = at_ms if self.next_ms is None else min(self.next_ms, at_ms)


class Frame:
    """Everything a draw needs besides the scene itself: the snapshot and the session time now.
    Reading :attr:`now_ms` or :meth:`timer_left_ms` is noted in :attr:`reads` (see :class:`ClockReads`)."""

    __slots__ = ("snapshot", "_now_ms", "size", "reads")

    def __init__(self, snapshot: TableSnapshot, now_ms: int, size: tuple[int, int]) -> None:
        self.snapshot = snapshot
        self._now_ms = now_ms  # estimated session clock at this frame
        self.size = size
        self.reads = ClockReads()

    @property
    def now_ms(self) -> int:
        self.reads.exact = True
        return self._now_ms

    @property
    def lang(self) -> str:
        return self.snapshot.language if self.snapshot.language in i18n.LANGUAGES else i18n.FALLBACK

    @property
    def scale(self) -> Scale:
        return Scale(*self.size)

    def s(self, key: str, **values: Any) -> str:
        """A screen string in the table's language."""
        return i18n.text(self.lang, "screen", key, **values)

    def game_title(self, game: str | None = None) -> str:
        """A game's name (default: this table's) in the table's language: its title key in the
        TV's shared strings, else in the game's own (a plug-in brings its name in its files)."""
        desc = catalog.get(game or self.snapshot.game)
        domain = next((d for d in ("screen", *desc.strings) if i18n.has(self.lang, d, desc.title_key)), "screen")
        return i18n.text(self.lang, domain, desc.title_key)

    def button(self, key: str) -> str:
        """A phone button's own label (its ``key`` in the phone's strings: the shared ones, else the
        game's own), in the table's language: a TV hint names a phone button only through this, so
        the TV says exactly what the button says."""
        desc = catalog.get(self.snapshot.game)
        domain = next((d for d in ("web", *desc.phone_strings) if i18n.has(self.lang, d, key)), "web")
        return i18n.text(self.lang, domain, key)

    def page(self, pages: int, every_ms: int) -> int:
        """Which of ``pages`` pages a list too long for its place shows now: they take turns every
        ``every_ms`` of session time (noted in :attr:`reads`, so a still table redraws only then)."""
        if pages <= 1:
            return 0
        turn = self._now_ms // every_ms
        self.reads.timer_at((turn + 1) * every_ms)
        return turn % pages

    def timer_left_ms(self) -> int | None:
        """Milliseconds left on the running timer. The picture is taken to change when the timer's
        shown whole second does (``math.ceil(left / 1000)``): a scene that animates with the
        milliseconds reads :attr:`now_ms` too, or says so in :meth:`Scene.animating`."""
        timer = self.snapshot.timer
        if timer is None:
            return None
        left = max(0, timer.deadline_ms - self._now_ms)
        if left > 0:
            self.reads.timer_at(self._now_ms + (left - 1) % 1000 + 1)
        return left


@dataclass(slots=True)
class RenderContext:
    """Shared, cache-holding services of one window (text, QR codes, sounds)."""

    text: TextRenderer
    qr: QrCache
    sound: SoundBank


# ------------------------------------------------------------------------------------- intents
@dataclass(frozen=True, slots=True)
class HostIntent:
    """A host command for the session (becomes an ``InputEvent`` of kind HOST)."""

    command: str
    args: tuple[tuple[str, Any], ...] = ()

    def payload(self) -> dict[str, Any]:
        return {"command": self.command, **dict(self.args)}


def host(command: str, **args: Any) -> HostIntent:
    return HostIntent(command, tuple(sorted(args.items())))


@dataclass(frozen=True, slots=True)
class PushScene:
    scene: Scene


@dataclass(frozen=True, slots=True)
class PopScene:
    pass


class WindowOp(enum.Enum):
    TOGGLE_FULLSCREEN = "toggle_fullscreen"
    TOGGLE_MUTE = "toggle_mute"
    QUIT = "quit"


Intent = HostIntent | PushScene | PopScene | WindowOp


# --------------------------------------------------------------------------------------- scenes
_CLOCK_READERS: list[set[int]] = []  # the scenes (by id) that read ``t`` in the draws in progress


class Scene:
    """Base of every scene. ``draw`` must only read ``self`` and ``frame``.

    The window draws a frame only when the picture may have changed: a new snapshot, an input, the
    scene stack changed, a shown timer's second, or a scene on screen :meth:`animating`. The
    :class:`Director` notes which scenes read :attr:`t` while it drew them (outside the scenes:
    a draw changes no scene): by default a scene whose last draw read its clock is animating."""

    name = "scene"
    overlay = False  # True: the scene below is drawn first
    duration_s: float | None = None  # timed beats pop themselves after this long
    # False: the picture follows the snapshot's public view alone, so a batch of events that calls
    # for no beat (a secret vote's ``vote_cast``) does not change it; True: ``update`` may change
    # what is drawn on an event
    reacts_to_events = True
    keys_under_beats = True  # a beat over this base scene passes it the keys (False: they wait for it)
    announces = False  # the table is told when this scene is on screen, its beats done (InputKind.SHOWN)
    batch: int | None = None  # a beat: the batch of events (``event_seq``) that called for it (pace.py)

    @property
    def told_s(self) -> float:
        """Seconds into this beat when its outcome is on screen (the deaths, the verdict): from then the
        phones may show it too (``pace.told``). Default: where its tail starts (``pace.TAIL_S``)."""
        return max(0.0, (self.duration_s or 0.0) - pace.TAIL_S)

    def __init__(self) -> None:
        self._scene_t = 0.0  # seconds this scene has been updated for

    @property
    def t(self) -> float:
        """Seconds this scene has been updated for (a read during a director's draw is noted there)."""
        if _CLOCK_READERS:
            _CLOCK_READERS[-1].add(id(self))
        return self._scene_t

    @t.setter
    def t(self, value: float) -> None:
        self._scene_t = value

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        self._scene_t += dt

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        raise NotImplementedError

    def warm_tasks(self, frame: Frame, ctx: RenderContext) -> Iterator[None]:
        """Fill the caches this scene and the beats it calls for will need (fonts, plates, labels),
        one small task per step, so that no frame pays for them: the window runs them all before
        the first frame it shows (a TV started mid-game) and a slice on ticks with nothing to
        draw afterwards. Default: nothing to warm."""
        return iter(())

    def warm_key(self, frame: Frame) -> tuple:
        """What :meth:`warm_tasks` depends on besides the scene, the window's size and the
        language: the tasks run again when it changes. Default: nothing else."""
        return ()

    def animating(self, frame: Frame, read_clock: bool) -> bool:
        """Whether the picture changes with time alone now (without a new snapshot, an input or a
        shown timer's second): the window redraws every frame while a scene on screen says so, and
        not at all while none does. ``read_clock``: the scene's last draw read :attr:`t`. Default:
        a timed beat while it runs, any other scene when its last draw read its clock. A scene that
        knows better (a slide that has landed, a pulse shown only in one phase) says so here, which
        keeps a still table from costing a core."""
        return self.duration_s is not None or read_clock

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        return []

    def staff_keys(self, snapshot: TableSnapshot) -> frozenset[int]:
        """The keys that do a staff-only thing in this scene now (settings, the arcade wizard,
        freeing a seat, acting for a player): a kiosk asks for the PIN before the scene sees them."""
        return frozenset()

    @property
    def done(self) -> bool:
        return self.duration_s is not None and self._scene_t >= self.duration_s

    def key(self) -> tuple:
        """Identity of a base scene: the director replaces the base when this changes."""
        return (self.name,)


class Director:
    """Holds the stack: one base scene (chosen from the snapshot) plus beats and overlays on top."""

    def __init__(self, choose_base: Callable[[TableSnapshot], Scene],
                 beats_for: Callable[[TableSnapshot, TableSnapshot | None], Sequence[Scene]]) -> None:
        self._choose_base = choose_base
        self._beats_for = beats_for
        self.stack: list[Scene] = []
        self._queue: list[Scene] = []
        self._seen_seq: int | None = None
        self._last: TableSnapshot | None = None
        self._read_clock: set[int] = set()  # the scenes (by id) whose last draw read their ``t``
        self._held = False  # a race is in front (front): beats wait until it is over

    def sync(self, snapshot: TableSnapshot) -> None:
        """Follow a (possibly new) snapshot: swap the base scene, queue beats for new events (the
        pacing rule of ``pace.py``: behind the table, older beats shrink to their outcome)."""
        base = self._choose_base(snapshot)
        if not self.stack or self.stack[0].key() != base.key():
            self._swap_base(base)
        if self._seen_seq is None:
            self._seen_seq = snapshot.event_seq  # a (re)started screen does not replay old events
        elif snapshot.event_seq != self._seen_seq:
            self._seen_seq = snapshot.event_seq
            fresh = list(self._beats_for(snapshot, self._last))
            if fresh:  # a new outcome to tell: what still plays of older ones is cut to its tail
                running = [s for s in self.stack[1:] if s.duration_s is not None]
                self._queue = pace.superseded(running, self._queue)
            for scene in fresh:
                scene.batch = snapshot.event_seq
            self._queue.extend(fresh)
        self._last = snapshot
        self._held = self._held and snapshot.race.current is not None
        self._advance_queue()

    def _swap_base(self, base: Scene) -> None:
        """A new base scene: the lobby clears everything; a final screen (one that ``announces``
        itself) drops every older beat, so only its own batch's beats play before it and nothing
        covers it; any other new base drops the old one's overlays and keeps its timed beats."""
        old = self.stack[0] if self.stack else None
        if old is None or old.name == base.name:
            self.stack = [base, *self.stack[1:]]
        elif base.name == "lobby" or base.announces:
            self._queue.clear()
            self.stack = [base]
        else:
            self._queue = [s for s in self._queue if not s.overlay]
            self.stack = [base, *(s for s in self.stack[1:] if s.duration_s is not None and not s.overlay)]

    def behind_s(self) -> float:
        """Seconds of beats left before the screen shows the table as it is (see ``pace.py``)."""
        return pace.behind_s([s for s in self.stack[1:] if s.duration_s is not None], self._queue)

    @property
    def seen(self) -> int | None:
        """The newest batch of events (``event_seq``) this screen has followed; None before the first."""
        return self._seen_seq

    def told(self) -> int | None:
        """The newest batch whose news this screen has told: every beat of it and of older batches is
        at its outcome or done (``pace.told``). The table lets the phones show a held batch then.
        The batch that ended the game is told by the final screen itself: under a base that
        ``announces``, its beats are pending until they are done, so no phone names the winner
        while the TV still plays the last round's summary."""
        if self._seen_seq is None:
            return None
        finale = bool(self.stack) and self.stack[0].announces
        pending = [s.batch for s in (*self.stack[1:], *self._queue) if s.batch is not None and (finale or not pace.told(s))]
        return min(pending) - 1 if pending else self._seen_seq

    def _advance_queue(self) -> None:
        beats = [s for s in self.stack[1:] if s.duration_s is not None]
        if not beats and self._queue and not self._held:
            self.stack.append(self._queue.pop(0))

    def front(self) -> None:
        """A race's signal must be seen now: the base scene (which draws the race) goes in front;
        the beats running and queued wait, in order, until the race is over."""
        running = [s for s in self.stack[1:] if s.duration_s is not None]
        self.stack = [s for s in self.stack if all(s is not r for r in running)]
        self._queue[:0] = running
        self._held = True

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        for scene in self.stack:
            scene.update(dt, frame, ctx)
        before = len(self.stack)
        self.stack = [self.stack[0], *(s for s in self.stack[1:] if not s.done)]
        if len(self.stack) != before:
            self._advance_queue()

    def shown(self) -> list[Scene]:
        """The scenes a frame draws, bottom first: the top one and the scenes under its overlays."""
        start = len(self.stack) - 1
        while start > 0 and self.stack[start].overlay:
            start -= 1
        return self.stack[start:]

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        readers: set[int] = set()
        _CLOCK_READERS.append(readers)
        try:
            for scene in self.shown():
                scene.draw(surface, frame, ctx)
        finally:
            _CLOCK_READERS.pop()
        self._read_clock = readers

    def reacts_to_events(self) -> bool:
        """Whether a scene on screen may draw differently after a new batch of events."""
        return any(scene.reacts_to_events for scene in self.shown())

    def animating(self, frame: Frame) -> bool:
        """Whether a scene on screen animates (see :meth:`Scene.animating`)."""
        return any(scene.animating(frame, id(scene) in self._read_clock) for scene in self.shown())

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        """The top scene gets the event first; scene pushes and pops are applied here."""
        if not self.stack:
            return []
        intents = self.stack[-1].handle(event, frame)
        if not intents and len(self.stack) > 1 and self.stack[-1].duration_s is not None and self.stack[0].keys_under_beats:
            intents = self.stack[0].handle(event, frame)  # beats let the base handle the keys
        out: list[Intent] = []
        for intent in intents:
            if isinstance(intent, PushScene):
                self.stack.append(intent.scene)
            elif isinstance(intent, PopScene):
                if len(self.stack) > 1:
                    self.stack.pop()
            else:
                out.append(intent)
        return out

    def staff_keys(self, snapshot: TableSnapshot) -> frozenset[int]:
        """The staff-only keys of the scene that would get a key now (a beat passes keys to the base)."""
        if not self.stack:
            return frozenset()
        keys = self.stack[-1].staff_keys(snapshot)
        if len(self.stack) > 1 and self.stack[-1].duration_s is not None:
            keys |= self.stack[0].staff_keys(snapshot)
        return keys

    def skip_beat(self) -> bool:
        """Cut the running beat short (the host pressed Space)."""
        for scene in reversed(self.stack[1:]):
            if scene.duration_s is not None:
                scene.t = scene.duration_s
                return True
        return False

    @property
    def top(self) -> Scene | None:
        return self.stack[-1] if self.stack else None

    def names(self) -> list[str]:
        return [s.name for s in self.stack]

    @property
    def pending(self) -> int:
        return len(self._queue)

    def queued(self) -> tuple[Scene, ...]:
        """The beats waiting their turn, first first."""
        return tuple(self._queue)

    def showing(self) -> Scene | None:
        """The base scene when it alone is on screen (no beat or overlay over it, none queued)."""
        return self.stack[0] if len(self.stack) == 1 and not self._queue else None



def staff_click(snapshot: TableSnapshot, key: int) -> bool:
    """Kiosk: a click on a staff-only control becomes that control's key press (the kiosk lock holds
    keys, it does not know where the controls are), so the mouse asks for the PIN too. False
    elsewhere: the click just acts."""
    if snapshot.mode is not RunMode.KIOSK:
        return False
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="", scancode=0))
    return True


@functools.cache
def scratch_surface() -> pygame.Surface:
    """A 1×1 surface for warm tasks to draw on: drawing off its edge still fills the caches that
    the drawing goes through (text, badges, labels), and nothing is kept."""
    return pygame.Surface((1, 1))


def view_of(frame: Frame) -> dict[str, Any]:
    """The game's public view in this frame (empty in the lobby)."""
    return frame.snapshot.public_view or {}
