"""Staff's unlock is visible and ends, quitting always asks for the PIN, and only
staff's explicit stop keeps the systemd unit from bringing the table back."""
from __future__ import annotations

import configparser
import dataclasses
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pygame
import pytest
from tv_kit import Clock, display, key  # noqa: F401 (display: the autouse fixture)

from game import i18n
from game.__main__ import CONFIG_ERROR_STATUS
from game.config import TableConfig
from game.kiosk.config import KioskConfig, Timers
from game.kiosk.screen import RELOCK_KEY, UNLOCK_S, KioskLayer, draw_padlock
from game.kiosk.supervise import ExitStatus
from game.render.app import Screen, WindowLoop, run_window
from game.render.howto import HowToPlay
from game.render.kit import theme
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.session.snapshot import InputEvent, RunMode
from game.tapes import lobby_snapshot

PIN = "482193"
UNIT = Path(__file__).resolve().parents[2] / "tools" / "systemd" / "tabletop.service"


def config(tmp_path: Path, lang: str = "en") -> TableConfig:
    kiosk = KioskConfig(languages=(lang,), admin_pin=PIN)
    return TableConfig(mode=RunMode.KIOSK, language=lang, data_dir=tmp_path, admin_pin=PIN, kiosk=kiosk,
                       window_size=(640, 360))


def type_pin(layer: KioskLayer, pin: str = PIN) -> None:
    for ch in pin:
        assert layer.consume(key(getattr(pygame, f"K_{ch}")))
    assert layer.consume(key(pygame.K_RETURN))


def unlock(layer: KioskLayer) -> None:
    """S, the PIN, and the settings key goes through: the TV is unlocked."""
    assert layer.consume(key(pygame.K_s))
    type_pin(layer)
    assert [e.key for e in pygame.event.get() if e.type == pygame.KEYDOWN] == [pygame.K_s]
    assert layer.seconds_unlocked() == UNLOCK_S


@pytest.mark.parametrize("attempt", [key(pygame.K_q, pygame.KMOD_LCTRL), key(pygame.K_F4, pygame.KMOD_LALT),
                                     pygame.event.Event(pygame.QUIT)], ids=["ctrl_q", "alt_f4", "window_close"])
def test_quitting_right_after_staff_unlocked_still_asks_for_the_pin(tmp_path: Path, attempt: pygame.event.Event) -> None:
    clock = Clock()
    layer = KioskLayer(config(tmp_path), clock)
    unlock(layer)
    assert not layer.consume(key(pygame.K_F11))  # unlocked: staff keys go through
    clock.now += 5
    assert layer.consume(attempt)  # but not quitting: the PIN afresh
    assert layer.prompt is not None and layer.prompt.held is None and not layer.quit_confirmed
    assert layer.consume(key(pygame.K_ESCAPE)) and not layer.quit_confirmed  # a guest's Esc: still running
    layer.consume(attempt)
    type_pin(layer, "111111")
    assert not layer.quit_confirmed
    type_pin(layer)
    assert layer.quit_confirmed and layer.exit_status is ExitStatus.STAFF_STOP


def test_the_unlock_ends_on_the_relock_key(tmp_path: Path) -> None:
    clock = Clock()
    layer = KioskLayer(config(tmp_path), clock)
    assert not layer.consume(key(RELOCK_KEY))  # locked: F12 is nobody's, it passes on
    unlock(layer)
    assert layer.consume(key(RELOCK_KEY))  # eaten: the scene does not see it
    assert layer.seconds_unlocked() == 0
    assert layer.consume(key(pygame.K_F11)) and layer.prompt is not None  # staff keys ask again


