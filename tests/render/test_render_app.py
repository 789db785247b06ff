"""The window loop: opens on the lobby, sends keys to the runtime as InputEvents, quits cleanly."""
from __future__ import annotations

import dataclasses

import pygame

from game.config import TableConfig
from game.render.app import run_window
from game.session.snapshot import InputEvent, InputKind
from game.tapes import lobby_snapshot


class FakeRuntime:
    """Serves one lobby snapshot; on the 3rd frame presses G, on the 6th closes the window."""

    def __init__(self) -> None:
        self.sent: list[InputEvent] = []
        self.frames = 0
        self.snap = lobby_snapshot(6, "fa")

    def snapshot(self):
        self.frames += 1
        if self.frames == 3:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_g, mod=0, unicode="g"))
        if self.frames == 6:
            pygame.event.post(pygame.event.Event(pygame.QUIT))
        return self.snap

    def send(self, event: InputEvent) -> None:
        self.sent.append(event)


def test_run_window_shows_the_lobby_and_forwards_keys():
    runtime = FakeRuntime()
    config = dataclasses.replace(TableConfig(), window_size=(640, 360))
    assert run_window(runtime, config) == 0
    # first the window says it shows the races' signal (races open at its flip: M14), then the key;
    # no word on the news: it follows batch 0, told, which the table already knows
    assert [e.payload for e in runtime.sent] == [{"on": True}, {"command": "set_game", "game": "speakeasy"}]
    assert [e.kind for e in runtime.sent] == [InputKind.SCREEN, InputKind.HOST]
    pygame.init()  # the loop quit pygame; the other tests need it back
    pygame.display.set_mode((64, 64))
