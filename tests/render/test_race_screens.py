"""The companion race screens say exactly what happened: a place too close to call says
'within N ms, closer than the sources can tell: decided by a draw' and who the draw picked (M14,
M16); a Beetle someone pressed for shows a closing bar until it closes (M15). Every language, no
text cut or too small."""
from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pygame
import pytest
from scene_checks import LANGS, SIZES, assert_no_text_overflows, overflow_probe

from game import i18n
from game.games.cheating_moth.companion_tapes import MothCompanionTable
from game.games.cheating_moth.tapes import moth_moments
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.render.moments import Moment
from game.session.race_floor import PressSource
from game.tapes import play_moment

DOMAIN = "screen_cheating_moth_companion"


def race_moments(lang: str) -> Iterator[Moment]:
    """Two phones 3 ms apart with 9 ms errors (a draw for slowest), then a Beetle pressed for
    300 ms ago (still open), then the right card 330 ms after the wrong one (M15), then a
    Mosquito the host annuls."""
    m = MothCompanionTable(lang)
    t = m.t
    m.call("mosquito")
    armed = t.session.snapshot.race.current.armed_at_ms
    for seat, after in ((2, 212), (1, 300), (3, 303)):
        t.vt.advance(max(0.0, armed + after - t.vt.now_ms()))
        t.session.press(seat, armed + after, PressSource.PHONE, error_ms=9.0, race=m.race_id)
    m.decide()
    yield Moment("mosquito_drawn", (t.snapshot(),))
    t.act(t.view["turn"], {"type": "end_turn"})
    m.call("beetle")
    m.slap(0, 188)
    t.vt.advance(300)
    yield Moment("beetle_closing", (t.snapshot(),), play_s=0.1)
    m.slap(2, 518)
    m.decide()
    yield Moment("beetle_decided", (t.snapshot(),))
    m.call("mosquito")
    t.act(None, {"type": "annul_race"})  # a call nobody meant: the host's one tap
    yield Moment("mosquito_annulled", (t.snapshot(),))


def drawn_texts(moment: Moment) -> list[str]:
    texts: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, lang, box, fitted: texts.append(text)), QrCache(),
                        SoundBank(enabled=False))
    play_moment(moment, (1280, 720), ctx).draw(pygame.Surface((1280, 720)))
    return texts


def words_of(lang: str, key: str) -> str:
    """The longest fixed stretch of a template (the part no placeholder changes)."""
    return max(re.split(r"\{\w+\}", i18n.load(lang, DOMAIN)[key]), key=len)


@pytest.mark.parametrize("lang", LANGS)
def test_M14_M16_a_draw_for_slowest_says_within_how_many_ms_and_who_was_picked(lang: str) -> None:
    moments = {m.name: m for m in race_moments(lang)}
    last = moments["mosquito_drawn"].snapshots[-1].public_view["last_race"]
    assert last["tied"] == [1, 3] and last["within_ms"] == 18.0
    texts = drawn_texts(moments["mosquito_drawn"])
    assert any(words_of(lang, "result.drawn").strip() in text for text in texts), texts


@pytest.mark.parametrize("lang", LANGS)
def test_M15_a_pressed_beetle_shows_its_closing_bar_and_the_right_card_still_counts(lang: str) -> None:
    moments = {m.name: m for m in race_moments(lang)}
    current = moments["beetle_closing"].snapshots[-1].race.current
    assert current is not None and current.window_ms == 1000 and current.closes_at_ms == current.armed_at_ms + 188 + 1000
    assert i18n.load(lang, DOMAIN)["race.closing"] in drawn_texts(moments["beetle_closing"])
    last = moments["beetle_decided"].snapshots[-1].public_view["last_race"]
    assert last["order"] == [0, 2]  # the card 330 ms after the first press is in the race


@pytest.mark.parametrize("lang", LANGS)
def test_M14_an_annulled_race_is_a_trace_line_on_the_pad(lang: str) -> None:
    moment = next(m for m in race_moments(lang) if m.name == "mosquito_annulled")
    assert moment.snapshots[-1].public_view["annulled"][0]["kind"] == "mosquito"
    assert any(words_of(lang, "trace.annul_mosquito").strip() in text for text in drawn_texts(moment))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lang", LANGS)
def test_the_race_screens_fit(lang: str, size: tuple[int, int]) -> None:
    assert_no_text_overflows(list(race_moments(lang)), size)


