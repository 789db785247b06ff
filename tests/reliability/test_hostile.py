"""Hostile messages over the WebSocket protocol from a seat, a spectator, the host and a socket
that never said hello: every refused message changes nothing, no socket is dropped without an
error reply (except the documented closes), every reply parses. CI runs a few hundred messages;
``python3 bench/bench_hostile.py`` runs 10,000."""
from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hostile_kit import FAST_DIR, Frame, plans, play_hostile
from hypothesis import HealthCheck, given, settings


@settings(max_examples=12, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(plan=plans)
def test_hostile_messages_change_nothing_and_always_get_an_answer(plan: list[tuple[str, Frame]]) -> None:
    with tempfile.TemporaryDirectory(prefix="hostile-", dir=FAST_DIR) as data_dir:
        run = asyncio.run(play_hostile(plan, Path(data_dir)))
    assert run.messages >= sum(1 for _, f in plan if f.replay is None)


@pytest.mark.parametrize("sender", ["seat", "spectator", "host", "stranger"])
def test_lone_surrogates_and_huge_numbers_from_every_sender(sender: str, tmp_path: Path) -> None:
    texts = ['{"v":1,"kind":"set_name","name":"\\ud800"}', '{"v":1,"kind":"ping","t":1,"id":"\\udc00x"}',
             '{"v":1,"kind":"nope","id":"\\ud83d"}', '{"v":1,"kind":"hello","role":"\\udfff"}',
             '{"v":1,"kind":"action","action":{"type":"vote","target":1e400},"version":1}',
             '{"v":1,"kind":"action","action":{"type":"vote","target":' + "9" * 400 + '},"version":1}',
             '{"v":1,"kind":"host","command":"set_seats","args":{"count":' + "9" * 400 + '}}',
             '{"v":1,"kind":"press","race":' + "9" * 30 + ',"t":1}']
    run = asyncio.run(play_hostile([(sender, Frame(text=t)) for t in texts], tmp_path / "data"))
    assert run.messages == len(texts) and run.refused == len(texts)
