"""The Speakeasy companion on the big screen: every scene in every language draws, no text
overflows at 720p, 1080p and 4K, drawing changes nothing, the countdown reads 3-2-1 then
"point!", and no pointing target shows before the reveal."""
from __future__ import annotations

from functools import cache

import pygame
import pytest
from scene_checks import (
    LANGS,
    SIZES,
    assert_draw_is_pure,
    assert_no_text_overflows,
    assert_paints_the_whole_window,
    probing_context,
)

from game import i18n
from game.games.speakeasy.companion_screen.table import s
from game.games.speakeasy.companion_tapes import speakeasy_moments as moments
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.tapes import play_moment

MOMENTS = {lang: list(moments(lang)) for lang in LANGS}
NAMES = ["01_choosing", "02_countdown", "03_pointing", "04_identity", "05_scored", "06_corrected", "07_recording",
         "08_final_identities", "09_game_over"]


def test_the_script_covers_every_companion_phase():
    assert [m.name for m in MOMENTS["en"]] == NAMES
    phases = {m.snapshots[-1].public_view["phase"] for m in MOMENTS["en"]}
    assert {"choosing", "countdown", "pointing", "identity", "reveal", "recording", "final_identities",
            "game_over"} <= phases


@pytest.mark.parametrize("lang", LANGS)
def test_every_scene_draws(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        screen = play_moment(moment, (1280, 720), shared_ctx)
        expected = "game_over" if moment.name == "09_game_over" else "speakeasy_companion"
        assert screen.director.top is not None and screen.director.top.name == expected, moment.name
        assert_paints_the_whole_window(screen, moment.name)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_no_text_overflows_its_box_or_gets_unreadably_small(lang, size):
    assert_no_text_overflows(MOMENTS[lang], size)


@pytest.mark.parametrize("lang", LANGS)
def test_draw_changes_neither_the_snapshot_nor_the_scenes(lang, shared_ctx):
    for moment in MOMENTS[lang]:
        assert_draw_is_pure(play_moment(moment, (1280, 720), shared_ctx), moment.name)


def test_S7_companion_screen_knows_who_pointed_never_at_whom_before_the_reveal():
    by_name = {m.name: m for m in MOMENTS["en"]}
    pointing = by_name["03_pointing"].snapshots[-1].public_view
    assert pointing["pointing"] is None and len(pointing["pointed"]) == 2 and pointing["subject"] is None
    recording = by_name["07_recording"].snapshots[-1].public_view
    assert recording["pointing"] is None and set(recording["recorded"]) == {"done", "missing", "can_undo", "fingers"}
    countdown = by_name["02_countdown"].snapshots[-1]
    assert countdown.timer is not None and countdown.timer.label == "countdown"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_S8_companion_key_P_shows_the_score_pad_with_its_corrections_and_fits(lang, size):
    problems: list[str] = []
    ctx = probing_context(problems, size)
    moment = {m.name: m for m in MOMENTS[lang]}["06_corrected"]
    screen = play_moment(moment, size, ctx)
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_p, mod=0, unicode="p"), size)
    assert screen.director.names()[-1] == "speakeasy_companion_pad"
    surface = pygame.Surface(size)
    surface.fill((255, 0, 255))
    screen.draw(surface)
    assert not problems, problems[:5]
    assert (255, 0, 255) not in {surface.get_at((x, y))[:3] for x in range(0, size[0], 40) for y in range(0, size[1], 40)}
    assert "edit" in {c["kind"] for c in screen.snapshot.public_view["pad"]["trace"]}  # the correction shows
    screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""), size)
    assert screen.director.names()[-1] == "speakeasy_companion"


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("n", range(3, 13))
def test_S7_no_reveal_arrow_crosses_the_clue_card_or_its_counter(size: tuple[int, int], n: int) -> None:
    """With real cards too, the reveal's arrows go round the clue card, the counter above it and the
    other seats' plates."""
    from test_speakeasy_scenes import arrow_ink_in

    from game.games.speakeasy.companion_screen.table import keep_out
    from game.render.kit.table import table_layout

    plates = [s.plate for s in table_layout(size, n).spots]
    assert [k for k, plate in enumerate(plates) if plate.colliderect(keep_out(size, n))] == []
    assert arrow_ink_in(size, plates, keep_out(size, n)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_S7_the_companion_reveal_draws_its_arrows_round_the_clue_card(lang):
    """With real cards the reveal's arrow from Mina to Ali crossed the card: the card and its
    counter look the same with the arrows as without."""
    from test_speakeasy_scenes import middle_pixels, without_arrows

    from game.games.speakeasy.companion_screen.table import keep_out

    moment = next(m for m in MOMENTS[lang] if m.name == "04_identity")
    view = moment.snapshots[-1].public_view
    assert any(p is not None and p != s for s, p in enumerate(view["pointing"]))
    size = (1920, 1080)
    card = keep_out(size, len(moment.snapshots[-1].seats))
    assert middle_pixels(moment, size, card) == middle_pixels(without_arrows(moment, ("pointing",)), size, card)


# ------------------------------------------------------------------------------ the scores on the plates
SEATS = range(3, 13)
PLAY = NAMES[:-1]  # every scene of play (the last screen has its own board)


@cache
def taped(lang: str, n: int) -> tuple:
    return tuple(moments(lang, n))


def drawn_texts(moment, size: tuple[int, int]) -> tuple[list[tuple[str, int]], pygame.Surface, object]:
    """Every text the scene draws (with its size in px), the picture and the screen. A fresh
    renderer each time, so no plate comes from an earlier scene's cache."""
    seen: list[tuple[str, int]] = []
    ctx = RenderContext(TextRenderer(lambda text, lang, box, fitted: seen.append((text, fitted.px))), QrCache(),
                        SoundBank(enabled=False))
    screen = play_moment(moment, size, ctx)
    surface = pygame.Surface(size)
    screen.draw(surface)
    return seen, surface, screen


def assert_plates_hold_the_pad_totals(moment, size: tuple[int, int], lang: str) -> None:
    """Each seat's total as the score pad holds it, in the language's digits, on its plate's score
    line (from the scene's own plate model), drawn at two thirds of the plates' status size at least (22 px at 1080p)."""
    from scene_checks import assert_plates_drawn

    from game.games.speakeasy.companion_screen.table import plate_looks, seat_models
    from game.render.kit.plates import STATUS_PX

    seen, surface, screen = drawn_texts(moment, size)
    assert screen.director.names()[-1] == "speakeasy_companion", moment.name
    frame = screen.frame(size)
    view = screen.snapshot.public_view
    totals = view["pad"]["totals"]
    looks = plate_looks(frame, view, seat_models(frame))
    assert [m.seat for m, _ in looks] == list(range(len(totals))), moment.name
    readable = 0.65 * STATUS_PX * frame.scale.u  # a long identity beside the number may take a third
    for (seat, look), total in zip(looks, totals, strict=True):
        assert i18n.number(lang, total) in look.status.replace("|", " ").split(), (moment.name, seat.seat, look.status)
        drawn = [px for text, px in seen if text == look.status]
        assert drawn and max(drawn) >= readable, (moment.name, seat.seat, look.status, drawn, readable)
    assert_plates_drawn(surface, frame, moment.name)


@pytest.mark.parametrize("n", SEATS)
@pytest.mark.parametrize("lang", LANGS)
def test_S3_S8_S12_every_seat_total_from_the_pad_is_on_its_plate_in_every_scene_of_play(lang: str, n: int) -> None:
    """Players see the standings without key P: in every scene of a taped companion game (3-12
    people), each plate shows its seat's pad total, corrections and S12 bonuses included."""
    for moment in taped(lang, n):
        if moment.name in PLAY:
            assert_plates_hold_the_pad_totals(moment, (1920, 1080), lang)


@pytest.mark.parametrize("size", [(1280, 720), (3840, 2160)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("n", (3, 7, 12))
def test_S3_the_pad_totals_on_the_plates_at_720p_and_4K(size: tuple[int, int], n: int) -> None:
    by_name = {m.name: m for m in taped("fa", n)}
    for name in ("04_identity", "06_corrected", "08_final_identities"):
        assert_plates_hold_the_pad_totals(by_name[name], size, "fa")


def test_S3_a_correction_moves_the_total_on_the_plate() -> None:
    """The host's edit (the pad's trace) changes the plate's number, not just the pad screen."""
    by_name = {m.name: m for m in taped("en", 5)}
    before = by_name["05_scored"].snapshots[-1].public_view["pad"]["totals"]
    after = by_name["06_corrected"].snapshots[-1].public_view["pad"]["totals"]
    assert before != after
    assert_plates_hold_the_pad_totals(by_name["06_corrected"], (1920, 1080), "en")


def test_S13_the_last_screen_lists_every_pad_total() -> None:
    for n in (3, 12):
        moment = taped("th", n)[-1]
        seen, _, screen = drawn_texts(moment, (1920, 1080))
        totals = screen.snapshot.public_view["pad"]["totals"]
        frame = screen.frame((1920, 1080))
        texts = [text for text, _ in seen]
        for total in set(totals):
            assert texts.count(s(frame, "score", n=total)) >= totals.count(total), (n, total)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("n", SEATS)
def test_S3_the_plates_with_their_scores_overlap_neither_the_clue_card_nor_the_caption_nor_each_other(
        size: tuple[int, int], n: int) -> None:
    from game.games.speakeasy.companion_screen.table import keep_out
    from game.render.kit.table import table_layout

    lay = table_layout(size, n)
    plates = [spot.plate for spot in lay.spots]
    assert len(plates) == n
    for k, plate in enumerate(plates):
        assert not plate.colliderect(keep_out(size, n)), (k, plate)
        assert not plate.colliderect(lay.caption), (k, plate)
        assert plate.collidelistall(plates[:k] + plates[k + 1:]) == [], (k, plate)
        assert pygame.Rect((0, 0), size).contains(plate), (k, plate)
