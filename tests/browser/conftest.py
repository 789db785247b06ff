"""Real-browser tests of the phone app: the real table (session + aiohttp server) in-process on a
free loopback port with a temporary data directory, and Debian's Chromium driven by Playwright.

Phones are browser contexts with a 360×640 touch viewport. Every page's JavaScript errors are
collected and fail the test.
"""
from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from game.config import TableConfig
from game.server.app import ServerSettings
from game.server.runtime import TableRuntime
from game.session.snapshot import TableSnapshot

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"]
PHONE_VIEWPORT = {"width": 360, "height": 640}
ADMIN_PIN = "2468"
SCREENSHOT_DIR = Path(os.environ.get("PHONE_SCREENSHOTS", Path(__file__).resolve().parents[2] / "out" / "phone"))
# A browser language the table does not have: the phone starts in the table's language.
NEUTRAL_LOCALE = "de-DE"
BOT_DELAY_SCALE = 0.03  # bots think for a few ms instead of seconds: the game runs at test speed

sync_api = pytest.importorskip("playwright.sync_api")


@dataclass
class Table:
    """The running table and helpers to drive it like the host at the big screen would."""

    runtime: TableRuntime
    tmp_path: Path

    def restart(self) -> None:
        """Stop the table and start it again on the same port and data (it resumes the journal)."""
        port = self.runtime.port
        self.runtime.stop()
        self.runtime = start_runtime(self.tmp_path, port=port, new=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.runtime.port}"

    def snapshot(self) -> TableSnapshot:
        return self.runtime.snapshot()

    def seat_url(self, seat: int) -> str:
        """The seat link as printed / encoded in its QR code (while the seat is free), on loopback."""
        return f"{self.url}/s/{self.call(lambda session: session.table.seats[seat].token)}"

    def seat_code(self, seat: int) -> str:
        """The seat's typed code (the TV shows it while the seat is free; the host console always)."""
        return str(self.call(lambda session: session.table.seats[seat].code))

    def host(self, command: str, **fields: Any) -> None:
        """A host command applied on the table's loop (raises the table's typed error)."""
        payload = {"command": command, **fields}
        self.runtime.call(lambda session: session.host_command(payload))

    def call(self, fn: Callable[[Any], Any]) -> Any:
        return self.runtime.call(fn)


@pytest.fixture(scope="package")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail("Debian's chromium is not installed: CI must run tools/test, which installs it")
        pytest.skip("Debian's chromium is not installed (tools/test installs it)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


def start_runtime(tmp_path: Path, *, port: int = 0, new: bool = True, settings: ServerSettings | None = None) -> TableRuntime:
    """The real table (session, journal, server) on loopback; port 0 picks a free one."""
    config = TableConfig(host="127.0.0.1", port=port, data_dir=tmp_path / "data", new=new, headless=True,
                         admin_pin=ADMIN_PIN, seed=20261130, language="en")
    runtime = TableRuntime(config, settings, bot_delay_scale=BOT_DELAY_SCALE)
    runtime.start()
    runtime.wait_ready()
    return runtime


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(start_runtime(tmp_path), tmp_path)
    yield t
    t.runtime.stop()


@dataclass
class Phones:
    """Opens phone-sized browser contexts and remembers every page error."""

    browser: Any
    contexts: list[Any] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, url: str, *, locale: str = NEUTRAL_LOCALE, scale: float = 1, frames: list[dict[str, Any]] | None = None,
             init_script: str | None = None, ws_route: Callable[[Any], None] | None = None) -> Any:
        """A new phone showing ``url`` (by default a browser in a language the table has not, so the
        phone shows the table's language of the moment it first came; ``locale="th-TH"``: a Thai
        browser, which starts in Thai); with ``frames``, every JSON message the page receives on its
        WebSocket is appended there (to check what reached the phone, not only what it shows);
        ``init_script`` runs before the app (to take a browser feature away); ``ws_route`` sits
        between the phone and the table's socket (to play a bad network)."""
        ctx = self.browser.new_context(viewport=PHONE_VIEWPORT, device_scale_factor=scale, is_mobile=True,
                                       has_touch=True, locale=locale, service_workers="block")
        self.contexts.append(ctx)
        if init_script:
            ctx.add_init_script(init_script)
        if ws_route:
            ctx.route_web_socket("**/ws", ws_route)
        page = ctx.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda exc: self.errors.append(f"{url}: {exc}"))
        page.on("console", lambda msg: self._console(url, msg))
        page.on("response", lambda res: self._response(res))
        if frames is not None:
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(json.loads(payload))))
        page.goto(url)
        return page

    def _console(self, url: str, msg: Any) -> None:
        # Failed requests and refused WebSocket connections (offline, table restarting) are logged
        # by the browser itself, not by the app; _response judges failed requests.
        network = msg.text.startswith("Failed to load resource") or msg.text.startswith("WebSocket connection to")
        if msg.type == "error" and not network:
            self.errors.append(f"{url}: console {msg.text}")

    def _response(self, res: Any) -> None:
        # Every page, script, style, font and string file must load. Unknown join codes answer 404
        # by design (the test for them checks the message the phone shows).
        if res.status >= 400 and "/api/join/" not in res.url:
            self.errors.append(f"HTTP {res.status} for {res.url}")

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()


@pytest.fixture
def phones(browser: Any) -> Iterator[Phones]:
    p = Phones(browser)
    yield p
    p.close()
    assert p.errors == [], "errors in the phone app:\n" + "\n".join(p.errors)


@pytest.fixture(scope="session")
def shots() -> Path:
    """Where screenshots of the key phone pages go (out/phone/ unless PHONE_SCREENSHOTS is set)."""
    if SCREENSHOT_DIR.exists():
        shutil.rmtree(SCREENSHOT_DIR)
    SCREENSHOT_DIR.mkdir(parents=True)
    return SCREENSHOT_DIR
