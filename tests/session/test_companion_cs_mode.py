"""The Collusion and Speakeasy companions at the session: the mode picks them, a total or a finger
accepted before a kill -9 is still there after the restart (the journal), a bad total gets the score
pad's typed error through the session and changes nothing, the host acts as the table."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.config import TableConfig
from game.rules.scorepad import BadEntry
from game.session.journal import Journal
from game.session.lobby import NoBots, SeatsFree
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import RunMode, TablePhase


def config(tmp_path: Path, game: str) -> TableConfig:
    return TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=11, mode=RunMode.COMPANION, game=game)


def boot(cfg: TableConfig) -> tuple[Session, Journal]:
    journal, saved, _ = Journal.open(cfg.data_dir, new=cfg.new)
    return Session.boot(cfg, journal, saved), journal


def seat_people(session: Session, seats: int = 3) -> None:
    session.host_command({"command": "set_seats", "count": seats})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")


def collusion_to_the_count(session: Session) -> None:
    """Real gold; seat 1 dies (C10), seats 0 and 2 split the pot (C15), seat 0 claims the target (C17)."""
    session.host_command({"command": "set_setting", "name": "gold", "value": "physical"})
    seat_people(session)
    session.host_command({"command": "start"})
    for seat, target in ((0, 1), (2, 1), (1, 0)):
        session.submit_action(seat, {"type": "vote", "target": target}, None)
    for seat in (0, 2, 1):
        session.submit_action(seat, {"type": "lock"}, None)
    for seat in (0, 2):
        session.submit_action(seat, {"type": "showdown", "choice": "split"}, None)
        session.submit_action(seat, {"type": "lock"}, None)
    for seat in range(3):
        session.submit_action(seat, {"type": "reached", "reached": seat == 0, "seat": None}, None)
    assert session.snapshot.public_view["phase"] == "count"


async def test_C18_companion_totals_from_a_phone_and_the_host_survive_a_restart(tmp_path: Path) -> None:
    cfg = config(tmp_path, "collusion")
    session, journal = boot(cfg)
    assert session.table.game == "collusion_companion"  # the mode picks the family's companion
    collusion_to_the_count(session)
    session.submit_action(0, {"type": "enter_total", "points": 9, "seat": None}, None)
    session.host_command({"command": "table_action", "action": {"type": "enter_total", "points": 0, "seat": 1}})
    journal.close()  # as after kill -9: nothing but the journal is left
    again, journal = boot(replace(cfg, new=False))
    try:
        view = again.snapshot.public_view
        assert view is not None and view["phase"] == "count"
        assert view["companion"]["count"]["entered"] == [0, 1] and view["companion"]["count"]["totals"] is None
        assert again.update.message(0)["view"]["me"]["entry"] == 9
    finally:
        journal.close()


async def test_C2_companion_a_total_the_bars_cannot_make_gets_the_pads_error_and_changes_nothing(tmp_path: Path) -> None:
    session, journal = boot(config(tmp_path, "collusion"))
    try:
        collusion_to_the_count(session)
        version = session.version
        for points in (25, -1):
            with pytest.raises(BadEntry):
                session.submit_action(0, {"type": "enter_total", "points": points, "seat": None}, None)
        assert session.version == version
    finally:
        journal.close()


async def test_S7_companion_countdown_then_fingers_tapped_by_the_host_survive_a_restart(tmp_path: Path) -> None:
    cfg = config(tmp_path, "speakeasy")
    vt = VirtualTime()
    journal, saved, _ = Journal.open(cfg.data_dir, new=True)
    session = Session.boot(cfg, journal, saved, clock=vt, scheduler=vt)
    assert session.table.game == "speakeasy_companion"
    session.host_command({"command": "set_setting", "name": "pointing", "value": "hands"})
    session.host_command({"command": "set_setting", "name": "identities", "value": "cards"})
    seat_people(session)
    session.host_command({"command": "start"})
    host = session.snapshot.public_view["host"]
    a, b = [s for s in range(3) if s != host]
    session.submit_action(host, {"type": "choose_subject", "subject": a}, None)
    assert session.snapshot.public_view["phase"] == "countdown"
    vt.advance(3_000)  # 3 – 2 – 1 – point!
    assert session.snapshot.public_view["phase"] == "recording"
    session.submit_action(host, {"type": "record_point", "seat": a, "target": a}, None)
    session.host_command({"command": "table_action", "action": {"type": "record_point", "seat": b, "target": None}})
    session.close()
    journal.close()  # as after kill -9: nothing but the journal is left
    again, journal = boot(replace(cfg, new=False))
    try:
        view = again.snapshot.public_view
        assert view is not None and view["phase"] == "recording"
        assert view["recorded"]["done"] == sorted((a, b)) and view["recorded"]["fingers"][a] == a
        assert again.update.message(host)["view"]["me"]["subject"] == a  # the host's secret survived too
    finally:
        journal.close()


async def test_real_gold_seats_no_bot_offers_none_and_a_freed_seat_waits_for_a_person(tmp_path: Path) -> None:
    """Physical gold: a bot cannot split or count real bars. The bots already seated leave when the
    host picks real gold, none can be added, free seats keep the game from starting (the lobby says
    every seat needs a person), and a seat freed mid-game stays in play waiting for a new phone."""
    session, journal = boot(config(tmp_path, "collusion"))
    try:
        session.host_command({"command": "set_seats", "count": 3})
        session.host_command({"command": "fill_bots", "kind": "heuristic"})
        assert session.snapshot.lobby.has_bots and all(r.bot is not None for r in session.table.offered)
        session.host_command({"command": "set_setting", "name": "gold", "value": "physical"})
        assert all(r.bot is None for r in session.table.seats) and not session.snapshot.lobby.has_bots
        assert session.update.lobby_json(host=True)["has_bots"] is False
        for command in ({"command": "fill_bots", "kind": "heuristic"}, {"command": "set_bot", "seat": 0, "kind": "belief"}):
            with pytest.raises(NoBots):
                session.host_command(command)
        with pytest.raises(SeatsFree):
            session.host_command({"command": "start"})
        seat_people(session)
        session.host_command({"command": "start"})
        session.host_command({"command": "kick", "seat": 1})
        assert session.phase is TablePhase.PLAYING and session.table.seats[1].bot is None
        assert session.snapshot.seats[1].bot is None and not session.table.seats[1].joined
    finally:
        journal.close()
