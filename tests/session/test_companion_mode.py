"""Companion mode at the session: the mode picks the catalog's companion variants, the host acts as
the table (a referee's taps), bad points get the score pad's typed error, the journal keeps entries."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.config import TableConfig
from game.rules.base import BadSettings, IllegalAction
from game.rules.scorepad import BadEntry
from game.session.journal import Journal
from game.session.lobby import NoBots, SeatsFree
from game.session.race_floor import PressSource
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import RunMode, TablePhase


@pytest.fixture
def companion(tmp_path: Path) -> TableConfig:
    return TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=11, mode=RunMode.COMPANION, game="cheating_moth")


def boot(cfg: TableConfig) -> tuple[Session, Journal]:
    journal, saved, _ = Journal.open(cfg.data_dir, new=cfg.new)
    return Session.boot(cfg, journal, saved), journal


def seat_people(session: Session, seats: int = 3) -> None:
    session.host_command({"command": "set_seats", "count": seats})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")


async def test_mode_companion_picks_the_family_variant_and_the_lobby_offers_companion_games(companion: TableConfig) -> None:
    session, journal = boot(companion)
    try:
        assert session.table.game == "cheating_moth_companion"
        lobby = session.update.lobby_json(host=True)
        assert lobby["play_mode"] == "companion" and "cheating_moth_companion" in lobby["games"]
        assert "cheating_moth" not in lobby["games"] and set(lobby["play_modes"]) == {"table", "companion"}
        session.host_command({"command": "set_mode", "mode": "table"})
        assert session.table.game == "cheating_moth" and session.update.lobby_json(host=False)["play_mode"] == "table"
        session.host_command({"command": "set_mode", "mode": "companion"})
        assert session.table.game == "cheating_moth_companion"
        with pytest.raises(BadSettings):
            session.host_command({"command": "set_mode", "mode": "arcade"})
    finally:
        journal.close()


async def test_companion_cards_are_physical_so_no_bots(companion: TableConfig) -> None:
    session, journal = boot(companion)
    try:
        with pytest.raises(SeatsFree) as free:
            session.host_command({"command": "start"})  # free seats would need bots: none for real cards
        assert free.value.free == session.table.seat_count and free.value.code == "seats_free"
        assert session.phase is TablePhase.LOBBY
        for command in ({"command": "fill_bots", "kind": "heuristic"}, {"command": "set_bot", "seat": 0, "kind": "random"}):
            with pytest.raises(NoBots):  # never offered, and refused with its own sentence
                session.host_command(command)
        assert session.snapshot.lobby.can_start is False
    finally:
        journal.close()


def play_to_scoring(session: Session) -> None:
    seat_people(session)
    session.host_command({"command": "start"})
    session.submit_action(0, {"type": "end_turn"}, None)
    session.host_command({"command": "table_action", "action": {"type": "round_over", "out": 1}})


async def test_M17_companion_points_from_a_phone_and_from_the_host_are_journaled_and_survive_a_restart(
        companion: TableConfig) -> None:
    session, journal = boot(companion)
    play_to_scoring(session)
    session.submit_action(0, {"type": "enter_points", "seat": 0, "points": 7}, None)
    session.host_command({"command": "table_action", "action": {"type": "enter_points", "seat": 2, "points": 12}})
    assert session.update.common(host=True)["table_legal"][-1]["type"] in {"edit_points", "next_round", "undo_points"}
    journal.close()  # as after kill -9: nothing but the journal is left
    again, journal = boot(replace(companion, new=False))
    try:
        view = again.snapshot.public_view
        assert view is not None and view["pad"]["rows"] == [[7], [0], [12]] and view["phase"] == "scoring"
    finally:
        journal.close()


async def test_M17_companion_bad_points_get_the_pads_typed_error_and_change_nothing(companion: TableConfig) -> None:
    session, journal = boot(companion)
    try:
        play_to_scoring(session)
        version = session.version
        for points in (-2, 151):
            with pytest.raises(BadEntry):
                session.submit_action(0, {"type": "enter_points", "seat": 0, "points": points}, None)
        with pytest.raises(IllegalAction):
            session.submit_action(0, {"type": "enter_points", "seat": 2, "points": 3}, None)  # not your entry
        with pytest.raises(IllegalAction):
            session.host_command({"command": "table_action", "action": {"type": "race_done", "race": 1}})
        assert session.version == version
    finally:
        journal.close()


# ------------------------------------------------------------------------------ races at the table
@pytest.fixture
def vt() -> VirtualTime:
    return VirtualTime()


@pytest.fixture
def live(companion: TableConfig, vt: VirtualTime):
    journal, saved, _ = Journal.open(companion.data_dir, new=True)
    session = Session.boot(companion, journal, saved, clock=vt, scheduler=vt)
    seat_people(session, 4)
    session.host_command({"command": "start"})
    yield session
    session.close()
    journal.close()


def decided(session: Session, race: int) -> dict | None:
    view = session.snapshot.public_view
    last = view["last_race"] if view else None
    return last if last is not None and last["race"] == race else None


async def test_M14_companion_called_on_a_phone_slapped_from_every_source_the_slowest_named(
        live: Session, vt: VirtualTime) -> None:
    live.submit_action(0, {"type": "call", "kind": "mosquito"}, None)
    race = live.snapshot.public_view["race"]
    current = live.snapshot.race.current
    assert race["eligible"] == [1, 2, 3] and current.key == str(race["id"])
    live.press(3, vt.now_ms() - 80, PressSource.ARCADE, error_ms=1.0, race=race["id"])  # before the call
    assert live.snapshot.race.current.false_starts[0].seat == 3  # shown, not counted
    armed = current.armed_at_ms
    live.press(2, armed + 190, PressSource.ARCADE, error_ms=1.0, race=race["id"])
    live.press(1, armed + 240, PressSource.PHONE, error_ms=6.0, race=race["id"])
    live.press(3, armed + 410, PressSource.KEYBOARD, error_ms=17.0, race=race["id"])
    vt.run_until(lambda: decided(live, race["id"]) is not None, limit_ms=10_000)
    last = decided(live, race["id"])
    assert last["order"] == [2, 1, 3] and last["loser"] == 3 and last["margins_ms"] == [50, 170]
    assert live.snapshot.race.last.sources == ("arcade", "phone", "keyboard",)
    assert live.snapshot.public_view["turn"] == 1


async def test_M14_companion_nobody_slaps_within_the_timeout_all_slowest_a_seeded_draw(
        live: Session, vt: VirtualTime) -> None:
    live.host_command({"command": "table_action", "action": {"type": "call", "kind": "mosquito"}})
    race = live.snapshot.public_view["race"]
    vt.run_until(lambda: decided(live, race["id"]) is not None, limit_ms=10_000)
    last = decided(live, race["id"])
    assert last["order"] == [] and last["missing"] == [1, 2, 3] and last["tied"] == [1, 2, 3]
    assert last["loser"] in (1, 2, 3)


async def test_M15_companion_fastest_wins_then_one_tap_gives_it_to_the_next(live: Session, vt: VirtualTime) -> None:
    live.submit_action(0, {"type": "call", "kind": "beetle"}, None)
    race = live.snapshot.public_view["race"]
    armed = live.snapshot.race.current.armed_at_ms
    live.press(3, armed + 150, PressSource.ARCADE, error_ms=1.0, race=race["id"])
    live.press(1, armed + 170, PressSource.PHONE, error_ms=6.0, race=race["id"])
    vt.run_until(lambda: decided(live, race["id"]) is not None, limit_ms=10_000)
    assert decided(live, race["id"])["winner"] == 3 and live.snapshot.public_view["turn"] == 0
    live.submit_action(3, {"type": "wrong_win"}, None)
    last = decided(live, race["id"])
    assert last["winner"] == 1 and last["undone"] == [3] and live.snapshot.public_view["turn"] == 2


async def test_companion_restart_mid_race_keeps_the_call_and_every_accepted_entry(
        companion: TableConfig, vt: VirtualTime) -> None:
    journal, saved, _ = Journal.open(companion.data_dir, new=True)
    session = Session.boot(companion, journal, saved, clock=vt, scheduler=vt)
    seat_people(session, 3)
    session.host_command({"command": "start"})
    session.submit_action(0, {"type": "call", "kind": "mosquito"}, None)
    race = session.snapshot.public_view["race"]
    session.press(1, vt.now_ms() + 100, PressSource.PHONE, error_ms=5.0, race=race["id"])  # in flight, not decided
    session.close()
    journal.close()  # as after kill -9: only the journal is left
    journal, saved, _ = Journal.open(companion.data_dir, new=False)
    again = Session.boot(replace(companion, new=False), journal, saved, clock=vt, scheduler=vt)
    try:
        assert again.snapshot.public_view["race"]["id"] == race["id"]  # the call survived: the race runs again
        armed = again.snapshot.race.current.armed_at_ms
        for seat, after in ((1, 120), (2, 260)):
            again.press(seat, armed + after, PressSource.PHONE, error_ms=5.0, race=race["id"])
        vt.run_until(lambda: decided(again, race["id"]) is not None, limit_ms=10_000)
        assert decided(again, race["id"])["loser"] == 2
    finally:
        again.close()
        journal.close()


async def test_freeing_a_seat_mid_game_without_bots_keeps_it_for_a_person(companion: TableConfig) -> None:
    """Companion Cheating Moth has no bots: the host frees a player's seat mid-game (a phone gone for
    good). No "that setting isn't allowed": the seat gets a new link and code, keeps its points and
    stays in the game, and the person who scans the new code plays it on."""
    session, journal = boot(companion)
    try:
        play_to_scoring(session)
        session.host_command({"command": "table_action", "action": {"type": "enter_points", "seat": 2, "points": 9}})
        old = session.table.seats[2]
        session.host_command({"command": "kick", "seat": 2})
        freed = session.table.seats[2]
        assert freed.bot is None and not freed.joined and freed.token != old.token and freed.code != old.code
        assert session.phase is TablePhase.PLAYING and session.snapshot.seats[2].bot is None
        assert session.update.message(None)["view"]["pad"]["rows"][2] == [9]  # its points stay
        back = session.join_seat(freed.token, name="Nok")  # a person scans the seat's new code
        assert back.joined and back.name == "Nok" and session.phase is TablePhase.PLAYING
    finally:
        journal.close()
