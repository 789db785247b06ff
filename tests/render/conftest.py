"""Headless pygame for the renderer tests (dummy video and audio drivers)."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest

from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer

SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
LANGS = ("en", "fa", "th")


# Module scope, not session: run_window() ends with pygame.quit(), which kills every font made
# before it, so each test module gets pygame and its fonts afresh.
@pytest.fixture(scope="module", autouse=True)
def headless_pygame():
    pygame.init()
    pygame.display.set_mode((64, 64))
    yield
    pygame.quit()


@pytest.fixture(scope="module")
def text() -> TextRenderer:
    return TextRenderer()


@pytest.fixture(scope="module")
def shared_ctx(text: TextRenderer) -> RenderContext:
    return RenderContext(text, QrCache(), SoundBank(enabled=False))
