"""Names are real names (game/session/names.py, the one place of the rules).

NFC; at least one visible letter or digit (a name of only U+200C / U+200E / spaces is refused);
at most two combining marks on a character; a name that draws the same as another seat's is
refused; the same name again changes nothing. Property: every name the table accepts draws ink
on the TV with the TV's own text renderer, in the fonts of what was typed (no replacement box)."""
from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable
from typing import Any

import pygame
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tabletop_sessionkit import Recorder

from game.render.kit import text as text_kit
from game.render.kit.glyphs import MISSING
from game.rules.base import MalformedAction
from game.session.names import (
    DRAWABLE_RANGES,
    MAX_MARKS,
    BadName,
    BlankName,
    MarkedName,
    NameLookalike,
    NameTaken,
    clean_name,
    drawable,
    name_key,
)
from game.session.session import Session

MakeFake = Callable[..., Session]

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.mark.parametrize("name", ["\u200c", "\u200e", "\u200c\u200e \u200f", " \u200c ", "-", "...", "( )", "\u00a0\u200c"])
def test_a_name_with_no_visible_letter_or_digit_is_refused(name: str) -> None:
    with pytest.raises(BlankName) as refused:
        clean_name(name)
    assert refused.value.code == "blank_name"


@pytest.mark.parametrize("name", ["a\u0301\u0301\u0301", "Sa\u0300\u0301\u0302\u0303ra", "\u0301Sara", "Sara \u0301", "\u00e1\u0301\u0301",
                                  "ก\u0e31\u0e48\u0e49", "\u0e48นก"])
def test_marks_stacked_on_one_character_or_on_none_are_refused(name: str) -> None:
    with pytest.raises(MarkedName) as refused:
        clean_name(name)
    assert refused.value.code == "name_marks"


@pytest.mark.parametrize("name", ["ที่", "ปั้น", "น้ำ", "محمّد", "مُحَمَّد", "شب‌پره", "Zoë", "Nguyễn", "Ana (2)", "R2"])
def test_real_thai_persian_and_latin_names_keep_their_marks(name: str) -> None:
    assert clean_name(name) == name


def test_names_are_kept_nfc() -> None:
    assert clean_name("Jose\u0301") == "José" and clean_name("  Zoe\u0308  ") == "Zoë"


@pytest.mark.parametrize(("name", "other"), [("Sara", "Sara"), ("Sara\u200e", "Sara"), ("Sara", "Sara\u200c"),
                                              ("Sara  B", "Sara B"), ("José", "Jose\u0301"),
                                              ("\ufeb3\ufe8e\ufead\ufe8e", "سارا")])  # Arabic presentation forms
def test_a_name_that_draws_like_another_seats_is_refused(name: str, other: str) -> None:
    with pytest.raises(NameTaken) as refused:
        clean_name(name, ["", other])
    assert refused.value.code == "name_taken" and clean_name(name) in str(refused.value)


@pytest.mark.parametrize(("name", "other"), [("Sara", "Sara B"), ("Ali", ""), ("Sara", "Sarah"), ("Mina", "Nina"),
                                              ("Zoë", "Zoe"), ("Ali", "Ali2"), ("سارا", "سارہ B"), ("มานี", "มาลี")])
def test_names_that_look_different_are_taken(name: str, other: str) -> None:
    assert clean_name(name, [other]) == name


@pytest.mark.parametrize(("name", "other"), [
    ("Sara", "sara"), ("SARA", "Sara"),  # case-folded
    ("Sаra", "Sara"), ("sаra", "Sara"), ("Sara", "Ѕаrа"),  # Cyrillic а, ѕ: the repro
    ("Βob", "Bob"), ("Nikos", "Νikοs"),  # Greek capitals and omicron
    ("Ian", "lan"), ("Noor", "N00r"), ("Morn", "Mom"),  # Latin look-alikes (TR39: I/l, 0/O, rn/m)
    ("علي", "علی"), ("كيان", "کیان"), ("على", "علی"), ("عـلی", "علی"),  # Arabic yeh/kaf vs Persian; tatweel
    ("Ali۱", "Ali1"),  # a Persian digit one is a stroke
    ("เเม", "แม"), ("ฃวัญ", "ขวัญ"),  # Thai: two sara e are sara ae; the obsolete kho khuat
])
def test_a_lookalike_of_a_seated_name_is_refused(name: str, other: str) -> None:
    with pytest.raises(NameLookalike) as refused:
        clean_name(name, ["", other])
    assert refused.value.code == "name_lookalike" and other in str(refused.value)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_lookalike_refusal_is_said_in_the_phones_language(lang: str) -> None:
    from game import i18n
    words = i18n.load(lang, "web")["error.name_lookalike"]
    assert words and words != i18n.load(lang, "web")["error.name_taken"]
    assert lang == "en" or words != i18n.load("en", "web")["error.name_lookalike"]


