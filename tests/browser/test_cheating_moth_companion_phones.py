"""Cheating Moth companion on three phones (real cards on the table): the player in turn calls a
Mosquito and a Beetle on their phone, the others slap on theirs, a wrong Beetle win is undone with
one tap, the round ends and every player enters their penalty points — bad entries get a clear error
on the phone — and the next round starts with the next guard (M14, M15, M17, M18)."""
from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pygame
import pytest

from game.server.app import phone_strings

from .conftest import ADMIN_PIN, Phones, Table
from .phone import join
from .test_cheating_moth_phones import wait_until

pytestmark = pytest.mark.browser

NAMES = ("Sara", "Ali", "Nok")
NAMES_IN = {"en": NAMES, "fa": ("سارا", "علی", "نوک"), "th": ("นก", "Sara", "อาลี")}
CLICK_MS = 5_000
WEB = Path(__file__).resolve().parents[2] / "game" / "i18n"


def phone_text(lang: str, key: str, **values: Any) -> str:
    """A phone string as the page shows it (placeholders filled; Persian digits are the page's business)."""
    served = phone_strings(WEB, lang)  # the shared words and every game's own, as the table serves them
    assert served is not None
    return served[key].format(**values)


def public(table: Table) -> dict[str, Any]:
    return table.call(lambda s: s.update.message(None)["view"])


def tap_down(page: Any, testid: str) -> None:
    """The race and call buttons fire on pointer-down (a tap's first instant)."""
    page.locator(f"[data-testid={testid}]:not([disabled])").dispatch_event("pointerdown", timeout=CLICK_MS)


def race_on(pages: list[Any], table: Table, caller: int, kind: str, slappers: list[int]) -> dict[str, Any]:
    number = public(table)["race"] if public(table)["race"] else None
    assert number is None
    tap_down(pages[caller], f"call-{kind}")
    wait_until(pages[caller], lambda: public(table)["race"] is not None, f"{kind} race opens")
    race = public(table)["race"]
    for seat in slappers:
        pages[seat].wait_for_selector("[data-testid=race-press]:not([disabled])")
        tap_down(pages[seat], "race-press")
    wait_until(pages[caller], lambda: public(table)["race"] is None, f"{kind} race decided")
    last = public(table)["last_race"]
    assert last["race"] == race["id"] and last["kind"] == kind
    return last


def enter(page: Any, text: str) -> str:
    """Type points and send them; the phone's error line (empty once accepted and the form is gone)."""
    page.fill("[data-testid=points-mine-input]", text)
    page.click("[data-testid=points-mine-go]")
    page.wait_for_function("""() => {
      const e = document.querySelector('[data-testid=points-mine-error]');
      return !e || e.textContent.length > 0 || document.querySelector('[data-testid=my-points]') !== null;
    }""")
    try:
        error = page.locator("[data-testid=points-mine-error]")
        return error.inner_text(timeout=3000) if error.count() else ""
    except Exception:
        page.screenshot(path="/tmp/cm/debug.png", full_page=True)
        raise


def ink_runs(png: bytes) -> list[tuple[int, int, int]]:
    """The light glyphs inside a dark field, left to right: (first column, last column, ink height)."""
    surface = pygame.image.load(io.BytesIO(png), "field.png")
    width, height = surface.get_size()
    margin = 8  # inside the field's border
    rows = range(margin, height - margin)

    def inked(x: int) -> list[int]:
        return [y for y in rows if sum(surface.get_at((x, y))[:3]) > 3 * 170]

    runs: list[tuple[int, int, int]] = []
    start, ys = None, []
    for x in range(margin, width - margin + 1):
        column = inked(x) if x < width - margin else []
        if column and start is None:
            start, ys = x, []
        if column:
            ys += column
        elif start is not None:
            runs.append((start, x - 1, max(ys) - min(ys) + 1))
            start = None
    return runs


