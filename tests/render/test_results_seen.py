"""A game's final scores are seen (kiosk and home): while the last reveal plays, Enter does not skip
it, and the table hears nothing yet; the moment the final screen alone is on screen the table is
told once (a kiosk's results time starts then); on a kiosk a first press only asks, in words a guest
reads from across the room, and a second leaves. At 720p, 1080p and 4K."""
from __future__ import annotations

from dataclasses import replace

import pygame
import pytest
from scene_checks import SIZES

from game.games.collusion.tapes import moments
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import HostIntent, RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.render.kit.widgets import READABLE_PX_720P
from game.session.snapshot import FINAL_SCENE, InputKind, RunMode

ENTER = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="")


def commands(intents: list) -> list[str]:
    return [i.command for i in intents if isinstance(i, HostIntent)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["fa", "th"])
def test_the_final_scores_are_seen_before_anyone_leaves_them(lang: str, size: tuple[int, int]) -> None:
    tape = list(moments(lang))
    before, final = tape[-2].snapshots[-1], tape[-1].snapshots[-1]
    drawn: list[tuple[str, int]] = []
    screen = Screen(ctx=RenderContext(TextRenderer(lambda text, _l, _b, fitted: drawn.append((text, fitted.px))),
                                      QrCache(), SoundBank(enabled=False)))
    kiosk = replace(final, mode=RunMode.KIOSK)
    screen.sync(replace(before, mode=RunMode.KIOSK))
    screen.advance(1 / 60, size)
    screen.sync(kiosk)
    screen.advance(1 / 60, size)
    assert screen.director.names()[-1] != FINAL_SCENE  # the last reveal plays first
    assert commands(screen.handle(ENTER, size)) == []  # an Enter now does not skip the winner
    assert screen.shown_events() == []
    for _ in range(240):
        if screen.director.showing() is not None:
            break
        screen.advance(0.25, size)
        screen.sync(kiosk)
    shown = screen.shown_events()
    assert [(e.kind, e.payload) for e in shown] == [(InputKind.SHOWN, {"scene": FINAL_SCENE})]
    assert screen.shown_events() == []  # told once
    assert commands(screen.handle(ENTER, size)) == []  # a guest's first press asks
    drawn.clear()
    screen.draw(pygame.Surface(size))
    from game import i18n

    prompt = i18n.text(lang, "screen", "final.again")
    asked = [px for text, px in drawn if text == prompt]
    floor = READABLE_PX_720P * min(size[0] / 1280, size[1] / 720)
    assert asked and asked[0] >= floor
    assert commands(screen.handle(ENTER, size)) == ["next"]  # the second leaves


def test_at_home_one_press_leaves_the_final_screen(shared_ctx) -> None:
    final = list(moments("en"))[-1].snapshots[-1]
    screen = Screen(ctx=shared_ctx)
    screen.sync(final)
    screen.advance(0.1, (1280, 720))
    assert commands(screen.handle(ENTER, (1280, 720))) == ["next"]
