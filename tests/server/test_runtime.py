"""TableRuntime: the loop in a background thread, used from a plain (renderer) thread."""
from __future__ import annotations

import json
import socket
import time
import urllib.request
from pathlib import Path

import pytest

from game.config import TableConfig
from game.server.netaddr import base_url, lan_address
from game.server.runtime import StartupError, TableRuntime
from game.session.snapshot import InputEvent, InputKind, InputSource, TablePhase


def _wait_for(predicate, what: str, tries: int = 500) -> None:
    for _ in range(tries):
        if predicate():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_runtime_snapshot_send_and_stop(tmp_path: Path) -> None:
    runtime = TableRuntime(TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path, admin_pin="1357"))
    runtime.start()
    try:
        runtime.wait_ready()
        assert runtime.url == f"http://127.0.0.1:{runtime.port}" and runtime.port > 0
        snap = runtime.snapshot()
        assert snap.phase is TablePhase.LOBBY and snap.join_url == f"{runtime.url}/join"
        assert snap.seats[0].url.startswith(f"{runtime.url}/s/") and len(snap.seats[0].code) == 4
        runtime.send(InputEvent(InputSource.KEYBOARD, InputKind.HOST, None, {"command": "set_seats", "count": 9}, 0))
        _wait_for(lambda: len(runtime.snapshot().seats) == 9, "nine seats")
        assert runtime.snapshot().version == snap.version + 1
        with urllib.request.urlopen(f"{runtime.url}/healthz", timeout=5) as response:
            assert json.load(response)["version"] == snap.version + 1
        assert "PIN 1357" in runtime.links() and snap.seats[0].url in runtime.links()
        assert runtime.call(lambda s: s.table.seat_count) == 9
    finally:
        runtime.stop()
    again = TableRuntime(TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path))
    again.start()
    try:
        again.wait_ready()
        assert len(again.snapshot().seats) == 9  # resumed from the journal
        assert again.snapshot().seats[0].code == snap.seats[0].code
    finally:
        again.stop()


def test_port_in_use_is_a_clear_startup_error(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        runtime = TableRuntime(TableConfig(host="127.0.0.1", port=port, data_dir=tmp_path))
        runtime.start()
        with pytest.raises(StartupError, match=f"{port}"):
            runtime.wait_ready()
        runtime.stop()


def test_snapshot_before_start_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(StartupError):
        TableRuntime(TableConfig(data_dir=tmp_path)).snapshot()


def test_lan_address_and_base_url() -> None:
    address = lan_address()
    socket.inet_aton(address)  # an IPv4 address
    assert base_url("10.0.0.2", 8765) == "http://10.0.0.2:8765"
    assert base_url("::1", 80) == "http://[::1]:80"


def test_a_journal_that_cannot_be_replayed_is_moved_aside(tmp_path: Path) -> None:
    import asyncio
    import sqlite3

    from game.server.runtime import JOURNAL_NOTICE, _open_session
    from game.session.journal import JOURNAL_NAME

    config = TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path, admin_pin="1357")

    async def first() -> str:
        session, journal, message = _open_session(config)
        assert message is None
        session.host_command({"command": "set_seats", "count": 3})
        session.host_command({"command": "fill_bots", "kind": "random"})
        session.host_command({"command": "start"})
        token = session.table.seats[0].token
        session.close()
        journal.close()
        return token

    token = asyncio.run(first())
    db = sqlite3.connect(tmp_path / JOURNAL_NAME)
    db.execute("INSERT INTO actions (game_no, seat, action, version) VALUES (1, 0, '{\"type\": \"vote\", \"target\": 0}', 99)")
    db.commit()
    db.close()

    runtime = TableRuntime(config)
    runtime.start()
    try:
        runtime.wait_ready()
        snap = runtime.snapshot()
        assert JOURNAL_NOTICE in snap.notices and snap.phase is TablePhase.LOBBY
        assert token not in {seat.url.rsplit("/", 1)[1] for seat in snap.seats}
        assert "could not be replayed" in runtime.links() and "IllegalAction" in runtime.links()
    finally:
        runtime.stop()
    assert [p.name for p in tmp_path.iterdir() if ".corrupt-" in p.name]
