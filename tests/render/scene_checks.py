"""Checks every game's scene tests share: the scene paints the whole window, no text is cut or
unreadably small, and drawing changes neither the snapshot nor the scenes."""
from __future__ import annotations

import copy
import inspect
from collections.abc import Callable

import pygame

from game.render.kit.qr import QrCache
from game.render.kit.scene import Frame, RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.table import background, table_layout
from game.render.kit.text import TextRenderer
from game.tapes import play_moment

SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
LANGS = ("en", "fa", "th")
MAGENTA = (255, 0, 255)


TABLE_SCENES = frozenset({"collusion_table", "reveal", "speakeasy_table", "speakeasy_reveal", "speakeasy_finale",
                          "moth_table"})  # scenes that show every seat's plate at its place around the table


def assert_paints_the_whole_window(screen, name: str, size: tuple[int, int] = (1280, 720)) -> None:
    """The scene covers the window (no magenta left), with more than a flat fill, and a table scene
    shows each seat's plate where the layout puts it and its caption's words."""
    surface = pygame.Surface(size)
    surface.fill(MAGENTA)
    screen.draw(surface)
    colours = {surface.get_at((x, y))[:3] for x in range(0, size[0], 40) for y in range(0, size[1], 40)}
    assert MAGENTA not in colours, name  # the scene painted the whole window
    assert len(colours) > 3, name
    if screen.director.top is not None and screen.director.top.name in TABLE_SCENES:
        assert_plates_drawn(surface, screen.frame(size), name)
        assert_caption_has_words(surface, screen.frame(size), name)


def assert_plates_drawn(surface: pygame.Surface, frame: Frame, name: str) -> None:
    """Most pixels of every seat's plate differ from the bare room and felt behind it."""
    n = len((frame.snapshot.public_view or {}).get("seats", [])) or len(frame.snapshot.seats)
    bare = background(frame, n)
    for spot in table_layout(frame.size, n).spots:
        rect = spot.plate.inflate(-4, -4)
        points = [(x, y) for x in range(rect.x, rect.right, 3) for y in range(rect.y, rect.bottom, 3)]
        covered = sum(surface.get_at(p) != bare.get_at(p) for p in points)
        assert covered > 0.6 * len(points), (name, spot.seat, covered, len(points))


def assert_caption_has_words(surface: pygame.Surface, frame: Frame, name: str) -> None:
    """The caption band under the table holds bright text (not just its dark veil)."""
    rect = table_layout(frame.size, 3).caption.inflate(-8, -8)
    light = sum(max(surface.get_at((x, y))[:3]) >= 200 for x in range(rect.x, rect.right, 2)
                for y in range(rect.y, rect.bottom, 2))
    assert light > rect.width * rect.height / 4 * 0.005, (name, light)


def overflow_probe(problems: list[str], size: tuple[int, int], *, links_may_be_small: bool = False) -> Callable:
    """A TextRenderer probe that records text cut, overflowing or under 11 px (at 720p scale)."""
    readable = 11 * min(size[0] / 1280, size[1] / 720)

    def probe(text, text_lang, box, fitted):
        if fitted.px < readable and not (links_may_be_small and text.startswith("http")):
            problems.append(f"too small: {text!r} at {fitted.px}px")
        if fitted.overflow:
            problems.append(f"cut: {text!r} in {box}")
        w, h = fitted.surface.get_size()
        if w > box.width or h > box.height:
            problems.append(f"{text!r} is {w}x{h}, its box {box.width}x{box.height}")

    return probe


def probing_context(problems: list[str], size: tuple[int, int], **options: bool) -> RenderContext:
    return RenderContext(TextRenderer(overflow_probe(problems, size, **options)), QrCache(), SoundBank(enabled=False))


def assert_no_text_overflows(moments, size: tuple[int, int], **options: bool) -> None:
    """Every moment drawn at ``size``: no text cut off or unreadably small (``overflow_probe``)."""
    problems: list[str] = []
    ctx = probing_context(problems, size, **options)
    surface = pygame.Surface(size)
    for moment in moments:
        play_moment(moment, size, ctx).draw(surface)
        assert not problems, (moment.name, problems[:5])


def scene_state(scene, *, frame_position: bool = False) -> dict:
    """A comparable copy of a scene's attributes (a generator by identity, state and, optionally, position)."""
    out = {}
    for k, v in vars(scene).items():
        if inspect.isgenerator(v):
            position = (v.gi_frame.f_lasti if v.gi_frame else None,) if frame_position else ()
            out[k] = (id(v), inspect.getgeneratorstate(v), *position)
        else:
            out[k] = copy.deepcopy(v)
    return out


def assert_draw_is_pure(screen, name: str, *, frame_position: bool = False) -> None:
    surface = pygame.Surface((1280, 720))
    snapshot_before = copy.deepcopy(screen.snapshot)
    scenes_before = [scene_state(s, frame_position=frame_position) for s in screen.director.stack]
    names_before = screen.director.names()
    screen.draw(surface)
    screen.draw(surface)
    assert screen.snapshot == snapshot_before, name
    assert screen.director.names() == names_before, name
    assert [scene_state(s, frame_position=frame_position) for s in screen.director.stack] == scenes_before, name
