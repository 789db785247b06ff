"""Three phones at a Cheating Moth table: each sees only its own hand, plays or draws on its turn,
cheats with the hold gesture (M8), and the guard accuses (M9, M10)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join, look
from .test_screenshots import shoot

pytestmark = pytest.mark.browser


def you(table: Table, seat: int) -> dict[str, Any]:
    return table.call(lambda s: s.update.message(seat)["view"]["me"])


def shown_hand(page: Any) -> list[int]:
    """The cards this phone shows once its player looks at the hand."""
    look(page, "hand-card")
    return sorted(page.locator("[data-testid=hand] [data-testid^=card-]").evaluate_all(
        "els => els.map(e => Number(e.dataset.testid.slice(5)))"))


def wait_until(page: Any, check: Any, what: str) -> None:
    for _ in range(200):
        if check():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never happened: {what}")


def test_hands_turns_cheating_and_accusing(table: Table, phones: Phones, shots: Path) -> None:
    pages = [phones.open(table.seat_url(i), scale=2 if i < 2 else 1) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    table.host("start")

    # Each phone shows exactly its own hand.
    for i, page in enumerate(pages):
        page.wait_for_selector("[data-testid=hand-card]")
        assert shown_hand(page) == sorted(c["id"] for c in you(table, i)["hand"])
    shoot(pages[0], shots, "en", "moth_turn")
    guard = table.call(lambda s: s.update.message(None)["view"]["guard"])
    assert guard == 0 and "Your turn" in pages[0].inner_text(".status-title")

    # The guard's turn: play a plain number card when one fits (no action fires), else draw.
    sara = pages[0]
    hand = you(table, 0)
    plain = [c["id"] for c in hand["hand"] if c["id"] in hand["playable"] and c["kind"] == "number"]
    sara.click(f"[data-testid=card-{plain[0]}]" if plain else "[data-testid=draw]")
    wait_until(sara, lambda: table.call(lambda s: s.update.message(None)["view"]["turn"]) == 1, "the turn passing on")
    assert len(you(table, 0)["hand"]) == len(hand["hand"]) + (-1 if plain else 1)

    # Ali cheats: drag a card that is not playable now onto the sleeve and hold it there until it
    # slips away (M8); a press on the card alone starts nothing (no tell for the guard to catch).
    ali = pages[1]
    look(ali, "hand-card")
    mine = you(table, 1)
    candidates = [c["id"] for c in mine["hand"] if c["id"] not in mine["playable"]]
    ali.locator(f"[data-testid=card-{candidates[0]}]").hover()
    ali.mouse.down()
    ali.wait_for_timeout(700)
    assert you(table, 1)["cheat"] is None and ali.locator("[data-testid=cheating]").count() == 0
    box = ali.locator("[data-testid=sleeve]").bounding_box()
    ali.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
    ali.wait_for_selector("[data-testid=cheating]")
    # The guard's phone shows the subtle tell (the default, M11) as a hint, not a sentence:
    # Ali's token trembles on his plate.
    plate = sara.locator("[data-testid=accuse-1][data-tell=tremble]")
    plate.wait_for()
    assert plate.inner_text().strip() == "Ali"
    assert plate.locator(".token").evaluate("el => getComputedStyle(el).animationName") == "tremble"
    shoot(sara, shots, "en", "moth_tell")
    shoot(ali, shots, "en", "moth_cheating")
    wait_until(ali, lambda: you(table, 1)["cheated_this_round"] == 1, "the cheat completing")
    ali.mouse.up()
    assert candidates[0] not in [c["id"] for c in you(table, 1)["hand"]]
    ali.wait_for_function(f"!document.querySelector('[data-testid=card-{candidates[0]}]')")

    # The guard accuses Nok, who was not cheating: the guard draws a card (M10).
    hand = len(you(table, 0)["hand"])
    sara.click("[data-testid=accuse-2]")
    sara.wait_for_selector(".notice")
    assert "accused Nok wrongly" in sara.inner_text(".notice")
    assert len(you(table, 0)["hand"]) == hand + 1


def test_M8_a_page_relaid_out_under_the_finger_does_not_cancel_the_cheat(table: Table, phones: Phones) -> None:
    """A notice or a line appearing above the sleeve moves it on screen while a cheat is held; the
    finger has not moved off it, so the cheat goes on and completes (it used to cancel at once: the
    cheat's own hint vanished when it started and the sleeve slid up from under the finger)."""
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    table.host("start")
    ali = pages[1]
    look(ali, "hand-card")
    mine = you(table, 1)
    card = next(c["id"] for c in mine["hand"] if c["id"] not in mine["playable"])
    sleeve = ali.locator("[data-testid=sleeve]")
    sleeve.scroll_into_view_if_needed()
    ali.locator(f"[data-testid=card-{card}]").hover()
    ali.mouse.down()
    box = sleeve.bounding_box()
    assert box is not None
    # the finger near the sleeve's bottom edge: any upward slide of the page would leave it outside
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] - 6
    ali.mouse.move(x, y, steps=4)
    ali.wait_for_selector("[data-testid=cheating]")
    ali.evaluate("""() => { const first = document.querySelector("[data-testid=hand]");
        first.parentElement.insertBefore(Object.assign(document.createElement("div"), {style: "height: 90px"}), first); }""")
    ali.mouse.move(x + 2, y, steps=2)  # the finger trembles a little; the page has moved under it
    wait_until(ali, lambda: you(table, 1)["cheated_this_round"] == 1, "the cheat completing")
    ali.mouse.up()
    assert card not in [c["id"] for c in you(table, 1)["hand"]]
