"""One clear ending: every game's final screen offers *Play again, same players* and *New players*
as two buttons, each a deliberate action (Enter on the one in focus or a click on it; not any key,
not a click anywhere), none in the screen's first moment, one per final screen (a double press is
one choice, and its second press reaches no other scene); a kiosk starts on New players. The two
buttons' words fit, in Persian and Thai with long names at the table."""
from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from game import i18n
from game.games.collusion.tapes import moments
from game.render.app import Screen
from game.render.kit.final import ARM_S, Choice, choice_buttons
from game.render.kit.qr import QrCache
from game.render.kit.scene import HostIntent, RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.session.snapshot import RunMode, TableSnapshot

SIZE = (1280, 720)
LONG_NAMES = ("Maximiliana Worthingtons", "ณัฐวุฒิ ศรีสุวรรณพงษ์", "محمدرضا تهرانیان")


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def click(pos: tuple[int, int]) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)


def commands(intents: list) -> list[str]:
    return [i.command for i in intents if isinstance(i, HostIntent)]


def final(lang: str = "en", mode: RunMode = RunMode.TABLE) -> TableSnapshot:
    snap = list(moments(lang))[-1].snapshots[-1]
    seats = tuple(replace(s, name=LONG_NAMES[k % len(LONG_NAMES)]) for k, s in enumerate(snap.seats))
    return replace(snap, mode=mode, seats=seats)


def settled(snap: TableSnapshot, ctx: RenderContext, size: tuple[int, int] = SIZE) -> Screen:
    screen = Screen(ctx=ctx)
    screen.sync(snap)
    screen.advance(ARM_S, size)
    return screen


def test_the_first_moment_takes_no_choice(shared_ctx) -> None:
    screen = Screen(ctx=shared_ctx)
    screen.sync(final())
    screen.advance(1 / 60, SIZE)
    assert commands(screen.handle(key(pygame.K_RETURN), SIZE)) == []  # an Enter meant for the last reveal
    screen.advance(ARM_S, SIZE)
    assert commands(screen.handle(key(pygame.K_RETURN), SIZE)) == ["next"]


def test_only_the_buttons_choose(shared_ctx) -> None:
    screen = settled(final(), shared_ctx)
    buttons = choice_buttons(screen.frame(SIZE))
    for event in (key(pygame.K_n), key(pygame.K_a), key(pygame.K_ESCAPE), click((SIZE[0] // 2, SIZE[1] // 2)),
                  click((2, 2))):
        assert commands(screen.handle(event, SIZE)) == []
    assert commands(screen.handle(click(buttons[Choice.NEW].center), SIZE)) == ["new_players"]


def test_the_arrows_move_the_focus_and_enter_takes_it(shared_ctx) -> None:
    screen = settled(final(), shared_ctx)
    assert commands(screen.handle(key(pygame.K_RIGHT), SIZE)) == []
    assert commands(screen.handle(key(pygame.K_RETURN), SIZE)) == ["new_players"]


@pytest.mark.parametrize("first, second", [(key(pygame.K_RETURN), key(pygame.K_RETURN)),
                                           (key(pygame.K_RETURN), key(pygame.K_KP_ENTER))])
def test_a_double_press_is_one_choice_and_its_second_press_starts_nothing(first, second, shared_ctx) -> None:
    screen = settled(final(), shared_ctx)
    assert commands(screen.handle(first, SIZE)) == ["next"]
    assert commands(screen.handle(second, SIZE)) == []  # the final screen chose already
    lobby = list(moments("en"))[0].snapshots[0]
    screen.sync(lobby)  # the table went back to its lobby between the two presses
    screen.advance(0.4, SIZE)
    assert screen.director.names() == ["lobby"]
    assert commands(screen.handle(second, SIZE)) == []  # not a Start
    screen.advance(ARM_S, SIZE)
    assert commands(screen.handle(second, SIZE)) == ["start"]  # a deliberate Enter later does start


def test_a_kiosk_starts_on_new_players(shared_ctx) -> None:
    screen = settled(final(mode=RunMode.KIOSK), shared_ctx)
    assert commands(screen.handle(key(pygame.K_RETURN), SIZE)) == ["new_players"]


@pytest.mark.parametrize("lang", ["fa", "th", "en"])
def test_the_two_choices_are_drawn_whole_in_each_language(lang: str) -> None:
    drawn: list[tuple[str, int, bool]] = []
    ctx = RenderContext(TextRenderer(lambda text, _l, _b, fitted: drawn.append((text, fitted.px, fitted.overflow))),
                        QrCache(), SoundBank(enabled=False))
    for mode in (RunMode.TABLE, RunMode.KIOSK):
        screen = settled(final(lang, mode), ctx)
        drawn.clear()
        screen.draw(pygame.Surface(SIZE))
        for choice in Choice:
            words = i18n.text(lang, "screen", choice.label_key)
            shown = [(px, cut) for text, px, cut in drawn if text == words]
            assert shown and not shown[0][1], (lang, choice)  # drawn, not cut
        buttons = choice_buttons(screen.frame(SIZE))
        first = buttons[Choice.AGAIN].x < buttons[Choice.NEW].x
        assert first is (lang != "fa")  # Play again first in reading order
