"""How to play before a game's first round: the session holds the start for the explanation (on by
default in kiosk mode, a table setting elsewhere, companion mode included), anyone at the TV skips
it, and the TV draws each slide with the game's own scenes and a caption in fa, th and en. Every
game in the catalog brings its slides through its descriptor."""
from __future__ import annotations

import functools
from pathlib import Path

import pygame
import pytest

from game import catalog, howto, i18n
from game.config import TableConfig
from game.kiosk.config import KioskConfig
from game.render.app import Screen
from game.render.howto import HowToPlay, intro_of, is_skip, record_tape
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import RunMode, TablePhase
from game.tapes import ScriptedTable


def table(tmp_path: Path, game: str = "collusion", mode: RunMode = RunMode.KIOSK) -> tuple[Session, VirtualTime]:
    time = VirtualTime()
    kiosk = KioskConfig(game=game, admin_pin="4821") if mode is RunMode.KIOSK else None
    config = TableConfig(mode=mode, game=game, data_dir=tmp_path, admin_pin="4821", seed=3, kiosk=kiosk)
    session = Session.boot(config, None, None, clock=time, scheduler=time)
    session.host_command({"command": "set_seats", "count": 5})
    return session, time


TABLE_GAMES = catalog.ids(catalog.PlayMode.TABLE)
COMPANIONS = catalog.ids(catalog.PlayMode.COMPANION)
LANGS = ("en", "fa", "th")


@functools.cache
def moment_names(tape: str, lang: str) -> frozenset[str]:
    return frozenset(record_tape(tape, lang))


@pytest.mark.parametrize("game", catalog.ids())
def test_every_catalog_game_has_a_30_to_45_second_explanation(game: str) -> None:
    slides = howto.slides(game)
    assert slides, f"{game} has no how-to-play"
    assert 30_000 <= howto.duration_ms(game) <= 45_000
    assert len({(s.tape, s.moment) for s in slides}) == len(slides)  # every slide shows something new


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_a_table_game_shows_one_worked_example_per_key_rule(game: str) -> None:
    rules = [s.rule for s in howto.slides(game)]
    assert len(rules) == len(set(rules)) >= 4


@pytest.mark.parametrize("game", COMPANIONS)
def test_a_companion_explains_its_familys_rules_with_the_table_moments_then_what_the_program_does(game: str) -> None:
    family = catalog.get(game).family
    table = {(s.tape, s.moment, s.caption, s.rule) for s in howto.slides(family)}
    slides = howto.slides(game)
    shared = [s for s in slides if (s.tape, s.moment, s.caption, s.rule) in table]
    own = [s for s in slides if s.tape not in {t[0] for t in table}]
    assert len(shared) >= 3, "the family's key rules, shown as the table game shows them"
    assert own and all(s.strings in catalog.get(game).strings for s in own), "what the program does, in its own words"
    assert len(shared) + len(own) == len(slides)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", catalog.ids())
def test_each_slide_has_its_caption_in_every_language_and_its_moment_on_the_tape(game: str, lang: str) -> None:
    for slide in howto.slides(game):
        assert slide.caption in i18n.load(lang, slide.strings), (slide.strings, slide.caption)
        assert slide.moment in moment_names(slide.tape, lang), (slide.tape, slide.moment)


def test_the_plan_and_the_player_name_no_game() -> None:
    """A game speaks through its catalog descriptor: no switchboard by game name."""
    root = Path(__file__).resolve().parents[2] / "game"
    for path in (root / "howto" / "__init__.py", root / "render" / "howto.py"):
        source = path.read_text(encoding="utf-8")
        named = [g for g in catalog.ids() if f'"{g}' in source or f"'{g}" in source or f".{g}" in source]
        assert named == [], (path.name, named)


def test_a_game_without_slides_starts_straight_away() -> None:
    toy = catalog.register(catalog.GameDescriptor(
        id="toy_howto", family="toy_howto", mode=catalog.PlayMode.TABLE, engine="game.games.collusion.rules:ENGINE",
        bots=None, screen="game.games.collusion.screen", phone="games/collusion.js", strings=("screen",),
        title_key="game.collusion"))
    try:
        assert howto.slides(toy.id) == () and howto.duration_ms(toy.id) == 0 and howto.slide_at(toy.id, 0) is None
    finally:
        catalog.unregister(toy.id)


@pytest.mark.parametrize("family", ["collusion", "speakeasy", "cheating_moth"])
def test_a_companion_table_offers_it_too(family: str) -> None:
    t = ScriptedTable(family, 5, "en", settings={"how_to_play": True}, mode=RunMode.COMPANION)
    t.start()
    game = t.session.table.game
    intro = t.session.snapshot.how_to_play
    assert catalog.get(game).mode is catalog.PlayMode.COMPANION
    assert intro is not None and intro.game == game and intro.duration_ms == howto.duration_ms(game)
    t.wait(howto.duration_ms(game) - 1)
    assert t.session.phase is TablePhase.LOBBY
    t.wait(1)
    assert t.session.phase is TablePhase.PLAYING and t.session.snapshot.how_to_play is None
    t.session.close()


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
    session, _ = table(tmp_path, mode=RunMode.TABLE)
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


def intro_table(tmp_path: Path, game: str, lang: str) -> Session:
    """A table of five about to play ``game`` in ``lang``, its explanation running."""
    desc = catalog.get(game)
    if desc.mode is catalog.PlayMode.COMPANION:
        t = ScriptedTable(desc.family, 5, lang, settings={"how_to_play": True}, mode=RunMode.COMPANION)
        t.start()
        return t.session
    session, _ = table(tmp_path, game)
    session.host_command({"command": "set_language", "language": lang})
    session.host_command({"command": "start"})
    return session


@pytest.mark.parametrize("game", catalog.ids())
@pytest.mark.parametrize("lang", LANGS)
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
    session = intro_table(tmp_path, game, lang)
    player = HowToPlay(ctx, Screen)
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
    for slide in howto.slides(game):
        assert i18n.text(lang, slide.strings, slide.caption) in captions
    session.close()
