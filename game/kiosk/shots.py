"""Pictures of the kiosk's screens (``tools/screenshots.py --kiosk``): the attract loop a few
seconds into each game, the PIN prompt, the unlocked lobby's padlock and the no-network notice (over
the lobby and over the attract loop), in each language, drawn headless."""
from __future__ import annotations

from pathlib import Path

import pygame

from game.config import TableConfig
from game.render.app import Screen, draw_table
from game.session.api import Session
from game.session.snapshot import RunMode

from .attract import AttractReel
from .config import KioskConfig, Timers, Venue
from .screen import KioskLayer, PinPrompt, draw_pin_prompt

DEMO_PIN = "482193"
STEP_S = 1 / 30
LAN_URL = "http://192.168.1.20:8765"
NO_NETWORK_URL = "http://127.0.0.1:8765"  # what the table gives phones before it has a network


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _config(lang: str, data: Path) -> TableConfig:
    others = tuple(x for x in ("fa", "th", "en") if x != lang)
    kiosk = KioskConfig(venue=Venue("Café Nakhl"), languages=(lang, *others), admin_pin=DEMO_PIN,
                        timers=Timers(attract_after_s=5, attract_game_s=20))
    return TableConfig(mode=RunMode.KIOSK, language=lang, data_dir=data, admin_pin=DEMO_PIN, kiosk=kiosk, seed=7)


def attract_picture(lang: str, size: tuple[int, int], game_turn: int = 0, seconds: float = 9.0,
                    url: str = LAN_URL) -> pygame.Surface:
    """The attract loop ``seconds`` into the ``game_turn``-th game of its reel (0: the first)."""
    config = _config(lang, Path("/nonexistent"))
    session = Session.boot(config, None, None)
    session.set_base_url(url)
    clock = _Clock()
    layer = KioskLayer(config, clock)
    screen = Screen()
    layer.shown(session.snapshot, screen)
    clock.now += config.kiosk.timers.attract_after_s if config.kiosk else 60
    layer.shown(session.snapshot, screen)
    assert layer.reel is not None
    layer.reel.turn = game_turn
    layer.reel.languages = [lang]
    layer.reel.start(round(clock.now * 1000))
    for _ in range(round(seconds / STEP_S)):
        clock.now += STEP_S
        screen.sync(layer.shown(session.snapshot, screen))
        area = layer.demo_area(size, screen.snapshot)
        screen.advance(STEP_S, area.size if area is not None else size)
    return _drawn(screen, layer, session, size)


def lobby_picture(lang: str, size: tuple[int, int], url: str = LAN_URL, unlocked_s: float = 0) -> pygame.Surface:
    """The kiosk's lobby as the TV shows it: with ``url`` a loopback one, the no-network notice;
    with ``unlocked_s`` > 0, staff's open padlock that many seconds after the PIN."""
    config = _config(lang, Path("/nonexistent"))
    session = Session.boot(config, None, None)
    session.set_base_url(url)
    clock = _Clock()
    layer = KioskLayer(config, clock)
    if unlocked_s:
        layer.unlock()
        clock.now += unlocked_s
    screen = Screen()
    screen.sync(layer.shown(session.snapshot, screen))
    screen.advance(0.5, size)
    return _drawn(screen, layer, session, size)


def _drawn(screen: Screen, layer: KioskLayer, session: Session, size: tuple[int, int]) -> pygame.Surface:
    """The screen and the kiosk's overlays, drawn; the session closed."""
    surface = pygame.Surface(size)
    draw_table(screen, surface, layer)
    assert screen.snapshot is not None
    layer.draw(surface, screen.snapshot, screen.ctx)
    session.close()
    return surface


def pin_picture(lang: str, size: tuple[int, int], typed: int = 3, wrong: bool = False) -> pygame.Surface:
    """The lobby under the PIN prompt (``typed`` digits as dots)."""
    config = _config(lang, Path("/nonexistent"))
    session = Session.boot(config, None, None)
    session.set_base_url("http://192.168.1.20:8765")
    screen = Screen()
    screen.sync(session.snapshot)
    screen.advance(0.5, size)
    surface = pygame.Surface(size)
    screen.draw(surface)
    draw_pin_prompt(surface, lang, PinPrompt(None, typed=DEMO_PIN[:typed], wrong=wrong), screen.ctx)
    session.close()
    return surface


