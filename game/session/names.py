"""A player's name: the one place its rules live (the server is the authority; the phone's name form
applies the same rules first: ``game/web/js/screens/join.js`` ``nameProblem``).

A name is NFC-normalised, tidied (invisible marks that mean nothing where they are dropped: see
:func:`tidy`) and trimmed, 1..24 characters, all of them characters the big screen's
Noto fonts draw (no emoji, no controls); it has at least one visible letter or digit (a name of
only U+200C, U+200E and spaces would show blank); accent marks sit on a character, at most
:data:`MAX_MARKS` on each (stacked marks would draw over the names around it); and it can be told
apart from the other names at the table: two names that draw the same (the same text once invisible
characters and look-alike forms are set aside) are refused, and so are two that a person could mix up:
the same confusable skeleton (Unicode TR39's idea: "Sаra" with a Cyrillic а is "Sara"; "Ian" is "lan")
or the same once case-folded ("sara" is "Sara"). The look-alike table is data in the package
(``confusables.json``), never fetched.
"""
from __future__ import annotations

import functools
import json
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from game.rules.base import MalformedAction

NAME_MAX = 24
MAX_MARKS = 2  # combining marks on one character (Thai: a vowel and a tone mark; Persian: shadda and a vowel)

# What the TV's Noto fonts draw (Noto Sans: Latin, Greek, Cyrillic; Noto Sans Arabic; Noto Sans
# Thai) and the punctuation between them. Emoji and pictographs are not in them: they would
# become "?" on the TV, so a name with one is refused at entry (the phone applies the same rule).
DRAWABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E), (0x00A0, 0x024F), (0x0300, 0x036F), (0x0370, 0x03E1), (0x03F0, 0x04FF), (0x0600, 0x06FF),
    (0x0750, 0x077F), (0x0E00, 0x0E7F), (0x1E00, 0x1EFF), (0x2010, 0x2027), (0x2030, 0x205E),
    (0x20A0, 0x20B8), (0x20BA, 0x20C0), (0xFB50, 0xFDFF), (0xFE70, 0xFEFE),
)  # not the Coptic letters of the Greek block (U+03E2..03EF) nor U+20B9: no TV font has them
ZWNJ = "\u200c"
ARABIC_RANGES = ((0x0600, 0x06FF), (0x0750, 0x077F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFE))
DRAWABLE_FORMAT = frozenset("\u200c\u200e\u200f")  # ZWNJ (Persian), LRM, RLM: invisible, but they shape the name
CGJ = "\u034f"  # the combining grapheme joiner: a mark with no ink
INVISIBLE = DRAWABLE_FORMAT | {CGJ}
REFUSED_CATEGORIES = frozenset({"So", "Cn", "Co", "Cs", "Cc", "Cf", "Zl", "Zp"})


class BadName(MalformedAction):
    """A name the table cannot take; ``chars``: the characters the big screen cannot draw."""

    code = "bad_name"

    def __init__(self, message: str, chars: str = "") -> None:
        super().__init__(message)
        self.chars = chars


class BlankName(MalformedAction):
    """A name with no visible letter or digit (only spaces, punctuation or invisible characters)."""

    code = "blank_name"


class MarkedName(MalformedAction):
    """A name with marks stacked on one character (more than :data:`MAX_MARKS`) or on none."""

    code = "name_marks"


class NameTaken(MalformedAction):
    """Another seat's name draws the same: players could not tell the two apart."""

    code = "name_taken"


class NameLookalike(NameTaken):
    """Another seat's name differs only by look-alike letters or by case: players would mix them up."""

    code = "name_lookalike"


def drawable(ch: str) -> bool:
    """Whether the big screen can draw ``ch`` in a name."""
    if ch in DRAWABLE_FORMAT:
        return True
    if unicodedata.category(ch) in REFUSED_CATEGORIES:
        return False
    point = ord(ch)
    return any(low <= point <= high for low, high in DRAWABLE_RANGES)


def undrawable(text: str) -> str:
    """The characters of ``text`` the big screen cannot draw, each once, in order."""
    return "".join(dict.fromkeys(ch for ch in text if not drawable(ch)))


def visible(text: str) -> bool:
    """``text`` has a letter or a digit (something that draws ink and reads as a name)."""
    return any(unicodedata.category(ch)[0] in "LN" for ch in text)


def marks_fit(text: str) -> bool:
    """Every combining mark of ``text`` sits on a character (not at the start, not on a space) and
    no character carries more than :data:`MAX_MARKS`, counted as drawn (NFD: an "á" is a letter and
    a mark). Invisible format characters are skipped."""
    marks: int | None = None  # marks on the current character; None: no character to sit on
    for ch in unicodedata.normalize("NFD", text):
        if ch in DRAWABLE_FORMAT:
            continue
        if unicodedata.category(ch)[0] == "M":
            if marks is None or marks >= MAX_MARKS:
                return False
            marks += 1
        else:
            marks = None if ch.isspace() else 0
    return True


