"""The real phone app in game/web: every file index.html links resolves with the right type."""
from __future__ import annotations

import posixpath
import re
from typing import Any

from aiohttp.test_utils import TestClient

from game.config import TableConfig
from game.server.app import WEB_DIR, ServerSettings, make_app
from game.session.session import Session


async def test_index_and_everything_it_links(aiohttp_client: Any, tmp_path: Any) -> None:
    session = Session.boot(TableConfig(data_dir=tmp_path), None, None)
    client: TestClient = await aiohttp_client(make_app(session, ServerSettings()))
    token = session.table.seats[0].token
    page = await client.get(f"/s/{token}")
    html = await page.text()
    assert page.status == 200 and html == (WEB_DIR / "index.html").read_text(encoding="utf-8")
    links = set(re.findall(r'(?:href|src)="(/(?:static|fonts)/[^"]+)"', html))
    assert any(link.endswith(".js") for link in links)
    todo, seen = sorted(links), set()
    while todo:  # follow the JS modules' imports and the CSS urls too
        link = todo.pop()
        if link in seen:
            continue
        seen.add(link)
        response = await client.get(link)
        assert response.status == 200, link
        if link.endswith(".js"):
            assert response.headers["Content-Type"].startswith("text/javascript"), link
            base = link.rsplit("/", 1)[0]
            for rel in re.findall(r'(?:from|import)\s*\(?\s*"(\.{1,2}/[^"]+)"', await response.text()):
                todo.append(posixpath.normpath(f"{base}/{rel}"))
        if link.endswith(".css"):
            assert response.headers["Content-Type"].startswith("text/css"), link
            todo += re.findall(r'url\("(/(?:static|fonts)/[^"]+)"\)', await response.text())
    assert len(seen) > len(links)
    for lang in ("en", "fa", "th"):
        strings = await client.get(f"/i18n/{lang}.json")
        assert strings.status == 200 and isinstance(await strings.json(), dict)
    session.close()
