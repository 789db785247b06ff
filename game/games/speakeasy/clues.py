"""Speakeasy clue decks (rule S2): the built-in deck per language and custom deck files.

A deck file is plain UTF-8 text, one clue per line; blank lines and lines starting with ``#`` are
skipped, repeated clues are kept once. A file that cannot be used raises a :class:`DeckError`
subclass with a wire ``code`` and a readable message, so the caller keeps the deck it had.
"""
from __future__ import annotations

import functools
import unicodedata
from pathlib import Path

from game.errors import TableError
from game.package_files import package_path

CLUES_DIR = package_path("decks", package=__package__ or __name__)  # package data: shipped in the wheel
MAX_CLUE_CHARS = 140
MIN_CUSTOM_CLUES = 24  # enough for a full 12-seat game at the default 2 clues per player (S4)
MAX_DECK_BYTES = 256 * 1024
BUILTIN_DECKS: tuple[str, ...] = ("en", "fa", "th")  # one per UI language (game.config.LANGUAGES)


class DeckError(TableError, ValueError):
    """A deck that cannot be used; ``code`` is the wire/i18n key for the message."""

    code = "deck_invalid"


class DeckNotFound(DeckError):
    code = "deck_not_found"


class DeckTooLarge(DeckError):
    code = "deck_too_large"


class DeckNotUtf8(DeckError):
    code = "deck_not_utf8"


class DeckEmpty(DeckError):
    code = "deck_empty"


class DeckTooSmall(DeckError):
    code = "deck_too_small"


class ClueTooLong(DeckError):
    code = "clue_too_long"


class ClueInvalid(DeckError):
    code = "clue_invalid"


def _clean_line(raw: str) -> str:
    return unicodedata.normalize("NFC", raw.strip())


def _check_clue(text: str, line_no: int) -> None:
    if len(text) > MAX_CLUE_CHARS:
        raise ClueTooLong(
            f"line {line_no}: a clue may be at most {MAX_CLUE_CHARS} characters (this one has {len(text)})"
        )
    bad = [c for c in text if unicodedata.category(c) in ("Cc", "Cs", "Co")]
    if bad:
        raise ClueInvalid(f"line {line_no}: contains control characters")


def parse_deck(text: str, *, min_clues: int = MIN_CUSTOM_CLUES) -> tuple[str, ...]:
    """The clues in a deck text: one per line, ``#`` comments and blank lines skipped, first copy kept."""
    clues: list[str] = []
    seen: set[str] = set()
    for line_no, raw in enumerate(text.lstrip("\ufeff").splitlines(), start=1):
        clue = _clean_line(raw)
        if not clue or clue.startswith("#"):
            continue
        _check_clue(clue, line_no)
        if clue.casefold() not in seen:
            seen.add(clue.casefold())
            clues.append(clue)
    if not clues:
        raise DeckEmpty("the deck has no clues (one clue per line; lines starting with # are comments)")
    if len(clues) < min_clues:
        raise DeckTooSmall(f"the deck has {len(clues)} different clues; it needs at least {min_clues}")
    return tuple(clues)


def decode_deck_bytes(data: bytes, *, min_clues: int = MIN_CUSTOM_CLUES) -> tuple[str, ...]:
    """Parse a deck uploaded or read as bytes (must be UTF-8)."""
    if len(data) > MAX_DECK_BYTES:
        raise DeckTooLarge(f"the deck file is {len(data)} bytes; the limit is {MAX_DECK_BYTES}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeckNotUtf8(
            f"the deck file is not UTF-8 text (bad byte at position {exc.start}); save it as UTF-8"
        ) from None
    return parse_deck(text, min_clues=min_clues)


def load_deck_file(path: str | Path, *, min_clues: int = MIN_CUSTOM_CLUES) -> tuple[str, ...]:
    """Load a custom deck file; raises a :class:`DeckError` (the caller keeps its current deck)."""
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_DECK_BYTES:
            raise DeckTooLarge(f"the deck file is {size} bytes; the limit is {MAX_DECK_BYTES}")
        data = file.read_bytes()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        raise DeckNotFound(f"no deck file at {file}") from None
    except PermissionError:
        raise DeckNotFound(f"the deck file {file} cannot be read (permission denied)") from None
    return decode_deck_bytes(data, min_clues=min_clues)


@functools.cache
def builtin_deck(language: str) -> tuple[str, ...]:
    """The built-in deck of a UI language ("en", "fa", "th")."""
    if language not in BUILTIN_DECKS:
        raise DeckNotFound(f"no built-in deck {language!r}; choose one of {', '.join(BUILTIN_DECKS)}")
    return load_deck_file(CLUES_DIR / f"{language}.txt", min_clues=100)


def phone_data(name: str) -> list[str] | None:
    """What the phones may fetch (``/games/speakeasy/<name>.json``): ``clues_<lang>``, a built-in
    deck as a list (the decks are line-aligned: a clue id names the same clue in every language, so
    a phone shows the clue on the table in its own language). None: no such data."""
    kind, _, language = name.partition("_")
    if kind != "clues" or language not in BUILTIN_DECKS:
        return None
    return list(builtin_deck(language))
