"""The big screen's words: plurals by real rules, Persian as Persian is written, a bot's
one name and its mark, names with emoji, the identity card clear of the clue and text
sized for 3 m, and Cheating Moth's final naming the winner (M19)."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pygame
import pytest
from scene_checks import LANGS

from game import i18n
from game.config import TableConfig
from game.games.cheating_moth.screen.final import GameOverScene as MothOver
from game.games.cheating_moth.tapes import moth_moments
from game.games.collusion.screen.final import GameOverScene as CollusionOver
from game.games.collusion.tapes import moments
from game.games.speakeasy.screen.beats import identity_card_rect
from game.games.speakeasy.screen.table import stage
from game.render.kit import theme
from game.render.kit.plates import NAME_PX, PlateLook, draw_plate
from game.render.kit.qr import QrCache
from game.render.kit.scene import Frame, RenderContext
from game.render.kit.seats import SeatModel, look_of
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.render.lobby import typed_address
from game.seating import bot_name, look
from game.session.session import Session
from game.session.snapshot import SeatStatus
from game.tapes import lobby_snapshot, play_moment

I18N = Path(__file__).resolve().parents[2] / "game" / "i18n"


def last(moments_of, name: str):
    return {m.name: m for m in moments_of}[name].snapshots[-1]


def drawn(moment, size=(1920, 1080)) -> list[tuple[str, int]]:
    """(text, size in px) of everything a moment's screen draws."""
    shown: list[tuple[str, int]] = []
    ctx = RenderContext(TextRenderer(lambda text, lang, box, fitted: shown.append((text, fitted.px))), QrCache(),
                        SoundBank(enabled=False))
    play_moment(moment, size, ctx).draw(pygame.Surface(size))
    return shown


# ------------------------------------------------------------------------------------ 14 plurals
@pytest.mark.parametrize("lang, n, want", [("en", 0, "0 bars"), ("en", 1, "1 bar"), ("en", 2, "2 bars"),
                                           ("fa", 1, "۱ شمش"), ("fa", 3, "۳ شمش"), ("th", 1, "1 แท่ง")])
def test_issue11_14_counts_take_the_plural_form_babel_picks(lang, n, want):
    assert i18n.text(lang, "screen", "table.bars", n=n) == want


def test_issue11_14_every_plural_string_has_every_form_its_language_uses():
    for path in sorted(I18N.glob("screen*_en.json")):
        domain = path.name.removesuffix("_en.json")
        plural_keys = {k.rsplit(".", 1)[0] for k in json.loads(path.read_text("utf-8")) if k.endswith(".other")}
        assert plural_keys, domain
        for lang in LANGS:
            strings = i18n.load(lang, domain)
            used = {i18n.plural_category(lang, n) for n in range(1001)}
            for key in plural_keys:
                assert {f"{key}.{c}" for c in used} <= set(strings), (domain, lang, key)


@pytest.mark.parametrize("lang", LANGS)
def test_issue11_14_the_collusion_final_says_1_bar_not_1_bars(lang):
    snap = last(moments(lang), "13_game_over")
    view = snap.public_view
    final = dict(view["final"], bars=[1] * len(view["final"]["bars"]))
    frame = Frame(dataclasses.replace(snap, public_view={**view, "final": final}), 0, (1920, 1080))
    board = CollusionOver().board(frame)
    assert board is not None
    cells = [c.text for row in board.rows for c in row.cells]
    assert cells.count(i18n.text(lang, "screen", "table.bars", n=1)) == len(board.rows)
    if lang == "en":
        assert "1 bar" in cells and "1 bars" not in " ".join(cells)


# ----------------------------------------------------------------------------------- 15 Persian
def test_issue11_15_persian_screen_strings_use_no_middle_dot():
    for path in sorted(I18N.glob("screen*_fa.json")):
        dotted = {k: v for k, v in json.loads(path.read_text("utf-8")).items() if "·" in v}
        assert dotted == {}, path.name


def test_issue11_15_a_persian_zero_is_spelled_not_a_dot():
    assert i18n.number("fa", 0) == "صفر"
    assert i18n.text("fa", "screen_cheating_moth", "points", n=0) == "صفر امتیاز"
    assert "۰" not in i18n.text("fa", "screen", "table.bars", n=0)
    assert i18n.number("fa", 10) == "۱۰" and i18n.number("en", 0) == "0"


def test_issue11_15_a_persian_zero_in_a_measure_stays_a_digit():
    """One rule: a count of zero is spelled (صفر), a measure with its unit or sign keeps the digit
    ("±۰ ms" reads as a number; "±صفر ms" does not)."""
    from types import SimpleNamespace
    from typing import Any, cast

    from game.games.cheating_moth.companion_screen import table as companion
    from game.games.cheating_moth.screen import beats
    fa = cast(Any, SimpleNamespace(lang="fa"))
    assert i18n.digits("fa", 0) == "۰" and i18n.digits("fa", 12) == "۱۲" and i18n.digits("en", 0) == "0"
    assert companion.ms(fa, 0) == "۰ میلی‌ثانیه"
    assert i18n.text("fa", "screen_cheating_moth", "result.error", n=beats._ms(fa, 0)) == "دقت اندازه‌گیری: ±۰ میلی‌ثانیه"
    assert beats._ms(fa, 2.5) == "۲٫۵"  # the Persian decimal separator, not a dot


