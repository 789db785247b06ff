"""The kiosk on the big screen: the PIN lock (quit, full screen, settings), the attract loop that
gives way to the lobby when a phone joins, and the overlays drawn in fa, th and en without cut
text and without ever drawing the PIN."""
from __future__ import annotations

import os
import signal
from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from tv_kit import Clock, display, key  # noqa: F401 (display: the autouse fixture)

from game import i18n
from game.config import TableConfig
from game.kiosk.config import KioskConfig, Timers, Venue
from game.kiosk.screen import UNLOCK_S, KioskLayer, PinPrompt, draw_pin_prompt, kiosk_layer
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.render.lobby import layout
from game.session.session import Session
from game.session.snapshot import ArcadeInfo, RunMode, SeatStatus, TablePhase

PIN = "4821"


def config(tmp_path: Path, lang: str = "en") -> TableConfig:
    kiosk = KioskConfig(venue=Venue("Café Nakhl"), languages=(lang, *(x for x in ("fa", "th", "en") if x != lang)),
                        timers=Timers(attract_after_s=60, attract_game_s=40), admin_pin=PIN)
    return TableConfig(mode=RunMode.KIOSK, language=lang, data_dir=tmp_path, admin_pin=PIN, kiosk=kiosk)


def type_pin(layer: KioskLayer, pin: str) -> None:
    for ch in pin:
        assert layer.consume(key(getattr(pygame, f"K_{ch}")))
    assert layer.consume(key(pygame.K_RETURN))


@pytest.mark.parametrize("attempt", [key(pygame.K_q, pygame.KMOD_LCTRL), key(pygame.K_F4, pygame.KMOD_LALT),
                                     pygame.event.Event(pygame.QUIT)], ids=["ctrl_q", "alt_f4", "window_close"])
def test_quitting_needs_the_pin(tmp_path: Path, attempt: pygame.event.Event) -> None:
    layer = KioskLayer(config(tmp_path), Clock())
    assert layer.consume(attempt) and layer.prompt is not None and not layer.quit_confirmed
    assert layer.consume(key(pygame.K_ESCAPE)) and layer.prompt is None and not layer.quit_confirmed  # Esc only closes it
    layer.consume(attempt)
    type_pin(layer, "1234")
    assert layer.prompt is not None and layer.prompt.wrong and not layer.quit_confirmed
    type_pin(layer, PIN)
    assert layer.quit_confirmed and layer.prompt is None


def test_settings_and_full_screen_need_the_pin_then_go_through(tmp_path: Path) -> None:
    clock = Clock()
    layer = KioskLayer(config(tmp_path), clock)
    assert layer.consume(key(pygame.K_s))
    assert not [e for e in pygame.event.get() if e.type == pygame.KEYDOWN]  # held back
    type_pin(layer, PIN)
    posted = [e for e in pygame.event.get() if e.type == pygame.KEYDOWN]
    assert [e.key for e in posted] == [pygame.K_s]  # the held key goes through once the PIN is right
    assert not layer.consume(posted[0]) and not layer.consume(key(pygame.K_F11))  # unlocked for a while
    clock.now += UNLOCK_S + 1
    assert layer.consume(key(pygame.K_F11))  # locked again


def test_customers_keys_are_not_locked(tmp_path: Path) -> None:
    layer = KioskLayer(config(tmp_path), Clock())
    for k in (pygame.K_g, pygame.K_l, pygame.K_RETURN, pygame.K_SPACE, pygame.K_ESCAPE):
        assert not layer.consume(key(k))


def test_only_kiosk_mode_has_the_layer(tmp_path: Path) -> None:
    assert kiosk_layer(TableConfig(data_dir=tmp_path)) is None


def test_sigterm_still_stops_a_locked_kiosk(tmp_path: Path) -> None:
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        layer = kiosk_layer(config(tmp_path))
        assert layer is not None and os.environ["SDL_NO_SIGNAL_HANDLERS"] == "1"
        os.kill(os.getpid(), signal.SIGTERM)
        assert layer.quit_confirmed  # systemd's stop is not a customer: no PIN
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
        os.environ.pop("SDL_NO_SIGNAL_HANDLERS", None)


def lobby(tmp_path: Path) -> Session:
    session = Session.boot(config(tmp_path), None, None)
    session.set_base_url("http://192.168.1.20:8765")
    return session