def assert_minus_stands_against_its_digit(page: Any, selector: str, shot: Path) -> None:
    """ "-3" shows as one number, minus first, in every page direction: in a Persian page a minus set
    apart ("-   3", the code field's letter spacing) reads right to left as "3 -"."""
    runs = ink_runs(page.locator(selector).screenshot(path=str(shot)))
    assert len(runs) == 2, runs
    (_, minus_end, minus_height), (digit_start, _, digit_height) = runs
    assert minus_height * 3 < digit_height  # the flat stroke is on the left: the minus comes first
    assert digit_start - minus_end < 0.3 * digit_height, runs  # and stands against the digit


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_three_phones_play_a_companion_round(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    names = NAMES_IN[lang]
    table.host("set_language", language=lang)
    pages = [phones.open(table.seat_url(i), scale=2 if i == 0 else 1) for i in range(3)]
    for page, name in zip(pages, names):
        join(page, name)
    table.host("set_game", game="cheating_moth")
    table.host("set_mode", mode="companion")  # the family's companion variant
    table.host("set_seats", count=3)
    assert table.snapshot().game == "cheating_moth_companion"
    table.host("start")
    pages[0].wait_for_selector("[data-testid=call-mosquito]")
    pages[0].screenshot(path=str(shots / f"{lang}_moth_companion_turn.png"), full_page=True)

    mosquito = race_on(pages, table, 0, "mosquito", [1, 2])  # M14: seat 0's Mosquito; 1 and 2 slap
    assert sorted(mosquito["order"]) == [1, 2] and mosquito["loser"] in (1, 2)
    slowest = names[mosquito["loser"]]
    pages[0].wait_for_selector("[data-testid=race-result]")
    assert slowest in pages[0].inner_text("[data-testid=race-result]")
    pages[mosquito["loser"]].screenshot(path=str(shots / f"{lang}_moth_companion_mosquito_slowest.png"), full_page=True)

    turn = public(table)["turn"]
    assert turn == 1  # play goes on after the Mosquito's player
    beetle = race_on(pages, table, 1, "beetle", [0, 2])  # M15: anyone may race
    winner = beetle["winner"]
    pages[winner].wait_for_selector("[data-testid=wrong-win]")
    pages[winner].screenshot(path=str(shots / f"{lang}_moth_companion_beetle_winner.png"), full_page=True)
    pages[winner].click("[data-testid=wrong-win]")  # the card did not fit: one tap
    wait_until(pages[winner], lambda: public(table)["last_race"]["winner"] != winner, "the win goes to the next")
    assert public(table)["last_race"]["undone"] == [winner]

    turn = public(table)["turn"]
    pages[turn].click("[data-testid=end-turn]")
    wait_until(pages[turn], lambda: public(table)["turn"] != turn, "the turn moves on")

    pages[2].dblclick("[data-testid=round-over]")  # a hurried double tap only asks "sure?"
    pages[2].wait_for_selector("[data-testid=round-over].btn-danger")
    pages[2].evaluate("() => document.querySelector('[data-testid=round-over]').click()")  # too soon: not a yes
    pages[2].wait_for_timeout(100)
    assert public(table)["phase"] != "scoring"
    pages[2].click("[data-testid=round-over]")  # the confirmation, once readable, ends the round (M17)
    wait_until(pages[2], lambda: public(table)["phase"] == "scoring", "scoring")

    pages[0].wait_for_selector("[data-testid=points-mine-input]")
    assert enter(pages[0], "seven") == phone_text(lang, "mothc.points_error.not_a_number")
    assert enter(pages[0], "-3") == phone_text(lang, "mothc.points_error.negative")
    assert pages[0].input_value("[data-testid=points-mine-input]") == "-3"  # kept to correct, not cleared
    assert_minus_stands_against_its_digit(pages[0], "[data-testid=points-mine-input]", shots / f"{lang}_moth_companion_minus_three.png")
    assert enter(pages[0], "\u2212\u06f3") == phone_text(lang, "mothc.points_error.negative")  # "−۳": a Unicode minus, a Persian 3
    pages[0].screenshot(path=str(shots / f"{lang}_moth_companion_points_error.png"), full_page=True)
    assert public(table)["pad"]["rows"][0] == [None]  # nothing reached the pad
    assert enter(pages[0], "7") == ""
    pages[1].wait_for_selector("[data-testid=points-mine-input]")
    assert enter(pages[1], "250") == phone_text(lang, "mothc.points_error.out_of_range", max=150 if lang != "fa" else "۱۵۰")
    assert pages[1].input_value("[data-testid=points-mine-input]") == "250"
    assert enter(pages[1], "۱۲") == ""  # Persian digits are numbers too
    wait_until(pages[1], lambda: public(table)["waiting_for"] == [], "every entry is in")
    assert public(table)["pad"]["rows"] == [[7], [12], [0]]
    pages[1].wait_for_selector("[data-testid=next-round]")
    pages[1].screenshot(path=str(shots / f"{lang}_moth_companion_pad.png"), full_page=True)
    pages[1].click("[data-testid=next-round]")
    wait_until(pages[1], lambda: public(table)["round"] == 2, "round two")
    assert public(table)["guard"] == 1 and public(table)["turn"] == 1  # M18: left of round one's guard
    pages[1].wait_for_selector("[data-testid=call-beetle]")


def test_the_host_console_referees_a_companion_round(table: Table, phones: Phones, shots: Path) -> None:
    """The host picks companion mode on the console, then plays the table's part: a turn for the
    player in turn, the round's end, points for players (a bad one refused with a clear error),
    a correction and its undo — both left on the pad as trace lines (M17)."""
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    host = phones.open(f"{table.url}/host")
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=host-start]")
    table.host("set_game", game="cheating_moth")
    host.get_by_role("button", name="real cards on the table").click()
    wait_until(host, lambda: table.snapshot().game == "cheating_moth_companion", "companion mode")
    table.host("set_seats", count=3)
    host.click("[data-testid=host-start]")
    host.click("[data-testid=host-end_turn]")  # for Sara, who forgot to tap Done
    wait_until(host, lambda: public(table)["turn"] == 1, "Ali's turn")
    host.locator("summary", has_text="A player has no cards left").click()
    host.click("[data-testid=host-round_over-2]")
    host.wait_for_selector("[data-testid=points-seat-0-input]")
    host.fill("[data-testid=points-seat-0-input]", "lots")
    host.click("[data-testid=points-seat-0-go]")
    assert "whole number" in host.inner_text("[data-testid=points-seat-0-error]")
    assert host.input_value("[data-testid=points-seat-0-input]") == "lots"  # M17: kept to correct
    host.fill("[data-testid=points-seat-0-input]", "5")
    host.click("[data-testid=points-seat-0-go]")
    wait_until(host, lambda: public(table)["pad"]["rows"][0] == [5], "Sara's 5")
    host.fill("[data-testid=points-seat-1-input]", "8")
    host.click("[data-testid=points-seat-1-go]")
    wait_until(host, lambda: public(table)["waiting_for"] == [], "every entry in")
    host.select_option("[data-testid=host-fix-entry]", label="Sara | Round 1")
    host.fill("[data-testid=points-fix-input]", "6")
    host.click("[data-testid=points-fix-go]")
    wait_until(host, lambda: public(table)["pad"]["rows"][0] == [6], "Sara corrected to 6")
    host.click("[data-testid=host-undo-points]")
    wait_until(host, lambda: public(table)["pad"]["rows"][0] == [5], "the correction undone")
    # the table's state changes before the page redraws: wait for the page to show the undo
    host.locator("[data-testid=pad-trace]", has_text="6 → 5, undone by the host").wait_for()
    trace = host.inner_text("[data-testid=pad-trace]")
    assert "Sara's round 1: 5 → 6, corrected by the host" in trace and "6 → 5, undone by the host" in trace
    host.screenshot(path=str(shots / "moth_companion_host.png"), full_page=True)
    host.click("[data-testid=host-next-round]")
    wait_until(host, lambda: public(table)["round"] == 2, "round two")
