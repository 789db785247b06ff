"""The host console (/host) and the arcade board's "press your button" wizard: "no arcade board"
while the bridge searches, the map button once a board is there, the seat it waits for, the seats
done, and stopping it — against the real table with a stand-in bridge; and the Cheating Moth race
button (its style, the press sent through the game context, the verdict shown)."""
from __future__ import annotations

from typing import Any

import pytest

from .conftest import ADMIN_PIN, Phones, Table
from .phone import join

pytestmark = pytest.mark.browser


class StandInBridge:
    """What the session sees of the arcade bridge (firmware_bridge.bridge.ArcadeBridge)."""

    def __init__(self) -> None:
        self.connected = True
        self.mapping_in_progress = False
        self.started: list[tuple[int, ...]] = []
        self.listeners: list[Any] = []

    def add_listener(self, listener: Any) -> None:
        self.listeners.append(listener)

    def set_mapping(self, mapping: dict[int, int]) -> None:
        pass

    def start_mapping(self, seats: Any) -> None:
        self.mapping_in_progress = True
        self.started.append(tuple(seats))

    def cancel_mapping(self) -> None:
        self.mapping_in_progress = False

    def arm_race(self, race_id: str, seats: Any) -> None:
        pass

    def end_race(self) -> None:
        pass

    def emit(self, event: Any) -> None:
        for listener in self.listeners:
            listener(event)


def lobby_with_arcade(session: Any) -> None:
    """The host console reads ``lobby.arcade`` (the session's ``lobby_json`` carries it)."""
    assert "arcade" in session.update.lobby_json(host=True)


def test_the_host_maps_the_arcade_buttons(table: Table, phones: Phones) -> None:
    from firmware_bridge.bridge import MappingStep

    table.call(lobby_with_arcade)
    host = phones.open(f"{table.url}/host")
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=host-start]")
    bridge = StandInBridge()
    bridge.connected = False
    table.call(lambda s: s.attach_arcade(bridge))
    host.wait_for_selector("[data-testid=arcade-status]:has-text('No arcade board')")
    bridge.connected = True
    table.call(lambda s: s._publish())  # what the bridge's BoardFound does
    host.click("[data-testid=arcade-map]")
    host.wait_for_selector("[data-testid=arcade-status]:has-text('Press the button of seat 1')")
    assert bridge.started == [tuple(s.seat for s in table.snapshot().seats)]
    table.call(lambda s: bridge.emit(MappingStep(0, 4, 1)))
    host.wait_for_selector("[data-testid=arcade-status]:has-text('Press the button of seat 2')")
    assert "Seat 1: button 5" in host.inner_text(".host")  # the session says which button was found
    host.click("[data-testid=arcade-stop]")
    host.wait_for_selector("[data-testid=arcade-map]")
    assert not bridge.mapping_in_progress
    assert table.snapshot().lobby.host_error is None
    assert phones.errors == []


def test_a_slap_shows_the_tables_verdict_on_the_big_button(table: Table, phones: Phones) -> None:
    """The phone's race press goes through the game context's ``send`` and its ``press_result``
    comes back through the game module's ``onMessage`` (no module reaches for the connection)."""
    from .test_race_phones import drive_to_mosquito, wait_synced

    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=4)
    pages = [phones.open(table.seat_url(i)) for i in range(2)]
    for page, name in zip(pages, ("Sara", "Ali")):
        join(page, name)
    table.call(lambda s: [s.join_seat(s.table.seats[i].token, name=n) for i, n in ((2, "Nok"), (3, "Dara"))])
    table.host("start")
    player, action = drive_to_mosquito(table, 1)
    slapper = 1 if player == 0 else 0
    page = pages[slapper]
    wait_synced(table, slapper)
    table.call(lambda s: s.submit_action(player, action, None))
    button = page.locator("[data-testid=race-press]")
    button.wait_for()
    size = button.evaluate("b => [b.getBoundingClientRect().height, innerHeight, getComputedStyle(b).touchAction]")
    assert size[0] >= 0.4 * size[1] - 1 and size[2] == "none"  # the .race-button style
    button.dispatch_event("pointerdown")
    verdict = page.locator("[data-testid=race-verdict]")
    verdict.wait_for(timeout=8_000)  # two seats have not pressed: the race is still open
    assert "Counted" in verdict.inner_text()
    assert button.is_disabled()
    assert phones.errors == []
