"""The Collusion companion on the big screen: every scene in every language draws and is the
expected one (play is the table-mode scene), no text overflows at 720p, 1080p and 4K, drawing
changes nothing, and nothing secret shows early (no answer of the check, no total before the reveal)."""
from __future__ import annotations

import copy

import pygame
import pytest
from scene_checks import LANGS, SIZES, assert_no_text_overflows, assert_paints_the_whole_window, scene_state

from game import i18n
from game.games.collusion.companion_screen.table import PlayScene
from game.games.collusion.companion_tapes import collusion_moments as moments
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.tapes import play_moment

MOMENTS = {lang: list(moments(lang)) for lang in LANGS}
EXPECTED_TOP = {
    "01_vote": "collusion_table", "02_reveal_ambush": "reveal", "03_deaths_pot": "reveal", "04_check": "companion_check",
    "05_showdown": "showdown", "06_showdown_paid": "showdown_reveal", "07_count": "companion_count",
    "08_review_corrected": "companion_review", "09_game_over": "game_over",
}


def test_the_script_covers_every_companion_phase():
    assert [m.name for m in MOMENTS["en"]] == list(EXPECTED_TOP)
    phases = {m.snapshots[-1].public_view["phase"] for m in MOMENTS["en"]}
    assert {"vote", "ambush_choice", "showdown", "check", "count", "review", "game_over"} <= phases


@pytest.mark.parametrize("lang", LANGS)
def test_every_scene_draws_and_is_the_expected_one(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        screen = play_moment(moment, (1280, 720), shared_ctx)
        assert screen.director.top is not None and screen.director.top.name == EXPECTED_TOP[moment.name], \
            (moment.name, screen.director.names())
        assert_paints_the_whole_window(screen, moment.name)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_overflows_its_box_or_gets_unreadably_small(lang, size):
    assert_no_text_overflows(MOMENTS[lang], size)


def states(screen) -> list[dict]:
    """Every scene's state; a play scene by the table-mode scene it wraps (and its own clock)."""
    return [{**scene_state(s.inner), "wrapper_t": s.t} if isinstance(s, PlayScene) else scene_state(s)
            for s in screen.director.stack]


@pytest.mark.parametrize("lang", LANGS)
def test_draw_changes_neither_the_snapshot_nor_the_scenes(lang, shared_ctx):
    surface = pygame.Surface((1280, 720))
    for moment in MOMENTS[lang]:
        screen = play_moment(moment, (1280, 720), shared_ctx)
        snapshot, before, names = copy.deepcopy(screen.snapshot), states(screen), screen.director.names()
        screen.draw(surface)
        screen.draw(surface)
        assert (screen.snapshot, states(screen), screen.director.names()) == (snapshot, before, names), moment.name


def test_C17_C18_companion_screen_never_sees_an_answer_or_a_total_before_the_reveal():
    by_name = {m.name: m for m in MOMENTS["en"]}
    check = by_name["04_check"].snapshots[-1].public_view["companion"]
    assert set(check["check"]) == {"answered"}
    count = by_name["07_count"].snapshots[-1].public_view["companion"]["count"]
    assert count["totals"] is None and count["entered"] == [0, 2, 4]
    review = by_name["08_review_corrected"].snapshots[-1].public_view["companion"]
    assert review["count"]["totals"] == [0, 0, 9, 10, 17] and review["pad"]["trace"][0]["old"] == 8


def question_lines(lang: str, size: tuple[int, int], moment_name: str, key: str) -> tuple[str, list[str], list[int]]:
    """The scene's question, the lines the screen broke it into, and their widths."""
    seen: list[tuple[str, tuple[str, ...], int]] = []
    ctx = RenderContext(TextRenderer(lambda text, text_lang, box, fitted: seen.append((text, fitted.lines, fitted.px))),
                        QrCache(), SoundBank(enabled=False))
    moment = next(m for m in MOMENTS[lang] if m.name == moment_name)
    question = i18n.text(lang, "screen_collusion_companion", key, n=moment.snapshots[-1].public_view.get("target_score", 0))
    play_moment(moment, size, ctx).draw(pygame.Surface(size))
    lines, px = next((list(lines), px) for text, lines, px in seen if text == question)
    return question, lines, [ctx.text.width(line, lang, px) for line in lines]


def breaks_between_clauses(question: str, lines: list[str], lang: str) -> bool:
    """Each line but the last ends a clause: after "?", ":" and the like; in Thai, which writes no
    punctuation there, at a real space (word breaks inside a clause are zero-width spaces)."""
    if lang == "th":
        return all(f"{line} " in question for line in lines[:-1])
    return all(line.rstrip().endswith(("?", "؟", ":", ".", "!", "،", ",")) for line in lines[:-1])


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("moment_name", "key"), [("04_check", "check.ask"), ("07_count", "count.ask")])
def test_C17_the_question_breaks_between_its_clauses_in_balanced_lines(lang, size, moment_name, key):
    """ "طلای تو به ۱۴ رسیده؟ روی گوشی‌ات جواب / بده: ..." split the verb "جواب بده" and English
    broke "Answer on / your phone": a wrapped question breaks after a clause ("?", ":") and leaves
    no word or two alone on a line."""
    question, lines, widths = question_lines(lang, size, moment_name, key)
    if len(lines) < 2:
        return
    assert breaks_between_clauses(question, lines, lang), lines
    assert min(widths) >= max(widths) / 3, (lines, widths)
