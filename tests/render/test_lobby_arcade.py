"""The arcade board's "press your button" wizard in the lobby: the A control (only with a board),
the panel while mapping in every language and size without cut text, and the commands it sends
(checked against a live session with a stand-in bridge)."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pygame
import pytest

from game import i18n
from game.config import TableConfig
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import Frame, HostIntent, RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.render.lobby import ArcadeStage, ArcadeStatus, layout
from game.session.session import Session
from game.session.snapshot import ArcadeInfo, InputKind, TableSnapshot
from game.tapes import lobby_snapshot

SIZE = (1280, 720)
SIZES = ((1280, 720), (1920, 1080), (3840, 2160))
LANGS = ("en", "fa", "th")
MAP = {"command": "map_buttons"}
CANCEL = {"command": "map_buttons", "cancel": True}


def arcade(*, present: bool = True, connected: bool = True, mapping: bool = False, waiting: int | None = None,
           done: dict[str, Any] | None = None) -> ArcadeInfo:
    """The board as the session reports it (through the same JSON the host console reads)."""
    return ArcadeInfo.from_json({"present": present, "connected": connected, "mapping_in_progress": mapping,
                                 "waiting_for": waiting, "done": done or {}, "mapping": None})


def snapshot(lang: str = "en", n: int = 8, **kw: Any) -> TableSnapshot:
    return dataclasses.replace(lobby_snapshot(n, lang, joined=min(3, n), bots=max(0, n - 3)), arcade=arcade(**kw))


def screen_for(snap: TableSnapshot, ctx: RenderContext) -> Screen:
    screen = Screen(ctx=ctx)
    screen.sync(snap)
    screen.advance(0.05, SIZE)
    return screen


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def payloads(intents: list) -> list[dict]:
    return [i.payload() for i in intents if isinstance(i, HostIntent)]


def shown_texts(snap: TableSnapshot, size: tuple[int, int] = SIZE) -> list[str]:
    texts: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, lang, box, fitted: texts.append(text)), QrCache(),
                        SoundBank(enabled=False))
    screen_for(snap, ctx).draw(pygame.Surface(size))
    return texts


# ------------------------------------------------------------------------------------ status
def test_status_reads_the_sessions_arcade_facts():
    assert ArcadeStatus.of(lobby_snapshot(5, "en")).stage is ArcadeStage.ABSENT
    assert ArcadeStatus.of(snapshot(present=False, connected=False)).stage is ArcadeStage.ABSENT
    assert ArcadeStatus.of(snapshot(connected=False)).stage is ArcadeStage.UNPLUGGED
    assert ArcadeStatus.of(snapshot()).stage is ArcadeStage.READY
    waiting = ArcadeStatus.of(snapshot(mapping=True, waiting=3))
    assert waiting.stage is ArcadeStage.MAPPING and waiting.waiting_for == 3 and dict(waiting.done) == {}
    told = ArcadeStatus.of(snapshot(mapping=True, waiting=2, done={"0": 5, "1": 0, "x": 3, "3": True}))
    assert dict(told.done) == {0: 5, 1: 0}  # malformed entries are skipped, never an error


def test_garbage_arcade_json_means_no_board():
    for raw in ({}, {"present": "maybe"}, {"present": True, "done": "x", "mapping": [1]}):
        info = ArcadeInfo.from_json(raw)
        snap = dataclasses.replace(lobby_snapshot(5, "en"), arcade=info)
        assert ArcadeStatus.of(snap).stage in (ArcadeStage.ABSENT, ArcadeStage.UNPLUGGED, ArcadeStage.READY)
    odd = ArcadeStatus.of(snapshot(mapping=True, waiting=True))  # type: ignore[arg-type]
    assert odd.waiting_for is None and dict(odd.done) == {}


# ------------------------------------------------------------------------------------- input
def test_without_a_board_there_is_no_arcade_control(shared_ctx):
    snap = lobby_snapshot(8, "en")
    assert "A" not in [b.hint for b in layout(Frame(snap, 0, SIZE)).buttons]
    assert screen_for(snap, shared_ctx).handle(key(pygame.K_a), SIZE) == []


def test_an_unplugged_board_shows_no_arcade_board_and_a_does_nothing(shared_ctx):
    snap = snapshot(connected=False)
    button = next(b for b in layout(Frame(snap, 0, SIZE)).buttons if b.hint == "A")
    assert not button.active and button.label == i18n.text("en", "screen", "lobby.btn_arcade_none")
    assert screen_for(snap, shared_ctx).handle(key(pygame.K_a), SIZE) == []


def test_a_key_and_the_button_start_the_wizard(shared_ctx):
    snap = snapshot()
    screen = screen_for(snap, shared_ctx)
    assert payloads(screen.handle(key(pygame.K_a), SIZE)) == [MAP]
    button = next(b for b in layout(Frame(snap, 0, SIZE)).buttons if b.hint == "A")
    click = pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=button.rect.center, button=1)
    assert payloads(screen.handle(click, SIZE)) == [MAP]
    assert payloads(screen.handle(key(pygame.K_RETURN), SIZE)) == [{"command": "start"}]  # the others still work


@pytest.mark.parametrize("lang", LANGS)
def test_while_mapping_a_or_escape_stop_it_and_nothing_else_acts(lang, shared_ctx):
    snap = snapshot(lang, mapping=True, waiting=1)
    screen = screen_for(snap, shared_ctx)
    assert payloads(screen.handle(key(pygame.K_a), SIZE)) == [CANCEL]
    assert payloads(screen.handle(key(pygame.K_ESCAPE), SIZE)) == [CANCEL]
    for k in (pygame.K_RETURN, pygame.K_g, pygame.K_EQUALS, pygame.K_b, pygame.K_SPACE):
        assert screen.handle(key(k), SIZE) == []
    lay = layout(Frame(snap, 0, SIZE))
    stop = next(b for b in lay.buttons if b.hint == "A")
    start = next(b for b in lay.buttons if b.hint == "Enter")
    click = lambda pos: pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    assert payloads(screen.handle(click(stop.rect.center), SIZE)) == [CANCEL]
    assert screen.handle(click(start.rect.center), SIZE) == []
    assert screen.handle(click(lay.cards[0].rect.center), SIZE) == []


# ----------------------------------------------------------------------------------- drawing
@pytest.mark.parametrize("lang", LANGS)
def test_the_panel_names_the_awaited_seat_and_the_buttons_found(lang):
    s = lambda k, **v: i18n.text(lang, "screen", k, **v)
    texts = shown_texts(snapshot(lang, n=6, mapping=True, waiting=2, done={"0": 4, "1": 0}))
    assert s("lobby.arcade_press", n=3) in texts
    assert s("lobby.arcade_button", n=5) in texts and s("lobby.arcade_button", n=1) in texts
    assert s("lobby.arcade_now") in texts and s("lobby.arcade_stop_hint") in texts
    assert s("lobby.btn_arcade_stop") in texts
    ready = shown_texts(snapshot(lang))
    assert s("lobby.btn_arcade") in ready and s("lobby.arcade_press", n=3) not in ready


@pytest.mark.parametrize("lang", LANGS)
def test_an_unplugged_notice_is_shown_in_the_lobby(lang):
    snap = dataclasses.replace(snapshot(lang, connected=False), notices=("arcade_unplugged",))
    assert i18n.text(lang, "screen", "notice.arcade_unplugged") in shown_texts(snap)


def _render_problems(snaps: list[TableSnapshot], size: tuple[int, int]) -> tuple[set[str], set[str]]:
    """Texts cut (or bigger than their box) and texts drawn below a readable size."""
    cut: set[str] = set()
    small: set[str] = set()
    readable = 11 * min(size[0] / 1280, size[1] / 720)  # links may be smaller: they are for typing

    def probe(text, text_lang, box, fitted):
        w, h = fitted.surface.get_size()
        if fitted.overflow or w > box.width or h > box.height:
            cut.add(f"{text!r} in {box}")
        if fitted.px < readable and not text.startswith("http"):
            small.add(text)

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    surface = pygame.Surface(size)
    for snap in snaps:
        screen = Screen(ctx=ctx)
        screen.sync(snap)
        screen.advance(0.05, size)
        screen.draw(surface)
    return cut, small


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_no_arcade_text_is_cut_or_unreadably_small(lang, size):
    cases = [snapshot(lang, n=3, mapping=True, waiting=0), snapshot(lang, n=8, mapping=True, waiting=3),
             snapshot(lang, n=12, mapping=True, waiting=11, done={str(i): 11 - i for i in range(11)}),
             snapshot(lang, n=12), snapshot(lang, n=5, connected=False)]
    speakeasy = lobby_snapshot(8, lang, joined=3, bots=2, game="speakeasy", preset="en")
    cases.append(dataclasses.replace(speakeasy, arcade=arcade()))
    cut, small = _render_problems(cases, size)
    # what is already small without a board (the 12-seat cards at 720p) is not the wizard's doing
    _, small_before = _render_problems([dataclasses.replace(c, arcade=ArcadeInfo()) for c in cases], size)
    assert not cut, sorted(cut)[:5]
    assert not small - small_before, sorted(small - small_before)[:5]


# ------------------------------------------------------------------------------ live session
class StandInBridge:
    """What the session sees of the arcade bridge (firmware_bridge.bridge.ArcadeBridge)."""

    def __init__(self) -> None:
        self.connected = True
        self.mapping_in_progress = False
        self.started: list[tuple[int, ...]] = []
        self.listeners: list[Any] = []

    def add_listener(self, listener: Any) -> None:
        self.listeners.append(listener)

    def set_mapping(self, mapping: dict[int, int]) -> None:
        pass

    def start_mapping(self, seats: Any) -> None:
        self.mapping_in_progress = True
        self.started.append(tuple(seats))

    def cancel_mapping(self) -> None:
        self.mapping_in_progress = False

    def arm_race(self, race_id: str, seats: Any) -> None:
        pass

    def end_race(self) -> None:
        pass


async def test_the_keys_drive_the_sessions_wizard(tmp_path: Path, shared_ctx):
    session = Session.boot(TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=3), None, None)
    # A new Screen per snapshot: the session republishes arcade changes under the same version.
    try:
        assert screen_for(session.snapshot, shared_ctx).handle(key(pygame.K_a), SIZE) == []  # no board yet
        bridge = StandInBridge()
        session.attach_arcade(bridge)
        screen = screen_for(session.snapshot, shared_ctx)
        events = [screen.input_event(i) for i in screen.handle(key(pygame.K_a), SIZE)]
        assert [(e.kind, e.payload) for e in events] == [(InputKind.HOST, MAP)]
        session.handle_input(events[0])
        assert session.snapshot.lobby.host_error is None
        assert bridge.started == [tuple(s.seat for s in session.snapshot.seats)]
        screen = screen_for(session.snapshot, shared_ctx)
        assert ArcadeStatus.of(screen.snapshot).stage is ArcadeStage.MAPPING
        events = [screen.input_event(i) for i in screen.handle(key(pygame.K_ESCAPE), SIZE)]
        assert [e.payload for e in events] == [CANCEL]
        session.handle_input(events[0])
        assert session.snapshot.lobby.host_error is None and not bridge.mapping_in_progress
        assert ArcadeStatus.of(session.snapshot).stage is ArcadeStage.READY
    finally:
        session.close()