async def test_the_attract_loop_starts_in_an_idle_empty_lobby_and_stops_when_a_phone_joins(tmp_path: Path) -> None:
    clock = Clock()
    session = lobby(tmp_path)
    layer = KioskLayer(config(tmp_path), clock)
    real = session.snapshot
    assert layer.shown(real) is real
    clock.now += 59
    assert layer.shown(real) is real and not layer.attracting
    clock.now += 1
    demo = layer.shown(real)
    assert layer.attracting and demo.phase is TablePhase.PLAYING and demo.game == "collusion"
    assert [s.url for s in demo.attract.seats] == [s.url for s in real.seats]  # the real links
    versions = set()
    for _ in range(40):  # the bots play on: the screen sees step after step
        clock.now += 0.5
        versions.add(layer.shown(real).version)
    assert len(versions) > 10
    session.join_seat(session.table.seats[0].token, "Sara")  # the first phone joins
    shown = layer.shown(session.snapshot)
    assert shown is session.snapshot and not layer.attracting
    assert shown.seats[0].status is SeatStatus.JOINED
    session.close()


async def test_the_attract_loop_cycles_games_and_languages(tmp_path: Path) -> None:
    clock = Clock()
    session = lobby(tmp_path)
    layer = KioskLayer(config(tmp_path, "fa"), clock)
    real = session.snapshot
    layer.shown(real)
    clock.now += 60
    seen = set()
    for _ in range(800):
        clock.now += 0.5
        snap = layer.shown(real)
        seen.add((snap.game, snap.language))
    assert {g for g, _ in seen} == {"collusion", "speakeasy", "cheating_moth"}
    assert {lang for _, lang in seen} == {"fa", "th", "en"}
    session.close()


async def test_a_key_at_the_tv_brings_the_lobby_back(tmp_path: Path) -> None:
    clock = Clock()
    session = lobby(tmp_path)
    layer = KioskLayer(config(tmp_path), clock)
    layer.shown(session.snapshot)
    clock.now += 61
    layer.shown(session.snapshot)
    assert layer.attracting
    assert layer.consume(key(pygame.K_1))  # eaten: no race press for the demo reaches the table
    assert layer.shown(session.snapshot) is session.snapshot
    session.close()


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
async def test_overlays_fit_and_never_draw_the_pin(tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    drawn: list[str] = []
    problems: list[str] = []
    readable = 11 * min(size[0] / 1280, size[1] / 720)

    def probe(text: str, text_lang: str, box: pygame.Rect, fitted: object) -> None:
        drawn.append(text)
        if getattr(fitted, "overflow", False) or getattr(fitted, "px", 99) < readable:
            problems.append(f"{text!r} cut or small in {box}")

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    clock = Clock()
    session = lobby(tmp_path)
    layer = KioskLayer(config(tmp_path, lang), clock)
    screen = Screen(ctx=ctx)
    layer.shown(session.snapshot, screen)
    clock.now += 61
    screen.sync(layer.shown(session.snapshot, screen))
    screen.advance(0.5, size)
    surface = pygame.Surface(size)
    screen.draw(surface)
    layer.draw(surface, screen.snapshot, ctx)
    draw_pin_prompt(surface, lang, PinPrompt(None, typed=PIN), ctx)
    draw_pin_prompt(surface, lang, PinPrompt(None, typed="", wrong=True), ctx)
    assert problems == []
    assert not any(PIN in text for text in drawn)
    session.close()


async def test_only_the_cafes_languages_are_offered(tmp_path: Path) -> None:
    cfg = TableConfig(mode=RunMode.KIOSK, language="fa", data_dir=tmp_path, admin_pin=PIN,
                      kiosk=KioskConfig(languages=("fa", "en"), admin_pin=PIN))
    session = Session.boot(cfg, None, None)
    session.host_command({"command": "set_language", "language": "th"})  # the TV's L key: fa -> th
    assert session.table.language == "en"  # th is not offered here: the next one that is
    session.host_command({"command": "set_language", "language": "fa"})
    assert session.table.language == "fa"
    session.close()


async def test_the_venue_logo_is_drawn_in_the_attract_column(tmp_path: Path) -> None:
    logo = pygame.Surface((200, 100))
    logo.fill((255, 0, 255))
    path = tmp_path / "logo.png"
    pygame.image.save(logo, str(path))
    kiosk = KioskConfig(venue=Venue("Café Nakhl", path), languages=("en",), admin_pin=PIN, volume=30)
    cfg = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin=PIN, kiosk=kiosk)
    session = lobby(tmp_path)
    clock = Clock()
    layer = KioskLayer(cfg, clock)
    screen = Screen()
    layer.shown(session.snapshot, screen)
    clock.now += 61
    screen.sync(layer.shown(session.snapshot, screen))
    surface = pygame.Surface((1280, 720))
    screen.draw(surface)
    layer.draw(surface, screen.snapshot, screen.ctx)
    column = [surface.get_at((x, y))[:3] for x in range(845, 1280, 4) for y in range(0, 90, 4)]
    assert any(r > 240 and g < 20 and b > 240 for r, g, b in column)  # magenta (smoothly scaled)
    session.close()


