"""How to play before a game's first round: the session holds the start for the explanation (on by
default in kiosk mode, a table setting elsewhere), anyone at the TV skips it, and the TV draws each
slide with the game's own scenes and a caption in fa, th and en."""
from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from game import howto
from game.config import TableConfig
from game.kiosk.config import KioskConfig
from game.render.app import Screen
from game.render.howto import HowToPlay, intro_of, is_skip
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import Mode, TablePhase


def table(tmp_path: Path, game: str = "collusion", mode: Mode = Mode.KIOSK) -> tuple[Session, VirtualTime]:
    time = VirtualTime()
    kiosk = KioskConfig(game=game, admin_pin="4821") if mode is Mode.KIOSK else None
    config = TableConfig(mode=mode, game=game, data_dir=tmp_path, admin_pin="4821", seed=3, kiosk=kiosk)
    session = Session.boot(config, None, None, clock=time, scheduler=time)
    session.host_command({"command": "set_seats", "count": 5})
    return session, time


@pytest.mark.parametrize("game", ["collusion", "speakeasy", "cheating_moth"])
def test_every_game_has_a_30_to_45_second_explanation_of_its_key_rules(game: str) -> None:
    assert 30_000 <= howto.duration_ms(game) <= 45_000
    rules = [s.rule for s in howto.slides(game)]
    assert len(rules) == len(set(rules)) >= 4


def test_kiosk_explains_the_game_before_it_starts(tmp_path: Path) -> None:
    session, time = table(tmp_path)
    session.host_command({"command": "start"})
    intro = session.snapshot.how_to_play
    assert session.phase is TablePhase.LOBBY and intro is not None and intro.game == "collusion"
    time.advance(howto.duration_ms("collusion") - 1)
    assert session.phase is TablePhase.LOBBY
    time.advance(1)
    assert session.phase is TablePhase.PLAYING and session.snapshot.how_to_play is None
    session.close()


def test_anyone_at_the_tv_skips_it(tmp_path: Path) -> None:
    session, time = table(tmp_path, "speakeasy")
    session.host_command({"command": "start"})
    time.advance(5_000)
    session.host_command({"command": "skip_intro"})
    assert session.phase is TablePhase.PLAYING
    time.advance(60_000)  # the explanation's own end changes nothing later
    assert session.phase is TablePhase.PLAYING
    assert is_skip(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0))
    session.close()


def test_a_table_offers_it_as_a_setting(tmp_path: Path) -> None:
    session, _ = table(tmp_path, mode=Mode.TABLE)
    assert session.table.table_settings.how_to_play is False
    session.host_command({"command": "start"})
    assert session.phase is TablePhase.PLAYING  # off by default outside kiosk mode
    session.host_command({"command": "abort"})
    session.host_command({"command": "set_setting", "name": "how_to_play", "value": True})
    session.host_command({"command": "start"})
    assert session.phase is TablePhase.LOBBY and intro_of(session.snapshot) is not None
    session.close()


def test_a_hand_over_cancels_the_explanation(tmp_path: Path) -> None:
    session, time = table(tmp_path)
    session.host_command({"command": "start"})
    session.hand_over()
    time.advance(60_000)
    assert session.phase is TablePhase.LOBBY and intro_of(session.snapshot) is None
    session.close()


@pytest.mark.parametrize("game", ["collusion", "speakeasy", "cheating_moth"])
@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_each_slide_draws_the_games_scene_and_a_caption_that_fits(tmp_path: Path, game: str, lang: str) -> None:
    pygame.init()
    size = (1280, 720)
    problems: list[str] = []
    captions: list[str] = []

    def probe(text: str, text_lang: str, box: pygame.Rect, fitted: object) -> None:
        captions.append(text)
        if getattr(fitted, "overflow", False) and box.y < 150:
            problems.append(f"caption cut: {text!r}")

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    session, time = table(tmp_path, game)
    session.host_command({"command": "set_language", "language": lang})
    session.host_command({"command": "start"})
    player = HowToPlay(ctx)
    screen = Screen(ctx=ctx)
    started = session.snapshot.how_to_play.started_ms
    for slide in howto.slides(game):
        now = started + round(sum(s.seconds for s in howto.slides(game)[:howto.slides(game).index(slide)]) * 1000) + 2_000
        screen.sync(session.snapshot)
        player.update(session.snapshot, now, 1 / 60, size)
        for _ in range(60):
            player.update(session.snapshot, now, 1 / 30, size)
        surface = pygame.Surface(size)
        player.draw(surface, session.snapshot, now)
        assert player._inner is not None, slide.moment  # the game's own scene plays the example
        colours = {surface.get_at((x, y))[:3] for x in range(0, 1280, 64) for y in range(160, 720, 64)}
        assert len(colours) >= 3, slide.moment  # more than the background and the band
    assert problems == []
    from game import i18n

    for slide in howto.slides(game):
        assert i18n.text(lang, "screen", slide.caption) in captions
    session.close()
