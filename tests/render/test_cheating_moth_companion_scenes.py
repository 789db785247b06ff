"""The Cheating Moth companion screen in every language: each moment draws the scene it calls for,
no text overflows or gets unreadably small at 720p, 1080p and 4K, drawing is pure, host keys act
as the table."""
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

from game.games.cheating_moth.companion_screen.model import model_of
from game.games.cheating_moth.companion_tapes import moth_moments
from game.render.kit.scene import HostIntent
from game.tapes import play_moment

MOMENTS = {lang: list(moth_moments(lang)) for lang in LANGS}
EXPECTED = {"turn": "cheating_moth_companion", "mosquito_race": "cheating_moth_companion",
            "mosquito_slowest": "cheating_moth_companion", "beetle_fastest": "cheating_moth_companion",
            "beetle_undone": "cheating_moth_companion", "scoring": "cheating_moth_companion",
            "round_two_corrected": "cheating_moth_companion", "final": "cheating_moth_companion_final"}


def test_the_script_covers_every_scene() -> None:
    assert [m.name for m in MOMENTS["en"]] == list(EXPECTED)


@pytest.mark.parametrize("lang", LANGS)
def test_every_scene_draws_and_is_the_expected_one(lang: str, shared_ctx) -> None:
    for moment in MOMENTS[lang]:
        screen = play_moment(moment, (1280, 720), shared_ctx)
        assert screen.director.top is not None and screen.director.top.name == EXPECTED[moment.name], moment.name
        assert_paints_the_whole_window(screen, moment.name)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_overflows_its_box_or_gets_unreadably_small(lang: str, size: tuple[int, int]) -> None:
    assert_no_text_overflows(MOMENTS[lang], size)


@pytest.mark.parametrize("lang", LANGS)
def test_draw_changes_neither_the_snapshot_nor_the_scenes(lang: str, shared_ctx) -> None:
    for moment in MOMENTS[lang]:
        assert_draw_is_pure(play_moment(moment, (1280, 720), shared_ctx), moment.name)


def test_M14_M16_the_model_reads_margins_sources_and_false_starts() -> None:
    slowest = next(m for m in MOMENTS["en"] if m.name == "mosquito_slowest")
    last = model_of(slowest.snapshots[-1]).last
    assert last is not None and last.loser == 3
    assert [(x.seat, x.ms, x.margin_ms, x.source) for x in last.lines] == [
        (2, 212, None, "arcade"), (1, 268, 56, "phone"), (3, 431, 163, "keyboard")]
    assert [f.seat for f in last.false_starts] == [3]
    race = model_of(next(m for m in MOMENTS["en"] if m.name == "mosquito_race").snapshots[-1]).race
    assert race is not None and race.kind == "mosquito" and race.eligible == (1, 2, 3) and race.pressed == (2,)


def test_host_keys_act_as_the_table(shared_ctx) -> None:
    screen = play_moment(MOMENTS["en"][0], (1280, 720), shared_ctx)
    intents = screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0), (1280, 720))
    assert intents == [HostIntent("table_action", (("action", {"type": "call", "kind": "mosquito"}),))]
    intents = screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_u, mod=0), (1280, 720))
    assert intents[0].payload() == {"command": "table_action", "action": {"type": "wrong_win"}}
