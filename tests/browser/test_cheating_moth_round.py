"""A whole round of Cheating Moth played on three phones and a bot, to the round's end (M17).

The phones act only through their pages (taps, the hold gesture, the race button); the test reads
the table's views to decide what each phone's player would do next. On the way, a non-guard
phone completes a cheat (M8) and the guard's phone accuses a player (M9, M10)."""
from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .conftest import Phones, Table
from .phone import drag_to_sleeve, join, look
from .test_cheating_moth_phones import shown_hand, wait_until, you

pytestmark = pytest.mark.browser

PHONES = 3  # seats 0..2 are phones, seat 3 a bot
STEP_CAP = 400
ROUND_BUDGET_S = 45.0  # a guard against a stuck game, never a timing assertion
CLICK_MS = 3_000
SETTLE_S = 3.0


def public(table: Table) -> dict[str, Any]:
    return table.call(lambda s: s.update.message(None)["view"])


def signature(view: dict[str, Any]) -> str:
    """What changes whenever anything happens at the table (the settings never do)."""
    return json.dumps({k: v for k, v in view.items() if k != "settings"}, sort_keys=True)


def round_over(view: dict[str, Any]) -> bool:
    return view["last_round"] is not None or view["round"] > 1 or view["phase"] in ("round_over", "game_over")


def settle(table: Table, before: str) -> None:
    """Until the table's public view moves on from ``before`` (or a short while passes)."""
    end = time.monotonic() + SETTLE_S
    while time.monotonic() < end and signature(public(table)) == before:
        time.sleep(0.03)


def play_or_draw(page: Any, mine: dict[str, Any]) -> None:
    """The turn's player taps the first playable card, else the draw button (M5, M6)."""
    look(page, "hand-card")
    target = f"[data-testid=card-{mine['playable'][0]}]" if mine["playable"] else "[data-testid=draw]"
    page.click(target, timeout=CLICK_MS)


def give(page: Any, mine: dict[str, Any]) -> None:
    """A giver taps a non-moth card, then the receiver when the phone asks for one (M10, M13, M14)."""
    gifts = [c["id"] for c in mine["hand"] if c["kind"] != "moth"]
    if not gifts or not mine["give_to"]:
        return
    look(page, "hand-card")
    page.click(f"[data-testid=card-{gifts[0]}]", timeout=CLICK_MS)
    if len(mine["give_to"]) > 1:
        page.click(f"[data-testid=give-{mine['give_to'][0]}]", timeout=CLICK_MS)


def race(pages: list[Any], table: Table, view: dict[str, Any], pressed: set[tuple[int, int]]) -> None:
    """Every phone in the race presses its race button once (M14, M15)."""
    r = view["race"]
    for seat, page in enumerate(pages):
        mine = you(table, seat)
        entered = seat in r["eligible"] if r["kind"] == "mosquito" else bool(mine["race_cards"])
        if entered and (r["id"], seat) not in pressed:
            page.locator("[data-testid=race-press]:not([disabled])").dispatch_event("pointerdown", timeout=CLICK_MS)
            pressed.add((r["id"], seat))


def step(pages: list[Any], table: Table, view: dict[str, Any], pressed: set[tuple[int, int]]) -> str:
    """The phones do what the table waits for from them; what kind of step it was."""
    phase = view["phase"]
    if phase in ("mosquito_race", "beetle_race") and view["race"]:
        race(pages, table, view, pressed)
        return "race"
    if phase == "play" and view["turn"] is not None and view["turn"] < PHONES:
        play_or_draw(pages[view["turn"]], you(table, view["turn"]))
        return "turn"
    pending = view["pending"] or {}
    givers = pending.get("givers", [pending["giver"]] if "giver" in pending else [])
    phone_givers = [g for g in givers if g < PHONES]
    for giver in phone_givers:
        give(pages[giver], you(table, giver))
    return "give" if phone_givers else "wait"


def cheat(page: Any, table: Table, seat: int) -> int:
    """Drag a card that cannot be played now onto the sleeve and hold it there until it slips away (M8); its id."""
    mine = you(table, seat)
    card = next(c["id"] for c in mine["hand"] if c["id"] not in mine["playable"])
    look(page, "hand-card")
    drag_to_sleeve(page, card)
    wait_until(page, lambda: you(table, seat)["cheated_this_round"] == 1, "the cheat completing")
    page.mouse.up()
    return card


def test_three_phones_and_a_bot_play_a_whole_round(table: Table, phones: Phones) -> None:
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=4)
    table.host("set_setting", name="hand_size", value=5)
    table.host("set_setting", name="race_timeout_ms", value=2000)
    pages = [phones.open(table.seat_url(i)) for i in range(PHONES)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_bot", seat=3, kind="heuristic")
    table.host("start")
    for i, page in enumerate(pages):
        page.wait_for_selector("[data-testid=hand-card]")
        assert shown_hand(page) == sorted(c["id"] for c in you(table, i)["hand"])
    start = public(table)
    assert start["phase"] == "play" and start["guard"] == 0 and start["turn"] == 0 and start["round"] == 1

    # Ali (not the guard) cheats while the guard thinks: the card leaves his hand and his phone.
    ali_cards = len(you(table, 1)["hand"])
    gone = cheat(pages[1], table, 1)
    assert gone not in [c["id"] for c in you(table, 1)["hand"]]
    assert len(you(table, 1)["hand"]) == ali_cards - 1
    pages[1].wait_for_function(f"!document.querySelector('[data-testid=card-{gone}]')")

    # The guard accuses Nok, who never cheats: a wrong accusation, the guard draws (M10).
    guard_cards = len(you(table, 0)["hand"])
    pages[0].click("[data-testid=accuse-2]")
    wait_until(pages[0], lambda: public(table)["last_accusation"] is not None, "the accusation landing")
    assert public(table)["last_accusation"] == {"guard": 0, "target": 2, "caught": False}
    assert len(you(table, 0)["hand"]) == guard_cards + 1
    pages[0].wait_for_selector(".notice")
    assert "accused Nok wrongly" in pages[0].inner_text(".notice")

    # Then everyone plays on until somebody's hand is empty.
    kinds: dict[str, int] = {}
    pressed: set[tuple[int, int]] = set()
    end = time.monotonic() + ROUND_BUDGET_S
    view = public(table)
    for _ in range(STEP_CAP):
        if round_over(view) or time.monotonic() > end:
            break
        before = signature(view)
        try:
            kind = step(pages, table, view, pressed)
        except PlaywrightError:
            kind = "missed"  # the page changed under the tap: look again
        kinds[kind] = kinds.get(kind, 0) + 1
        settle(table, before)
        view = public(table)

    assert round_over(view), f"the round did not end; last phase {view['phase']}, steps {kinds}"
    assert kinds.get("turn", 0) > 0, kinds
    last = view["last_round"]
    assert last["round"] == 1 and len(last["points"]) == 4
    assert last["points"][last["out"]] == 0  # the player who went out scores nothing (M17)
    assert view["scores"]["rounds"][0] == last["points"]