def write_kiosk_screens(out: Path, langs: tuple[str, ...], sizes: tuple[tuple[int, int], ...]) -> int:
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for lang in langs:
        for w, h in sizes:
            for turn, game in enumerate(AttractReel(languages=(lang,)).games):
                pygame.image.save(attract_picture(lang, (w, h), turn), str(out / f"kiosk_{lang}_{w}x{h}_attract_{game}.png"))
                count += 1
            pygame.image.save(pin_picture(lang, (w, h)), str(out / f"kiosk_{lang}_{w}x{h}_pin.png"))
            pygame.image.save(pin_picture(lang, (w, h), 0, wrong=True), str(out / f"kiosk_{lang}_{w}x{h}_pin_wrong.png"))
            pygame.image.save(lobby_picture(lang, (w, h), unlocked_s=18), str(out / f"kiosk_{lang}_{w}x{h}_unlocked.png"))
            pygame.image.save(lobby_picture(lang, (w, h), NO_NETWORK_URL), str(out / f"kiosk_{lang}_{w}x{h}_no_network.png"))
            pygame.image.save(attract_picture(lang, (w, h), url=NO_NETWORK_URL),
                              str(out / f"kiosk_{lang}_{w}x{h}_no_network_attract.png"))
            count += 5
    return count + write_howto_screens(out, langs, sizes)


def howto_picture(game: str, lang: str, index: int, size: tuple[int, int]) -> pygame.Surface:
    """Slide ``index`` of the game's how-to-play, two seconds in (a kiosk plays a table game's; a
    companion game's is played by a companion-mode table of five people with the setting on)."""
    from game import howto
    from game.render.howto import HowToPlay

    session = _howto_session(game, lang)
    screen = Screen()
    player = HowToPlay(screen.ctx, Screen)
    slides = howto.slides(game)
    intro = session.snapshot.how_to_play
    assert intro is not None and intro.game == game, "the table plays the how-to-play before its first round"
    now = intro.started_ms + round(sum(s.seconds for s in slides[:index]) * 1000)
    player.update(session.snapshot, now, STEP_S, size)
    for _ in range(round(2.0 / STEP_S)):
        now += round(STEP_S * 1000)
        player.update(session.snapshot, now, STEP_S, size)
    surface = pygame.Surface(size)
    player.draw(surface, session.snapshot, now)
    session.close()
    return surface


def _howto_session(game: str, lang: str) -> Session:
    """A table of five about to play ``game``, its how-to-play running."""
    from game import catalog
    from game.session.api import VirtualTime
    from game.tapes import ScriptedTable

    desc = catalog.get(game)
    if desc.mode is catalog.PlayMode.COMPANION:
        table = ScriptedTable(desc.family, 5, lang, settings={"how_to_play": True}, mode=RunMode.COMPANION)
        table.start()
        return table.session
    time = VirtualTime()
    config = TableConfig(mode=RunMode.KIOSK, game=game, language=lang, data_dir=Path("/nonexistent"),
                         admin_pin=DEMO_PIN, seed=7, kiosk=KioskConfig(game=game, languages=(lang,), admin_pin=DEMO_PIN))
    session = Session.boot(config, None, None, clock=time, scheduler=time)
    session.host_command({"command": "set_seats", "count": 5})
    session.host_command({"command": "start"})
    return session


def write_howto_screens(out: Path, langs: tuple[str, ...], sizes: tuple[tuple[int, int], ...]) -> int:
    from game import catalog, howto

    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for lang in langs:
        for w, h in sizes:
            for game in catalog.ids():
                for i, slide in enumerate(howto.slides(game)):
                    path = out / f"howto_{game}_{lang}_{w}x{h}_{i + 1}_{slide.rule}.png"
                    pygame.image.save(howto_picture(game, lang, i, (w, h)), str(path))
                    count += 1
    return count
