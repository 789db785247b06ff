"""Cheating Moth's end on the phones and /watch names the winner(s) (M19, docs/rules/cheating-moth.md): not only
"And the winner is…", and that title no longer stands above the winner card ("Game over" does, and
the card says who won) — in the full game and in the companion. The game is played to its end by bots on the table's own engine, then the
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
GAME_OVER = {"en": "Game over", "fa": "پایان بازی", "th": "จบเกม"}  # moth.phase.game_over
TEASER = {"en": "And the winner is", "fa": "و برنده…", "th": "และผู้ชนะคือ"}  # the old title, gone


def final_reads_naturally(page: Any, lang: str) -> None:
    """The title says the game is over; "And the winner is…" no longer stands above the card."""
    assert page.inner_text("[data-testid=status]") == GAME_OVER[lang]
    assert TEASER[lang] not in page.inner_text("main")


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
        final_reads_naturally(page, lang)
    shoot(pages[0], shots, lang, "moth_final")
    shoot(watch, shots, lang, "moth_final_watch")


def finish_companion(table: Table, points: tuple[int, int, int]) -> None:
    """Every round of the companion ends with seat 1 out (0 points, M17) and the others' ``points``
    entered; the last "next round" ends the game (M19)."""
    from game.games.cheating_moth.companion import EnterPoints, NextRound, RoundOver

    def go(session: Any) -> None:
        run = session.run
        state = run.state
        while state.final is None:
            state, _ = run.engine.apply(state, None, RoundOver(out=1))
            for seat in (0, 2):
                state, _ = run.engine.apply(state, None, EnterPoints(seat=seat, points=points[seat]))
            state, _ = run.engine.apply(state, None, NextRound())
        session.run = dataclasses.replace(run, state=state)
        session._refresh()
    table.call(go)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_companions_final_names_the_winner(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    pages = [phones.open(table.seat_url(i), scale=2 if i == 0 else 1) for i in range(3)]
    for page, name in zip(pages, NAMES[lang]):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_mode", mode="companion")
    table.host("set_seats", count=3)
    table.host("start")
    pages[0].wait_for_selector("[data-testid=call-mosquito]")

    finish_companion(table, (5, 0, 3))  # seat 1 went out every round: the lowest total wins (M19)
    watch = phones.open(f"{table.url}/watch", scale=2)
    for page in [*pages, watch]:
        page.wait_for_selector("[data-testid=winners]")
        text = page.inner_text("[data-testid=winners]")
        assert NAMES[lang][1] in text and NAMES[lang][0] not in text and NAMES[lang][2] not in text, text
        final_reads_naturally(page, lang)
    assert pages[1].locator("[data-testid=result].win").count() == 1
    assert watch.locator("[data-testid=result]").count() == 0  # a spectator neither won nor lost
    shoot(pages[0], shots, lang, "moth_companion_final")
    shoot(watch, shots, lang, "moth_companion_final_watch")