def test_issue11_15_the_moth_final_writes_shab_pare_with_its_zwnj_and_bold_keeps_it_joined(shared_ctx):
    snap = last(moth_moments("fa"), "m18_game_over")
    board = MothOver().board(Frame(snap, 0, (1920, 1080)))
    assert board is not None
    moths = [c.text for row in board.rows for c in row.cells if "پره" in c.text]
    assert moths and all("شب\u200cپره" in t for t in moths)
    text: TextRenderer = shared_ctx.text
    for bold in (False, True):
        joined = text.width("شب\u200cپره", "fa", 40, bold)
        assert joined < text.width("شب پره", "fa", 40, bold), bold  # no gap where the ZWNJ is
        assert joined > text.width("شبپره", "fa", 40, bold) * 0.9


# --------------------------------------------------------------------------------------- 16 bots
async def test_issue11_16_the_session_names_a_bot_after_its_colour_in_the_table_language():
    for lang in LANGS:
        session = Session.boot(TableConfig(language=lang), None, None)
        session.host_command({"command": "set_bot", "seat": 3, "kind": "heuristic"})
        seat = session.snapshot.seats[3]
        assert seat.status is SeatStatus.BOT
        assert seat.name == bot_name(3, lang) == i18n.text(lang, "web", f"colour.{look(3).colour_name}")
        assert look_of(session.snapshot, 3)["name"] == seat.name  # what every plate shows
        session.close()


def plate_pixels(seat: SeatModel, lang: str = "en") -> pygame.Surface:
    surface = pygame.Surface((300, 120))
    surface.fill(theme.BACKGROUND)
    ctx = RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False))
    frame = Frame(lobby_snapshot(language=lang), 0, (1280, 720))
    draw_plate(surface, pygame.Rect(10, 10, 280, 100), seat, PlateLook("3"), frame, ctx)
    return surface


@pytest.mark.parametrize("lang", LANGS)
def test_issue11_16_a_bot_s_plate_wears_a_bot_mark(lang):
    person = SeatModel(3, "Yellow", "#F0E442", "diamond", True, False)
    bot = plate_pixels(dataclasses.replace(person, bot=True), lang)
    human = plate_pixels(person, lang)
    differ = [(x, y) for x in range(300) for y in range(120) if bot.get_at((x, y)) != human.get_at((x, y))]
    assert len(differ) > 100
    assert any(bot.get_at(p)[:3] == theme.ACCENT for p in differ)  # the mark, in the accent colour
    xs = [x for x, _ in differ]
    assert (max(xs) < 150) == (lang != "fa")  # beside the symbol, which is at the reading start


# -------------------------------------------------------------------------------------- 17 emoji
def test_issue11_17_a_name_of_only_emoji_shows_as_the_seat_never_as_question_marks():
    snap = lobby_snapshot()
    seats = tuple(dataclasses.replace(s, name="😀🎉") if s.seat == 0 else
                  dataclasses.replace(s, name="Ali 🦊") if s.seat == 1 else s for s in snap.seats)
    snap = dataclasses.replace(snap, seats=seats)
    assert look_of(snap, 0)["name"] == "" and look_of(snap, 1)["name"] == "Ali 🦊"
    shown: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: shown.append(text)), QrCache(), SoundBank(enabled=False))
    frame = Frame(snap, 0, (1280, 720))
    for i in (0, 1):
        draw_plate(pygame.Surface((300, 120)), pygame.Rect(0, 0, 280, 100), SeatModel(**look_of(snap, i)), PlateLook("0"),
                   frame, ctx)
    assert shown[0] == frame.s("seat.name", n=1)
    assert ctx.text.clean(shown[2]) == "Ali"
    assert not any("?" in ctx.text.clean(t) for t in shown)


# ------------------------------------------------------------------------------- 18 layout & size
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (3840, 2160)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_issue11_18_the_identity_card_never_covers_the_clue(size):
    screen = pygame.Rect((0, 0), size)
    for n in range(3, 13):
        st = stage(size, n)
        for seat in range(n):
            card = identity_card_rect(Frame(lobby_snapshot(), 0, size), st, seat)
            assert not card.colliderect(st.card), (n, seat)
            assert screen.contains(card) and card.height >= size[1] * 0.08, (n, seat)


@pytest.mark.parametrize("lang", LANGS)
def test_issue11_18_seat_names_and_the_join_address_are_sized_for_3_m_at_1080p(lang):
    table = {m.name: m for m in moments(lang)}
    names = {s.name for s in table["03_table"].snapshots[-1].seats}
    plate_names = [px for text, px in drawn(table["03_table"]) if text in names]
    assert plate_names and min(plate_names) >= 30 and NAME_PX * 1.5 >= 38
    lobby = table["01_lobby"]
    address = typed_address(lobby.snapshots[-1].join_url)
    assert address == "192.168.1.50:8765/join"
    shown = [px for text, px in drawn(lobby) if text == address]
    assert shown and min(shown) >= 24
    assert not [text for text, _ in drawn(lobby) if "/j/" in text]  # the secret link only in the QR


# ---------------------------------------------------------------------------------- 13 the winner
@pytest.mark.parametrize("lang", LANGS)
def test_issue11_13_the_moth_final_on_the_tv_names_the_winner(lang):
    over = {m.name: m for m in moth_moments(lang)}["m18_game_over"]
    ranking = over.snapshots[-1].public_view["ranking"]
    winners = [r for r in ranking if r["rank"] == 1]
    texts = [t for t, _ in drawn(over)]
    frame = Frame(over.snapshots[-1], 0, (1920, 1080))
    from game.render.kit.seats import seat_name

    seats = tuple(SeatModel(**look_of(over.snapshots[-1], i)) for i in range(len(over.snapshots[-1].seats)))
    if len(winners) == 1:
        want = i18n.text(lang, "screen_cheating_moth", "over.wins", name=seat_name(frame, seats, winners[0]["seat"]),
                         n=winners[0]["total"])
        assert want in texts
    else:
        assert any(i18n.text(lang, "screen_cheating_moth", "over.shared", names="x").split("x")[-1] in t for t in texts)

