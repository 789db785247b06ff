"""A kiosk's seated phone walks away mid-game: the other phones offer to free its seat (fa, th),
fit 320 and 390 px with the longest names, and two taps free it for a bot; the game goes on."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from game.kiosk.config import KioskConfig
from game.server.runtime import TableRuntime
from game.session.snapshot import RunMode

from .conftest import ADMIN_PIN, BOT_DELAY_SCALE, Phones, Table, start_runtime
from .phone import open_seats
from .test_host_final_choices import LONG_NAMES
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

AWAY_S = 2  # the file's floor is 15 s; a browser test does not wait a minute


@pytest.fixture
def cafe(tmp_path: Path) -> Iterator[Table]:
    plain = start_runtime(tmp_path)
    config = replace(plain.config, mode=RunMode.KIOSK, kiosk=KioskConfig(away_s=AWAY_S, admin_pin=ADMIN_PIN, how_to_play=False))
    plain.stop()
    runtime = TableRuntime(config, bot_delay_scale=BOT_DELAY_SCALE)
    runtime.start()
    runtime.wait_ready()
    t = Table(runtime, tmp_path)
    yield t
    t.runtime.stop()


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_the_others_free_the_seat_of_a_phone_that_walked_away(lang: str, cafe: Table, phones: Phones, shots: Path) -> None:
    cafe.host("set_language", language=lang)
    cafe.host("set_seats", count=3)
    pages = open_seats(cafe, phones, LONG_NAMES)
    cafe.host("start")
    for page in pages:
        page.wait_for_selector(".game")
    pages[2].context.close()  # the phone leaves with its player
    first, second = pages[0], pages[1]
    card = first.locator("[data-testid=away-2]")
    card.wait_for(timeout=20_000)
    assert LONG_NAMES[2] in card.inner_text()
    for width in (320, 390):
        first.set_viewport_size({"width": width, "height": 720})
        assert first.evaluate("document.documentElement.scrollWidth <= innerWidth")
        # no name on the vote cards is cut (a short word in a wide script too: "محمدرضا")
        first.wait_for_function("[...document.querySelectorAll('.vote-grid bdi')].every(n => n.scrollWidth <= n.clientWidth + 1)")
        shoot(first, shots, lang, f"away_card_{width}")
    first.click("[data-testid=free-away-2]")
    first.wait_for_selector("[data-testid=free-away-2][disabled]")  # agreed once: waiting for the others
    second.click("[data-testid=free-away-2]")
    first.wait_for_selector("[data-testid=away-2]", state="detached")
    seat = cafe.call(lambda s: s.table.seats[2])
    assert seat.bot is not None and not seat.joined
    assert cafe.call(lambda s: s.phase.value) == "playing"
