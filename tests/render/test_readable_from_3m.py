"""Reading the TV from 3 m: everything a guest reads on the lobby (the key-hint line, the buttons'
labels such as "Seats: 6", the seat names) is at least 24 px at 1080p (16 px at 720p, 48 px at 4K); a
24-character name is elided at that floor, never shrunk to 8 px; a game's small words (the label
under Cheating Moth's timer, Collusion's small-table note) too; the kiosk draws the café's name on
the lobby, and its attract loop lays the demo out beside the "Scan to play" column, covering none of it."""
from __future__ import annotations

from pathlib import Path

import pygame
import pytest
from scene_checks import SIZES

from game.config import TableConfig
from game.kiosk.config import KioskConfig, Timers, Venue
from game.kiosk.screen import KioskLayer, attract_column, demo_rect, draw_table
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import Fitted, TextRenderer
from game.render.kit.widgets import READABLE_PX_720P
from game.render.moments import Moment, Tapes
from game.session.session import Session
from game.session.snapshot import RunMode
from game.tapes import ScriptedTable, play_moment

LONG_NAME = "Alexandria-Montgomery-XY"  # 24 characters


class Drawn:
    """Every text the screen draws: its size, whether it was cut, and its box."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, Fitted, pygame.Rect]] = []

    def __call__(self, text: str, lang: str, box: pygame.Rect, fitted: Fitted) -> None:
        self.texts.append((text, fitted, box))

    def context(self) -> RenderContext:
        return RenderContext(TextRenderer(self), QrCache(), SoundBank(enabled=False))


def floor(size: tuple[int, int]) -> float:
    return READABLE_PX_720P * min(size[0] / 1280, size[1] / 720)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "fa", "th"])
@pytest.mark.parametrize("game", ["collusion", "cheating_moth_companion"])
def test_the_lobby_reads_from_across_the_room(game: str, lang: str, size: tuple[int, int]) -> None:
    """Also the line about the free seats: "Enter: 5 free seats are played by bots", or, in a game
    without bots, "5 seats are free: every seat needs a person — press − to remove them"."""
    table = ScriptedTable(game, 8, lang, people=3)
    table.session.set_name(1, LONG_NAME)
    drawn = Drawn()
    screen = Screen(ctx=drawn.context())
    screen.sync(table.session.snapshot)
    screen.advance(0.5, size)
    screen.draw(pygame.Surface(size))
    small = [(text, fitted.px) for text, fitted, _ in drawn.texts if fitted.px < floor(size) and not text.startswith("http")]
    assert small == [], f"under {floor(size):.0f} px at {size}"
    cut = [text for text, fitted, _ in drawn.texts if fitted.overflow]
    assert cut in ([], [LONG_NAME])  # only the long name may be elided ("Alexandria-Montgo…")
    from game import i18n

    key = "lobby.start_bots" if game == "collusion" else "lobby.start_people"
    assert i18n.text(lang, "screen", key, n=5) in [text for text, _, _ in drawn.texts]
    table.session.close()


def kiosk_config(tmp_path: Path, lang: str) -> TableConfig:
    kiosk = KioskConfig(venue=Venue("Café Nakhl"), languages=(lang,), admin_pin="4821",
                        timers=Timers(attract_after_s=60, attract_game_s=40))
    return TableConfig(mode=RunMode.KIOSK, language=lang, data_dir=tmp_path, admin_pin="4821", kiosk=kiosk)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["fa", "th"])
def test_the_attract_demo_lies_beside_the_scan_column_and_the_venue_is_on_the_lobby(
        tmp_path: Path, lang: str, size: tuple[int, int]) -> None:
    session = Session.boot(kiosk_config(tmp_path, lang), None, None)
    session.set_base_url("http://192.168.1.20:8765")
    clock = Clock()
    layer = KioskLayer(kiosk_config(tmp_path, lang), clock)
    drawn = Drawn()
    screen = Screen(ctx=drawn.context())
    screen.sync(layer.shown(session.snapshot, screen))
    screen.advance(0.2, size)
    surface = pygame.Surface(size)
    draw_table(screen, surface, layer)
    layer.draw(surface, screen.snapshot, screen.ctx)
    venue = [box for text, fitted, box in drawn.texts if text == "Café Nakhl"]
    assert venue and all(fitted.px >= floor(size) for text, fitted, _ in drawn.texts if text == "Café Nakhl")
    title, title_box = next((fitted, box) for text, fitted, box in drawn.texts if text != "Café Nakhl")
    title_ink = pygame.Rect((0, 0), title.surface.get_size())
    title_ink.center = title_box.center  # the lobby's title is centred
    assert not venue[0].colliderect(title_ink)  # the café's name stands beside it

    clock.now += 61  # idle: the attract loop runs its demo
    for _ in range(60):
        clock.now += 0.1
        screen.sync(layer.shown(session.snapshot, screen))
        area = layer.demo_area(size, screen.snapshot)
        assert area is not None
        screen.advance(0.1, area.size)
    drawn.texts.clear()
    draw_table(screen, surface, layer)
    demo = demo_rect(size, lang)
    assert not demo.colliderect(attract_column(size, lang))
    assert drawn.texts, "the demo drew its table"
    for text, _, box in drawn.texts:  # boxes are relative to the demo's own surface
        assert pygame.Rect(box.move(demo.topleft)).colliderect(attract_column(size, lang)) is False, text
        assert pygame.Rect(0, 0, *demo.size).contains(box), text
    session.close()


def first_moments(tapes: Tapes, lang: str, names: set[str]) -> list[Moment]:
    """The named moments of a game's tapes, the script played no further than the last of them."""
    out: list[Moment] = []
    for moment in tapes.moments(lang):
        if moment.name in names:
            out.append(moment)
        if len(out) == len(names):
            break
    return out


@pytest.mark.parametrize("size", SIZES[:2])
@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_small_words_of_a_game_read_from_across_the_room(lang: str, size: tuple[int, int]) -> None:
    """Cheating Moth's label under the timer ("race", "giving": Thai was 22 px at 1080p) and
    Collusion's note under the caption at a table smaller than the rules' (the companion's
    "Fewer players than the published 6 to 12"): at least the readable floor."""
    from game import i18n
    from game.games.cheating_moth.tapes import TAPES as MOTH
    from game.games.collusion.companion_tapes import TAPES as COLLUSION_COMPANION

    words = {i18n.text(lang, "screen_cheating_moth", "timer.race"), i18n.text(lang, "screen_cheating_moth", "timer.give"),
             i18n.text(lang, "screen", "table.small_table")}
    moments = [*first_moments(MOTH, lang, {"m04_caught", "m11_mosquito_race"}),
               *first_moments(COLLUSION_COMPANION, lang, {"01_vote"})]
    drawn = Drawn()
    surface = pygame.Surface(size)
    for moment in moments:
        play_moment(moment, size, drawn.context()).draw(surface)
    seen = {text: fitted.px for text, fitted, _ in drawn.texts if text in words}
    assert set(seen) == words  # each was drawn
    assert all(px >= floor(size) for px in seen.values()), (seen, floor(size))
