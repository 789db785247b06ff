"""The phones say exactly what happened at a companion Cheating Moth table: a Mosquito
too close to call says 'within N ms, closer than the sources can tell: decided by a draw' (M14,
M16); an unplugged arcade board is said on every phone; the host annuls a race in one tap (M14)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_bridge.bridge import BoardFound, BoardLost
from game.session.race_floor import PressSource

from .conftest import ADMIN_PIN, Phones, Table
from .phone import join
from .test_cheating_moth_companion_phones import NAMES_IN, phone_text, public, tap_down
from .test_cheating_moth_phones import wait_until

pytestmark = pytest.mark.browser


class Board:
    """An arcade board on the table that can be unplugged (the session's ``ArcadeLink``)."""

    mapping: dict[int, int] = {}
    connected = True
    mapping_in_progress = False

    def __init__(self) -> None:
        self.listeners: list[Callable[[Any], None]] = []

    def add_listener(self, listener: Callable[[Any], None]) -> None:
        self.listeners.append(listener)

    def emit(self, event: Any) -> None:
        for listener in self.listeners:
            listener(event)

    def arm_race(self, race_id: str, seats: Any) -> None: ...

    def end_race(self) -> None: ...

    def start_mapping(self, seats: Any) -> None: ...

    def cancel_mapping(self) -> None: ...

    def set_mapping(self, mapping: dict[int, int]) -> None: ...


def drawn_mosquito(table: Table) -> None:
    """Seat 0 calls a Mosquito; seats 1 and 2 slap on their phones 3 ms apart, 9 ms errors each."""
    table.call(lambda s: s.submit_action(0, {"type": "call", "kind": "mosquito"}, None))

    def slaps(s: Any) -> None:
        armed, race = s.snapshot.race.current.armed_at_ms, s.snapshot.public_view["race"]["id"]
        s.press(1, armed + 300, PressSource.PHONE, error_ms=9.0, race=race)
        s.press(2, armed + 303, PressSource.PHONE, error_ms=9.0, race=race)

    table.call(slaps)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_M14_M16_the_phones_say_a_draw_decided_and_that_the_board_is_unplugged(
        lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES_IN[lang]):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_mode", mode="companion")
    table.host("set_seats", count=3)
    board = Board()
    table.call(lambda s: s.attach_arcade(board))
    table.host("start")
    pages[0].wait_for_selector("[data-testid=call-mosquito]")
    drawn_mosquito(table)
    wait_until(pages[0], lambda: public(table)["last_race"] is not None, "the Mosquito is decided")
    assert public(table)["last_race"]["tied"] == [1, 2] and public(table)["last_race"]["within_ms"] == 18
    for page in pages:
        drawn = page.wait_for_selector("[data-testid=race-drawn]")
        assert drawn.inner_text() == phone_text(lang, "moth.race_drawn", ms="۱۸" if lang == "fa" else "18")
    pages[1].screenshot(path=str(shots / f"{lang}_moth_companion_drawn.png"), full_page=True)

    table.call(lambda s: board.emit(BoardLost("/dev/ttyACM0", "unplugged")))
    for page in pages:
        notice = page.wait_for_selector("[data-testid=board-unplugged]")
        assert notice.inner_text() == phone_text(lang, "race.board_unplugged")
    pages[2].screenshot(path=str(shots / f"{lang}_moth_companion_unplugged.png"), full_page=True)
    table.call(lambda s: board.emit(BoardFound("/dev/ttyACM0", None)))
    pages[0].wait_for_selector("[data-testid=board-unplugged]", state="detached")


def test_M14_the_host_annuls_a_mosquito_nobody_played_in_one_tap(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES_IN["en"]):
        join(page, name)
    host = phones.open(f"{table.url}/host")
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=host-start]")
    table.host("set_game", game="cheating_moth")
    table.host("set_mode", mode="companion")
    table.host("set_seats", count=3)
    table.host("start")
    pages[0].wait_for_selector("[data-testid=call-mosquito]")
    tap_down(pages[0], "call-mosquito")  # a call nobody meant
    wait_until(host, lambda: public(table)["race"] is not None, "the Mosquito opens")
    host.click("[data-testid=host-annul-race]")
    wait_until(host, lambda: public(table)["race"] is None, "the race is annulled")
    assert public(table)["turn"] == 0 and public(table)["annulled"] == [
        {"race": 1, "kind": "mosquito", "caller": 0, "round": 1}]
    pages[0].wait_for_selector("[data-testid=call-mosquito]")  # the caller's turn again
