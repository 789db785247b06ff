"""Each kiosk serves its figures in the Prometheus text format at ``/metrics``
(parsed here with ``prometheus_client.parser``), readable only with the admin PIN (the
``X-Admin-Pin`` header or the password of HTTP basic auth) or from an address listed in the
config's ``[monitoring] metrics_from``, which is checked like every other key."""
from __future__ import annotations

import asyncio
import base64
import ipaddress
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from prometheus_client.parser import text_string_to_metric_families

from game.config import TableConfig
from game.kiosk.config import ConfigError, KioskConfig, load_config
from game.kiosk.web import KEEPER, install_kiosk
from game.server.app import FRAMES, ServerSettings, guard_server, make_app
from game.session.journal import Journal
from game.session.session import Session
from game.session.snapshot import RunMode

PIN = "482193"
MakeKiosk = Callable[..., Any]


@pytest.fixture
async def make_kiosk(aiohttp_client: Any, tmp_path: Path) -> Any:
    opened: list[tuple[Session, Journal]] = []

    async def make(metrics_from: tuple[str, ...] = ()) -> TestClient:
        kiosk = KioskConfig(admin_pin=PIN, how_to_play=False,
                            metrics_from=tuple(ipaddress.ip_network(a) for a in metrics_from))
        config = TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path / "data", admin_pin=PIN, seed=3, kiosk=kiosk)
        journal, saved, _ = Journal.open(config.data_dir)
        session = Session.boot(config, journal, saved)
        app = make_app(session, ServerSettings())
        install_kiosk(app, session, journal, config)
        client: TestClient = await aiohttp_client(app)
        guard_server(app, client.server.runner.server)
        opened.append((session, journal))
        return client

    yield make
    for session, journal in opened:
        session.close()
        journal.close()


