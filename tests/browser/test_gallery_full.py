"""/watch when the gallery is full: the spectator over the cap is told kindly in
the table's language, with a try-again button that gets in once a place frees up."""
from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.server.app import ServerSettings
from game.server.capacity import FD_HEADROOM, HELLO_ROOM
from game.server.hub import SEAT_RESERVE

from .conftest import Phones, Table, start_runtime
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

STRINGS = Path(__file__).resolve().parents[2] / "game" / "i18n"
ONE_SPECTATOR = FD_HEADROOM + SEAT_RESERVE + HELLO_ROOM + 1  # an open-file limit with room for one


@pytest.fixture
def small_gallery(tmp_path: Path) -> Iterator[Table]:
    t = Table(start_runtime(tmp_path, settings=ServerSettings(fd_limit=ONE_SPECTATOR)), tmp_path)
    yield t
    t.runtime.stop()


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_gallery_is_full_page_and_try_again(lang: str, small_gallery: Table, phones: Phones, shots: Path) -> None:
    strings = json.loads((STRINGS / f"web_{lang}.json").read_text("utf-8"))
    small_gallery.host("set_language", language=lang)
    first = phones.open(f"{small_gallery.url}/watch")
    first.wait_for_selector("[data-testid=seat-list]")
    late = phones.open(f"{small_gallery.url}/watch", scale=2)
    late.wait_for_selector("[data-testid=gallery-retry]")
    # the table's words load after the refusal arrives (a busy machine: a moment later)
    late.wait_for_function("t => document.querySelector('.full-message')?.innerText.includes(t)",
                           arg=strings["gallery.title"], timeout=10_000)
    assert strings["gallery.title"] in late.inner_text(".full-message")
    assert late.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")
    shoot(late, shots, lang, "gallery_full")

    first.context.close()  # a place frees up
    for _ in range(50):  # until the table has noticed the first spectator left
        late.click("[data-testid=gallery-retry]")
        late.wait_for_selector("[data-testid=seat-list], [data-testid=gallery-retry]")
        if late.locator("[data-testid=seat-list]").count():
            break
        late.wait_for_timeout(100)
    assert late.locator("[data-testid=seat-list]").count() == 1
