"""Languages as real groups met them (a Thai guest at a Persian table and the other way round):
Speakeasy's clue on a phone is in that phone's language (the built-in decks are line-aligned), the
big screen keeps the table's; screenshots of the clue card go to out/phone/."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.games.speakeasy.clues import builtin_deck

from .conftest import Phones, Table
from .phone import join
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

LOCALES = {"fa": "fa-IR", "th": "th-TH"}


def test_builtin_decks_are_line_aligned() -> None:
    """S2: a clue id names the same clue in every deck (same count; each language's n-th clue is the
    same line of its file, so the phone can show the clue on the table in its own language)."""
    decks = {lang: builtin_deck(lang) for lang in ("en", "fa", "th")}
    assert len({len(d) for d in decks.values()}) == 1
    assert decks["en"][0] == "Someone wearing glasses" and decks["fa"][0] == "کسی که عینک زده"


@pytest.mark.parametrize("phone_lang, table_lang", [("th", "fa"), ("fa", "th")])
def test_S2_the_readers_phone_shows_the_clue_in_its_language(phone_lang: str, table_lang: str, table: Table,
                                                              phones: Phones, shots: Path) -> None:
    table.host("set_language", language=table_lang)
    table.host("set_game", game="speakeasy")
    reader = phones.open(table.seat_url(0), locale=LOCALES[phone_lang])
    join(reader, "Nok" if phone_lang == "th" else "سارا")
    table.host("set_seats", count=4)
    table.host("fill_bots", kind="random")
    table.host("start")
    reader.wait_for_selector("[data-testid=clue]")
    clue = table.call(lambda s: s.state_message(None)["view"]["clue"])
    assert table.call(lambda s: s.state_message(None)["view"]["deck"]) == table_lang  # the TV's deck
    assert clue["text"] == builtin_deck(table_lang)[clue["id"]]
    mine = builtin_deck(phone_lang)[clue["id"]]
    reader.wait_for_function("t => document.querySelector('[data-testid=clue]')?.textContent === t", arg=mine)
    assert reader.evaluate("document.documentElement.lang") == phone_lang
    shoot(reader, shots, phone_lang, f"speakeasy_clue_at_{table_lang}_table")
