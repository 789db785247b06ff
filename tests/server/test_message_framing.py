"""Message framing lives in server/protocol.py only: the session gives a message's
fields, the server puts the protocol version and the kind around them."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from game.config import TableConfig
from game.server.hub import StateFrames
from game.server.protocol import PROTOCOL_VERSION, encode, framed
from game.session.scheduler import VirtualTime
from game.session.session import Session

GAME = Path(__file__).resolve().parents[2] / "game"


def test_only_the_protocol_module_writes_a_version_into_a_message() -> None:
    writers = []
    for path in GAME.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict) and any(isinstance(k, ast.Constant) and k.value == "v" for k in node.keys):
                writers.append(str(path.relative_to(GAME)))
    assert set(writers) == {"server/protocol.py"}


def test_the_session_gives_fields_and_the_server_frames_them() -> None:
    vt = VirtualTime()
    session = Session.boot(TableConfig(), None, None, clock=vt, scheduler=vt)
    try:
        state = session.update.message(None)
        welcome = session.update.welcome_json(None, "watch", session.clock())
        assert "v" not in state and "kind" not in state and "v" not in welcome
        message = framed("state", state)
        assert message["v"] == PROTOCOL_VERSION and message["kind"] == "state" and message["lobby"] == state["lobby"]
    finally:
        session.close()


@pytest.mark.parametrize("game", ["collusion", "speakeasy", "cheating_moth", "collusion_companion"])
def test_a_seats_frame_shares_the_public_views_bytes_and_is_the_same_json(game: str) -> None:
    """Every seat's ``state`` frame is exactly the JSON of its whole message, whether its view's
    public part was encoded once and joined (an engine with ``own_view``) or encoded whole."""
    vt = VirtualTime()
    session = Session.boot(TableConfig(game=game, seed=3), None, None, clock=vt, scheduler=vt)
    try:
        session.host_command({"command": "set_seats", "count": 4})
        session.host_command({"command": "fill_bots", "kind": "random"})
        session.host_command({"command": "start"})
        vt.run_until(lambda: session.version > 8, limit_ms=600_000)
        update = session.update
        frames = StateFrames(update, session.clock())
        timer = update.timer_json(session.clock())
        for seat in (None, *range(session.table.seat_count)):
            whole = {**framed("state", update.common(host=False)), "timer": timer, **update.seat(seat).to_json()}
            assert json.loads(frames.get(seat, host=False)) == whole
            assert frames.get(seat, host=False) == encode(whole)
    finally:
        session.close()