@pytest.mark.parametrize("lang", LANGS)
def test_M16_the_unplugged_board_notice_is_big_on_the_tv(lang: str) -> None:
    """Read from across the room: at least 24 px at 720p (the old band's was 11), whole, in a race."""
    moment = next(m for m in race_moments(lang) if m.name == "beetle_closing")
    snap = dataclasses.replace(moment.snapshots[-1], notices=("arcade_unplugged",))
    sizes: list[int] = []
    problems: list[str] = []
    probe = overflow_probe(problems, (1280, 720))

    def record(text: str, text_lang: str, box: pygame.Rect, fitted: Any) -> None:
        if text == i18n.text(lang, "screen", "notice.arcade_unplugged"):
            sizes.append(fitted.px)
            probe(text, text_lang, box, fitted)

    ctx = RenderContext(TextRenderer(record), QrCache(), SoundBank(enabled=False))
    play_moment(Moment("unplugged", (snap,), play_s=0.1), (1280, 720), ctx).draw(pygame.Surface((1280, 720)))
    assert sizes and min(sizes) >= 24 and not problems, (sizes, problems)


@pytest.mark.parametrize("lang", LANGS)
def test_M14_M16_the_table_race_result_says_a_draw_decided_within_how_many_ms(lang: str) -> None:
    """The table-mode verdict panel: a drawn slowest (``within_ms``) is said exactly, not as the
    old 'too close to call' and 'settled by the shuffle' pair."""
    moment = next(m for m in moth_moments(lang) if m.name == "m12_mosquito_result")
    snap = moment.snapshots[-1]
    last = {**snap.public_view["last_race"], "tie_broken_by_rng": True, "close": True, "within_ms": 34.0}
    last["tied"] = last["order"][-2:]
    drawn_moment = dataclasses.replace(moment, snapshots=(*moment.snapshots[:-1], dataclasses.replace(
        snap, public_view={**snap.public_view, "last_race": last})))
    texts = drawn_texts(drawn_moment)
    fixed = max(re.split(r"\{\w+\}", i18n.load(lang, "screen_cheating_moth")["result.drawn"]), key=len).strip()
    assert any(fixed in text for text in texts), texts
    assert i18n.text(lang, "screen_cheating_moth", "result.by_rng") not in texts


@pytest.mark.parametrize("lang", LANGS)
def test_M14_a_mosquito_nobody_slapped_says_so_and_states_no_precision(lang: str) -> None:
    m = MothCompanionTable(lang)
    m.call("mosquito")
    m.decide()  # the time runs out with no press: the slowest is drawn among everyone
    moment = Moment("mosquito_unpressed", (m.t.snapshot(),))
    last = moment.snapshots[-1].public_view["last_race"]
    assert last["order"] == [] and len(last["tied"]) > 1
    texts = " ".join(drawn_texts(moment))
    words = i18n.load(lang, DOMAIN)
    assert words_of(lang, "result.tied_unpressed").strip() in texts
    assert words_of(lang, "result.tied").strip() not in texts  # not "too close to call": nobody was timed
    assert words_of(lang, "result.error").strip() not in texts, words["result.error"]


@pytest.mark.parametrize("lang", LANGS)
def test_M16_mixed_sources_each_say_their_own_precision(lang: str) -> None:
    """A race timed by an arcade button and by phones: the footer gives each source its own error
    (the button's fraction of a millisecond is not hidden behind the phones' 9 ms)."""
    m = MothCompanionTable(lang)
    t = m.t
    m.call("mosquito")
    armed = t.session.snapshot.race.current.armed_at_ms
    for seat, after, source, error in ((2, 212, PressSource.ARCADE, 0.5), (1, 260, PressSource.PHONE, 9.0),
                                       (3, 330, PressSource.PHONE, 9.0)):
        t.vt.advance(max(0.0, armed + after - t.vt.now_ms()))
        t.session.press(seat, armed + after, source, error_ms=error, race=m.race_id)
    m.decide()
    texts = " ".join(drawn_texts(Moment("mosquito_mixed", (t.snapshot(),))))
    words = i18n.load(lang, DOMAIN)
    button = words["result.error_of"].format(ms=i18n.digits(lang, "0.5"), source=words["source.arcade"])
    phones = words["result.error_of"].format(ms=i18n.digits(lang, "9"), source=words["source.phone"])
    assert button in texts and phones in texts, texts
    both = i18n.text(lang, "screen", "list.sep").join([words["source.arcade"], words["source.phone"]])
    one_figure = words["result.error"].format(ms=i18n.digits(lang, "9"), sources=both)
    assert one_figure not in texts  # not the phones' 9 ms for the button too