def basic(user: str, password: str) -> dict[str, str]:
    """HTTP basic auth, as Prometheus's ``basic_auth`` sends it."""
    return {"Authorization": "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()}


def families(text: str) -> dict[str, Any]:
    return {f.name: f for f in text_string_to_metric_families(text)}


def value(fams: dict[str, Any], name: str, **labels: str) -> float:
    samples = [s for s in fams[name].samples if all(s.labels.get(k) == v for k, v in labels.items())
               and s.name in (name, name + "_total")]
    assert len(samples) == 1, (name, labels, fams[name].samples)
    return float(samples[0].value)


async def test_metrics_are_refused_without_the_pin(make_kiosk: MakeKiosk) -> None:
    client = await make_kiosk()
    plain = await client.get("/metrics")
    assert plain.status == 401 and plain.headers["WWW-Authenticate"].startswith("Basic")
    assert "tabletop_" not in await plain.text()
    wrong = await client.get("/metrics", headers=basic("prometheus", "000000"))
    assert wrong.status == 403
    wrong_header = await client.get("/metrics", headers={"X-Admin-Pin": "111111"})
    assert wrong_header.status == 403


async def test_metrics_with_the_pin_parse_and_count_what_happened(make_kiosk: MakeKiosk) -> None:
    client = await make_kiosk()
    app = client.app
    keeper = app[KEEPER]
    keeper.archive.game_started(7, "collusion", None, 6, 4)
    keeper.archive.game_ended(7, "finished")
    seat = app[KEEPER].session.table.seats[0]
    ws = await client.ws_connect("/ws")
    await ws.send_str(json.dumps({"v": 1, "kind": "hello", "token": seat.token, "name": "Sara"}))
    while json.loads((await ws.receive()).data)["kind"] != "welcome":
        pass
    reader, writer = await asyncio.open_connection(client.server.host, client.server.port)
    writer.write(b"GET / HTTP/1.1\r\nBad Header\r\n\r\n")  # a guest's bad request
    await reader.read()
    writer.close()
    logging.getLogger("game.session.session").error("timer %s: not applied: %s", "vote", "illegal")
    app[FRAMES].seen()  # the TV drew a frame
    response = await client.get("/metrics", headers=basic("prometheus", PIN))
    assert response.status == 200 and response.headers["Content-Type"].startswith("text/plain")
    fams = families(await response.text())
    assert value(fams, "tabletop_connected_phones") == 1
    assert value(fams, "tabletop_players") == 1
    assert value(fams, "tabletop_sockets", role="seat") == 1
    assert value(fams, "tabletop_bad_requests") == 1
    assert value(fams, "tabletop_network_noise", kind="bad_request") == 1
    assert value(fams, "tabletop_bad_requests_today") == 1
    assert value(fams, "tabletop_errors") == 1  # the program's own error, not the guest's request
    assert value(fams, "tabletop_games_today", game="collusion") == 1
    assert value(fams, "tabletop_game_players_today", game="collusion") == 4
    assert value(fams, "tabletop_crashes_week") == 0 and value(fams, "tabletop_restarts_week") == 0
    assert 0 <= value(fams, "tabletop_frame_age_seconds") < 3600
    assert value(fams, "tabletop_crashes") == 0 and value(fams, "tabletop_starts") == 1  # kept for good: _total
    assert value(fams, "tabletop_games_started", game="collusion") == 1
    assert value(fams, "tabletop_game_players", game="collusion") == 4
    assert value(fams, "tabletop_archive_bytes") > 0
    assert value(fams, "tabletop_archive_limit_bytes") == 200 * 1024 * 1024
    by_header = await client.get("/metrics", headers={"X-Admin-Pin": PIN})
    assert by_header.status == 200
    await ws.close()


async def test_a_listed_address_reads_the_metrics_without_the_pin(make_kiosk: MakeKiosk) -> None:
    listed = await make_kiosk(metrics_from=("127.0.0.0/8",))
    response = await listed.get("/metrics")
    assert response.status == 200 and "tabletop_connected_phones" in families(await response.text())


async def test_an_address_not_listed_still_needs_the_pin(make_kiosk: MakeKiosk) -> None:
    other = await make_kiosk(metrics_from=("10.0.0.0/8", "192.168.1.20"))
    assert (await other.get("/metrics")).status == 401


MONITORING = """\
[admin]
pin = "482193"

[monitoring]
"""


def test_metrics_from_reads_addresses_and_networks(tmp_path: Path) -> None:
    path = tmp_path / "kiosk.toml"
    path.write_text(MONITORING + 'metrics_from = ["192.168.1.20", "10.0.0.0/24", "fd00::/8"]\n', encoding="utf-8")
    config = load_config(path)
    assert [str(n) for n in config.metrics_from] == ["192.168.1.20/32", "10.0.0.0/24", "fd00::/8"]
    assert load_config(_write(tmp_path, "[admin]\npin = \"482193\"\n")).metrics_from == ()


@pytest.mark.parametrize("line, words", [
    ('metrics_from = "192.168.1.20"', "must be a list"),
    ('metrics_from = ["192.168.1.300"]', "'192.168.1.300' is not an address"),
    ('metrics_from = ["0.0.0.0/0"]', "is every address"),
    ("metrics_from = [1]", "must be a list"),
    ('allow = ["192.168.1.20"]', "unknown key"),
])
def test_a_bad_metrics_from_names_the_line(tmp_path: Path, line: str, words: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(_write(tmp_path, MONITORING + line + "\n"))
    message = str(info.value)
    assert words in message and "line 5" in message


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kiosk.toml"
    path.write_text(text, encoding="utf-8")
    return path


async def test_a_wrong_pin_on_the_owners_page_or_metrics_is_one_audit_line_with_the_address(
        make_kiosk: MakeKiosk, caplog: pytest.LogCaptureFixture) -> None:
    client = await make_kiosk()
    with caplog.at_level(logging.INFO, "game.audit"):
        assert (await client.get("/metrics", headers={"X-Admin-Pin": "111111"})).status == 403
        assert (await client.get("/api/owner", headers={"X-Admin-Pin": "222222"})).status == 403
    lines = [r.getMessage() for r in caplog.records if r.name == "game.audit"]
    assert lines == ["wrong admin PIN from 127.0.0.1 on /metrics", "wrong admin PIN from 127.0.0.1 on /api/owner"]
    assert PIN not in caplog.text and "111111" not in caplog.text  # no PIN, right or wrong, is written down


async def test_the_watchdogs_held_back_pings_are_counted_when_there_is_a_watchdog(make_kiosk: MakeKiosk) -> None:
    client = await make_kiosk()
    assert "tabletop_watchdog_misses" not in families(await (await client.get("/metrics", headers=basic("p", PIN))).text())
    client.app[FRAMES].watchdog_misses = 3  # told by the TV's process with the table loop's beats
    fams = families(await (await client.get("/metrics", headers=basic("p", PIN))).text())
    assert value(fams, "tabletop_watchdog_misses") == 3