def test_the_lookalike_table_is_package_data_folded_to_final_prototypes() -> None:
    from game.session import names
    table, longest = names._confusables()
    assert longest >= 2 and table["ي"] == "ی" and table["۱"] == "l"  # ۱ -> 1 -> l in one step
    assert all(v not in table for v in table.values())


def test_the_old_rules_stand() -> None:
    with pytest.raises(BadName):
        clean_name("Sara 😀")
    with pytest.raises(MalformedAction):
        clean_name("x" * 25)
    assert name_key("Sara\u200c \u200e B") == "Sara B"


# ------------------------------------------------------------------------ through the session
async def test_setting_the_same_name_again_is_a_no_op(make_fake: MakeFake, monkeypatch: pytest.MonkeyPatch) -> None:
    s = make_fake()
    s.join_seat(s.table.seats[0].token, "Sara")
    rec = Recorder()
    s.attach(rec)
    saved: list[int] = []
    journal = s._journal
    assert journal is not None
    real_save = journal.save_table
    monkeypatch.setattr(journal, "save_table", lambda table, version: (saved.append(version), real_save(table, version)))
    v = s.version
    s.set_name(0, "Sara")
    s.set_name(0, "  Sara ")  # the same name once trimmed
    assert (s.version, saved, rec.changes) == (v, [], 0)
    s.set_name(0, "Sara B")
    assert (s.version, len(saved), rec.changes) == (v + 1, 1, 1)


async def test_a_duplicate_name_is_refused_and_changes_nothing(make_fake: MakeFake) -> None:
    s = make_fake()
    s.join_seat(s.table.seats[0].token, "Sara")
    s.join_seat(s.table.seats[1].token, "Ali")
    v = s.version
    with pytest.raises(NameTaken):
        s.set_name(1, "Sara")
    with pytest.raises(NameTaken):
        s.join_seat(s.table.seats[2].token, "Sara\u200e")
    with pytest.raises(BlankName):
        s.set_name(1, "\u200c\u200e")
    assert s.version == v and [r.name for r in s.table.seats[:3]] == ["Sara", "Ali", ""]
    s.set_name(0, "Sara")  # a seat may keep its own name
    assert s.version == v


# ------------------------------------------------------------------ property: ink on the TV
@pytest.fixture(scope="module")
def tv_text() -> Any:
    pygame.init()
    return text_kit.TextRenderer()


def test_every_character_a_name_may_have_is_in_a_tv_font(tv_text: Any) -> None:
    """All of them, not a sample: a letter the rules let in but no font has would show as a box."""
    lacking = [hex(point) for low, high in DRAWABLE_RANGES for point in range(low, high + 1)
               if drawable(chr(point)) and not unicodedata.combining(chr(point))
               and MISSING in tv_text.clean(chr(point))]
    assert lacking == []



def _range_chars(low: int, high: int) -> st.SearchStrategy[str]:
    return st.characters(min_codepoint=low, max_codepoint=high)


NAME_CHARS = st.one_of(*(_range_chars(low, high) for low, high in DRAWABLE_RANGES),
                       st.sampled_from(["\u200c", "\u200e", "\u200f", " ", "\u034f"]))
NAMES = st.one_of(st.text(NAME_CHARS, min_size=1, max_size=26), st.text(max_size=26))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(NAMES)
def test_every_accepted_name_draws_visible_ink_on_the_tv(tv_text: Any, typed: str) -> None:
    try:
        name = clean_name(typed)
    except MalformedAction:
        return
    shown = tv_text.clean(name)
    assert MISSING not in shown, f"{name!r}: a character no TV font has"
    for lang in ("en", "fa", "th"):
        surface = tv_text.line(shown, lang, 28, (255, 255, 255))
        assert pygame.mask.from_surface(surface).count() > 0, f"{name!r} draws nothing on the TV ({lang})"
    assert all(sum(1 for _ in run) <= MAX_MARKS for run in _mark_runs(name))


def _mark_runs(name: str) -> list[str]:
    """The runs of combining marks of ``name``, one per character they follow."""
    runs, current = [], ""
    for ch in unicodedata.normalize("NFD", name):
        if unicodedata.category(ch)[0] == "M":
            current += ch
        elif ch not in "\u200c\u200e\u200f":
            runs.append(current)
            current = ""
    return [*runs, current]
