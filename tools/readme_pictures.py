"""The README's pictures (``python3 tools/screenshots.py --readme``): the TV moments each catalog
game's tapes name (``Tapes.readme``) drawn headless, and the phone pages they name
(``Tapes.phone``) in Debian's Chromium (Playwright, ``/usr/bin/chromium``; never a downloaded
browser) against a real table on loopback. Written to ``docs/images/``."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pygame

from game import catalog
from game.tapes import PhoneShot

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
TV_SIZE = (1280, 720)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def tv_pictures(render: Callable[..., pygame.Surface], out: Path = IMAGES) -> list[Path]:
    written = []
    for desc in catalog.games():
        tapes = desc.load_tapes()
        if not tapes.readme:
            continue
        for moment in tapes.moments("en"):
            name = tapes.readme.get(moment.name)
            if name:
                pygame.image.save(render(moment, TV_SIZE), str(out / name))
                written.append(out / name)
    return written


def phone_picture(game: str, shot: PhoneShot, out: Path = IMAGES) -> Path:
    """The phone page ``shot`` names, of ``game``, on a 360×640 phone."""
    from playwright.sync_api import sync_playwright

    from game.config import TableConfig
    from game.server.runtime import TableRuntime

    path = out / shot.file
    with tempfile.TemporaryDirectory(prefix="tabletop-pictures-") as tmp:
        config = TableConfig(host="127.0.0.1", port=0, data_dir=Path(tmp), new=True, headless=True,
                             admin_pin="2468", seed=20261201, game=game)
        runtime = TableRuntime(config, bot_delay_scale=50.0)  # bots wait: the page stays as dealt
        runtime.start()
        runtime.wait_ready()
        try:
            runtime.call(lambda s: s.host_command({"command": "set_seats", "count": shot.seats}))
            token = runtime.snapshot().seats[0].url.split("/s/", 1)[1]
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_context(viewport={"width": 360, "height": 640}, device_scale_factor=2,
                                           is_mobile=True, has_touch=True, locale="en-US").new_page()
                page.goto(f"http://127.0.0.1:{runtime.port}/s/{token}")
                page.fill("[data-testid=name-input]", "Sara")
                page.click("[data-testid=name-go]")
                page.wait_for_selector("[data-testid=me-card]")
                runtime.call(lambda s: s.host_command({"command": "start"}))
                for testid in shot.clicks:
                    page.wait_for_selector(f"[data-testid={testid}]")
                    page.click(f"[data-testid={testid}]")
                page.wait_for_selector(f"[data-testid={shot.shown}]")
                page.screenshot(path=str(path), animations="disabled")
                browser.close()
        finally:
            runtime.stop()
    return path


def write_readme_pictures(render: Callable[..., pygame.Surface], out: Path = IMAGES) -> int:
    out.mkdir(parents=True, exist_ok=True)
    written = tv_pictures(render, out)
    for desc in catalog.games():
        shot = desc.load_tapes().phone
        if shot is not None:
            written.append(phone_picture(desc.id, shot, out))
    return len(written)