def test_a_click_on_the_padlock_locks_and_a_click_elsewhere_does_not(tmp_path: Path) -> None:
    clock = Clock()
    layer = KioskLayer(config(tmp_path), clock)
    unlock(layer)
    surface = pygame.Surface((1280, 720))
    layer.draw(surface, lobby_snapshot(6, "en"), context())
    assert layer.padlock is not None
    far = (layer.padlock.right + 200, layer.padlock.bottom + 200)
    assert not layer.consume(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=far, button=1))
    assert layer.seconds_unlocked() > 0
    assert layer.consume(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=layer.padlock.center, button=1))
    assert layer.seconds_unlocked() == 0


def context(drawn: list[str] | None = None, problems: list[str] | None = None, readable: float = 0,
            sizes: dict[str, int] | None = None) -> RenderContext:
    def probe(text: str, _lang: str, box: pygame.Rect, fitted: object) -> None:
        if drawn is not None:
            drawn.append(text)
        if sizes is not None:
            sizes[text] = int(getattr(fitted, "px", 0))
        if problems is not None and (getattr(fitted, "overflow", False) or getattr(fitted, "px", 99) < readable):
            problems.append(f"{text!r} cut or small in {box}")

    return RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_open_padlock_and_the_seconds_left_are_drawn_while_unlocked(tmp_path: Path, lang: str) -> None:
    clock = Clock()
    layer = KioskLayer(config(tmp_path, lang), clock)
    size = (1920, 1080)
    drawn: list[str] = []
    problems: list[str] = []
    sizes: dict[str, int] = {}
    ctx = context(drawn, problems, readable=11 * 1.5, sizes=sizes)
    snap = lobby_snapshot(6, lang)
    surface = pygame.Surface(size)
    layer.draw(surface, snap, ctx)
    assert layer.padlock is None and drawn == []  # locked: nothing
    unlock(layer)
    clock.now += 17.5
    surface.fill((0, 0, 0))
    layer.draw(surface, snap, ctx)
    badge = layer.padlock
    assert badge is not None
    left_side = badge.centerx < size[0] / 2
    assert left_side is not i18n.is_rtl(lang)
    seconds = i18n.text(lang, "screen", "kiosk.unlocked", seconds=i18n.number(lang, 43))
    assert drawn[0] == seconds and i18n.text(lang, "screen", "kiosk.relock_hint") in drawn
    assert problems == [] and sizes[seconds] >= 30  # the seconds: 30 px or more at 1080p, read from 3 m
    gold = sum(1 for x in range(badge.x, badge.right, 3) for y in range(badge.y, badge.bottom, 3)
               if surface.get_at((x, y))[:3] == theme.GOLD)
    assert gold > 100  # the padlock and the frame
    clock.now += UNLOCK_S
    drawn.clear()
    layer.draw(surface, snap, ctx)
    assert layer.padlock is None and drawn == []  # the unlock ran out: the padlock is gone


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_padlock_text_fits(lang: str, size: tuple[int, int]) -> None:
    problems: list[str] = []
    u = min(size[0] / 1280, size[1] / 720)
    draw_padlock(pygame.Surface(size), lang, 60, context(None, problems, readable=11 * u))
    assert problems == []


def test_the_stop_prompt_says_it_stops_the_kiosk(tmp_path: Path) -> None:
    layer = KioskLayer(config(tmp_path), Clock())
    drawn: list[str] = []
    layer.consume(key(pygame.K_q, pygame.KMOD_LCTRL))
    layer.draw(pygame.Surface((1280, 720)), lobby_snapshot(6, "en"), context(drawn))
    assert i18n.text("en", "screen", "kiosk.stop_title") in drawn
    assert i18n.text("en", "screen", "kiosk.pin_title") not in drawn


class StillLobby:
    """A lobby nobody touches."""

    def __init__(self) -> None:
        self.snap = lobby_snapshot(6, "en")

    def snapshot(self):
        return self.snap

    def send(self, event: InputEvent) -> None:
        raise AssertionError(f"nothing was pressed, yet {event} was sent")


