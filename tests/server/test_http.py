"""HTTP routes: pages, join codes, static files, fonts, i18n, health."""
from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from game import i18n
from game.server.app import HUB, JOIN_FAILURES_PER_MINUTE

MakeTable = Callable[..., Any]


@pytest.mark.parametrize("path", ["/watch", "/host", "/join"])
async def test_pages_serve_the_phone_app(make_table: MakeTable, path: str) -> None:
    t = await make_table()
    response = await t.client.get(path)
    assert response.status == 200 and "text/html" in response.headers["Content-Type"]
    assert "<title>phone</title>" in await response.text()


async def test_seat_link_serves_the_app_without_leaking_a_referrer(make_table: MakeTable) -> None:
    t = await make_table()
    response = await t.client.get(f"/s/{t.session.table.seats[0].token}")
    assert response.status == 200 and "<title>phone</title>" in await response.text()
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


async def test_root_redirects_to_join(make_table: MakeTable) -> None:
    t = await make_table()
    response = await t.client.get("/", allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == "/join"


async def test_join_by_code_redirects_to_the_seat_link(make_table: MakeTable) -> None:
    t = await make_table()
    record = t.session.table.seats[2]
    typed = " ".join(record.code.lower())
    response = await t.client.get("/join", params={"code": typed}, allow_redirects=False)
    assert response.status == 303 and response.headers["Location"] == f"/s/{record.token}"
    bad = await t.client.get("/join", params={"code": "ZZZZ"}, allow_redirects=False)
    assert bad.status == 303 and bad.headers["Location"] == "/join?error=unknown_code"


async def test_join_api(make_table: MakeTable) -> None:
    t = await make_table()
    record = t.session.table.seats[1]
    ok = await t.client.get(f"/api/join/{record.code}")
    assert ok.status == 200 and await ok.json() == {"url": f"/s/{record.token}", "held": False}
    missing = await t.client.get("/api/join/ACDE" if record.code != "ACDE" else "/api/join/ACDF")
    assert missing.status == 404 and (await missing.json())["error"]["code"] == "unknown_seat"


async def test_seat_beyond_the_offered_count_has_no_code(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    hidden = t.session.table.seats[8]
    response = await t.client.get(f"/api/join/{hidden.code}")
    assert response.status == 404


async def test_wrong_codes_are_limited_per_address(make_table: MakeTable) -> None:
    t = await make_table()
    codes = t.session.table.codes()
    wrong = [c for c in ("ACDE", "ACDF", "ACDH", "ACDJ", "ACDK", "ACDM", "ACDN", "ACDP", "ACDR", "ACDT", "ACDW",
                         "ACDX") if c not in codes]
    for code in wrong[:JOIN_FAILURES_PER_MINUTE]:
        assert (await t.client.get(f"/api/join/{code}")).status == 404
    blocked = await t.client.get(f"/api/join/{wrong[JOIN_FAILURES_PER_MINUTE]}")
    assert blocked.status == 429  # the next guess waits
    free = await t.client.get(f"/api/join/{t.session.table.seats[0].code}")
    assert free.status == 200  # a free seat's code (on the TV for all to see) still works


async def test_static_files_with_types_and_no_escape(make_table: MakeTable) -> None:
    t = await make_table()
    js = await t.client.get("/static/js/main.js")
    assert js.status == 200 and js.headers["Content-Type"].startswith("text/javascript")
    manifest = await t.client.get("/static/app.webmanifest")
    assert manifest.headers["Content-Type"].startswith("application/manifest+json")
    for path in ("/static/../secret.txt", "/static/%2e%2e/secret.txt", "/static/js/../../secret.txt", "/static/nope.js"):
        response = await t.client.get(path)
        assert response.status == 404, path


@pytest.mark.parametrize("name", ["NotoSans.ttf", "NotoSansArabic.ttf", "NotoSansThai.ttf"])
async def test_fonts_from_the_packages(make_table: MakeTable, name: str) -> None:
    t = await make_table()
    response = await t.client.get(f"/fonts/{name}")
    body = await response.read()
    assert response.status == 200 and response.headers["Content-Type"] == "font/ttf"
    assert body[:4] in (b"\x00\x01\x00\x00", b"true") and len(body) > 100_000
    assert "max-age" in response.headers["Cache-Control"]


async def test_unknown_font_is_404(make_table: MakeTable) -> None:
    t = await make_table()
    assert (await t.client.get("/fonts/Comic.ttf")).status == 404


async def test_i18n_and_health(make_table: MakeTable) -> None:
    t = await make_table()
    fa = await t.client.get("/i18n/fa.json")
    words = await fa.json()
    assert fa.status == 200 and words["hello"] == "سلام"  # the shared words of this table's i18n folder ...
    assert words["game.collusion"] == i18n.load("fa", "web_collusion")["game.collusion"]  # ... with each game's own
    assert (await t.client.get("/i18n/th.json")).status == 404
    assert (await t.client.get("/i18n/xx.json")).status == 404
    health = await t.client.get("/healthz")
    assert (await health.json()) == {"ok": True, "version": t.session.version, "phase": "lobby"}


async def test_missing_phone_app_is_a_clear_503(make_table: MakeTable, web_dir: Any) -> None:
    t = await make_table()
    (web_dir / "index.html").unlink()
    response = await t.client.get("/watch")
    assert response.status == 503 and "index.html" in await response.text()


async def test_socket_cap(make_table: MakeTable) -> None:
    import aiohttp

    t = await make_table(max_sockets=2)
    first, _, _ = await t.seat(0)
    await t.seat(1)
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # two seated phones: no silent socket to drop
        await t.client.ws_connect("/ws")
    assert refused.value.status == 503
    await first.ws.close()
    for _ in range(100):  # the server notices the close, then there is room again
        if len(t.client.app[HUB].clients) < 2:
            break
        await asyncio.sleep(0.01)
    third = await t.connect()
    await third.send("ping", t=1)
    assert (await third.recv("error"))["code"] == "malformed"  # a working socket (hello first)
