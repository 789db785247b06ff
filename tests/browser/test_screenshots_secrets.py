"""Screenshots of the phone pages with secrets and names, in English, Persian and Thai with real names
(out/phone/<lang>_<page>.png): secrets face down and shown (identity, gold, hand), the guard's plate
with a subtle tell, a give, a caught cheater named twice in one sentence, and a bot with its mark."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from game.games.cheating_moth.rules import Accused

from .conftest import Phones, Table
from .phone import drag_to_sleeve, join, look
from .test_cheating_moth_gives import spider_give
from .test_cheating_moth_phones import you
from .test_collusion_phones import start_short_game
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

LANGS = ("en", "fa", "th")
NAMES = {"en": ("Ali", "Sara", "Nok"), "fa": ("نیلوفر", "علی", "سارا"), "th": ("สมชาย", "Ali", "นก")}
BOT_NAME = {"en": "Yellow", "fa": "زرد", "th": "เหลือง"}  # seat 3's colour in the table's language


def seated(table: Table, phones: Phones, lang: str, game: str) -> list[Any]:
    """Three phones named in ``lang`` and a bot at seat 3, ready to start ``game``."""
    table.host("set_language", language=lang)
    table.host("set_game", game=game)
    table.host("set_seats", count=4)
    pages = [phones.open(table.seat_url(i), scale=2 if i == 0 else 1) for i in range(3)]
    for page, name in zip(pages, NAMES[lang]):
        join(page, name)
    table.host("set_bot", seat=3, kind="heuristic")
    return pages


def caught(table: Table, guard: int, target: int) -> None:
    """The table as just after ``guard`` caught ``target`` cheating (M10)."""
    def go(session: Any) -> None:
        state = dataclasses.replace(session.run.state, last_accusation=Accused(guard, target, True))
        session.run = dataclasses.replace(session.run, state=state)
        session._refresh()
    table.call(go)


@pytest.mark.parametrize("lang", LANGS)
def test_cheating_moth_pages(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    first, second, third = seated(table, phones, lang, "cheating_moth")
    table.host("start")
    first.wait_for_selector("[data-testid=hand-card-peek]")
    shoot(first, shots, lang, "moth_hand_covered")
    look(first, "hand-card")
    shoot(first, shots, lang, "moth_hand_shown")

    # The second player holds a card to cheat: the guard's plate for them trembles, says nothing.
    look(second, "hand-card")
    mine = you(table, 1)
    card = next(c["id"] for c in mine["hand"] if c["id"] not in mine["playable"])
    drag_to_sleeve(second, card)
    first.locator("[data-testid=accuse-1][data-tell=tremble]").wait_for()
    shoot(first, shots, lang, "moth_tell")
    second.mouse.up()

    # A caught cheater is named twice in one sentence: both names show.
    caught(table, 0, 1)
    third.wait_for_selector(".notice")
    notice = third.inner_text(".notice")
    assert notice.count(NAMES[lang][1]) == 2 and NAMES[lang][0] in notice, notice
    shoot(third, shots, lang, "moth_caught")

    # A Spider's give: a card first, then the receiver (the bot among them, with its mark).
    spider_give(table, 0)
    first.locator(".moth-card.givable").first.click()
    first.wait_for_selector("[data-testid=give-3] .bot-mark")
    assert BOT_NAME[lang] in first.inner_text("[data-testid=give-3]")
    shoot(first, shots, lang, "moth_give")


@pytest.mark.parametrize("lang", LANGS)
def test_speakeasy_identity_pages(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    pages = seated(table, phones, lang, "speakeasy")
    table.host("start")
    page = pages[0]
    page.wait_for_selector("[data-testid=identity-peek]")
    shoot(page, shots, lang, "speakeasy_identity_covered")
    look(page, "identity")
    shoot(page, shots, lang, "speakeasy_identity_shown")


@pytest.mark.parametrize("lang", LANGS)
def test_collusion_gold_pages(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    pages = seated(table, phones, lang, "collusion")
    table.host("set_seats", count=4)
    start_short_game(table, conspiracy_ms=120_000)
    page = pages[0]
    page.wait_for_selector("[data-testid=gold-peek]")
    assert page.locator(".vote-grid [data-testid=vote-3] .bot-mark").count() == 1
    shoot(page, shots, lang, "collusion_gold_covered")
    look(page, "gold")
    shoot(page, shots, lang, "collusion_gold_shown")
