"""The README's pictures (``python3 tools/screenshots.py --readme``): the TV lobby, a Collusion
reveal and a Cheating Moth race result drawn headless, and a phone's hand in Debian's Chromium
(Playwright, ``/usr/bin/chromium``; never a downloaded browser) against a real table on loopback.
Written to ``docs/images/``."""
from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path

import pygame

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
TV_SIZE = (1280, 720)
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run"]


def tv_pictures(render: Callable[..., pygame.Surface], out: Path = IMAGES) -> list[Path]:
    from game.render.tapes import moments, moth_moments

    wanted = {("collusion", "01_lobby"): "tv_lobby.png", ("collusion", "05_reveal"): "tv_reveal.png",
              ("cheating_moth", "m12_mosquito_result"): "tv_race_result.png"}
    written = []
    for game, make in (("collusion", moments), ("cheating_moth", moth_moments)):
        for moment in make("en"):
            name = wanted.get((game, moment.name))
            if name:
                pygame.image.save(render(moment, TV_SIZE), str(out / name))
                written.append(out / name)
    return written


def phone_hand(out: Path = IMAGES) -> Path:
    """A Cheating Moth hand, face up, on a 360×640 phone."""
    from playwright.sync_api import sync_playwright

    from game.config import TableConfig
    from game.server.runtime import TableRuntime

    path = out / "phone_hand.png"
    with tempfile.TemporaryDirectory(prefix="tabletop-pictures-") as tmp:
        config = TableConfig(host="127.0.0.1", port=0, data_dir=Path(tmp), new=True, headless=True,
                             admin_pin="2468", seed=20261201, game="cheating_moth")
        runtime = TableRuntime(config, bot_delay_scale=50.0)  # bots wait: the hand stays as dealt
        runtime.start()
        runtime.wait_ready()
        try:
            runtime.call(lambda s: s.host_command({"command": "set_seats", "count": 4}))
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
                page.wait_for_selector("[data-testid=hand-card-peek]")
                page.click("[data-testid=hand-card-peek]")
                page.wait_for_selector("[data-testid=hand-card-hide]")
                page.screenshot(path=str(path), animations="disabled")
                browser.close()
        finally:
            runtime.stop()
    return path


def write_readme_pictures(render: Callable[..., pygame.Surface], out: Path = IMAGES) -> int:
    out.mkdir(parents=True, exist_ok=True)
    written = tv_pictures(render, out)
    written.append(phone_hand(out))
    return len(written)