def test_the_window_loop_draws_the_padlock_once_a_second_and_once_more_when_it_goes(tmp_path: Path) -> None:
    clock = Clock()
    kiosk = KioskConfig(languages=("en",), admin_pin=PIN, timers=Timers(attract_after_s=3600))
    layer = KioskLayer(dataclasses.replace(config(tmp_path), kiosk=kiosk), clock)
    screen = Screen(sound=SoundBank(enabled=False))
    loop, window = WindowLoop(StillLobby(), screen, layer, HowToPlay(screen.ctx, Screen)), pygame.Surface((1280, 720))

    def draws(ticks: int) -> int:
        drew = 0
        for _ in range(ticks):
            clock.now += 0.25
            assert loop.step(0.25, [], window) == []
            drew += loop.drew
        return drew

    assert draws(1) == 1 and draws(40) == 0  # a still lobby, locked: drawn once
    unlock(layer)
    assert draws(1) == 1 and layer.padlock is not None  # the padlock comes
    assert draws(16) == 4  # its seconds left count down: one frame each
    clock.now += UNLOCK_S - 5 - 0.5
    assert draws(1) == 1 and layer.seconds_unlocked() == 1
    assert draws(40) == 1 and layer.padlock is None  # the unlock ran out: one frame without it, then still


class StaffAtTheTv:
    """A lobby; S and the PIN on frame 3, Ctrl+Q on frame 6 (unlocked), the PIN on frame 9."""

    def __init__(self) -> None:
        self.frames = 0
        self.sent: list[InputEvent] = []
        self.snap = lobby_snapshot(6, "en")

    def snapshot(self):
        self.frames += 1
        presses = {3: [key(pygame.K_s)], 6: [key(pygame.K_q, pygame.KMOD_LCTRL)]}.get(self.frames, [])
        if self.frames in (3, 9):
            presses += [key(getattr(pygame, f"K_{ch}")) for ch in PIN] + [key(pygame.K_RETURN)]
        for event in presses:
            pygame.event.post(event)
        return self.snap

    def send(self, event: InputEvent) -> None:
        self.sent.append(event)


def test_staffs_stop_ends_the_window_with_the_status_the_unit_does_not_restart(tmp_path: Path) -> None:
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    runtime = StaffAtTheTv()
    try:
        assert run_window(runtime, dataclasses.replace(config(tmp_path), fullscreen=False)) == ExitStatus.STAFF_STOP
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)
        pygame.init()
        pygame.display.set_mode((64, 64))
    assert runtime.frames >= 9  # it ran until the second PIN, not at the Ctrl+Q


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT)
    return parser


def test_the_unit_restarts_every_exit_but_the_ones_retrying_cannot_help() -> None:
    service, limits = unit()["Service"], unit()["Unit"]
    assert service["Restart"] == "always"
    prevented = {int(v) for v in service["RestartPreventExitStatus"].split()}
    assert prevented == {ExitStatus.CONFIG_ERROR, ExitStatus.NO_DISPLAY, ExitStatus.STAFF_STOP}
    assert ExitStatus.DONE not in prevented and 1 not in prevented  # a clean exit or a crash: back
    assert ExitStatus.CONFIG_ERROR == CONFIG_ERROR_STATUS
    assert int(limits["StartLimitIntervalSec"]) > 0 and int(limits["StartLimitBurst"]) > 1


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed here")
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify``, with ExecStart pointed at this Python (the unit's venv path does
    not exist here, and verify checks that the program is executable)."""
    text = UNIT.read_text(encoding="utf-8")
    assert "ExecStart=/opt/tabletop/venv/bin/tabletop " in text
    copy = tmp_path / "tabletop.service"
    copy.write_text(text.replace("/opt/tabletop/venv/bin/tabletop", f"{sys.executable} -m game"), encoding="utf-8")
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    complaints = [line for line in (done.stdout + done.stderr).splitlines() if "tabletop.service" in line]
    assert done.returncode == 0 and complaints == [], done.stdout + done.stderr
