"""On real phones: a mis-tap never gives a seat away, and the address bar
never holds the seat's key.

Item 1: another phone asks for a seat while its player's finger is on the game's busiest screen
(Cheating Moth's "Catch a cheater", Collusion's vote, Speakeasy's pointing). The request is a
screen of its own that takes no input for its first second, a tap never gives the seat (only a
press and hold does), and the old phone then says it gave the seat itself — not that the host did.
Item 5: after the first load the address bar shows the seat's link, not the phone's key, so a
copied address opened on another phone asks the host like any other.
Screenshots: out/phone/<lang>_consent_<game>.png, <lang>_consent_given.png."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from .conftest import Phones, Table
from .phone import CONSENT_HOLD_MS, join, speakeasy_step
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

NAMES = ("Sara", "Ali", "Nok")
GIVEN = {  # the old phone's farewell after giving its seat (game/i18n/web_*.json given.title)
    "en": "You gave your seat to another phone",
    "fa": "صندلی‌تان را به گوشی دیگری دادید",
    "th": "คุณให้ที่นั่งกับอีกเครื่องแล้ว",
}
MOVED = {"en": "moved to another phone", "fa": "به گوشی دیگری رفت", "th": "ย้ายไปอีกเครื่องแล้ว"}
FIND_STEPS = 400
MIS_TAPS = 8


@dataclass(frozen=True)
class BusyScreen:
    """How to bring a game to its busiest phone screen, and that screen's buttons."""

    game: str
    setup: Callable[[Table], None]
    buttons: str  # the screen's enabled action buttons
    step: Callable[[Any], object] | None = None  # moves a phone on while no phone shows them yet


def _moth(table: Table) -> None:
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)


def _collusion(table: Table) -> None:
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("fill_bots", kind="heuristic")


def _speakeasy(table: Table) -> None:
    table.host("set_game", game="speakeasy")
    table.host("set_seats", count=4)
    table.host("set_setting", name="reveal_ms", value=0)
    table.host("fill_bots", kind="random")


SCREENS = {
    "cheating_moth": BusyScreen("cheating_moth", _moth, "[data-testid^=accuse-]:not([disabled])"),
    "collusion": BusyScreen("collusion", _collusion, ".vote-grid [data-testid^=vote-]:not([disabled])"),
    "speakeasy": BusyScreen("speakeasy", _speakeasy, ".vote-grid [data-testid^=seat-]:not([disabled])", speakeasy_step),
}


def busy_phone(pages: list[Any], screen: BusyScreen) -> int:
    """The seat of a phone showing the game's busiest screen (the others play on until one does)."""
    for _ in range(FIND_STEPS):
        for seat, page in enumerate(pages):
            if page.locator(f"{screen.buttons} >> visible=true").count():
                return seat
        for page in pages:
            if screen.step is not None:
                screen.step(page)
        pages[0].wait_for_timeout(40)
    raise AssertionError(f"no phone reached the busy screen of {screen.game}")


def centre(page: Any, selector: str) -> tuple[float, float]:
    """The middle of the first visible ``selector`` on screen (a table change may redraw it meanwhile)."""
    for _ in range(20):
        button = page.locator(f"{selector} >> visible=true").first
        try:
            button.scroll_into_view_if_needed(timeout=1000)
            box = button.bounding_box(timeout=1000)
        except PlaywrightError:
            continue  # redrawn under us: look again
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raise AssertionError(f"never on screen: {selector}")


def seat_holder(table: Table, seat: int) -> tuple[str, int]:
    """The seat's device key and how many phones ask for it (a given seat changes the key)."""
    return table.call(lambda s: (s.table.seats[seat].device, sum(1 for c in s.claims if c.seat == seat)))


def tap(page: Any, x: float, y: float) -> None:
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.up()