def test_guessing_the_pin_at_the_tv_is_slowed_down(tmp_path: Path) -> None:
    clock = Clock()
    layer = KioskLayer(config(tmp_path), clock)
    layer.consume(key(pygame.K_q, pygame.KMOD_LCTRL))
    for guess in ("0000", "1111", "2222", "3333", "5555"):
        type_pin(layer, guess)
    assert layer.prompt is not None and layer.prompt.locked
    type_pin(layer, PIN)  # even the right PIN waits out the minute
    assert not layer.quit_confirmed and layer.prompt.locked
    clock.now += 61
    type_pin(layer, PIN)
    assert layer.quit_confirmed


async def test_s_and_a_are_locked_in_the_lobby_only(tmp_path: Path) -> None:
    session = lobby(tmp_path)
    layer = KioskLayer(config(tmp_path), Clock())
    layer.shown(session.snapshot)
    assert layer.consume(key(pygame.K_a))  # the arcade wizard
    layer.consume(key(pygame.K_ESCAPE))
    session.host_command({"command": "start"})
    session.host_command({"command": "skip_intro"})
    assert session.snapshot.phase is TablePhase.PLAYING
    layer.shown(session.snapshot)
    assert not layer.consume(key(pygame.K_s)) and not layer.consume(key(pygame.K_a))  # no staff keys in Collusion
    assert layer.consume(key(pygame.K_F11))
    session.close()


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
async def test_the_kiosk_lobby_hints_say_which_keys_need_the_staff_pin(tmp_path: Path, lang: str) -> None:
    drawn: list[str] = []
    problems: list[str] = []
    size = (1920, 1080)

    def probe(text: str, text_lang: str, box: pygame.Rect, fitted: object) -> None:
        drawn.append(text)
        if getattr(fitted, "overflow", False) or getattr(fitted, "px", 99) < 11 * 1.5:
            problems.append(f"{text!r} cut or small in {box}")

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    session = Session.boot(config(tmp_path, lang), None, None)
    session.set_base_url("http://192.168.1.20:8765")
    session.join_seat(session.table.seats[0].token, "Sara")
    wizard = ArcadeInfo(present=True, connected=True, mapping_in_progress=True, waiting_for=1, done=((0, 4),))
    for name, snap in (("lobby", session.snapshot), ("arcade_wizard", replace(session.snapshot, arcade=wizard))):
        screen = Screen(ctx=ctx)
        screen.sync(snap)
        screen.advance(0.5, size)
        surface = pygame.Surface(size)
        screen.draw(surface)
        pygame.image.save(surface, str(tmp_path / f"kiosk_{name}_{lang}.png"))
    hints = i18n.text(lang, "screen", "lobby.keys_kiosk")
    assert hints in drawn and problems == []
    assert not any("Ctrl+Q" in text for text in drawn)
    assert i18n.text(lang, "screen", "lobby.keys") not in drawn
    assert i18n.text(lang, "screen", "lobby.arcade_stop_hint_kiosk") in drawn  # stopping it is staff's too
    assert i18n.text(lang, "screen", "lobby.arcade_stop_hint") not in drawn
    session.close()


async def test_clicking_settings_in_a_kiosk_lobby_asks_for_the_pin_too(tmp_path: Path) -> None:
    size = (1280, 720)
    session = lobby(tmp_path)
    layer = KioskLayer(config(tmp_path), Clock())
    layer.shown(session.snapshot)
    screen = Screen(ctx=RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False)))
    screen.sync(session.snapshot)

    def top() -> str:
        return screen.director.stack[-1].name

    [settings] = [b for b in layout(screen.frame(size)).buttons if b.hint == "S"]
    pygame.event.clear()
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=settings.rect.center, button=1)
    assert not layer.consume(click)  # the kiosk does not know the buttons: the lobby turns the click into S
    screen.handle(click, size)
    assert top() == "lobby"
    [pressed] = pygame.event.get(pygame.KEYDOWN)
    assert layer.consume(pressed) and layer.prompt is not None  # the PIN prompt
    type_pin(layer, PIN)
    [again] = pygame.event.get(pygame.KEYDOWN)  # the right PIN lets the S through
    assert not layer.consume(again)
    screen.handle(again, size)
    assert top() == "settings"
    table_screen = Screen(ctx=screen.ctx)
    table_screen.sync(replace(session.snapshot, mode=RunMode.TABLE))
    table_screen.handle(click, size)
    assert table_screen.director.stack[-1].name == "settings"  # a table's host just clicks
    assert pygame.event.get(pygame.KEYDOWN) == []
    session.close()
