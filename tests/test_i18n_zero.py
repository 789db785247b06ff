"""A count of nobody is said in words: "Nobody has locked in yet", not "0 of 3 locked in" (a
Persian "صفر نفر از ۳ نفر" reads badly). A counting string may have a ``key.zero`` form, said for
exactly n = 0 in every language (ICU's "=0"), beside its CLDR forms ``key.one`` / ``key.other``."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game import catalog as games
from game import i18n

I18N = Path(i18n.__file__).resolve().parent
FOLDERS = (I18N, *games.string_folders())  # the shared words, then each game's own
LANGS = ("en", "fa", "th")
N_OF_M = re.compile(r"\{n\}[^{}]* of \{(m|total)\}")
POSITIONS = ("settings.page", "moth.round_of", "speakeasy.clue_of", "sec.clue_of")  # "clue 2 of 5": never 0


def catalog(domain: str, lang: str) -> dict[str, str]:
    path = next(folder / f"{domain}_{lang}.json" for folder in FOLDERS if (folder / f"{domain}_en.json").is_file())
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def domains() -> list[str]:
    return sorted(p.name.removesuffix("_en.json") for folder in FOLDERS for p in folder.glob("*_en.json"))


@pytest.mark.parametrize("domain", domains())
def test_every_n_of_m_count_says_nobody_in_words(domain: str) -> None:
    """Each "{n} of {m} ..." sentence (who has locked, pointed, answered) has a zero form in every
    language, and the zero form writes no number."""
    english = catalog(domain, "en")
    counted = {key.removesuffix(".other").removesuffix(".one") for key, text in english.items() if N_OF_M.search(text)}
    counted -= set(POSITIONS)
    for lang in LANGS:
        strings = catalog(domain, lang)
        lacking = sorted(key for key in counted if f"{key}.zero" not in strings)
        assert lacking == [], f"{domain}_{lang}.json: no zero form for {lacking}"
        assert [key for key in counted if "{" in strings[f"{key}.zero"]] == []


@pytest.mark.parametrize(("lang", "nobody", "one"), [
    ("en", "No cards down yet", "Cards down: 1 of 3"),
    ("fa", "هنوز کارتی روی میز نیست", "۱ کارت از ۳ روی میز"),
    ("th", "ยัง\u200bไม่มี\u200bใคร\u200bวาง\u200bไพ่", "วาง\u200bแล้ว 1 จาก 3 ใบ"),
])
def test_the_tv_says_nobody_for_zero_and_counts_from_one(lang: str, nobody: str, one: str) -> None:
    assert i18n.text(lang, "screen", "table.cards_down", n=0, m=3) == nobody
    assert i18n.text(lang, "screen", "table.cards_down", n=1, m=3) == one
    assert i18n.text(lang, "screen", "table.cards_down", n=3, m=3) == one.replace("1", "3").replace("۱", "۳", 1)


def test_a_zero_form_is_only_for_exactly_zero() -> None:
    """English "other" covers 0 and 2; only 0 takes the zero form, 2 keeps counting."""
    assert i18n.text("en", "screen_collusion_companion", "check.count", n=2, m=4) == "2 of 4 answered"
    assert i18n.text("en", "screen_collusion_companion", "check.count", n=0, m=4) == "Nobody has answered yet"
    assert i18n.plural_category("en", 0) == "other"  # CLDR has no zero category for en/fa/th
