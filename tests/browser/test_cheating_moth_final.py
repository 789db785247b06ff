"""Cheating Moth's end on the phones and /watch names the winner(s) (M19, issue 11 item 13): not only
"And the winner is…". The game is played to its end by bots on the table's own engine, then the
phones show it in English, Persian and Thai (screenshots: out/phone/<lang>_moth_final*.png)."""
from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from game.bots import make_bot
from game.simulate import play_game

from .conftest import Phones, Table
from .phone import join
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

NAMES = {"en": ("Sara", "Ali", "Nok"), "fa": ("نیلوفر", "علی", "سارا"), "th": ("สมชาย", "Ali", "นก")}


def finish_game(table: Table) -> list[int]:
    """Bots play the table's game to its end from the start; the table takes the final state."""
    def go(session: Any) -> list[int]:
        run = session.run
        bots = [make_bot("cheating_moth", "heuristic", s, run.seed + s) for s in range(run.n_seats)]
        result = play_game(run.engine, run.state.settings, run.n_seats, run.seed, bots)
        session.run = dataclasses.replace(run, state=result.state)
        session._refresh()
        return list(result.winners)
    winners: list[int] = table.call(go)
    return winners


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_final_names_the_winners(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    pages = [phones.open(table.seat_url(i), scale=2 if i == 0 else 1) for i in range(3)]
    for page, name in zip(pages, NAMES[lang]):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    table.host("start")
    pages[0].wait_for_selector("[data-testid=hand-card]")

    winners = finish_game(table)
    assert winners
    watch = phones.open(f"{table.url}/watch", scale=2)
    for page in [*pages, watch]:
        page.wait_for_selector("[data-testid=winners]")
        text = page.inner_text("[data-testid=winners]")
        for seat in range(3):
            assert (NAMES[lang][seat] in text) == (seat in winners), (seat, winners, text)
    shoot(pages[0], shots, lang, "moth_final")
    shoot(watch, shots, lang, "moth_final_watch")