def tidy(text: str) -> str:
    """``text`` without the invisible characters that mean nothing where they are: a ZWNJ stays
    only between two Arabic-script letters (Persian: letters that must not join; marks on the first
    are fine); LRM,
    RLM, the combining grapheme joiner and any other ZWNJ go (a name is shown isolated from its surroundings anyway, and the TV
    cannot draw an invisible character alone at the edge of a run)."""
    out: list[str] = []
    base = ""  # the last character that is not a mark
    for i, ch in enumerate(text):
        if ch == CGJ:
            continue
        if ch in DRAWABLE_FORMAT:
            after = text[i + 1] if i + 1 < len(text) else ""
            if ch == ZWNJ and out[-1:] != [ZWNJ] and _arabic_letter(base) and _arabic_letter(after):
                out.append(ch)
            continue
        if unicodedata.category(ch)[0] != "M":
            base = ch
        out.append(ch)
    return "".join(out)


def _arabic_letter(ch: str) -> bool:
    """A letter of the Arabic script (Persian): where a ZWNJ means something."""
    return bool(ch) and unicodedata.category(ch)[0] == "L" and any(low <= ord(ch) <= high for low, high in ARABIC_RANGES)


def name_key(name: str) -> str:
    """What a name looks like on the screen, for telling names apart: look-alike forms folded
    (NFKC: Arabic presentation forms, ligatures), invisible characters dropped, spaces collapsed."""
    folded = "".join(ch for ch in unicodedata.normalize("NFKC", name) if ch not in INVISIBLE)
    return " ".join(folded.split())


@functools.cache
def _confusables() -> tuple[dict[str, str], int]:
    """The look-alike table (each key to its final prototype) and its longest key."""
    raw: dict[str, str] = json.loads((Path(__file__).with_name("confusables.json")).read_text(encoding="utf-8"))["map"]
    table = {unicodedata.normalize("NFD", k): unicodedata.normalize("NFD", v) for k, v in raw.items()}
    for key, value in table.items():  # "۱" -> "1" -> "l": one step to the prototype
        seen = {key}
        while value in table and value not in seen:
            seen.add(value)
            value = table[value]
        table[key] = value
    return table, max(map(len, table))


def _fold(text: str) -> str:
    """``text`` (NFD) with each look-alike (longest match first) replaced by its prototype."""
    table, longest = _confusables()
    out: list[str] = []
    i = 0
    while i < len(text):
        for size in range(min(longest, len(text) - i), 0, -1):
            piece = text[i : i + size]
            if piece in table:
                out.append(table[piece])
                i += size
                break
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def skeletons(name: str) -> frozenset[str]:
    """The forms a person could take ``name`` for (TR39-style skeletons): look-alikes folded as
    drawn, and the same after case-folding (before and after the fold, since "I" looks like "l"
    but "i" does not). Two names with a skeleton in common are too alike to seat together."""
    drawn = unicodedata.normalize("NFD", name_key(name))
    look = _fold(drawn)
    return frozenset({look, _fold(unicodedata.normalize("NFD", look.casefold())),
                      _fold(unicodedata.normalize("NFD", drawn.casefold()))})


def _check_apart(name: str, taken: Iterable[str]) -> None:
    """Refuse ``name`` if it draws like another seat's, or could be taken for one."""
    key, mine = name_key(name), skeletons(name)
    for other in taken:
        if not other:
            continue
        if name_key(other) == key:
            raise NameTaken(f"{name} is already at the table: add an initial")
        if mine & skeletons(other):
            raise NameLookalike(f"{name} looks too much like {other}, already at the table: add an initial")


def clean_name(name: Any, taken: Iterable[str] = ()) -> str:
    """A player's name as the table keeps it (NFC, trimmed), or a typed error saying why not.
    ``taken``: the names of the other seats (a name that draws the same as one is refused)."""
    if not isinstance(name, str):
        raise MalformedAction("name must be text")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in name):  # a lone surrogate: never echoed back
        raise MalformedAction("name is not valid text")
    if not name.strip():
        raise MalformedAction(f"name must be 1 to {NAME_MAX} characters")
    name = tidy(unicodedata.normalize("NFC", name)).strip()
    if not name:  # only invisible characters (and spaces)
        raise BlankName("a name needs at least one letter or digit")
    if len(name) > NAME_MAX:
        raise MalformedAction(f"name must be 1 to {NAME_MAX} characters")
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Co") for ch in name):
        raise MalformedAction("name has control characters")
    bad = undrawable(name)
    if bad:
        raise BadName(f"the big screen cannot show these characters: {bad}", bad)
    if not visible(name):
        raise BlankName("a name needs at least one letter or digit")
    if not marks_fit(name):
        raise MarkedName(f"at most {MAX_MARKS} accent marks on each letter")
    _check_apart(name, taken)
    return name
