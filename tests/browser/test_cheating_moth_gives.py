"""Cheating Moth gives on the phone (M13): pick a card, then the player it goes to. A second give in
the same round starts again from the card: never a "Give to" button for a card already given
(those buttons once answered "You can't do that now" and the give fell to the timer)."""
from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from game.games.cheating_moth.rules import Giving, Phase

from .conftest import Phones, Table
from .phone import join, look
from .test_cheating_moth_phones import wait_until, you

pytestmark = pytest.mark.browser


def spider_give(table: Table, seat: int) -> None:
    """Put the table where ``seat`` has just played a Spider and must give a card (M13)."""
    def go(session: Any) -> None:
        state = session.run.state
        state = dataclasses.replace(state, phase=Phase.SPIDER_GIVE, giving=Giving("M13", seat, (seat,)), turn=seat,
                                    decision=state.decision + 1)
        session.run = dataclasses.replace(session.run, state=state)
        session._refresh()
    table.call(go)


def hand_size(table: Table, seat: int) -> int:
    return len(you(table, seat)["hand"])


def give_buttons(page: Any) -> int:
    return int(page.locator("[data-testid^=give-]").count())


def give_one(page: Any, table: Table, to: int) -> None:
    """Tap a card that can be given, then the receiver; the card lands in the receiver's hand."""
    look(page, "hand-card")
    page.wait_for_selector(".moth-card.givable")
    assert give_buttons(page) == 0, "a 'Give to' button before any card was picked"
    before = hand_size(table, to)
    card = page.locator(".moth-card.givable").first
    card_id = int(str(card.get_attribute("data-testid")).removeprefix("card-"))
    card.click()
    page.wait_for_selector(f"[data-testid=give-{to}]")
    page.click(f"[data-testid=give-{to}]")
    wait_until(page, lambda: hand_size(table, to) == before + 1, "the card reaching the receiver")
    assert card_id in [c["id"] for c in you(table, to)["hand"]]


def test_two_spider_gives_in_one_round_pick_a_card_then_a_player(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    table.host("start")
    sara = pages[0]
    sara.wait_for_selector("[data-testid=hand-card]")

    spider_give(table, 0)
    give_one(sara, table, 1)
    sara.wait_for_function("!document.querySelector('.moth-card.givable')")

    spider_give(table, 0)  # the same round: a second Spider
    give_one(sara, table, 2)
    assert sara.locator(".toast-error").count() == 0
