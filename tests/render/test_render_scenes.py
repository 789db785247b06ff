"""Every scene in every language: it draws, no text overflows its box at 720p, 1080p and 4K, and
drawing changes neither the snapshot nor the scene."""
from __future__ import annotations

import pygame
import pytest
from scene_checks import (
    LANGS,
    SIZES,
    assert_draw_is_pure,
    assert_no_text_overflows,
    assert_paints_the_whole_window,
)

from game.games.collusion.tapes import moments
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.tapes import play_moment

MOMENTS = {lang: list(moments(lang)) for lang in LANGS}
EXPECTED_TOP = {
    "01_lobby": "lobby", "02_settings": "settings", "03_table": "collusion_table",
    "04_last_seconds": "collusion_table", "05_reveal": "reveal", "06_ambush": "reveal",
    "07_ambush_choice": "collusion_table", "08_deaths": "reveal", "09_vote_deaths": "reveal",
    "10_showdown": "showdown", "11_showdown_reveal": "showdown_reveal", "12_round_end": "round_end",
    "13_game_over": "game_over",
}


def test_the_script_covers_every_scene():
    for lang in LANGS:
        assert [m.name for m in MOMENTS[lang]] == list(EXPECTED_TOP)


@pytest.mark.parametrize("lang", LANGS)
def test_every_scene_draws_and_is_the_expected_one(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        screen = play_moment(moment, (1280, 720), shared_ctx)
        assert screen.director.top is not None and screen.director.top.name == EXPECTED_TOP[moment.name], moment.name
        assert_paints_the_whole_window(screen, moment.name)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_overflows_its_box_or_gets_unreadably_small(lang, size):
    assert_no_text_overflows(MOMENTS[lang], size, links_may_be_small=True)  # links are for typing



@pytest.mark.parametrize("lang", LANGS)
def test_draw_changes_neither_the_snapshot_nor_the_scenes(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        assert_draw_is_pure(play_moment(moment, (1280, 720), shared_ctx), moment.name, frame_position=True)


def test_beats_follow_the_events_in_order(shared_ctx):
    en = {m.name: m for m in MOMENTS["en"]}
    screen = play_moment(en["11_showdown_reveal"], (1280, 720), shared_ctx)
    assert screen.director.names()[-1] == "showdown_reveal"
    assert screen.director.pending == 1  # the round's summary waits its turn
    screen.advance(8.0, (1280, 720))
    assert screen.director.names()[-1] == "round_end"
    screen.advance(8.0, (1280, 720))
    assert screen.director.names() == ["collusion_table"]


def test_a_screen_that_starts_mid_game_does_not_replay_old_events(shared_ctx):
    en = {m.name: m for m in MOMENTS["en"]}
    reveal_snapshot = en["05_reveal"].snapshots[-1]
    from game.render.app import Screen

    screen = Screen(ctx=shared_ctx)
    screen.sync(reveal_snapshot)
    screen.advance(0.5, (1280, 720))
    assert screen.director.names() == ["collusion_table"]


def test_speakeasy_gets_its_own_table_scene(shared_ctx):
    import dataclasses

    from game.catalog import get_engine
    from game.render.app import Screen
    from game.session.snapshot import TablePhase
    from game.tapes import lobby_snapshot

    engine = get_engine("speakeasy")
    state = engine.new_game(engine.default_settings("en"), 5, 3)
    snap = dataclasses.replace(lobby_snapshot(5, "th", joined=5, bots=0, game="speakeasy", preset="en"),
                               phase=TablePhase.PLAYING, public_view=engine.view(state, None))
    screen = Screen(ctx=shared_ctx)
    screen.sync(snap)
    screen.advance(0.1, (1280, 720))
    assert screen.director.names() == ["speakeasy_table"]
    surface = pygame.Surface((1280, 720))
    screen.draw(surface)
    assert surface.get_at((640, 360))[:3] != (0, 0, 0)


@pytest.mark.parametrize("lang", LANGS)
def test_session_notices_are_shown_translated(lang):
    import dataclasses

    from game import i18n
    from game.render.app import Screen

    shown: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: shown.append(text)), QrCache(), SoundBank(enabled=False))
    table = MOMENTS[lang][2].snapshots[-1]
    screen = Screen(ctx=ctx)
    screen.sync(dataclasses.replace(table, notices=("arcade_unplugged",)))
    screen.advance(0.1, (1280, 720))
    screen.draw(pygame.Surface((1280, 720)))
    assert i18n.text(lang, "screen", "notice.arcade_unplugged") in shown


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("seats", [3, 12])
def test_smallest_and_fullest_tables_fit(lang, size, seats):
    from game.games.collusion.tapes import busiest_reveal
    from game.tapes import Moment, ScriptedTable, lobby_snapshot

    problems: list[str] = []

    def probe(text, text_lang, box, fitted):
        w, h = fitted.surface.get_size()
        if fitted.overflow or w > box.width or h > box.height:
            problems.append(f"{text!r} in {box}")

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    lobby = lobby_snapshot(seats, lang, joined=1, bots=1)
    if seats == 12:
        before, after = busiest_reveal(12, lang)
    else:
        table = ScriptedTable("collusion", 3, lang, preset="tabani")
        table.start()
        before = table.snapshot()
        table.act(0, {"type": "vote", "target": 1})
        after = table.snapshot()
    surface = pygame.Surface(size)
    for moment in (Moment("lobby", (lobby,)), Moment("table", (before,)), Moment("next", (before, after), play_s=5.0)):
        screen = play_moment(moment, size, ctx)
        screen.draw(surface)
    assert not problems, problems[:5]


@pytest.mark.parametrize("moment_name", ["03_table", "07_ambush_choice", "10_showdown", "13_game_over"])
def test_a_view_missing_any_field_still_draws(moment_name, shared_ctx):
    import dataclasses

    from game.render.app import Screen

    moment = {m.name: m for m in MOMENTS["en"]}[moment_name]
    snap = moment.snapshots[-1]
    surface = pygame.Surface((640, 360))
    for key in list(snap.public_view):
        if key in ("game", "phase"):
            continue
        view = {k: v for k, v in snap.public_view.items() if k != key}
        screen = Screen(ctx=shared_ctx)
        screen.sync(dataclasses.replace(snap, public_view=view))
        screen.advance(0.2, (640, 360))
        screen.draw(surface)
