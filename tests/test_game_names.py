"""Each game family has one name per language, on the TV and the phones, in table and companion
mode: the companion's name is the family's name and its mode ("ผีเสื้อขี้โกง (ไพ่จริง)"), never a
second name for the same game (it was "ผีเสื้อกลางคืนขี้โกง" in companion mode)."""
from __future__ import annotations

import pytest

from game import catalog, i18n
from game.server.app import I18N_DIR, phone_strings

ZWSP = "\u200b"  # the TV's Thai strings mark word breaks; the name is the same without them


def shown(lang: str, domain: str, key: str) -> str:
    return i18n.text(lang, domain, key).replace(ZWSP, "")


def phone(lang: str, key: str) -> str:
    """A phone string as the table serves it (the shared words and every game's own)."""
    strings = phone_strings(I18N_DIR, lang)
    assert strings is not None
    return strings[key].replace(ZWSP, "")


def family_name(lang: str, family: str) -> str:
    return phone(lang, f"game.{family}")


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
@pytest.mark.parametrize("game", catalog.ids())
def test_each_game_family_has_one_name_on_every_screen(lang: str, game: str) -> None:
    desc = catalog.get(game)
    name = family_name(lang, desc.family)
    names = {"the phone": phone(lang, f"game.{game}"), "the TV": shown(lang, "screen", f"game.{game}")}
    if game == desc.family:
        assert names == {"the phone": name, "the TV": name}
    else:
        assert {where: text.startswith(f"{name} (") for where, text in names.items()} == {"the phone": True, "the TV": True}, names
    titles = [domain for domain in desc.strings if i18n.has(lang, domain, "title") and domain != "screen"]
    for domain in titles:
        assert shown(lang, domain, "title").startswith(name), (domain, shown(lang, domain, "title"))
