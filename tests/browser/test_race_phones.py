"""A phone slaps in a Mosquito race (M14, M16): the big SLAP button fires on pointer-down with the
phone's own clock, the table maps it with the phone's clock sync, and the phone shows the verdict
and the result with its margins."""
from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "session"))

from tabletop_racekit import move_until_playable

from game.session.race_floor import PressSource

pytestmark = pytest.mark.browser


def drive_to_mosquito(table: Table, seed: int) -> tuple[int, dict[str, Any]]:
    """Plain moves on the table's loop until a Mosquito can be played; its player and action."""
    future = table.call(lambda s: asyncio.ensure_future(move_until_playable(s, "mosquito", seed)))
    end = time.monotonic() + 30
    while not table.call(lambda s: future.done()):
        assert time.monotonic() < end, "no Mosquito came up"
        time.sleep(0.05)
    return future.result()


def wait_synced(table: Table, seat: int) -> None:
    """Until the table has a clock estimate for the phone at ``seat`` (its join burst answered)."""
    def ready(session: Any) -> bool:
        return any(c.seat == seat and c.phone.sync.ready for hub in session._listeners
                   for c in getattr(hub, "clients", ()))
    end = time.monotonic() + 10
    while not table.call(ready):
        assert time.monotonic() < end, "the phone never answered the clock-sync probes"
        time.sleep(0.05)


def test_a_phone_slaps_in_a_mosquito_race(table: Table, phones: Phones) -> None:
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    pages = [phones.open(table.seat_url(i)) for i in range(2)]
    for page, name in zip(pages, ("Sara", "Ali")):
        join(page, name)
    table.call(lambda s: s.join_seat(s.table.seats[2].token, name="Nok"))
    table.host("start")
    player, action = drive_to_mosquito(table, 1)
    slapper = 1 if player == 0 else 0  # a phone that is in the race
    other = next(s for s in range(3) if s not in (player, slapper))
    page = pages[slapper]
    wait_synced(table, slapper)
    table.call(lambda s: s.submit_action(player, action, None))
    race = table.call(lambda s: s.snapshot.race.current)
    table.call(lambda s: s.press(other, race.armed_at_ms + 1, PressSource.KEYBOARD))

    button = page.locator("[data-testid=race-press]")
    button.wait_for()
    assert "SLAP" in button.inner_text()
    button.dispatch_event("pointerdown")
    page.wait_for_selector("[data-testid=race-times]", timeout=8_000)

    outcome = table.call(lambda s: s.snapshot.race.last)
    assert outcome.order == (other, slapper)  # the keyboard press was stamped 1 ms after the go
    assert outcome.sources == ("keyboard", "phone")
    last = table.call(lambda s: s.snapshot.public_view["last_race"])
    assert last["slowest"] == slapper
    rows = page.locator("[data-testid=race-times] li").all_inner_texts()
    assert len(rows) == 3 and "ms" in rows[1] and "±" in rows[2]
    assert outcome.error_bound_ms < 250, outcome  # the phone was synced: not the arrival-time fallback
