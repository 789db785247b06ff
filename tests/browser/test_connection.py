"""The phone's connection: joining by typed code, taking a seat over from another device, the
offline banner and automatic reconnect (Wi-Fi loss, a silent network caught by the heartbeat,
table restart), kicked and dead links, keeping the screen awake, the spectator and host pages."""
from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page

from .conftest import ADMIN_PIN, Phones, Table
from .phone import join

pytestmark = pytest.mark.browser


def test_join_by_typed_code(table: Table, phones: Phones) -> None:
    page = phones.open(f"{table.url}/join")
    page.type("[data-testid=code-input]", "b0q-x")  # only letters of the code alphabet stay, upper case
    assert page.input_value("[data-testid=code-input]") == "X"
    assert "Codes never use B 0 Q" in page.inner_text(".form-error")  # letters no code uses: named, not silently dropped
    taken = {seat.code for seat in table.snapshot().seats}
    unknown = next(c for c in ("ACDE", "FHJK", "MNPR") if c not in taken)
    page.fill("[data-testid=code-input]", "")
    page.type("[data-testid=code-input]", unknown.lower())
    page.click("[data-testid=code-go]")
    page.wait_for_selector(".form-error:not(:empty)")
    assert "No seat has that code" in page.inner_text(".form-error")

    code = table.seat_code(2)
    page.fill("[data-testid=code-input]", "")
    page.type("[data-testid=code-input]", code.lower())
    page.click("[data-testid=code-go]")
    page.wait_for_url("**/s/*")
    join(page, "Mina")
    assert table.snapshot().seats[2].name == "Mina"


def test_a_second_tab_of_the_same_phone_takes_the_seat_over(table: Table, phones: Phones) -> None:
    first = phones.open(table.seat_url(0))
    join(first, "Sara")
    key = table.call(lambda s: s.table.seats[0].device)
    # the phone keeps its own key in storage; the address bar shows only the seat's link
    assert key not in first.url and first.url == table.seat_url(0)
    second = first.context.new_page()
    second.goto(first.url)
    second.wait_for_selector("[data-testid=me-card]")  # same seat, name kept: straight to the lobby
    assert second.inner_text("[data-testid=my-name]") == "Sara"
    first.wait_for_selector("[data-testid=use-here]")
    assert "another device" in first.inner_text("main")

    first.click("[data-testid=use-here]")
    first.wait_for_selector("[data-testid=me-card]")
    second.wait_for_selector("[data-testid=use-here]")
    # The tab that was taken over does not grab the seat back by itself.
    second.wait_for_timeout(1500)
    assert first.locator("[data-testid=me-card]").count() == 1


def test_offline_banner_and_reconnect_after_wifi_loss(table: Table, phones: Phones) -> None:
    page = phones.open(table.seat_url(1))
    join(page, "Ali")
    page.context.set_offline(True)
    page.wait_for_selector("#banner:not([hidden])")
    assert "reconnecting" in page.inner_text("#banner")
    table.host("set_bot", seat=2, kind="random")  # the table changes while the phone is away
    page.context.set_offline(False)
    page.wait_for_selector("#banner", state="hidden")
    page.wait_for_selector("[data-testid=seat-list] .status-bot")
    assert page.inner_text("[data-testid=my-name]") == "Ali"


def wait_for_welcomes(page: Page, frames: list[dict[str, Any]], count: int) -> None:
    """Wait until the phone has been welcomed ``count`` times (once per connection)."""
    for _ in range(300):
        if sum(1 for f in frames if f.get("kind") == "welcome") >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the phone did not connect {count} times")


def test_phone_comes_back_after_the_table_restarts(table: Table, phones: Phones) -> None:
    frames: list[dict[str, Any]] = []
    page = phones.open(table.seat_url(0), frames=frames)
    join(page, "Sara")
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("fill_bots", kind="heuristic")
    table.host("start")
    page.wait_for_selector(".vote-grid")
    page.locator(".vote-grid [data-testid^=vote-]:not([data-testid=vote-ambush])").first.click()
    page.wait_for_selector(".vote-card.selected")
    chosen = page.get_attribute(".vote-card.selected", "data-testid")

    table.restart()  # the program stops and starts again: the journal brings the table back
    wait_for_welcomes(page, frames, 2)
    page.wait_for_selector(".dot-online")
    assert page.get_attribute(".vote-card.selected", "data-testid") == chosen
    assert page.inner_text(".who-name") == "Sara"
    # The new connection acts for the same seat: lock the card in (the bots have locked theirs,
    # so this reveals the vote, with this seat's card as chosen before the restart).
    page.click("[data-testid=lock]")
    page.wait_for_selector("[data-testid=reveal]")
    reveal = table.call(lambda s: s.update.message(0)["view"]["last_reveal"])
    assert reveal["voted_for"][0] == int(chosen.removeprefix("vote-"))


