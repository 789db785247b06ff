"""The screen's strings: the same keys and placeholders in every language, and the loader."""
from __future__ import annotations

import string

import pytest

from game import i18n


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_language_has_every_key_with_the_same_placeholders():
    english = i18n.load("en", "screen")
    assert len(english) > 100
    for lang in ("fa", "th"):
        strings = i18n.load(lang, "screen")
        assert set(strings) == set(english), lang
        for key, template in english.items():
            assert placeholders(strings[key]) == placeholders(template), (lang, key)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_a_bot_is_named_by_its_level_or_as_random_and_no_other_bot_label_is_left(lang: str) -> None:
    """The lobbies (TV and phone) name a bot by the level players picked (easy / normal / hard) or
    as the random one: the older "Bot (clever)" (``seat.bot``, ``bot.heuristic``) was nowhere used."""
    from game.bots import Level

    levels = {level.label_key for level in Level}
    screen = {key for key in i18n.load(lang, "screen") if key.startswith(("bot.", "seat.bot"))}
    web = {key for key in i18n.load(lang, "web") if key.startswith(("bot.", "seat.bot"))}
    assert screen == {*levels, "seat.bot_random"}
    assert web == {*levels, "bot.random"}


def test_translations_are_written_in_their_script():
    for lang, low, high in (("fa", 0x0600, 0x06FF), ("th", 0x0E00, 0x0E7F)):
        strings = i18n.load(lang, "screen")
        native = [k for k, v in strings.items() if any(low <= ord(c) <= high for c in v)]
        assert len(native) > 0.85 * len(strings), lang


def test_text_fills_placeholders_and_writes_persian_digits():
    assert i18n.text("en", "screen", "table.bars", n=3) == "3 bars"
    assert i18n.text("fa", "screen", "table.bars", n=12) == "۱۲ شمش"
    assert i18n.text("th", "screen", "seat.name", n=4) == "ที่นั่ง 4"


def test_unknown_language_and_key_are_clear_errors():
    with pytest.raises(i18n.UnknownLanguage):
        i18n.load("xx", "screen")
    with pytest.raises(i18n.MissingString):
        i18n.text("fa", "screen", "no.such.key")


def test_a_missing_domain_file_is_empty_and_falls_back():
    assert dict(i18n.load("fa", "nothing_here")) == {}
    assert not i18n.has("fa", "nothing_here", "x")
