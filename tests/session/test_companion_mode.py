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
from game.session.session import Session
from game.session.snapshot import Mode, TablePhase


@pytest.fixture
def companion(tmp_path: Path) -> TableConfig:
    return TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=11, mode=Mode.COMPANION, game="cheating_moth")


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
        lobby = session.lobby_json(host=True)
        assert lobby["play_mode"] == "companion" and "cheating_moth_companion" in lobby["games"]
        assert "cheating_moth" not in lobby["games"] and set(lobby["play_modes"]) == {"table", "companion"}
        session.host_command({"command": "set_mode", "mode": "table"})
        assert session.table.game == "cheating_moth" and session.lobby_json(host=False)["play_mode"] == "table"
        session.host_command({"command": "set_mode", "mode": "companion"})
        assert session.table.game == "cheating_moth_companion"
        with pytest.raises(BadSettings):
            session.host_command({"command": "set_mode", "mode": "arcade"})
    finally:
        journal.close()


async def test_companion_cards_are_physical_so_no_bots(companion: TableConfig) -> None:
    session, journal = boot(companion)
    try:
        with pytest.raises(BadSettings):
            session.host_command({"command": "start"})  # free seats would need bots: none for real cards
        assert session.phase is TablePhase.LOBBY
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
    assert session.state_common(host=True)["table_legal"][-1]["type"] in {"edit_points", "next_round", "undo_points"}
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
