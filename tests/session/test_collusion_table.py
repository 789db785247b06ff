"""The session with the real Collusion engine and bots (no stand-ins)."""
from __future__ import annotations

from dataclasses import replace

from game.config import TableConfig
from game.games.collusion.rules import ENGINE
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import TablePhase


async def test_bots_play_a_whole_collusion_game_and_it_replays(config: TableConfig, vt: VirtualTime) -> None:
    journal, saved, _ = Journal.open(config.data_dir)
    s = Session.boot(config, journal, saved, clock=vt, scheduler=vt)  # bots think as long as at a real table
    s.host_command({"command": "set_seats", "count": 6})
    s.host_command({"command": "set_setting", "name": "target_score", "value": 12})
    s.host_command({"command": "fill_bots", "kind": "heuristic"})
    s.host_command({"command": "start"})
    vt.run_until(lambda: s.phase is TablePhase.FINISHED, limit_ms=4 * 3_600_000)
    assert s.snapshot.public_view is not None and s.snapshot.public_view["phase"] == "game_over"
    assert s.snapshot.public_view["winners"]
    final, version = s.run.state, s.version
    s.close()
    journal.close()

    journal, saved, _ = Journal.open(config.data_dir)
    again = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
    assert again.run is not None and again.run.state == final and again.version == version
    assert ENGINE.is_over(again.run.state)
    again.close()
    journal.close()


async def test_private_view_goes_only_to_its_seat(config: TableConfig) -> None:
    s = Session.boot(replace(config, seed=3), None, None, bot_delay_scale=1000.0)
    s.host_command({"command": "set_seats", "count": 4})
    for record in s.table.offered:
        s.join_seat(record.token, f"P{record.seat}")
    s.host_command({"command": "start"})
    for seat in range(4):
        message = s.state_message(seat)
        assert message["view"]["me"]["seat"] == seat
        assert {a["type"] for a in message["legal"]} >= {"vote", "ambush"}
    public = s.state_message(None)
    assert "me" not in public["view"] and public["legal"] == []
    assert "code" not in public["lobby"]["seats"][0] and "code" in s.state_message(None, host=True)["lobby"]["seats"][0]
    s.close()


async def test_set_game_switches_engine_preset_and_settings(config: TableConfig) -> None:
    s = Session.boot(config, None, None)
    s.host_command({"command": "set_preset", "preset": "rod_ruang"})
    s.host_command({"command": "set_game", "game": "speakeasy"})
    assert s.table.game == "speakeasy" and s.engine.name == "speakeasy"
    assert s.table.preset == (s.engine.presets()[0] if s.engine.presets() else None)
    assert s.table.settings == s.engine.settings_to_wire(s.engine.default_settings(s.table.preset))
    s.host_command({"command": "set_game", "game": "collusion"})
    assert s.table.preset == "tabani" and s.snapshot.game == "collusion"
    s.close()


async def test_resume_right_after_start_keeps_the_deal_events(config: TableConfig) -> None:
    journal, saved, _ = Journal.open(config.data_dir)
    s = Session.boot(config, journal, saved, bot_delay_scale=1000.0)
    s.host_command({"command": "set_game", "game": "speakeasy"})  # a game whose deal has events
    s.host_command({"command": "set_seats", "count": 4})
    s.host_command({"command": "fill_bots", "kind": "random"})
    s.host_command({"command": "start"})
    events, seq = s.last_events, s.event_seq
    engine = s.run.engine
    dealt = engine.new_game(engine.settings_from_wire(s.table.settings, s.table.preset), 4, s.run.seed)
    assert events == tuple(engine.events_to_wire(engine.start_events(dealt))) and events and seq == s.version
    s.close()
    journal.close()
    journal, saved, _ = Journal.open(config.data_dir)
    again = Session.boot(config, journal, saved, bot_delay_scale=1000.0)
    assert (again.last_events, again.event_seq) == (events, seq)
    again.close()
    journal.close()
