"""The TV reads right with the names and labels people really have: a name with no letters ("+1+1")
keeps its order on a Persian screen wherever it is drawn (the lobby card, the table's plates, the
Showdown's plates, the final rows, inside sentences), and the lobby's buttons never break a word
or cut a label, in every language, at 720p, 1080p and 4K, with and without the arcade board's
ninth button."""
from __future__ import annotations

import dataclasses

import pygame
import pytest
from scene_checks import LANGS, SIZES

from game import catalog, howto, tapes
from game.render.howto import record_tape
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer, as_line, break_words, split_runs, visual_order
from game.render.moments import LOCAL_NAMES
from game.session.snapshot import ArcadeInfo, SeatStatus
from game.tapes import Moment, lobby_snapshot, play_moment

NEUTRAL = "+1+1"  # no strong letter: a right-to-left paragraph would show it as "1+1+"
NAMES = (NEUTRAL, "พลอย", "Maximiliana Worthingtons", "سارا", "Tom", "สมชาย", "Reza", "Lena", "نیما", "Kai", "ดาว", "Zoë")


def seen_left_to_right(line: str, rtl: bool) -> str:
    """The characters of one drawn line in the order they stand on the screen, left to right."""
    runs = visual_order(split_runs(line.replace("\u200b", ""), rtl), rtl)
    return "".join(run.text[::-1] if run.rtl else run.text for run in runs)


class Lines:
    """Every line of text one renderer draws, with its language (a probe on the renderer)."""

    def __init__(self) -> None:
        self.lines: list[tuple[str, str, bool]] = []  # (line, lang, cut)
        self.ctx = RenderContext(TextRenderer(self._probe), QrCache(), SoundBank(enabled=False))

    def _probe(self, text, lang, box, fitted) -> None:
        self.lines.extend((line, lang, fitted.overflow) for line in fitted.lines)
        if not _whole_words(self.ctx.text.clean(text), list(fitted.lines)):
            self.lines.append((f"BROKEN {text!r} as {fitted.lines!r}", lang, True))

    def drawn(self, moment: Moment, size: tuple[int, int]) -> list[tuple[str, str, bool]]:
        self.lines = []
        play_moment(moment, size, self.ctx).draw(pygame.Surface(size))
        return self.lines


def _whole_words(text: str, lines: list[str]) -> bool:
    """Each line is whole pieces of ``text`` between break opportunities (no word split)."""
    pieces, i = break_words(text), 0
    for line in lines:
        j = next((j for j in range(i + 1, len(pieces) + 1) if as_line("".join(pieces[i:j])) == line), None)
        if j is None:
            return False
        i = j
    return True


def test_a_name_with_no_letters_keeps_its_order_in_a_persian_line() -> None:
    assert seen_left_to_right(NEUTRAL, True) == "1+1+"  # what the screen did (the bidi algorithm's reading)
    assert seen_left_to_right("\u2068+1+1\u2069", True) == NEUTRAL


@pytest.mark.parametrize("game", [d.id for d in catalog.games()])
def test_a_neutral_name_reads_in_its_order_on_every_persian_scene(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tapes, "NAMES", NAMES)
    recorder = Lines()
    shown_in: list[str] = []
    for moment in catalog.get(game).load_tapes().moments("fa"):
        for line, lang, _ in recorder.drawn(moment, (1280, 720)):
            if NEUTRAL in line.replace("\u2068", "").replace("\u2069", ""):
                assert NEUTRAL in seen_left_to_right(line, lang == "fa"), (moment.name, line)
                shown_in.append(moment.name)
    names = set(shown_in)
    assert len(names) >= 3, names  # the lobby or the table, plates and the final rows at least


RTL_NAME = "سارا 2"  # a Persian name with a number typed after it: the "2" ends it, on its left


