"""Secrets face down: Speakeasy's identity, Collusion's gold values and Cheating
Moth's hand are covered on the phone until their player taps to look, like a boxed game's "look at
your card and put it face down". The cover is a real button (touch, mouse, keyboard), a redraw from
the table keeps a shown secret shown, "Put face down" covers it again, and a hand that has been
looked at can be played from."""
from __future__ import annotations

from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join, look
from .test_cheating_moth_phones import wait_until, you
from .test_collusion_phones import start_short_game

pytestmark = pytest.mark.browser


def seat_view(table: Table, seat: int) -> dict[str, Any]:
    view: dict[str, Any] = table.call(lambda s: s.update.message(seat)["view"])
    return view


def covered(page: Any, secret: str, secret_text: list[str]) -> None:
    """The secret's card shows its cover and none of the secret's words."""
    page.wait_for_selector(f"[data-testid={secret}-peek]")
    assert page.get_attribute(f"[data-testid={secret}-peek]", "aria-expanded") == "false"
    shown = page.inner_text("main")
    for word in secret_text:
        assert word not in shown, f"{word!r} is shown face down"


def test_speakeasy_identity_shows_only_while_looked_at(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_game", game="speakeasy")
    table.host("set_seats", count=4)
    table.host("fill_bots", kind="random")
    table.host("start")
    sara = pages[0]
    words = ["Informant", "Citizen"]
    covered(sara, "identity", words)
    assert sara.locator("[data-testid=identity] .identity-box").count() == 0

    # Keyboard: the cover is a button, Enter turns it over and focus moves to "Put face down".
    sara.focus("[data-testid=identity-peek]")
    sara.keyboard.press("Enter")
    sara.wait_for_selector("[data-testid=identity-hide]:focus")
    mine = seat_view(table, 0)["me"]["identity"]
    assert sara.get_attribute("[data-testid=identity] .identity-box", "class").endswith(f"identity-{mine}")
    assert sara.get_attribute("[data-testid=identity-hide]", "aria-expanded") == "true"

    sara.click("[data-testid=identity-hide]")
    covered(sara, "identity", words)
    sara.wait_for_selector("[data-testid=identity-peek]:focus")


def test_collusion_gold_stays_shown_through_a_vote_and_covers_again(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    start_short_game(table, conspiracy_ms=120_000)
    ali = pages[1]
    ali.wait_for_selector(".vote-grid")
    covered(ali, "gold", [])
    assert ali.locator("[data-testid=my-gold], [data-testid=my-total]").count() == 0

    ali.tap("[data-testid=gold-peek]")  # a finger, not a mouse
    ali.wait_for_selector("[data-testid=my-total]")
    gold = seat_view(table, 1)["me"]["gold"]
    assert [int(v) for v in ali.locator("[data-testid=my-gold] .bar-value").all_inner_texts()] == gold

    # The vote buttons were never covered; a vote (a new state from the table) keeps the gold shown.
    version = table.call(lambda s: s.version)
    ali.locator(".vote-grid [data-testid^=vote-]:not([data-testid=vote-ambush])").first.click()
    wait_until(ali, lambda: table.call(lambda s: s.version) > version, "the vote reaching the table")
    ali.wait_for_selector(".vote-card.selected")
    assert ali.locator("[data-testid=my-total]").count() == 1

    ali.click("[data-testid=gold-hide]")
    covered(ali, "gold", [])
    assert ali.locator("[data-testid=my-gold], [data-testid=my-total]").count() == 0


def test_cheating_moth_hand_is_played_after_a_look(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    table.host("start")
    sara = pages[0]  # the first guard plays first
    covered(sara, "hand-card", [])
    assert sara.locator("[data-testid^=card-]").count() == 0
    assert "Your turn" in sara.inner_text("[data-testid=hand-card-peek]")

    look(sara, "hand-card")
    hand = you(table, 0)
    ids = sorted(int(str(t).removeprefix("card-")) for t in
                 sara.locator("[data-testid=hand] [data-testid^=card-]").evaluate_all("els => els.map(e => e.dataset.testid)"))
    assert ids == sorted(c["id"] for c in hand["hand"])
    plain = [c["id"] for c in hand["hand"] if c["id"] in hand["playable"] and c["kind"] == "number"]
    sara.click(f"[data-testid=card-{plain[0]}]" if plain else "[data-testid=draw]")  # no card action fires
    wait_until(sara, lambda: table.call(lambda s: s.update.message(None)["view"]["turn"]) == 1, "the turn passing on")
    assert sara.locator("[data-testid=hand-card-hide]").count() == 1  # still face up after the play