def test_spectator_sees_the_public_table_only(table: Table, phones: Phones) -> None:
    player = phones.open(table.seat_url(0))
    join(player, "Sara")
    watch = phones.open(f"{table.url}/watch")
    watch.wait_for_selector("[data-testid=seat-list]")
    assert "Sara" in watch.inner_text("[data-testid=seat-list]")
    table.host("fill_bots", kind="random")
    table.host("start")
    watch.wait_for_selector(".game.public")
    assert watch.locator("[data-testid=my-gold]").count() == 0
    assert watch.locator(".vote-card, [data-testid=lock]").count() == 0  # read-only: nothing to tap


def test_host_link_runs_the_lobby(table: Table, phones: Phones) -> None:
    player = phones.open(table.seat_url(0))
    join(player, "Sara")
    host = phones.open(f"{table.url}/host")
    host.fill("[data-testid=pin-input]", "0000")
    host.click("[data-testid=pin-go]")
    host.wait_for_selector(".form-error:not(:empty)")
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=host-start]")
    assert table.seat_code(0) in host.inner_text(".host")  # the host sees the typed codes
    # A bad value is refused in clear words and changes nothing.
    before = table.snapshot().settings["conspiracy_ms"]
    field = host.locator(".field:has-text('Conspiracy time') input")
    field.fill("0")
    field.press("Enter")
    host.wait_for_selector(".toast-error")
    assert "setting isn't allowed" in host.inner_text("#toasts")
    assert table.snapshot().settings["conspiracy_ms"] == before
    # A good one is taken.
    field = host.locator(".field:has-text('Conspiracy time') input")
    field.fill("45")
    field.press("Enter")
    for _ in range(100):
        if table.snapshot().settings["conspiracy_ms"] == 45_000:
            break
        host.wait_for_timeout(50)
    assert table.snapshot().settings["conspiracy_ms"] == 45_000
    host.click("[data-testid=host-start]")
    player.wait_for_selector(".vote-grid")
    assert table.call(lambda s: s.phase.value) == "playing"


def test_kicked_phone_is_told_and_stays_away(table: Table, phones: Phones) -> None:
    page = phones.open(table.seat_url(3))
    join(page, "Reza")
    table.host("kick", seat=3)
    page.wait_for_selector(".full-message")
    assert "freed your seat" in page.inner_text(".full-message")
    page.wait_for_timeout(1000)  # no reconnect attempts bring the old seat back
    assert table.snapshot().seats[3].status.value == "free"


@pytest.mark.parametrize("how", ["lock", "video"])
def test_screen_is_kept_awake_while_playing(how: str, table: Table, phones: Phones) -> None:
    """With the Wake Lock API the phone holds a screen lock; without it (plain http on a LAN is
    not a secure context) it plays its muted inline video, started by the player's first tap."""
    no_wake_lock = "Object.defineProperty(Navigator.prototype, 'wakeLock', {get: () => undefined});"
    page = phones.open(table.seat_url(0), init_script=no_wake_lock if how == "video" else None)
    join(page, "Sara")
    table.host("fill_bots", kind="random")
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("start")
    page.wait_for_selector(".vote-grid")
    page.locator(".status-title").tap()
    page.wait_for_selector(f"body[data-awake={how}]", state="attached")
    table.host("abort")
    page.wait_for_selector("[data-testid=waiting]")
    page.wait_for_selector("body[data-awake='']", state="attached")


def test_a_dead_seat_link_says_so(table: Table, phones: Phones) -> None:
    page = phones.open(f"{table.url}/s/NotARealSeatTokenAtAll123")
    page.wait_for_selector(".full-message")
    assert "no longer works" in page.inner_text(".full-message")
    assert page.locator("a[href='/join']").count() == 1


def test_missing_pongs_mean_a_dead_link_and_a_new_one(table: Table, phones: Phones) -> None:
    """The network goes quiet without closing the socket (a Wi-Fi access point that stopped
    forwarding): after two unanswered pings the phone drops the socket and connects again."""
    net = {"silent": False, "connections": 0}

    def route(ws: Any) -> None:
        net["connections"] += 1
        server = ws.connect_to_server()

        def to_phone(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("kind") == "welcome":
                data["heartbeat_ms"] = 1000  # ping every second: the test need not wait 10 s
            if data.get("kind") == "pong" and net["silent"]:
                return
            ws.send(json.dumps(data))

        server.on_message(to_phone)

    page = phones.open(table.seat_url(0), ws_route=route)
    join(page, "Sara")
    net["silent"] = True
    for _ in range(200):
        if net["connections"] >= 2:
            break
        page.wait_for_timeout(50)
    assert net["connections"] >= 2, "the phone kept a silent socket"
    net["silent"] = False
    page.wait_for_selector(".dot-online")
    assert page.inner_text("[data-testid=my-name]") == "Sara"