@pytest.mark.parametrize(("game", "lang"), [("cheating_moth", "en"), ("collusion", "fa"), ("speakeasy", "th")])
def test_a_request_mid_tap_on_the_busiest_screen_never_gives_the_seat(game: str, lang: str, table: Table,
                                                                             phones: Phones, shots: Path) -> None:
    screen = SCREENS[game]
    table.host("set_language", language=lang)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    screen.setup(table)
    table.host("start")
    seat = busy_phone(pages, screen)
    old = pages[seat]
    link = table.seat_url(seat)
    key_before = seat_holder(table, seat)[0]

    # The player's finger is on one of the game's buttons when another phone asks for the seat.
    x, y = centre(old, screen.buttons)
    old.mouse.move(x, y)
    old.mouse.down()
    asker = phones.open(link)  # the seat's link on another phone (a photo of the QR, a copied link)
    asker.wait_for_selector("[data-testid=asking-host]")
    old.wait_for_selector("[data-testid=consent]")
    # Its own screen: the game's buttons are gone, and nothing on it works yet (visibly faded).
    assert old.locator(screen.buttons).count() == 0
    assert old.locator("[data-testid=consent-give][disabled]").count() == 1
    assert old.locator("[data-testid=consent-keep][disabled]").count() == 1
    assert float(old.eval_on_selector(".consent-actions", "el => getComputedStyle(el).opacity")) < 0.5
    old.screenshot(path=str(shots / f"{lang}_consent_arming.png"))  # faded: not working yet
    gx, gy = centre(old, "[data-testid=consent-give]")
    old.mouse.up()  # the tap meant for the game ends on the consent screen
    for _ in range(MIS_TAPS):  # and the player keeps tapping where the game's buttons were
        tap(old, x, y)
        tap(old, gx, gy)
    assert seat_holder(table, seat) == (key_before, 1)

    old.wait_for_selector("[data-testid=consent].armed")  # after a second the buttons work
    shoot(old, shots, lang, f"consent_{game}")
    old.click("[data-testid=consent-give]")  # a tap on "give" is still not a hold
    old.wait_for_timeout(300)
    assert seat_holder(table, seat) == (key_before, 1)
    assert old.locator("[data-testid=consent]").count() == 1 and old.locator(".full-message").count() == 0

    # Giving it deliberately: press and hold until the bar fills.
    gx, gy = centre(old, "[data-testid=consent-give]")
    old.mouse.move(gx, gy)
    old.mouse.down()
    old.wait_for_timeout(CONSENT_HOLD_MS // 3)
    old.screenshot(path=str(shots / f"{lang}_consent_holding.png"))  # the bar part-filled (animations on)
    old.wait_for_timeout(CONSENT_HOLD_MS)
    old.mouse.up()
    old.wait_for_selector(".full-message")
    assert GIVEN[lang] in old.inner_text(".full-message")
    assert MOVED[lang] not in old.inner_text(".full-message")  # not "the host let another phone take it"
    shoot(old, shots, lang, "consent_given")
    asker.wait_for_function(f"document.querySelector('.who-name')?.textContent === {NAMES[seat]!r}")
    key_after, asking = seat_holder(table, seat)
    assert key_after != key_before and asking == 0


def test_keep_my_seat_goes_back_to_the_game_and_the_host_still_decides(table: Table, phones: Phones) -> None:
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    _moth(table)
    table.host("start")
    old = pages[0]
    old.wait_for_selector(SCREENS["cheating_moth"].buttons)
    asker = phones.open(table.seat_url(0))
    asker.wait_for_selector("[data-testid=asking-host]")
    old.wait_for_selector("[data-testid=consent].armed")
    old.click("[data-testid=consent-keep]")
    old.wait_for_selector(SCREENS["cheating_moth"].buttons)  # back to the game, the hand and its buttons
    assert old.locator("[data-testid=consent]").count() == 0
    assert seat_holder(table, 0)[1] == 1  # the request still waits for the host
    table.host("claim", id=table.call(lambda s: s.claims[0].id), allow=True)
    old.wait_for_selector(".full-message")
    assert MOVED["en"] in old.inner_text(".full-message")  # the host did it: the old phone says so


def test_the_address_bar_shows_the_seat_link_never_the_key(table: Table, phones: Phones) -> None:
    first = phones.open(table.seat_url(0))
    join(first, "Sara")
    key = table.call(lambda s: s.table.seats[0].device)
    assert key and key not in first.url and key not in first.evaluate("location.href")
    assert first.url == table.seat_url(0)
    first.reload()  # the same phone comes back with its own key (kept in its storage)
    first.wait_for_selector("[data-testid=me-card]")
    assert table.call(lambda s: s.table.seats[0].device) == key

    copied = phones.open(first.url)  # the address, copied to another phone
    copied.wait_for_selector("[data-testid=asking-host]")  # it asks the host; it does not take the seat
    first.wait_for_selector("[data-testid=consent]")  # the seat's own phone is asked, and keeps it
    assert first.locator(".full-message").count() == 0
    assert seat_holder(table, 0) == (key, 1)