@pytest.mark.parametrize("lang", ["en", "th"])
@pytest.mark.parametrize("game", [d.id for d in catalog.games()])
def test_a_persian_name_reads_as_typed_on_every_left_to_right_scene(game: str, lang: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """On an English or Thai screen "سارا 2" shows its "2" on its left, as the phones show it
    (a <bdi>), wherever the TV draws it: not "سارا" with the "2" after it on the right."""
    monkeypatch.setattr(tapes, "NAMES", (RTL_NAME,) + NAMES[1:])
    recorder = Lines()
    as_typed, run_on = seen_left_to_right(RTL_NAME, True), seen_left_to_right(RTL_NAME, False)
    shown_in: list[str] = []
    for moment in catalog.get(game).load_tapes().moments(lang):
        for line, _, _ in recorder.drawn(moment, (1280, 720)):
            seen = seen_left_to_right(line, False)
            if run_on in seen or as_typed in seen:
                assert as_typed in seen, (moment.name, line)
                shown_in.append(moment.name)
    assert len(set(shown_in)) >= 3, shown_in


def _lobbies(game: str, lang: str) -> list[Moment]:
    """The lobby at its fewest and most seats, with and without the arcade board's button."""
    engine = catalog.get_engine(game)
    low, high = engine.min_seats, engine.max_seats
    out = []
    for n, board in ((low, True), (min(6, high), False), (high, True)):
        snap = lobby_snapshot(n, lang, joined=min(n, 3), bots=0, game=game)
        if board:
            snap = dataclasses.replace(snap, arcade=ArcadeInfo(present=True, connected=True))
        out.append(Moment(f"lobby_{n}{'_board' if board else ''}", (snap,)))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", [d.id for d in catalog.games(catalog.PlayMode.TABLE)])
def test_lobby_buttons_break_no_word_and_cut_no_label(game: str, lang: str) -> None:
    recorder = Lines()
    for moment in _lobbies(game, lang):
        for size in SIZES:
            bad = [line for line, _, cut in recorder.drawn(moment, size) if cut]
            assert not bad, (moment.name, size, bad)


LONG_NAMES = ("محمدرضا تهرانیان", "ณัฐวุฒิ ศรีสุวรรณพงษ์", "Maximiliana Worthingtons") + NAMES[3:]


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_name_shows_whole_on_its_lobby_card(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A card up to eight seats has room for two lines under its head: a long name takes both
    rather than being cut ("Maximiliana…"); the lobby of twelve shrinks or elides it."""
    monkeypatch.setattr(tapes, "NAMES", LONG_NAMES)
    recorder = Lines()
    game = catalog.games(catalog.PlayMode.TABLE)[0].id
    for n, size in ((4, (1280, 720)), (6, (1280, 720)), (6, (1920, 1080)), (8, (1920, 1080))):
        snap = lobby_snapshot(n, lang, joined=3, bots=0, game=game)
        lines = recorder.drawn(Moment(f"lobby_{n}", (snap,)), size)
        for name in LONG_NAMES[:3]:
            shown = [(line, cut) for line, _, cut in lines if any(word in line for word in name.split())]
            assert shown and not any(cut for _, cut in shown), (n, size, name, shown)
            assert " ".join(line.replace("\u2068", "").replace("\u2069", "") for line, _ in shown) == name, (n, size, shown)


@pytest.mark.parametrize("lang", LANGS)
def test_howto_examples_name_their_people_in_the_tables_language(lang: str) -> None:
    for game in catalog.ids():
        for tape in {slide.tape for slide in howto.slides(game)}:
            moments = record_tape(tape, lang).values()
            people = {seat.name for m in moments for snap in m.snapshots for seat in snap.seats
                      if seat.name and seat.status is not SeatStatus.BOT}
            assert people and people <= set(LOCAL_NAMES[lang]), (game, tape, people - set(LOCAL_NAMES[lang]))


@pytest.mark.parametrize("lang", LANGS)
def test_M16_the_race_footer_says_why_a_margin_under_the_error_was_decided(lang: str) -> None:
    from game.games.cheating_moth.companion_screen.model import DoneRace, RaceLine
    from game.games.cheating_moth.companion_screen.table import precision_line
    from game.render.kit.scene import Frame

    def race(source: str) -> DoneRace:
        lines = (RaceLine(0, 180.0, None, source, 0.3), RaceLine(1, 180.2, 0.2, source, 0.3))
        return DoneRace(1, "mosquito", 2, "M14", lines, (), (), 1, None, (), False, 0.3, ())

    frame = Frame(lobby_snapshot(3, lang, joined=3, bots=0, game="cheating_moth"), 0, (1920, 1080))
    board = precision_line(frame, race("arcade"))
    said = {"en": "one board orders its own presses exactly", "fa": "یک برد", "th": "บอร์ด"}[lang]
    assert said in board and ("0.2" in board or "۰٫۲" in board), board
    assert said not in precision_line(frame, race("phone"))  # phones' presses: no such claim
