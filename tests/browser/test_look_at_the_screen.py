"""The TV sets the pace of public news, seen on real phones (fa, th): with a TV up, every phone locks
its vote at once and no phone shows the reveal's outcome before the TV reports it told it; the phones
say "Look at the screen" meanwhile (with "then it's your move"), fit 320 and 390 px with the longest
names, and show the table again the moment the TV has told it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.session.snapshot import InputEvent, InputKind, InputSource

from .conftest import Phones, Table
from .phone import join
from .test_host_final_choices import LONG_NAMES
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

SHOWN_LOOK = "document.querySelector('[data-testid=look]') !== null"


def tv(table: Table, kind: InputKind, payload: dict[str, Any]) -> None:
    """What the TV's window reports, as its loop sends it (``Screen.told_events``)."""
    table.call(lambda s: s.handle_input(InputEvent(InputSource.SCREEN, kind, None, payload, s.clock())))


def vote_and_lock(table: Table) -> None:
    """Every seat votes for the next and locks in the same loop turn: the fastest table there is."""
    def act(s: Any) -> None:
        n = len(s.table.offered)
        for seat in range(n):
            s.submit_action(seat, {"type": "vote", "target": (seat + 1) % n}, None)
        for seat in range(n):
            if {"type": "lock"} in s.update.seat(seat).legal:
                s.submit_action(seat, {"type": "lock"}, None)
    table.call(act)


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_C_no_phone_shows_the_reveal_before_the_tv_told_it(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    table.host("set_seats", count=3)
    frames: list[list[dict[str, Any]]] = [[] for _ in LONG_NAMES]  # what reached each phone
    pages = [phones.open(table.seat_url(i), frames=frames[i]) for i in range(len(LONG_NAMES))]
    for page, name in zip(pages, LONG_NAMES):
        join(page, name)
    tv(table, InputKind.SCREEN, {"on": True})
    seq = table.call(lambda s: s.event_seq)
    tv(table, InputKind.TOLD, {"seen": seq, "told": seq})
    table.host("start")
    for page in pages:
        page.wait_for_selector(".game")
    seq = table.call(lambda s: s.event_seq)
    tv(table, InputKind.TOLD, {"seen": seq, "told": seq})
    vote_and_lock(table)
    held = table.call(lambda s: s.event_seq)
    assert table.call(lambda s: s.update.message(0)["look"]) is True
    assert any(e["type"] == "reveal" for e in table.call(lambda s: list(s.update.events)))
    tv(table, InputKind.TOLD, {"seen": held, "told": held - 1})  # the TV is telling it
    for page in pages:
        page.wait_for_function(SHOWN_LOOK)
        assert page.locator(".game").count() == 0  # nothing of the table (the deaths, the tally) drawn
    first = pages[0]
    assert first.locator("[data-testid=look-next]").count() == (1 if table.call(lambda s: s.update.seat(0).legal) else 0)
    for width in (320, 390):
        first.set_viewport_size({"width": width, "height": 720})
        assert first.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shoot(first, shots, lang, f"look_at_the_screen_{width}")
    # every frame of the reveal's batch that reached a phone before the TV told it said "look"
    states = [f for each in frames for f in each if f.get("kind") == "state" and f.get("event_seq") == held]
    assert states and all(f["look"] is True for f in states)
    tv(table, InputKind.TOLD, {"seen": held, "told": held})  # told: the phones show the table again
    for page in pages:
        page.wait_for_selector(".game")
        assert page.locator("[data-testid=look]").count() == 0
