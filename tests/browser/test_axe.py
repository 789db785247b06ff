"""axe-core (axe-playwright-python) audits every phone page in fa, th and en: the code form, the PIN
form, the host console, a seat's name form, lobby and game screen, the watch page in the lobby and
in a game. No violation of impact moderate, serious or critical may remain (axe's own rules, e.g.
`page-has-heading-one`, `color-contrast`, `label`)."""
from __future__ import annotations

from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import host_console, join

pytestmark = pytest.mark.browser

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")
BLOCKING = ("moderate", "serious", "critical")
LOCALES = {"en": "en-US", "fa": "fa-IR", "th": "th-TH"}


def violations(page: Any) -> list[str]:
    """Each violation of impact moderate or worse: rule id, impact and the first offending node."""
    results = axe_sync.Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['nodes'][0]['html'][:160]}"
            for v in results.response["violations"] if v.get("impact") in BLOCKING]


def audit(page: Any, name: str, found: dict[str, list[str]]) -> None:
    page.wait_for_timeout(200)  # the page has drawn its latest state
    bad = violations(page)
    if bad:
        found[name] = bad


@pytest.mark.parametrize("lang", ["fa", "th", "en"])
def test_every_phone_page_passes_axe(lang: str, table: Table, phones: Phones) -> None:
    table.host("set_language", language=lang)
    found: dict[str, list[str]] = {}
    code_form = phones.open(f"{table.url}/join", locale=LOCALES[lang])
    code_form.wait_for_selector("[data-testid=code-input]")
    audit(code_form, "join", found)
    pin_form = phones.open(f"{table.url}/host", locale=LOCALES[lang])
    pin_form.wait_for_selector("[data-testid=pin-input]")
    audit(pin_form, "host PIN", found)
    seat = phones.open(table.seat_url(0), locale=LOCALES[lang])
    seat.wait_for_selector("[data-testid=name-input]")
    audit(seat, "seat name form", found)
    join(seat, {"en": "Sara", "fa": "سارا", "th": "นก"}[lang])
    audit(seat, "seat lobby", found)
    watch = phones.open(f"{table.url}/watch", locale=LOCALES[lang])
    watch.wait_for_selector(".lobby")
    audit(watch, "watch lobby", found)
    host = host_console(table, phones, lang)
    audit(host, "host console", found)
    table.host("fill_bots", kind="random")
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("start")
    seat.wait_for_selector(".vote-grid")
    audit(seat, "seat in a game", found)
    watch.wait_for_selector("[data-testid=status]")
    audit(watch, "watch in a game", found)
    audit(host, "host console in a game", found)
    assert found == {}, "axe violations:\n" + "\n".join(f"{k}: {v}" for k, v in found.items())


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_companion_and_speakeasy_pages_pass_axe(lang: str, table: Table, phones: Phones) -> None:
    """The pages of a game without bots (the host page's start line, its referee panel) and a
    Speakeasy seat's clue card."""
    found: dict[str, list[str]] = {}
    table.host("set_language", language=lang)
    table.host("set_game", game="cheating_moth")
    table.host("set_mode", mode="companion")
    table.host("set_seats", count=4)
    seats = [phones.open(table.seat_url(i), locale=LOCALES[lang]) for i in range(3)]
    for page, name in zip(seats, ("Sara", "Ali", "Nok")):
        join(page, name)
    host = host_console(table, phones, lang)
    host.wait_for_selector("[data-testid=start-hint]")
    audit(host, "host console, a seat free in a game without bots", found)
    table.host("set_seats", count=3)
    table.host("start")
    host.wait_for_selector("[data-testid=host-call-mosquito]")
    audit(host, "host console refereeing", found)
    audit(seats[0], "companion seat", found)
    table.host("abort")
    table.host("set_mode", mode="table")
    table.host("set_game", game="speakeasy")
    table.host("fill_bots", kind="random")
    table.host("start")
    seats[0].wait_for_selector("[data-testid=clue]")
    audit(seats[0], "speakeasy seat", found)
    assert found == {}, "axe violations:\n" + "\n".join(f"{k}: {v}" for k, v in found.items())


@pytest.mark.parametrize("lang", ["fa", "th", "en"])
def test_the_other_games_in_play_pass_axe(lang: str, table: Table, phones: Phones) -> None:
    """Cheating Moth at the table (a hand looked at, the sleeve to drag a card to) and the Cheating
    Moth companion's score pad with its round headings, after a round is scored."""
    found: dict[str, list[str]] = {}
    table.host("set_language", language=lang)
    table.host("set_game", game="cheating_moth")
    table.host("set_seats", count=3)
    seats = [phones.open(table.seat_url(i), locale=LOCALES[lang]) for i in range(2)]
    for page, name in zip(seats, ("Sara", "Ali")):
        join(page, name)
    table.host("fill_bots", kind="random")
    table.host("start")
    seats[1].wait_for_selector("[data-testid=hand-card]")
    seats[1].locator("[data-testid=hand-card] button").first.click()  # look at the hand
    audit(seats[1], "moth seat in a game", found)
    table.host("abort")
    table.host("set_mode", mode="companion")
    table.call(lambda s: s.join_seat(s.table.seats[2].token, name="Nok"))
    table.host("start")
    for action in ({"type": "round_over", "out": 0}, {"type": "enter_points", "seat": 1, "points": 4}):
        table.host("table_action", action=action)
    seats[0].wait_for_selector("[data-testid=pad-head]")
    audit(seats[0], "companion seat with the score pad", found)
    assert found == {}, "axe violations:\n" + "\n".join(f"{k}: {v}" for k, v in found.items())
