"""Message framing lives in server/protocol.py only: the session gives a message's
fields, the server puts the protocol version and the kind around them."""
from __future__ import annotations

import ast
from pathlib import Path

from game.config import TableConfig
from game.server.protocol import PROTOCOL_VERSION, framed
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
