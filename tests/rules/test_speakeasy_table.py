"""Speakeasy at a real table: the session drives the real engine and bots; the journal replays it."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.config import TableConfig
from game.games.speakeasy.rules import ENGINE
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import TablePhase


@pytest.fixture
def config(tmp_path: Path) -> TableConfig:
    return TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=11, game="speakeasy", language="fa")


async def test_bots_play_a_whole_persian_game_at_the_table_and_it_replays(config: TableConfig) -> None:
    vt = VirtualTime()
    journal, saved, _ = Journal.open(config.data_dir)
    s = Session.boot(config, journal, saved, clock=vt, scheduler=vt)  # bots think as long as at a real table
    s.host_command({"command": "set_seats", "count": 5})
    s.host_command({"command": "set_setting", "name": "deck", "value": "fa"})
    s.host_command({"command": "set_setting", "name": "reveal_ms", "value": 0})  # bots tap "continue"
    s.host_command({"command": "fill_bots", "kind": "heuristic"})
    s.host_command({"command": "start"})
    first = s.snapshot.events
    assert [e["type"] for e in first] == ["identities_dealt", "clue_drawn"]
    assert first[1]["text"] in ENGINE.default_settings("fa").texts
    vt.run_until(lambda: s.phase is TablePhase.FINISHED, limit_ms=4 * 3_600_000)
    view = s.snapshot.public_view
    assert view is not None and view["phase"] == "game_over" and view["deck"] == "fa" and view["winners"]
    final, version = s.run.state, s.version
    s.close()
    journal.close()

    journal, saved, _ = Journal.open(config.data_dir)
    again = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
    assert again.run is not None and again.run.state == final and again.version == version
    again.close()
    journal.close()


async def test_each_phone_sees_only_its_own_identity(config: TableConfig) -> None:
    s = Session.boot(replace(config, seed=5), None, None, bot_delay_scale=1000.0)
    s.host_command({"command": "set_seats", "count": 4})
    for record in s.table.offered:
        s.join_seat(record.token, f"P{record.seat}")
    s.host_command({"command": "start"})
    host = s.run.state.host
    for seat in range(4):
        message = s.state_message(seat)
        me = message["view"]["me"]
        assert me["seat"] == seat and me["identity"] == s.run.state.seats[seat].identity.value
        assert all(entry["identity"] is None for entry in message["view"]["seats"])
        kinds = {a["type"] for a in message["legal"]}
        assert kinds == ({"choose_subject"} if seat == host else set())
    s.close()
