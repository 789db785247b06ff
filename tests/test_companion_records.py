"""Records and ``tabletop replay`` for the companion games of Collusion and Speakeasy: a recorded
game (the golden replays' moves) saves, loads and replays in plain words with its rule ids."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from game import replay as replay_cli
from game.records import PlayerInfo, load, new_record, replay, save

GOLDEN = Path(__file__).parent / "rules" / "golden"


def _record(game: str, golden: dict, preset: str, settings: dict):
    record = new_record(game, golden["n"], golden["seed"], preset, settings,
                        [PlayerInfo(s, f"P{s + 1}") for s in range(golden["n"])])
    for move in golden["moves"]:
        record = record.with_action(move["seat"], move["action"])
    return record


CASES = {
    "collusion_companion": ("rod_ruang", lambda g: {"gold": g["gold"], "target_score": g["target"]},
                            ("Round over", "Totals:", "corrected by the host", "Game over")),
    "speakeasy_companion": ("th", lambda g: {**g["setup"], "clues_per_game": g["n"] + 1},
                            ("Point!", "Clue 1 of", "is revealed as", "Game over (S13)")),
}


@pytest.mark.parametrize("game", list(CASES))
def test_a_companion_record_replays_in_plain_words(game, tmp_path, capsys):
    preset, settings, words = CASES[game]
    golden = json.loads((GOLDEN / f"{game}.json").read_text())
    path = tmp_path / "game.json"
    save(_record(game, golden, preset, settings(golden)), path)
    result = replay(load(path))
    assert result.events[-1]["type"] in ("game_over", "game_ended")
    capsys.readouterr()
    assert replay_cli.main([str(path)]) == 0
    out = capsys.readouterr().out
    for word in words:
        assert word in out, word
