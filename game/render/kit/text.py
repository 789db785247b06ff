"""The one helper for all text on the big screen.

It picks the font for each piece of text (Noto Sans, Noto Sans Arabic, Noto Sans Thai from the
``fontpkg`` packages), sets the script and the direction for shaping (Persian: ``Arab`` + RTL, Thai:
``Thai``), splits mixed text into runs (a Latin player name or a number inside Persian text is its
own left-to-right run, placed by a small bidi algorithm), wraps long text (at spaces and zero-width
spaces, Thai at syllable clusters when it must), shrinks it until it fits its box, and caches every
rendered surface.
"""
from __future__ import annotations

import enum
import itertools
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import fontpkg
import pygame

from game import i18n

from .glyphs import MISSING, dropped_mark, is_pictograph, tidy
from .lru import MB, Lru, surface_bytes

Colour = tuple[int, int, int]
ZWSP = "\u200b"
ZWNJ = "\u200c"
ELLIPSIS = "…"
SEPARATORS = "|·"  # between sentences in a list (" | "); a line never starts or ends with one


class Family(enum.Enum):
    SANS = "Noto Sans"
    ARABIC = "Noto Sans Arabic"
    THAI = "Noto Sans Thai"


class RunKind(enum.Enum):
    LATIN = "latin"  # any left-to-right script Noto Sans covers
    ARABIC = "arabic"  # right-to-left, shaped as Arabic script
    THAI = "thai"
    NUMBER = "number"  # digits (and separators between digits): always left to right


class Align(enum.Enum):
    START = "start"  # the reading start: left for en/th, right for fa
    CENTER = "center"
    END = "end"


class VAlign(enum.Enum):
    TOP = "top"
    MIDDLE = "middle"
    BOTTOM = "bottom"


