"""What the kiosk's TV tests share: a clock the test moves, a headless display, key presses."""
from __future__ import annotations

from collections.abc import Iterator

import pygame
import pytest


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def display() -> Iterator[None]:
    """A display for pygame, and an empty event queue before and after (the lock posts keys)."""
    pygame.init()
    pygame.display.set_mode((64, 64))
    pygame.event.clear()
    yield
    pygame.event.clear()


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)
