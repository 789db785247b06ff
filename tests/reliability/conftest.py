"""The reliability suite: crowd, crash loop, power cut, hostile messages, secrets, serial faults.
Each file is the small CI version of a bench in ``bench/`` (see docs/reliability.md).

The server tests' protocol-speaking phone (``tests/server/tabletop_wsphone.py``) is shared here."""
from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from tabletop_wsphone import PIN, Table

from game.config import TableConfig
from game.server.app import ServerSettings, make_app
from game.server.ratelimit import RateLimit
from game.session.journal import Journal
from game.session.session import Session


@pytest.fixture
async def live_table(aiohttp_client: Any, tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """``await live_table(seats=4, game="collusion")``: a journaled table behind the real aiohttp app."""
    made: list[tuple[Session, Journal]] = []

    async def make(*, seats: int = 4, rate: RateLimit | None = None, bot_delay_scale: float = 0.0, **config_kw: Any) -> Table:
        config = TableConfig(data_dir=tmp_path / f"data{len(made)}", admin_pin=PIN, seed=5, **config_kw)
        journal, saved, _ = Journal.open(config.data_dir)
        session = Session.boot(config, journal, saved, bot_delay_scale=bot_delay_scale)
        settings = ServerSettings(rate=rate or RateLimit(100_000, 100_000))
        client = await aiohttp_client(make_app(session, settings))
        session.set_base_url(str(client.make_url("")).rstrip("/"))
        made.append((session, journal))
        if session.table.seat_count != seats:
            session.host_command({"command": "set_seats", "count": seats})
        return Table(session, client, journal)

    yield make
    for session, journal in made:
        session.close()
        journal.close()
