"""Three phones play a whole game of Collusion against bots through the real server.

Checks what each phone shows (its own gold with values, never another seat's), what reached each
phone over its socket (only its own private view), reload mid-game, and the language switch."""
from __future__ import annotations

from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join, look, play_step, shown_gold, shown_total

pytestmark = pytest.mark.browser

NAMES = ("Sara", "Ali", "Nok")
GAME_STEPS = 1_500  # play_step rounds across the three phones before giving up


def seat_view(table: Table, seat: int) -> dict[str, Any]:
    return table.call(lambda s: s.update.message(seat)["view"])


def start_short_game(table: Table, *, conspiracy_ms: int = 30_000) -> None:
    """A full game, shortened: a low target so a few rounds decide it; bots fill the free seats."""
    table.host("set_setting", name="target_score", value=10)
    table.host("set_setting", name="target_score_large", value=10)
    table.host("set_setting", name="conspiracy_ms", value=conspiracy_ms)
    table.host("fill_bots", kind="heuristic")
    table.host("start")


def test_three_phones_play_a_whole_game(table: Table, phones: Phones) -> None:
    frames: list[list[dict[str, Any]]] = [[], [], []]
    pages = [phones.open(table.seat_url(i), frames=frames[i]) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    # Every phone's lobby lists the three players by name; each shows its own seat.
    for i, page in enumerate(pages):
        page.wait_for_function("document.querySelectorAll('[data-testid=seat-list] .status-joined').length === 3")
        assert page.inner_text("[data-testid=my-name]") == NAMES[i]
        assert all(n in page.inner_text("[data-testid=seat-list]") for n in NAMES)

    start_short_game(table)
    for page in pages:
        page.wait_for_selector(".vote-grid")

    done = [False, False, False]
    for _ in range(GAME_STEPS):
        for i, page in enumerate(pages):
            done[i] = done[i] or play_step(page)
        if all(done):
            break
        pages[0].wait_for_timeout(40)
    assert all(done), "the game did not reach its end on every phone"
    assert table.call(lambda s: s.phase.value) == "finished"

    for i, page in enumerate(pages):
        view = seat_view(table, i)
        # Own gold, with values and total, exactly as the server's private view for this seat.
        assert shown_gold(page) == view["me"]["gold"]
        assert shown_total(page) == view["me"]["total"] == view["final"]["totals"][i]
        # Only this phone's bars are drawn: one bar element per own bar, none for anyone else.
        assert page.locator(".bar").count() == len(view["me"]["gold"])
        # The result banner and the explained final scores are there.
        assert page.locator("[data-testid=result]").is_visible()
        assert (i in view["winners"]) == (page.locator(".result-banner.win").count() == 1)

    # What reached each phone: its own private view only, never another seat's.
    for i, received in enumerate(frames):
        states = [f for f in received if f.get("kind") == "state" and f.get("view")]
        assert states, f"phone {i} received no game state"
        for f in states:
            assert f["view"]["me"]["seat"] == i
            assert "gold" not in str(list(f["view"]["seats"]))
        welcome = [f for f in received if f.get("kind") == "welcome"]
        assert welcome and all(w["seat"] == i for w in welcome)


def test_reload_mid_game_keeps_seat_and_secrets(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    start_short_game(table, conspiracy_ms=120_000)
    page = pages[1]
    page.wait_for_selector(".vote-grid")
    page.locator(".vote-grid [data-testid^=vote-]:not([data-testid=vote-ambush])").first.click()
    page.wait_for_selector(".vote-card.selected")
    chosen = page.get_attribute(".vote-card.selected", "data-testid")
    gold_before = shown_gold(page)

    page.reload()
    page.wait_for_selector(".vote-card.selected")
    assert page.inner_text(".who-name") == NAMES[1]
    assert page.get_attribute(".vote-card.selected", "data-testid") == chosen
    assert shown_gold(page) == gold_before == seat_view(table, 1)["me"]["gold"]
    # Still playable after the reload: lock the card in.
    page.click("[data-testid=lock]")
    page.wait_for_selector("[data-testid=locked]")
    assert seat_view(table, 1)["me"]["locked"] is True


def test_ambush_choice_and_final_showdown(table: Table, phones: Phones) -> None:
    """Three phones, no bots: Sara and Ali vote for Nok, Nok plays Ambush (C10) and takes Sara
    down; Ali and Nok meet in the Final Showdown (C15): Ali splits, Nok steals all four bars."""
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    table.host("set_seats", count=3)
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("start")
    sara, ali, nok = pages
    for page, card in ((sara, "vote-2"), (ali, "vote-2"), (nok, "vote-ambush")):
        page.click(f"[data-testid={card}]")
        page.wait_for_selector(f"[data-testid={card}].selected")
        page.click("[data-testid=lock]")
        page.wait_for_selector("[data-testid=locked], [data-testid^=victim-]")

    # Nok, targeted with an Ambush ready, chooses among the voters; the others wait for it.
    nok.wait_for_selector("[data-testid=victim-0]")
    assert sorted(nok.locator("[data-testid^=victim-]").evaluate_all("els => els.map(e => e.dataset.testid)")) == ["victim-0", "victim-1"]
    assert "Nok ambushed" in sara.inner_text("main")
    nok.click("[data-testid=victim-0]")
    nok.click("[data-testid=ambush-confirm]")

    sara.wait_for_selector("[data-testid=reveal] .death")
    explained = sara.inner_text("[data-testid=reveal]")
    assert "Sara was ambushed by Nok and died." in explained and "rule C10" in explained
    assert "Nok was a target but played Ambush" in explained

    ali.click("[data-testid=showdown-split]")
    ali.wait_for_selector("[data-testid=showdown-split].selected")
    ali.click("[data-testid=lock]")
    nok.click("[data-testid=showdown-steal]")
    nok.wait_for_selector("[data-testid=showdown-steal].selected")
    nok.click("[data-testid=lock]")

    ali.wait_for_selector("[data-testid=round-end]")
    summary = ali.inner_text("[data-testid=round-end]")
    assert "Ali chose Split → 0 bars" in summary and "Nok chose Steal → 4 bars" in summary
    look(nok, "gold")
    nok.wait_for_function("document.querySelectorAll('[data-testid=my-gold] .bar').length === 4")
    assert shown_gold(nok) == seat_view(table, 2)["me"]["gold"]
    assert shown_gold(ali) == [] and shown_gold(sara) == []
