"""`tabletop replay` tells a Cheating Moth game in plain words: every event type has its own sentence."""
from __future__ import annotations

from game.games.cheating_moth.rules import ENGINE, EVENTS, describe_event
from game.records import load, replay
from game.rules.base import GameEngine
from game.simulate import run


def test_every_event_of_a_bot_game_gets_its_own_sentence_citing_its_rule(tmp_path):
    path = tmp_path / "moth.json"
    run("cheating_moth", 4, 1, 5, "heuristic", None, str(path))
    events = replay(load(path)).events
    seen = {e["type"] for e in events}
    assert {"played", "drew", "race_decided", "accused", "round_ended", "game_ended"} <= seen
    for event in events:
        sentence = describe_event(event, lambda s: f"P{s}")
        generic = GameEngine.describe_event(ENGINE, event, lambda s: f"P{s}")
        assert sentence != generic, event
        assert sentence.endswith((".", ")", "…")), sentence
        if "cause" in event:
            assert event["cause"] in sentence, (event, sentence)


def test_every_registered_event_type_has_a_sentence():
    import inspect

    source = inspect.getsource(describe_event)
    for tag in EVENTS.tags:
        assert f'"{tag}"' in source, tag
