"""Game records: JSON format, loading errors, replay, the ``replay`` command."""
from __future__ import annotations

import json

import pytest

from game import replay as replay_cli
from game.games.collusion.rules import ENGINE
from game.records import (
    FORMAT,
    BadRecord,
    GameRecord,
    PlayerInfo,
    Recorder,
    load,
    loads,
    new_record,
    record_from_json,
    replay,
    save,
)
from game.simulate import main as simulate_main


def _recorded_game(tmp_path, players: int = 5, seed: int = 3, bots: str = "heuristic"):
    path = tmp_path / "game.json"
    assert simulate_main(["--game", "collusion", "--players", str(players), "--games", "1",
                          "--seed", str(seed), "--bots", bots, "--record", str(path)]) == 0
    return path


def test_a_record_round_trips_through_json(tmp_path):
    record = new_record("collusion", 4, 99, "rod_ruang", {"conspiracy_ms": 30_000},
                        [PlayerInfo(0, "Sara"), PlayerInfo(1, "", "bot:random")])
    record = record.with_action(0, {"type": "vote", "target": 1}, 1234)
    record = record.with_action(None, {"type": "timeout", "key": "vote:1:1"})
    save(record, tmp_path / "r.json")
    loaded = load(tmp_path / "r.json")
    assert loaded == record
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["format"] == FORMAT and data["settings"]["conspiracy_ms"] == 30_000
    assert data["settings"]["target_score"] == 25  # full settings, not only the overrides
    assert data["actions"][0] == {"seat": 0, "action": {"type": "vote", "target": 1}, "t_ms": 1234}


def test_replay_reproduces_a_simulated_game(tmp_path):
    record = load(_recorded_game(tmp_path))
    result = replay(record)
    assert ENGINE.is_over(result.state)
    assert result.events[-1]["type"] == "game_over"
    assert result.final_view()["winners"] == result.events[-1]["winners"]
    again = replay(loads(record.dumps()))
    assert again.events == result.events and again.state == result.state


@pytest.mark.parametrize(("text", "message"), [
    ("not json", "not valid JSON"),
    ("[]", "JSON object"),
    ('{"format": "other"}', "not a game record"),
    ('{"format": "tabletop-record", "version": 9}', "version 9"),
    ('{"format": "tabletop-record", "version": 1, "game": "chess"}', "unknown game"),
    ('{"format": "tabletop-record", "version": 1, "game": "collusion"}', "missing 'settings'"),
    ('{"format": "tabletop-record", "version": 1, "game": "collusion", "settings": {}, "seats": "4",'
     ' "seed": 1, "actions": []}', "'seats' has the wrong type"),
    ('{"format": "tabletop-record", "version": 1, "game": "collusion", "settings": {}, "seats": 4,'
     ' "seed": 1, "actions": [{"seat": 0}]}', "actions[0]: missing 'action'"),
    ('{"format": "tabletop-record", "version": 1, "game": "collusion", "settings": {}, "seats": 4,'
     ' "seed": 1, "actions": [{"seat": 0, "action": {}, "when": 3}]}', "unknown field"),
])
def test_bad_files_give_clear_errors(text, message):
    with pytest.raises(BadRecord, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        loads(text)


def test_unreadable_file(tmp_path):
    with pytest.raises(BadRecord, match="cannot read"):
        load(tmp_path / "missing.json")


def test_an_action_that_does_not_replay_is_named(tmp_path):
    record = new_record("collusion", 4, 1).with_action(0, {"type": "vote", "target": 1})
    record = record.with_action(0, {"type": "vote", "target": 0})
    with pytest.raises(BadRecord, match=r"actions\[1\].*IllegalAction"):
        replay(record)
    bad_settings = GameRecord("collusion", None, {"conspiracy_ms": 1}, 4, 1)
    with pytest.raises(BadRecord, match="cannot start"):
        replay(bad_settings)
    with pytest.raises(BadRecord, match="cannot start"):
        replay(GameRecord("collusion", None, {}, 40, 1))


def test_recorder_collects_actions():
    recorder = Recorder(new_record("collusion", 3, 5))
    recorder.add(0, {"type": "vote", "target": 2}, 10)
    recorder.add(None, {"type": "timeout", "key": "vote:1:1"})
    record = recorder.record
    assert [a.seat for a in record.actions] == [0, None]
    assert record_from_json(json.loads(record.dumps())) == record


def test_replay_command_prints_plain_english_and_the_final_view(tmp_path, capsys):
    path = _recorded_game(tmp_path, players=4, seed=8)
    capsys.readouterr()
    assert replay_cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    assert "collusion · 4 seats" in out and "Reveal of vote 1" in out and "Game over" in out
    assert "Final public view:" in out and '"phase": "game_over"' in out
    assert replay_cli.main([str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "collusion" and data["final_view"]["phase"] == "game_over"
    assert data["events"] == replay(load(path)).events


def test_replay_command_reports_bad_files(tmp_path, capsys):
    (tmp_path / "bad.json").write_text("{}")
    assert replay_cli.main([str(tmp_path / "bad.json")]) == 2
    assert "not a game record" in capsys.readouterr().err
