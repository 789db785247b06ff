"""Every Cheating Moth scene in every language: it draws, it is the scene the moment calls for, no
text overflows its box at 720p, 1080p and 4K, and drawing changes neither the snapshot nor the scenes."""
from __future__ import annotations

import dataclasses

import pygame
import pytest
from scene_checks import (
    LANGS,
    SIZES,
    assert_draw_is_pure,
    assert_no_text_overflows,
    assert_paints_the_whole_window,
)

from game.games.cheating_moth.tapes import MothTable, moth_moments
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.tapes import Moment, play_moment

MOMENTS = {lang: list(moth_moments(lang)) for lang in LANGS}
EXPECTED_TOP = {
    "m01_deal": "moth_table", "m02_tell_trembles": "moth_table", "m03_card_played": "moth_table",
    "m04_caught": "moth_accusation", "m05_penalty_give": "moth_table", "m06_bug_walks": "moth_flight",
    "m07_wrong_guess": "moth_accusation", "m08_ant": "moth_flight", "m09_spider_give": "moth_table",
    "m10_spider_card": "moth_flight", "m11_mosquito_race": "moth_table", "m12_mosquito_result": "moth_race_result",
    "m13_mosquito_gives": "moth_flight", "m14_beetle_race": "moth_table", "m15_beetle_result": "moth_race_result",
    "m16_round_over": "moth_round_over", "m17_new_round": "moth_flight", "m18_game_over": "moth_game_over",
    "m19_tell_sleeve": "moth_table",
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
    assert_no_text_overflows(MOMENTS[lang], size)



@pytest.mark.parametrize("lang", LANGS)
def test_draw_changes_neither_the_snapshot_nor_the_scenes(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        assert_draw_is_pure(play_moment(moment, (1280, 720), shared_ctx), moment.name)


@pytest.mark.parametrize("seats", [3, 5, 8])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_smallest_and_fullest_tables_fit(size, seats):
    """Three seats, five, and eight (two decks): the table, a race result and the final table fit."""
    problems: list[str] = []

    def probe(text, text_lang, box, fitted):
        w, h = fitted.surface.get_size()
        if fitted.overflow or w > box.width or h > box.height:
            problems.append(f"{text!r} in {box}")

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    snaps = MothTable(seats, "fa", seed=2, settings={"two_decks": seats > 5}).play()
    race = next(i for i, s in enumerate(snaps) if any(e.get("type") == "race_decided" for e in s.events))
    surface = pygame.Surface(size)
    for moment in (Moment("table", (snaps[0],)), Moment("race", (snaps[race - 1], snaps[race]), play_s=3.0),
                   Moment("over", (snaps[-1],))):
        play_moment(moment, size, ctx).draw(surface)
    assert not problems, problems[:5]


@pytest.mark.parametrize("moment_name", ["m02_tell_trembles", "m11_mosquito_race", "m16_round_over", "m18_game_over"])
def test_a_view_missing_any_field_still_draws(moment_name, shared_ctx):
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


def test_a_screen_that_starts_mid_game_does_not_replay_old_events(shared_ctx):
    caught = {m.name: m for m in MOMENTS["en"]}["m04_caught"].snapshots[-1]
    screen = Screen(ctx=shared_ctx)
    screen.sync(caught)
    screen.advance(0.5, (1280, 720))
    assert screen.director.names() == ["moth_table"]
