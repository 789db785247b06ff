from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient
from tabletop_wsphone import ADDRESS_HEADER, PIN, Table

from game.config import TableConfig
from game.server.app import ServerSettings, guard_server, make_app
from game.server.ratelimit import RateLimit
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import Session


@pytest.fixture
def web_dir(tmp_path: Path) -> Path:
    d = tmp_path / "web"
    (d / "js").mkdir(parents=True)
    (d / "index.html").write_text("<!doctype html><title>phone</title>", encoding="utf-8")
    (d / "js" / "main.js").write_text("export const x = 1;\n", encoding="utf-8")
    (d / "app.webmanifest").write_text("{}", encoding="utf-8")
    (tmp_path / "secret.txt").write_text("outside", encoding="utf-8")
    return d


def test_address(request: web.Request) -> str:
    """The client's address; tests play other devices on the LAN with an ``X-Test-Address`` header."""
    return request.headers.get(ADDRESS_HEADER) or request.remote or "?"


@pytest.fixture
async def make_table(aiohttp_client: Any, tmp_path: Path, web_dir: Path) -> Callable[..., Any]:
    made: list[tuple[Session, Journal, TestClient]] = []

    async def make(*, seats: int = 4, rate: RateLimit | None = None, bot_delay_scale: float = 1000.0,
                   max_sockets: int | None = 500, server: dict[str, Any] | None = None, time: VirtualTime | None = None,
                   **config_kw: Any) -> Table:
        """``server``: more ServerSettings (e.g. an injected ``clock``); ``time``: the session runs on
        this virtual time (the sockets stay real)."""
        config = TableConfig(data_dir=tmp_path / "data", admin_pin=PIN, seed=5, **config_kw)
        journal, saved, _ = Journal.open(config.data_dir)
        timing: dict[str, Any] = {"clock": time, "scheduler": time} if time is not None else {}
        session = Session.boot(config, journal, saved, bot_delay_scale=bot_delay_scale, **timing)
        i18n = tmp_path / "i18n"
        i18n.mkdir(exist_ok=True)
        (i18n / "web_fa.json").write_text('{"hello": "سلام"}', encoding="utf-8")
        settings = ServerSettings(web_dir=web_dir, i18n_dir=i18n, rate=rate or RateLimit(1000, 1000),
                                  max_sockets=max_sockets, address_of=test_address, **(server or {}))
        app = make_app(session, settings)
        client = await aiohttp_client(app)
        guard_server(app, client.server.runner.server)
        session.set_base_url(str(client.make_url("")).rstrip("/"))
        made.append((session, journal, client))
        if session.phase.value == "lobby" and session.table.seat_count != seats:
            session.host_command({"command": "set_seats", "count": seats})
        return Table(session, client, journal)

    yield make
    for session, journal, client in made:
        await client.close()
        session.close()
        journal.close()
