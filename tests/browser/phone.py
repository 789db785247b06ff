"""What a player does on a phone, for the browser tests: join, name, and a simple way to play
Collusion through the app's buttons (vote with the other phones, lock, split in the showdown)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page

from .conftest import ADMIN_PIN, Phones, Table

STEP_TIMEOUT_MS = 2_000


def host_console(table: Table, phones: Phones, lang: str, frames: list[dict[str, Any]] | None = None) -> Any:
    """The host console (/host) in ``lang``, past the PIN, showing the lobby's controls (``frames``:
    as :meth:`Phones.open`)."""
    host = phones.open(f"{table.url}/host", init_script=f"localStorage.setItem('tabletop.lang', '{lang}')", frames=frames)
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=host-start]")
    return host


def open_seats(table: Table, phones: Phones, names: Sequence[str]) -> list[Page]:
    """One phone per name, each on its seat's link (seat 0 first), joined with that name."""
    pages = [phones.open(table.seat_url(i)) for i in range(len(names))]
    for page, name in zip(pages, names):
        join(page, name)
    return pages


def join(page: Page, name: str) -> None:
    """Pick a name on a freshly opened seat link and wait for the lobby."""
    page.wait_for_selector("[data-testid=name-input]")
    page.fill("[data-testid=name-input]", name)
    page.click("[data-testid=name-go]")
    page.wait_for_selector("[data-testid=me-card]")


CONSENT_HOLD_MS = 1400  # longer than the app's 1 s press and hold (game/web/js/screens/join.js)


def give_seat(page: Page) -> None:
    """Give this phone's seat to the phone asking for it, as its player does: wait
    until the consent screen's buttons work, then press and hold "give" until its bar fills."""
    page.wait_for_selector("[data-testid=consent].armed")
    page.locator("[data-testid=consent-give]").scroll_into_view_if_needed()
    box = page.locator("[data-testid=consent-give]").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(CONSENT_HOLD_MS)
    page.mouse.up()


def look(page: Page, secret: str) -> None:
    """Turn a secret face up (tap its cover) unless it is already shown: ``secret`` is its test id
    ("gold", "identity", "hand-card")."""
    page.wait_for_selector(f"[data-testid={secret}]")
    cover = page.locator(f"[data-testid={secret}-peek]")
    if cover.count():
        cover.click()
    page.wait_for_selector(f"[data-testid={secret}-hide]")


def drag_to_sleeve(page: Page, card: int) -> None:
    """Start a cheat the way a player does (M8): press a card that cannot be played now and drag it
    onto the sleeve; the pointer stays down (``page.mouse.up()`` ends or cancels the cheat). With a
    big hand the sleeve sits just under a 640 px phone's fold: the player scrolls it into sight first."""
    page.locator("[data-testid=sleeve]").scroll_into_view_if_needed()
    page.locator(f"[data-testid=card-{card}]").hover()
    page.mouse.down()
    box = page.locator("[data-testid=sleeve]").bounding_box()
    assert box is not None, "no sleeve on this phone"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=5)
    page.wait_for_selector("[data-testid=cheating]")


def shown_gold(page: Page) -> list[int]:
    """The bar values this phone shows once its player looks (empty when it has none)."""
    look(page, "gold")
    if page.locator("[data-testid=my-gold]").count() == 0:
        return []
    return [int(v) for v in page.locator("[data-testid=my-gold] .bar-value").all_inner_texts()]


def shown_total(page: Page) -> int:
    look(page, "gold")
    return int(page.inner_text("[data-testid=my-total]"))


def _enabled(page: Page, selector: str) -> Any:
    loc = page.locator(f"{selector}:not([disabled])")
    return loc.first if loc.count() else None


def play_step(page: Page) -> bool:
    """Do the next sensible thing on this phone; True once the phone shows the game's result.

    Phones all vote for the highest-numbered seat they may name (a bot: the phones hold the low
    seats), so they tend to survive together; in a showdown they split; as an ambushing target
    they take the first candidate."""
    try:
        if page.locator("[data-testid=result]").count():
            return True
        if page.locator("[data-testid=locked]").count():
            return False
        lock = _enabled(page, "[data-testid=lock]")
        if lock is not None:
            lock.click(timeout=STEP_TIMEOUT_MS)
            return False
        victims = page.locator("[data-testid^=victim-]:not([disabled])")
        if victims.count():
            victims.first.click(timeout=STEP_TIMEOUT_MS)
            page.click("[data-testid=ambush-confirm]", timeout=STEP_TIMEOUT_MS)
            return False
        split = _enabled(page, "[data-testid=showdown-split]")
        if split is not None and page.locator(".showdown-card.selected").count() == 0:
            split.click(timeout=STEP_TIMEOUT_MS)
            return False
        targets = page.locator(".vote-grid [data-testid^=vote-]:not([data-testid=vote-ambush]):not([disabled])")
        if targets.count() and page.locator(".vote-card.selected").count() == 0:
            targets.last.click(timeout=STEP_TIMEOUT_MS)
    except PlaywrightError:
        pass  # the screen changed under the click (a new state arrived): look again next step
    return False


def speakeasy_step(page: Page) -> bool:
    """Next thing on a Speakeasy phone; True once the game's result shows. Hosts choose, pointers
    point at the first seat offered, the next host goes on to the next clue."""
    try:
        if page.locator("[data-testid=result]").count():
            return True
        go_on = _enabled(page, "[data-testid=continue]")
        if go_on is not None:
            go_on.click(timeout=STEP_TIMEOUT_MS)
            return False
        seats = page.locator(".vote-grid [data-testid^=seat-]:not([disabled])")
        if seats.count() and page.locator(".vote-card.selected").count() == 0:
            seats.first.click(timeout=STEP_TIMEOUT_MS)
    except PlaywrightError:
        pass  # the screen changed under the click: look again next step
    return False
