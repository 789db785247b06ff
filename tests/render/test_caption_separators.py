"""No line the TV draws starts or ends with a separator (" | ", " · "): where a sentence list wraps
at a separator, the separator goes, in every language, at 720p and 1080p, in every taped scene of
every game (and the fullest Speakeasy reveal, whose Persian caption once ended its first line with "|")."""
from __future__ import annotations

from collections.abc import Callable, Iterator

import pygame
import pytest
from scene_checks import LANGS

from game import catalog, i18n, tapes
from game.games.collusion import companion_tapes as collusion_companion
from game.games.speakeasy.tapes import speakeasy_busiest_reveal
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import SEPARATORS, TextRenderer
from game.tapes import Moment, play_moment

SIZES = ((1280, 720), (1920, 1080))
TWELVE_NAMES = {
    "fa": ("علی", "نیلوفر", "مریم", "رضا", "سارا", "امیرحسین", "نیما", "فاطمه", "محمدرضا", "زهرا", "پریسا", "کیان"),
    "th": ("สมชาย", "มาลี", "สมศักดิ์", "ปิยะนุช", "ธนากร", "วรรณา", "กิตติพงษ์", "อรุณี", "ณัฐพล", "สุดารัตน์", "ประเสริฐ",
           "จันทร์เพ็ญ"),
    "en": ("Ali", "Mia", "Niloufar", "Somchai", "Malee", "Alexander", "Reza", "Charlotte", "Kiana", "Maximilian", "Zoë",
           "Tom"),
}
TAPES: dict[str, Callable[[str], Iterator[Moment]]] = {d.id: d.load_tapes().moments for d in catalog.games()}


class LineRecorder:
    """Plays moments on one renderer (its caches shared) and keeps every line of text it draws."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ctx = RenderContext(TextRenderer(self._probe), QrCache(), SoundBank(enabled=False))

    def _probe(self, text, lang, box, fitted) -> None:
        self.lines.extend(fitted.lines)

    def drawn(self, moment: Moment, size: tuple[int, int]) -> list[str]:
        self.lines = []
        play_moment(moment, size, self.ctx).draw(pygame.Surface(size))
        return self.lines


def _hanging_separators(lines: list[str]) -> list[str]:
    return [line for line in lines if line.strip() and (line.strip()[0] in SEPARATORS or line.strip()[-1] in SEPARATORS)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(TAPES))
def test_no_drawn_line_starts_or_ends_with_a_separator(game: str, lang: str) -> None:
    recorder = LineRecorder()
    for moment in TAPES[game](lang):
        for size in SIZES:
            assert not _hanging_separators(recorder.drawn(moment, size)), (moment.name, size)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
def test_S_reveal_at_twelve_seats_breaks_its_caption_at_a_separator_not_beside_it(
        lang: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tapes, "NAMES", TWELVE_NAMES[lang])
    before, after = speakeasy_busiest_reveal(12, lang)
    recorder = LineRecorder()
    for play_s in (4.0, 9.0):  # the reveal, then the table with the result and who hosts next
        lines = recorder.drawn(Moment("reveal", (before, after), play_s=play_s), size)
        assert any(TWELVE_NAMES[lang][0] in line for line in lines)
        assert not _hanging_separators(lines), play_s


@pytest.mark.parametrize("lang", LANGS)
def test_a_wrapped_sentence_list_drops_the_separator_at_each_break(lang: str) -> None:
    sentences = {"en": ("Ali found the Informant", "Mia pointed at herself", "Ali scores two points"),
                 "fa": ("علی خبرچین را پیدا کرد", "نیلوفر به خودش اشاره کرد", "علی دو امتیاز گرفت"),
                 "th": ("สมชายจับสายลับได้", "มาลีชี้ที่ตัวเอง", "สมชายได้สองแต้ม")}[lang]
    text = "  |  ".join(sentences)
    renderer = TextRenderer()
    px = 24
    for width in range(renderer.width(sentences[0], lang, px) + 1, renderer.width(text, lang, px), 7):
        for lines in (renderer.wrap(text, lang, px, width, split_words=False),
                      *renderer.wrap_balanced(text, lang, px, width, split_words=False)):
            assert not _hanging_separators(lines), (width, lines)
            assert "".join(lines).count("|") + len(lines) - 1 >= 2  # each separator kept or replaced by a break


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[1]}p")
def test_C_deaths_caption_breaks_between_its_sentences(lang: str, size: tuple[int, int]) -> None:
    """Four deaths in one caption: each line holds whole sentences (no "was ambushed by" / "Tom" split)."""
    moment = next(m for m in collusion_companion.collusion_moments(lang) if m.name == "03_deaths_pot")
    recorder = LineRecorder()
    texts: dict[str, tuple[str, ...]] = {}
    recorder.ctx.text.probe = lambda text, _lang, _box, fitted: texts.__setitem__(text, fitted.lines)
    play_moment(moment, size, recorder.ctx).draw(pygame.Surface(size))
    sep = i18n.text(lang, "screen", "sep").strip()
    caption = max((t for t in texts if t.count(sep) >= 3), key=len)
    sentences = {s.strip() for s in caption.split(sep)}
    for line in texts[caption]:
        assert {s.strip() for s in line.split(sep)} <= sentences, line
