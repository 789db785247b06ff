"""Speakeasy clue decks (S2): the built-in decks and custom deck files."""
from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.games.speakeasy.clues import (
    CLUES_DIR,
    MAX_CLUE_CHARS,
    MAX_DECK_BYTES,
    MIN_CUSTOM_CLUES,
    ClueInvalid,
    ClueTooLong,
    DeckEmpty,
    DeckError,
    DeckNotFound,
    DeckNotUtf8,
    DeckTooLarge,
    DeckTooSmall,
    builtin_deck,
    decode_deck_bytes,
    load_deck_file,
    parse_deck,
)

SCRIPT_OF = {"en": "LATIN", "fa": "ARABIC", "th": "THAI"}


def _letters_script(text: str) -> set[str]:
    return {unicodedata.name(c).split()[0] for c in text if c.isalpha()}


@pytest.mark.parametrize("language", ["en", "fa", "th"])
def test_each_built_in_deck_has_at_least_100_unique_clues_in_its_script(language: str) -> None:
    deck = builtin_deck(language)
    assert len(deck) >= 100 and len({c.casefold() for c in deck}) == len(deck)
    assert all(0 < len(c) <= MAX_CLUE_CHARS for c in deck)
    assert all(_letters_script(c) == {SCRIPT_OF[language]} for c in deck if language != "en")
    assert all(_letters_script(c) <= {"LATIN"} for c in deck if language == "en")


def test_persian_deck_uses_persian_letters_and_zero_width_non_joiners() -> None:
    text = "".join(builtin_deck("fa"))
    assert "\u064a" not in text and "\u0643" not in text  # Arabic yeh / kaf instead of Persian ی / ک
    assert "\u200c" in text and " می " not in text


def test_built_in_deck_files_have_no_duplicate_lines() -> None:
    for language in ("en", "fa", "th"):
        lines = [ln.strip() for ln in (CLUES_DIR / f"{language}.txt").read_text("utf-8").splitlines()]
        clues = [ln for ln in lines if ln and not ln.startswith("#")]
        assert len(clues) == len(set(clues)) == len(builtin_deck(language))


def test_there_is_a_built_in_deck_for_every_ui_language() -> None:
    from game.config import LANGUAGES
    from game.games.speakeasy.clues import BUILTIN_DECKS

    assert BUILTIN_DECKS == LANGUAGES


def test_unknown_built_in_deck_is_a_typed_error() -> None:
    with pytest.raises(DeckNotFound):
        builtin_deck("xx")


def _clues(n: int) -> list[str]:
    return [f"Someone who brought item number {i}" for i in range(n)]


def test_custom_deck_skips_comments_blank_lines_and_repeats(tmp_path: Path) -> None:
    text = "\ufeff# my deck\n\n" + "\r\n".join(_clues(MIN_CUSTOM_CLUES)) + "\n  \n" + _clues(1)[0].upper() + "\n"
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    assert load_deck_file(path) == tuple(_clues(MIN_CUSTOM_CLUES))


def test_custom_deck_keeps_persian_and_thai_text(tmp_path: Path) -> None:
    clues = [f"کسی که {i} بار خندیده" for i in range(MIN_CUSTOM_CLUES)] + ["คนที่ใส่แว่นตา"]
    path = tmp_path / "deck.txt"
    path.write_bytes("\n".join(clues).encode("utf-8"))
    assert load_deck_file(path) == tuple(clues)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ("\n".join(_clues(30)).encode("utf-16"), DeckNotUtf8),
        ("\n".join(_clues(30)).encode("latin-1") + b"\xe9t\xe9", DeckNotUtf8),
        (b"", DeckEmpty),
        (b"# only a comment\n\n   \n", DeckEmpty),
        ("\n".join(_clues(5)).encode(), DeckTooSmall),
        ("\n".join(_clues(30) * 2).encode()[: 30 * 10], DeckTooSmall),
        ("\n".join(_clues(30) + ["x" * (MAX_CLUE_CHARS + 1)]).encode(), ClueTooLong),
        ("\n".join(_clues(30) + ["bad\x07bell"]).encode(), ClueInvalid),
        (b"a\n" * (MAX_DECK_BYTES // 2 + 1), DeckTooLarge),
    ],
)
def test_bad_deck_files_are_rejected_with_a_typed_error(tmp_path: Path, data: bytes, error: type[DeckError]) -> None:
    path = tmp_path / "deck.txt"
    path.write_bytes(data)
    with pytest.raises(error) as caught:
        load_deck_file(path)
    assert caught.value.code and str(caught.value)
    with pytest.raises(error):
        decode_deck_bytes(data)


def test_missing_deck_file_and_a_directory_are_rejected(tmp_path: Path) -> None:
    with pytest.raises(DeckNotFound):
        load_deck_file(tmp_path / "nope.txt")
    with pytest.raises(DeckNotFound):
        load_deck_file(tmp_path)


def test_errors_name_the_offending_line() -> None:
    with pytest.raises(ClueTooLong, match="line 3"):
        parse_deck("a\nb\n" + "y" * 200, min_clues=1)


def test_a_loaded_deck_plays_as_a_custom_deck(tmp_path: Path) -> None:
    from game.games.speakeasy.rules import ENGINE

    path = tmp_path / "deck.txt"
    path.write_text("\n".join(_clues(MIN_CUSTOM_CLUES)), encoding="utf-8")
    settings = ENGINE.settings_from_wire({"custom_clues": list(load_deck_file(path))})
    state = ENGINE.new_game(settings, 12, seed=4)
    assert len(state.clue_order) == MIN_CUSTOM_CLUES


@settings(max_examples=120, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=160), st.sampled_from(["", "# note", "  ", "Someone in blue"])), max_size=40))
def test_any_text_gives_a_clean_deck_or_a_typed_error(lines: list[str]) -> None:
    try:
        deck = parse_deck("\n".join(lines), min_clues=1)
    except DeckError:
        return
    assert deck and len({c.casefold() for c in deck}) == len(deck)
    assert all(c == c.strip() and c and not c.startswith("#") and len(c) <= MAX_CLUE_CHARS for c in deck)
    assert parse_deck("\n".join(deck), min_clues=1) == deck