@dataclass(frozen=True, slots=True)
class TextStyle:
    px: int  # the largest size to use, in pixels
    colour: Colour = (240, 240, 240)
    bold: bool = False
    min_px: int = 0  # 0: half of ``px`` (never below 9)
    align: Align = Align.START
    valign: VAlign = VAlign.MIDDLE
    max_lines: int = 3
    balance: bool = False  # wrapped lines of even width, broken between clauses where it can

    def smallest(self) -> int:
        return max(9, self.min_px or self.px // 2)


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    kind: RunKind
    level: int = 0  # embedding level: even left to right, odd right to left (split_runs sets it)

    @property
    def rtl(self) -> bool:
        return self.kind is RunKind.ARABIC


@dataclass(frozen=True, slots=True)
class Fitted:
    """Text laid out for a box: the surface to blit, the size used, and whether it had to be cut."""

    surface: pygame.Surface
    px: int
    lines: tuple[str, ...]
    overflow: bool


class TextProbe(Protocol):
    """Watches every text box drawn (used by tests to check that nothing overflows)."""

    def __call__(self, text: str, lang: str, box: pygame.Rect, fitted: Fitted) -> None: ...


# ------------------------------------------------------------------------------------ runs & bidi
_DIGIT_SEPARATORS = frozenset(":.,/٫٬")
_STRONG_RTL = frozenset({"R", "AL"})
_NUMERIC = frozenset({"EN", "AN"})


def _is_arabic(ch: str) -> bool:
    cp = ord(ch)
    return 0x0600 <= cp <= 0x08FF or 0xFB50 <= cp <= 0xFDFF or 0xFE70 <= cp <= 0xFEFF


def _is_thai(ch: str) -> bool:
    return 0x0E00 <= ord(ch) <= 0x0E7F


def _char_kind(ch: str) -> RunKind | None:
    """The run kind a character forces, or None for neutrals (spaces, punctuation, marks)."""
    bidi = unicodedata.bidirectional(ch)
    if bidi in _NUMERIC:
        return RunKind.NUMBER
    if bidi in _STRONG_RTL or (_is_arabic(ch) and bidi != "NSM"):
        return RunKind.ARABIC
    if _is_thai(ch) and bidi == "L":
        return RunKind.THAI
    if bidi == "L":
        return RunKind.LATIN
    return None


def _is_rtl_kind(kind: RunKind) -> bool:
    return kind is RunKind.ARABIC


FSI = "\u2068"  # an isolate's start (i18n.isolate puts a name in one): laid out on its own, never drawn
PDI = "\u2069"  # an isolate's end
_STAND_IN = {"\ue000": RunKind.LATIN, "\ue001": RunKind.ARABIC}  # an isolate as its outer text sees it


def split_runs(text: str, rtl_paragraph: bool) -> list[Run]:
    """Split logical text into runs of one kind; neutrals join the run their neighbours agree on.
    Each run carries its embedding level; an isolate (FSI ... PDI) is laid out in its own
    direction (its first strong letter's, else left to right) as one unit of the sentence."""
    return _runs_at(text, rtl_paragraph, 1 if rtl_paragraph else 0)


def _isolates(text: str) -> list[tuple[str, bool]]:
    """The text cut into outer pieces and top-level isolates (an unclosed FSI runs to the end; a
    stray PDI is dropped; a nested isolate stays inside its piece)."""
    pieces: list[tuple[str, bool]] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch == FSI:
            if depth == 0:
                pieces.append((text[start:i], False))
                start = i + 1
            depth += 1
        elif ch == PDI and depth > 0:
            depth -= 1
            if depth == 0:
                pieces.append((text[start:i], True))
                start = i + 1
        elif ch == PDI:
            pieces.append((text[start:i], False))
            start = i + 1
    pieces.append((text[start:], depth > 0))
    return [(piece, iso) for piece, iso in pieces if piece]


def _first_strong_rtl(text: str) -> bool:
    for ch in text:
        kind = _char_kind(ch)
        if kind is not None and kind is not RunKind.NUMBER:
            return _is_rtl_kind(kind)
    return False


def _runs_at(text: str, rtl: bool, base: int) -> list[Run]:
    pieces = _isolates(text)
    inner: list[list[Run]] = []
    outer: list[str] = []
    for piece, iso in pieces:
        if not iso:
            outer.append(piece)
            continue
        iso_rtl = _first_strong_rtl(piece)
        level = base if base % 2 == int(iso_rtl) else base + 1
        inner.append(_runs_at(piece, iso_rtl, level))
        outer.append("\ue001" if iso_rtl else "\ue000")
    flat = "".join(outer)
    kinds: list[RunKind | None] = [_STAND_IN.get(ch) or _char_kind(ch) for ch in flat]
    _join_digit_separators(flat, kinds)
    _resolve_neutrals(flat, kinds, rtl)
    runs: list[Run] = []
    isolates = iter(inner)
    start = 0
    for i in range(len(flat) + 1):
        stand_in = i < len(flat) and flat[i] in _STAND_IN
        if i > start and (i == len(flat) or stand_in or kinds[i] is not kinds[start]):
            kind = kinds[start] or RunKind.LATIN
            runs.append(Run(flat[start:i], kind, _level_of(kind, base)))
            start = i
        if stand_in:
            runs.extend(next(isolates))
            start = i + 1
    return runs


def _join_digit_separators(text: str, kinds: list[RunKind | None]) -> None:
    for i in range(1, len(text) - 1):
        if text[i] in _DIGIT_SEPARATORS and kinds[i - 1] is RunKind.NUMBER and kinds[i + 1] is RunKind.NUMBER:
            kinds[i] = RunKind.NUMBER


def _resolve_neutrals(text: str, kinds: list[RunKind | None], rtl_paragraph: bool) -> None:
    """Neutrals between runs of the same direction take that run; otherwise the paragraph's."""
    n = len(kinds)
    i = 0
    while i < n:
        if kinds[i] is not None:
            i += 1
            continue
        before = kinds[i - 1] if i > 0 else None
        if before is not None and _is_mark(text[i]):
            # a combining mark belongs to its base character's run, whatever follows it
            kinds[i] = before
            i += 1
            continue
        j = i
        while j < n and kinds[j] is None:
            j += 1
        after = kinds[j] if j < n else None
        kinds[i:j] = [_neutral_kind(text[i:j], before, after, rtl_paragraph)] * (j - i)
        i = j


def _is_mark(ch: str) -> bool:
    return bool(unicodedata.combining(ch)) or unicodedata.category(ch) in ("Mn", "Mc", "Me")


def _neutral_kind(chunk: str, before: RunKind | None, after: RunKind | None, rtl: bool) -> RunKind:
    marks_only = all(unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf") for c in chunk)
    if marks_only and before is not None:
        return before
    paragraph = RunKind.ARABIC if rtl else RunKind.LATIN
    if before is None and after is None:
        return paragraph
    sides = [k for k in (before, after) if k is not None]
    directions = {_is_rtl_kind(k) for k in sides}
    if len(sides) == 2 and len(directions) == 1:
        if rtl and before is not after and any(c.isspace() for c in chunk):
            # in Persian, "Ali ۳ شمش": the number belongs to the Persian words, not to the name;
            # inside one word ("F11", a link) left-to-right pieces stay together
            return paragraph
        # same direction on both sides: stay with the earlier run (numbers count as their context)
        first, second = sides
        if first is RunKind.NUMBER:
            return second if second is not RunKind.NUMBER else paragraph
        return first
    if len(sides) == 1:
        only = sides[0]
        if _is_rtl_kind(only) == rtl and only is not RunKind.NUMBER:
            return only
    return paragraph


def visual_order(runs: list[Run], rtl_paragraph: bool) -> list[Run]:
    """Runs from left to right on screen (levels: paragraph 0/1, embedded opposite runs one higher)."""
    return [runs[k] for k in visual_indices([run.level for run in runs])]


def visual_indices(levels: list[int]) -> list[int]:
    """The runs' indices from left to right on screen, given their embedding levels."""
    order = list(range(len(levels)))
    for level in range(max(levels, default=0), 0, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] >= level:
                j = i
                while j < len(order) and levels[order[j]] >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order


def _level_of(kind: RunKind, base: int) -> int:
    """The level of a run of ``kind`` at embedding level ``base`` (paragraph: 0 left to right, 1
    right to left): the base when the directions agree, else one above it."""
    return base if base % 2 == int(_is_rtl_kind(kind)) else base + 1


# ---------------------------------------------------------------------------------- line breaking
def _clusters(word: str) -> list[str]:
    """Grapheme-ish clusters: a base character with the marks that follow it (Thai vowels, tones)."""
    out: list[str] = []
    for ch in word:
        if out and (unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Mc", "Me")) or out and out[-1] and out[-1][-1] in "เแโใไ":
            out[-1] += ch
        else:
            out.append(ch)
    return out


def break_words(text: str) -> list[str]:
    """Pieces between break opportunities, each keeping its trailing space (or zero-width space)."""
    pieces: list[str] = []
    current = ""
    for ch in text:
        current += ch
        if ch == " " or ch == ZWSP:
            pieces.append(current)
            current = ""
    if current:
        pieces.append(current)
    return pieces


_CLAUSE_END = frozenset("?؟:.!،,;")
CLAUSE_SHRINK = 0.8  # a balanced text may be this much smaller to keep each clause on lines of its own


def ends_a_clause(piece: str, lang: str) -> bool:
    """A line may end here between two clauses: after punctuation or a separator, or (Thai, which
    writes no punctuation between clauses and marks word breaks with zero-width spaces) after a real space."""
    if piece.rstrip(" " + ZWSP).endswith((*_CLAUSE_END, *SEPARATORS)):
        return True
    return lang == "th" and piece.endswith(" ")


def clause_breaks(pieces: list[str], lang: str) -> list[bool]:
    """For each place between two pieces, whether a line may end there without cutting a clause.
    In a list of sentences joined by separators, only at a separator: the sentences are the
    clauses (Thai would otherwise break at any space, "Mina" apart from "was the target")."""
    trim = " " + ZWSP
    text = "".join(pieces)
    ends = list(itertools.accumulate(len(p) for p in pieces))
    if not any(ch in SEPARATORS for ch in text):
        return [ends_a_clause(p, lang) for p in pieces]
    return [text[:end].rstrip(trim).endswith(tuple(SEPARATORS)) or text[end:].lstrip(trim).startswith(tuple(SEPARATORS))
            for end in ends]


def as_line(text: str) -> str:
    """What of ``text`` is drawn as a line of its own: no spaces at its ends, and no separator
    (a break between two sentences stands in for the " | " that joined them)."""
    return text.strip(" " + ZWSP + SEPARATORS)


# ----------------------------------------------------------------------------------------- helper
_FAMILY_OF_RUN: dict[RunKind, Family] = {
    RunKind.LATIN: Family.SANS,
    RunKind.ARABIC: Family.ARABIC,
    RunKind.THAI: Family.THAI,
}
_LANG_FAMILY: dict[str, Family] = {"en": Family.SANS, "fa": Family.ARABIC, "th": Family.THAI}
_PITCH: dict[str, float] = {"en": 1.3, "fa": 1.7, "th": 1.55}
_SCRIPT: dict[Family, str] = {Family.SANS: "Latn", Family.ARABIC: "Arab", Family.THAI: "Thai"}


def run_families(runs: list[Run], lang: str) -> list[Family]:
    """Each run's face, in logical order. A number takes the face of the words it stands with (the
    run before it, else after it): beside Thai, Thai's; beside a Latin or Persian name on a Thai
    screen, Noto Sans, so "2 سارا" on a Thai plate is one weight (Thai is never made bold)."""
    screen = _LANG_FAMILY.get(lang, Family.SANS)
    families = []
    for i, run in enumerate(runs):
        if run.kind is not RunKind.NUMBER:
            families.append(_FAMILY_OF_RUN[run.kind])
        elif any(0x06F0 <= ord(c) <= 0x06F9 or 0x0660 <= ord(c) <= 0x0669 for c in run.text):
            families.append(Family.ARABIC)  # Persian digits
        else:
            beside = [*runs[max(i - 1, 0):i], *runs[i + 1:i + 2]]  # before it first
            words = next((r.kind for r in beside if r.kind is not RunKind.NUMBER), None)
            if words is RunKind.THAI:
                families.append(Family.THAI)
            else:
                families.append(Family.SANS if words is not None and screen is Family.THAI else screen)
    return families


def _size_ladder() -> tuple[int, ...]:
    """Font sizes the helper uses: every size to 16 px, then steps of about 7 %. Few distinct
    sizes means few fonts to load and more cache hits across boxes and window sizes."""
    sizes = list(range(6, 17))
    while sizes[-1] < 400:
        sizes.append(round(sizes[-1] * 1.07))
    return tuple(sizes)


SIZE_LADDER = _size_ladder()


def size_at_most(px: int) -> int:
    """The largest ladder size not above ``px`` (at least the smallest rung)."""
    best = SIZE_LADDER[0]
    for size in SIZE_LADDER:
        if size > px:
            break
        best = size
    return best


@cache
def font_path(family: Family) -> str:
    return str(fontpkg.path(family.value))


_SERIALS = itertools.count(1)
# what a window keeps (see TextRenderer): one face per family, direction and weight (SizedFont sets
# its size when used: a size costs no face of its own); the warm-up sizes the WARM_FONTS most used
# first, the rarest when drawn; a box's pictures, bounded by their pixels' bytes (a line's picture is
# not kept: a box is made once from its lines and holds their pixels, and a line was seldom drawn again
# in another box; keeping both held every line twice, 16 MB at 1080p once a few clues had been shown)
WARM_FONTS = 64
BLOCKS_BUDGET = 16 * MB


class SizedFont:
    """One of a face's sizes. Every size of a (family, direction, weight) shares one pygame
    ``Font``, its point size set when it is used: a new ``Font`` of the variable Noto Sans costs
    about 14 ms of CPU on its first use and 1 MiB (HarfBuzz's face), switching an open one's size
    about 0.2 ms (its glyph cache starts again); the pictures are the same to the byte."""

    __slots__ = ("_font", "px")

    def __init__(self, font: pygame.font.Font, px: int) -> None:
        self._font, self.px = font, px

    def _at(self) -> pygame.font.Font:
        font = self._font
        if font.point_size != self.px:
            font.point_size = self.px
        return font

    def size(self, text: str) -> tuple[int, int]:
        return self._at().size(text)

    def render(self, text: str, antialias: bool, colour: Colour) -> pygame.Surface:
        return self._at().render(text, antialias, colour)

    def metrics(self, text: str) -> list[tuple[int, int, int, int, int] | None]:
        return self._at().metrics(text)

    def get_ascent(self) -> int:
        return self._at().get_ascent()

    def get_descent(self) -> int:
        return self._at().get_descent()


class TextRenderer:
    """Fonts, shaping, wrapping, fitting and caches. One instance per window."""

    def __init__(self, probe: TextProbe | None = None) -> None:
        self.serial = next(_SERIALS)  # caches of pictures made with this renderer key on it
        if not pygame.font.get_init():
            pygame.font.init()
        self._faces: dict[tuple[Family, bool, bool], pygame.font.Font] = {}  # one per family, direction, weight
        self._fonts: dict[tuple[Family, int, bool, bool], SizedFont] = {}
        self._probes: dict[Family, pygame.font.Font] = {}  # which characters a family has (24 px)
        # pictures, bounded by their pixels' bytes (lru.py): a fitted box's picture is its block's
        self._fits: Lru[tuple, Fitted] = Lru(BLOCKS_BUDGET, lambda f: surface_bytes(f.surface))
        self._blocks: Lru[tuple, pygame.Surface] = Lru(BLOCKS_BUDGET, surface_bytes)
        self._widths: dict[tuple, int] = {}
        self._glyphs: dict[tuple[Family, str], bool] = {}
        self.probe = probe

    # fonts ----------------------------------------------------------------------------------
    def font(self, family: Family, px: int, rtl: bool = False, bold: bool = False) -> SizedFont:
        key = (family, px, rtl, bold)
        font = self._fonts.get(key)
        if font is None:
            font = self._fonts[key] = SizedFont(self._face(family, rtl, bold, px), px)
        return font

    def _face(self, family: Family, rtl: bool = False, bold: bool = False, px: int = 24) -> pygame.font.Font:
        face = self._faces.get((family, rtl, bold))
        if face is None:
            face = pygame.font.Font(font_path(family), px)
            face.set_script(_SCRIPT[family])
            face.set_direction(pygame.DIRECTION_RTL if rtl else pygame.DIRECTION_LTR)
            face.bold = bold
            self._faces[(family, rtl, bold)] = face
        return face

    @property
    def fonts_loaded(self) -> int:
        """How many faces (family, direction, weight) have been opened: each costs ~14 ms the
        first time it shapes text, so a frame should find the ones it needs open."""
        return len(self._faces)

    def warm_steps(self, lang: str, unit: float) -> Iterator[None]:
        """Load and prime (shape a sample with) every font a screen in ``lang`` is likely to need
        at this size unit, one font per step: the first use of a font costs tens of
        milliseconds, so the window does this a step per frame while the lobby is up."""
        family = _LANG_FAMILY.get(lang, Family.SANS)
        samples = {Family.SANS: "Ag 09", Family.ARABIC: "سلام", Family.THAI: "สวัสดี"}
        sizes = [s for s in SIZE_LADDER if 9 * unit <= s <= 70 * unit]
        sizes.sort(key=lambda s: abs(s - 20 * unit))  # the most used sizes first
        wanted = [(fam, px, rtl, bold, text) for px in sizes for fam in dict.fromkeys((Family.SANS, family))
                  for bold in (False, True) if not (bold and fam is Family.THAI)
                  for rtl, text in ((fam is Family.ARABIC, samples[fam]), *(((False, "۱۲"),) if fam is Family.ARABIC else ()))]
        for fam, px, rtl, bold, text in wanted[:WARM_FONTS]:  # Persian digits are shaped left to right
            self.font(fam, px, rtl, bold).size(text)
            yield

    def _has_glyph(self, family: Family, ch: str) -> bool:
        key = (family, ch)
        found = self._glyphs.get(key)
        if found is None:
            font = self._probes.get(family)
            if font is None:  # its own face at 24 px: the shared ones change size all the time
                font = self._probes[family] = pygame.font.Font(font_path(family), 24)
            missing = font.metrics("\U0010fffd")
            got = font.metrics(ch)
            found = bool(got) and got[0] is not None and got != missing
            self._glyphs[key] = found
        return found

    def _parts(self, text: str, lang: str, px: int, bold: bool) -> list[tuple[str, SizedFont]]:
        """(text, font) pieces from left to right; characters a run's font lacks use Noto Sans."""
        parts: list[tuple[str, SizedFont]] = []
        runs = self._runs(text, lang)
        families = run_families(runs, lang)
        for i in visual_indices([run.level for run in runs]):
            run, family = runs[i], families[i]
            rtl = run.rtl
            groups: list[tuple[str, Family]] = []
            split = False
            for ch in run.text:
                if ch == ZWNJ and rtl:
                    # shaped apart, the letters either side take their unjoined forms, which is all a
                    # non-joiner means; a synthetic-bold ZWNJ glyph would open a visible gap instead
                    split = True
                    continue
                fam = family if (ch in " " + ZWSP or family is Family.SANS or self._has_glyph(family, ch)) else Family.SANS
                if groups and groups[-1][1] is fam and not split:
                    groups[-1] = (groups[-1][0] + ch, fam)
                else:
                    groups.append((ch, fam))
                split = False
            if rtl:
                groups.reverse()
            # synthetic bold misplaces Thai marks: Thai stays regular
            parts.extend((chunk, self.font(fam, px, rtl, bold and fam is not Family.THAI)) for chunk, fam in groups)
        return parts

    def clean(self, text: str) -> str:
        """Control characters out; emoji no font has are dropped (with their joiners and the space
        they leave), a letter no font has becomes the replacement character."""
        out = []
        for ch in text:
            if ch in "\n\t\r":
                out.append(" ")
            elif unicodedata.category(ch) == "Cc":
                continue
            elif ch in (ZWSP, "\u200c", "\u200d", FSI, PDI) or unicodedata.combining(ch) or any(self._has_glyph(f, ch) for f in Family):
                out.append(ch)
            elif is_pictograph(ch):
                out.append(dropped_mark())
            else:
                out.append(MISSING)
        return tidy("".join(out))

    def line_height(self, lang: str, px: int) -> int:
        """Baseline-to-baseline distance of wrapped lines (Persian and Thai need more room for marks)."""
        return max(1, round(px * _PITCH.get(lang, 1.3)))

    # measuring & rendering one line ----------------------------------------------------------
    def _runs(self, text: str, lang: str) -> list[Run]:
        return split_runs(text.replace(ZWSP, ""), i18n.is_rtl(lang))

    def width(self, text: str, lang: str, px: int, bold: bool = False) -> int:
        key = (text, lang, px, bold)
        w = self._widths.get(key)
        if w is None:
            w = sum(font.size(chunk)[0] for chunk, font in self._parts(text, lang, px, bold))
            if len(self._widths) > 20000:
                self._widths.clear()
            self._widths[key] = w
        return w

    def line(self, text: str, lang: str, px: int, colour: Colour, bold: bool = False) -> pygame.Surface:
        """One line of text, shaped and ordered, on a transparent surface (not kept: the boxes made
        of lines are, see ``_compose``)."""
        parts = self._parts(text, lang, px, bold)
        base_fonts = [self.font(f, px) for f in (Family.SANS, _LANG_FAMILY.get(lang, Family.SANS))]
        fonts = [font for _, font in parts] + base_fonts
        ascent = max(f.get_ascent() for f in fonts)
        descent = max(-f.get_descent() for f in fonts)
        pieces: list[tuple[pygame.Surface, int]] = []
        for chunk, font in parts:
            if chunk.strip(" " + ZWSP) == "":
                pieces.append((pygame.Surface((max(1, font.size(chunk)[0]), 1), pygame.SRCALPHA), font.get_ascent()))
            else:
                pieces.append((font.render(chunk, True, colour), font.get_ascent()))
        width = max(1, sum(p.get_width() for p, _ in pieces))
        surf = pygame.Surface((width, ascent + descent), pygame.SRCALPHA)
        surf.fill((*colour, 0))
        x = 0
        for piece, piece_ascent in pieces:
            surf.blit(piece, (x, ascent - piece_ascent))
            x += piece.get_width()
        return surf

    # wrapping & fitting ----------------------------------------------------------------------
    def wrap(self, text: str, lang: str, px: int, max_width: int, bold: bool = False, split_words: bool = True) -> list[str]:
        """Greedy line breaking at spaces / zero-width spaces; inside a word (between clusters) only
        when ``split_words`` and the word alone is too wide."""
        lines: list[str] = []
        current = ""
        pieces = self._pieces(text, lang, px, max_width, bold) if split_words else break_words(text)
        for piece in pieces:
            candidate = current + piece
            if as_line(current) and self.width(as_line(candidate), lang, px, bold) > max_width:
                lines.append(as_line(current))
                current = piece
            else:
                current = candidate
        if as_line(current) or not lines:
            lines.append(as_line(current))
        return lines

    def wrap_balanced(self, text: str, lang: str, px: int, max_width: int, bold: bool = False,
                      split_words: bool = True, max_lines: int = 3, clauses_whole: bool = False) -> list[list[str]]:
        """Ways to break ``text``, best first: the fewest breaks inside a clause (one more line than
        :meth:`wrap` needs, within ``max_lines``, if that avoids one), then the fewest lines, then
        the most even widths: no verb cut from its object, no word or two alone on the last line.
        The greedy lines come last (the caller takes the first way that fits its box); with
        ``clauses_whole``, only the ways that break no clause."""
        greedy = self.wrap(text, lang, px, max_width, bold, split_words)
        pieces = list(self._pieces(text, lang, px, max_width, bold) if split_words else break_words(text))
        if len(greedy) < 2 or len(pieces) > 64:
            return [greedy]
        counts = range(len(greedy), max(len(greedy), min(len(greedy) + 1, max_lines)) + 1)
        found = sorted(o for o in (self._balanced(pieces, n, lang, px, max_width, bold) for n in counts) if o is not None)
        if clauses_whole:
            return [o[-1] for o in found if o[0] == 0]
        return [o[-1] for o in found] + [greedy]

    def _balanced(self, pieces: list[str], count: int, lang: str, px: int, max_width: int,
                  bold: bool) -> tuple[int, int, float, list[str]] | None:
        """``pieces`` on ``count`` lines: the fewest breaks inside a clause, then the most even
        widths (the sum of the squared room left on each line); None if they do not fit. Sorts
        by (breaks inside a clause, lines, room)."""
        def line(i: int, j: int) -> str:
            return as_line("".join(pieces[i:j]))

        width = self._span_widths(pieces, lang, px, bold)
        between = clause_breaks(pieces, lang)
        # best[k][j]: the cheapest way to set pieces[:j] on k lines: (mid-clause breaks, room², previous break)
        best: list[dict[int, tuple[int, float, int]]] = [{0: (0, 0.0, 0)}] + [{} for _ in range(count)]
        for k in range(1, count + 1):
            for j in range(k, len(pieces) + 1):
                for i in range(j - 1, -1, -1):  # the line's start walks back until it is too wide
                    w = width(i, j)
                    if w is None:
                        continue
                    if w > max_width:
                        break
                    if i not in best[k - 1]:
                        continue
                    breaks, room, _ = best[k - 1][i]
                    here = (breaks + (j < len(pieces) and not between[j - 1]), room + (max_width - w) ** 2, i)
                    if j not in best[k] or here[:2] <= best[k][j][:2]:  # ties: the earliest start
                        best[k][j] = here
        if len(pieces) not in best[count]:
            return None
        lines, j = [], len(pieces)
        for k in range(count, 0, -1):
            lines.append(line(best[k][j][2], j))
            j = best[k][j][2]
        breaks, room, _ = best[count][len(pieces)]
        return breaks, count, room, lines[::-1]

    def _span_widths(self, pieces: list[str], lang: str, px: int,
                     bold: bool) -> Callable[[int, int], int | None]:
        """The width of ``as_line(pieces[i:j])`` as a sum of its pieces' widths (None: nothing to
        draw). Words join no glyphs across the space between them, so the sum is the line's width
        to a pixel or so (the caller checks the lines it keeps exactly); measuring every candidate
        line instead shaped ~20,000 strings for a caption of five deaths, 2-3 s of a frozen TV."""
        edge = " " + ZWSP + SEPARATORS
        full = [self.width(p, lang, px, bold) for p in pieces]
        lead = [self.width(p.lstrip(edge), lang, px, bold) if p.strip(edge) else 0 for p in pieces]
        trail = [self.width(p.rstrip(edge), lang, px, bold) if p.strip(edge) else 0 for p in pieces]
        both = [self.width(p.strip(edge), lang, px, bold) if p.strip(edge) else 0 for p in pieces]
        drawn = [bool(p.strip(edge)) for p in pieces]
        prefix = [0]
        for w in full:
            prefix.append(prefix[-1] + w)

        def span(i: int, j: int) -> int | None:
            while i < j and not drawn[i]:
                i += 1
            while j > i and not drawn[j - 1]:
                j -= 1
            if i >= j:
                return None
            if j - i == 1:
                return both[i]
            return lead[i] + prefix[j - 1] - prefix[i + 1] + trail[j - 1]

        return span

    def _pieces(self, text: str, lang: str, px: int, max_width: int, bold: bool) -> Iterator[str]:
        for word in break_words(text):
            if self.width(word.rstrip(" " + ZWSP), lang, px, bold) <= max_width:
                yield word
            else:
                yield from _clusters(word)

    def fit(self, text: str, lang: str, size: tuple[int, int], style: TextStyle) -> Fitted:
        """The biggest size (from ``style.px`` down) at which ``text`` wraps into ``size``."""
        key = (text, lang, size, style)
        fitted = self._fits.get(key)
        if fitted is not None:
            return fitted
        return self._fits.put(key, self._fit(self.clean(text), lang, size, style))

    def _fit(self, text: str, lang: str, size: tuple[int, int], style: TextStyle) -> Fitted:
        """Largest ladder size that fits; a balanced style keeps its clauses whole on their lines
        if that costs at most a few sizes (``CLAUSE_SHRINK``)."""
        w, h = max(1, size[0]), max(1, size[1])
        best = self._largest(text, lang, (w, h), style, False)
        if style.balance and best is not None:
            whole = self._largest(text, lang, (w, h), style, True)
            if whole is not None and whole.px >= best.px * CLAUSE_SHRINK:
                return whole
        return best if best is not None else self._cut(text, lang, (w, h), style, style.smallest())

    def _largest(self, text: str, lang: str, size: tuple[int, int], style: TextStyle, clauses_whole: bool) -> Fitted | None:
        """The biggest ladder size is tried first (it usually fits), then a binary search (a smaller
        size never needs more room). Words are split only as a last resort."""
        top = size_at_most(max(style.px, style.smallest()))
        sizes = sorted({style.smallest(), *(s for s in SIZE_LADDER if style.smallest() <= s <= top)})
        for split_words in (False, True):
            found = self._try(text, lang, size, style, sizes[-1], split_words, clauses_whole)
            if found is not None:
                return found
            low, high, best = 0, len(sizes) - 2, None
            while low <= high:
                mid = (low + high) // 2
                attempt = self._try(text, lang, size, style, sizes[mid], split_words, clauses_whole)
                if attempt is None:
                    high = mid - 1
                else:
                    best, low = attempt, mid + 1
            if best is not None:
                return best
        return None

    def _try(self, text: str, lang: str, size: tuple[int, int], style: TextStyle, px: int,
             split_words: bool, clauses_whole: bool = False) -> Fitted | None:
        w, h = size
        if style.balance:
            ways = self.wrap_balanced(text, lang, px, w, style.bold, split_words, style.max_lines, clauses_whole)
        else:
            ways = [self.wrap(text, lang, px, w, style.bold, split_words)]
        for lines in ways:
            if len(lines) > style.max_lines or any(self.width(x, lang, px, style.bold) > w for x in lines):
                continue
            block = self._compose(lines, lang, px, style)
            if block.get_height() <= h:
                return Fitted(block, px, tuple(lines), False)
        return None

    def _cut(self, text: str, lang: str, size: tuple[int, int], style: TextStyle, px: int) -> Fitted:
        w, h = size
        room = max(1, min(style.max_lines, h // max(1, self.line_height(lang, px))))
        lines = self.wrap(text, lang, px, w, style.bold)[:room]
        last = lines[-1]
        while last and self.width(last + ELLIPSIS, lang, px, style.bold) > w:
            last = last[:-1]
        lines[-1] = last.rstrip() + ELLIPSIS
        return Fitted(self._compose(lines, lang, px, style), px, tuple(lines), True)

    def _compose(self, lines: list[str], lang: str, px: int, style: TextStyle) -> pygame.Surface:
        """Lines stacked at the language's pitch, cropped to the rows that hold ink (so the tall
        ascent/descent reserves of the Arabic and Thai fonts do not make the text tiny)."""
        key = (tuple(lines), lang, px, style.colour, style.bold, style.align)
        cached = self._blocks.get(key)
        if cached is not None:
            return cached
        surfaces = [self.line(line, lang, px, style.colour, style.bold) for line in lines]
        width = max(s.get_width() for s in surfaces)
        pitch = self.line_height(lang, px)
        block = pygame.Surface((width, pitch * (len(surfaces) - 1) + max(s.get_height() for s in surfaces)), pygame.SRCALPHA)
        block.fill((*style.colour, 0))
        for i, s in enumerate(surfaces):
            block.blit(s, (_aligned_x(width, s.get_width(), style.align, lang), i * pitch))
        ink = block.get_bounding_rect()
        if ink.height > 0:
            top = max(0, ink.y - 1)
            bottom = min(block.get_height(), ink.bottom + 1)
            block = block.subsurface((0, top, width, bottom - top)).copy()
        return self._blocks.put(key, block)

    def draw(self, target: pygame.Surface, text: str, lang: str, box: pygame.Rect, style: TextStyle) -> pygame.Rect:
        """Fit ``text`` into ``box`` and blit it there; returns where it went."""
        fitted = self.fit(text, lang, (box.width, box.height), style)
        if self.probe is not None:
            self.probe(text, lang, pygame.Rect(box), fitted)
        return target.blit(fitted.surface, _placed(fitted.surface, lang, box, style))

    def place(self, text: str, lang: str, box: pygame.Rect, style: TextStyle) -> pygame.Rect:
        """Where :meth:`draw` would put ``text`` (nothing drawn)."""
        surf = self.fit(text, lang, (box.width, box.height), style).surface
        return pygame.Rect(_placed(surf, lang, box, style), surf.get_size())


def _placed(surf: pygame.Surface, lang: str, box: pygame.Rect, style: TextStyle) -> tuple[int, int]:
    """The top-left corner of ``surf`` aligned in ``box`` as ``style`` says."""
    x = box.x + _aligned_x(box.width, surf.get_width(), style.align, lang)
    if style.valign is VAlign.TOP:
        return x, box.y
    if style.valign is VAlign.BOTTOM:
        return x, box.bottom - surf.get_height()
    return x, box.y + (box.height - surf.get_height()) // 2


def _aligned_x(box_w: int, w: int, align: Align, lang: str) -> int:
    rtl = i18n.is_rtl(lang)
    if align is Align.CENTER:
        return (box_w - w) // 2
    at_left = (align is Align.START) != rtl
    return 0 if at_left else box_w - w
