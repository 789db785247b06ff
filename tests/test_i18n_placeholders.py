"""Every string file in game/i18n/ (the TV's ``screen*`` and the phone's ``web``): each English
string exists in Persian and Thai, and each of its ``{placeholders}`` appears there too, so no
sentence drops a player's name or a number in translation."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game import catalog

I18N = Path(__file__).resolve().parents[1] / "game" / "i18n"
FOLDERS = (I18N, *catalog.string_folders())  # the shared words, then each game's own
OTHERS = ("fa", "th")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def domains() -> list[str]:
    return sorted(p.name.removesuffix("_en.json") for folder in FOLDERS for p in folder.glob("*_en.json"))


def strings(domain: str, lang: str) -> dict[str, str]:
    path = next(folder / f"{domain}_{lang}.json" for folder in FOLDERS if (folder / f"{domain}_en.json").is_file())
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_every_domain_is_found() -> None:
    assert {"screen", "web"} <= set(domains())
    assert {d for desc in catalog.games() for d in (*desc.strings, *desc.phone_strings)} <= set(domains())


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("domain", domains())
def test_each_english_placeholder_appears_in_the_translation(domain: str, lang: str) -> None:
    english, other = strings(domain, "en"), strings(domain, lang)
    missing_keys = sorted(set(english) - set(other))
    assert missing_keys == [], f"{domain}_{lang}.json lacks {missing_keys}"
    dropped = {key: sorted(set(PLACEHOLDER.findall(text)) - set(PLACEHOLDER.findall(other[key])))
               for key, text in english.items()}
    assert {k: v for k, v in dropped.items() if v} == {}, f"{domain}_{lang}.json drops placeholders"
    unknown = {key: sorted(set(PLACEHOLDER.findall(other[key])) - set(PLACEHOLDER.findall(text)))
               for key, text in english.items()}
    assert {k: v for k, v in unknown.items() if v} == {}, f"{domain}_{lang}.json has placeholders English lacks"


@pytest.mark.parametrize("domain", domains())
def test_persian_moth_has_its_zero_width_non_joiner(domain: str) -> None:
    """شب‌پره (moth) is one word written with a zero-width non-joiner, never "شب پره" or "شبپره"."""
    wrong = {k: v for k, v in strings(domain, "fa").items() if "شب پره" in v or "شبپره" in v}
    assert wrong == {}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("domain", domains())
def test_persian_and_thai_use_no_middle_dot(domain: str, lang: str) -> None:
    """Persian and Thai separators are " | " or words: the middle dot "·" is punctuation of neither."""
    assert [k for k, v in strings(domain, lang).items() if "·" in v] == []
