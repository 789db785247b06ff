"""Gestures that mean what players mean at a companion Cheating Moth table, on virtual
time with an arcade board: slaps after a race's verdict are never a new call; a double press calls
a Mosquito only from the seat in turn while no race runs or just ended; the host annuls any race in
one tap, traced on the pad (M14); a Beetle's right card 0.3–0.5 s after a wrong one is in the race
and ``wrong_win`` hands it the win (M15)."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from firmware_bridge.bridge import ButtonDown
from game.games.cheating_moth.companion_tapes import MothCompanionTable
from game.session.race_floor import AFTER_WINDOW_MS, GESTURE_MS, PressSource


class Board:
    """An arcade board on the table (the session's ``ArcadeLink``): buttons 10+seat, lamps recorded."""

    def __init__(self) -> None:
        self.mapping: dict[int, int] = {}
        self.listeners: list[Callable[[Any], None]] = []
        self.lamps: list[str] = []

    @property
    def connected(self) -> bool:
        return True

    @property
    def mapping_in_progress(self) -> bool:
        return False

    def add_listener(self, listener: Callable[[Any], None]) -> None:
        self.listeners.append(listener)

    def arm_race(self, race_id: str, seats: Any) -> None:
        self.lamps.append(f"arm {race_id}")

    def end_race(self) -> None:
        self.lamps.append("end")

    def start_mapping(self, seats: Any) -> None: ...

    def cancel_mapping(self) -> None: ...

    def set_mapping(self, mapping: dict[int, int]) -> None:
        self.mapping = dict(mapping)


@pytest.fixture
def table() -> tuple[MothCompanionTable, Callable[[int, float], None], Board]:
    m = MothCompanionTable("en")
    board = Board()
    m.t.session.attach_arcade(board)

    def slap(seat: int, at_ms: float) -> None:
        """``seat``'s button at session time ``at_ms`` (the clock runs to it; the board stamps it)."""
        m.t.vt.advance(max(0.0, at_ms - m.t.vt.now_ms()))
        for listener in board.listeners:
            listener(ButtonDown(10 + seat, seat, at_ms, 0.5, int(at_ms * 1000), clock="board"))

    return m, slap, board


def test_M14_four_slaps_150_ms_apart_the_last_two_after_the_verdict_call_nothing(table: Any) -> None:
    m, slap, _ = table
    t = m.t
    m.call("mosquito")  # seat 0 put the Mosquito down
    armed = t.session.snapshot.race.current.armed_at_ms
    slap(2, armed + 80)
    slap(3, armed + 90)
    for k in range(4):  # seat 1 slaps on: the race is decided 150 ms after its first slap
        slap(1, armed + 100 + 150 * k)
    t.wait(50)
    view = t.view
    assert view["turn"] == 1  # seat 1's turn after the Mosquito: its double press would be a call
    assert view["race"] is None and view["phase"] == "play"
    assert view["last_race"]["race"] == 1 and view["last_race"]["kind"] == "mosquito"  # the real verdict stays


def test_M14_a_double_press_calls_only_from_the_seat_in_turn_and_only_after_the_after_window(table: Any) -> None:
    m, slap, _ = table
    t = m.t
    m.call("mosquito")
    armed = t.session.snapshot.race.current.armed_at_ms
    for seat, after in ((1, 100), (2, 120), (3, 140)):
        slap(seat, armed + after)
    t.wait(200)
    decided_at = t.vt.now_ms()
    assert t.view["race"] is None and t.view["turn"] == 1
    slap(2, decided_at + AFTER_WINDOW_MS + 10)  # not seat 2's turn
    slap(2, decided_at + AFTER_WINDOW_MS + 200)
    assert t.view["race"] is None
    slap(1, decided_at + AFTER_WINDOW_MS + 300)  # the seat in turn, too slow for a double press
    slap(1, decided_at + AFTER_WINDOW_MS + 300 + GESTURE_MS + 50)
    assert t.view["race"] is None
    slap(1, decided_at + AFTER_WINDOW_MS + 1500)
    slap(1, decided_at + AFTER_WINDOW_MS + 1700)
    race = t.view["race"]
    assert race is not None and race["kind"] == "mosquito" and race["caller"] == 1


@pytest.mark.parametrize("decided", [False, True], ids=["running", "decided"])
def test_M14_the_host_annuls_a_mosquito_in_one_tap_and_the_pad_traces_it(table: Any, decided: bool) -> None:
    m, slap, _ = table
    t = m.t
    m.call("mosquito")
    armed = t.session.snapshot.race.current.armed_at_ms
    if decided:
        for seat, after in ((1, 100), (2, 120), (3, 140)):
            slap(seat, armed + after)
        t.wait(300)
        assert t.view["turn"] == 1 and t.view["last_race"] is not None
    t.act(None, {"type": "annul_race"})
    view = t.view
    assert view["race"] is None and view["last_race"] is None and view["turn"] == 0  # the caller's turn again
    assert view["annulled"] == [{"race": 1, "kind": "mosquito", "caller": 0, "round": 1}]
    assert t.session.snapshot.race.current is None
    assert t.session.host_error is None


def test_M15_the_right_card_0_4_s_after_a_wrong_one_is_in_the_race_and_wrong_win_hands_it_the_win(table: Any) -> None:
    m, slap, _ = table
    t = m.t
    t.act(0, {"type": "end_turn"})
    m.call("beetle")  # seat 1's Beetle; every seat may slap (the program cannot see cards)
    armed = t.session.snapshot.race.current.armed_at_ms
    slap(3, armed + 200)  # the wrong card first
    t.session.press(2, armed + 600, PressSource.PHONE, error_ms=8.0, race=m.race_id)  # the right one, 0.4 s later
    m.decide()
    last = t.view["last_race"]
    assert last["order"] == [3, 2] and last["winner"] == 3
    t.act(None, {"type": "wrong_win"})
    last = t.view["last_race"]
    assert last["winner"] == 2 and last["undone"] == [3] and t.view["turn"] == 3  # after the winner (M15)


def test_M16_an_unplugged_board_is_said_on_every_phone_and_the_tv(table: Any) -> None:
    from firmware_bridge.bridge import BoardFound, BoardLost

    m, _, board = table
    session = m.t.session
    assert all(session.state_message(s)["lobby"]["arcade"]["unplugged"] is False for s in range(4))
    for listener in board.listeners:
        listener(BoardLost("/dev/ttyACM0", "unplugged"))
    assert "arcade_unplugged" in session.snapshot.notices
    assert all(session.state_message(s)["lobby"]["arcade"]["unplugged"] is True for s in (*range(4), None))
    for listener in board.listeners:
        listener(BoardFound("/dev/ttyACM0", None))
    assert "arcade_unplugged" not in session.snapshot.notices
    assert session.state_message(0)["lobby"]["arcade"]["unplugged"] is False
