"""The score pad as real groups met it (M17, S12, C18): a host correction edits the player picked and
the picker stays on them (Niloufar 11 -> 5 by a second tap), the Speakeasy fix form lists names with a
label on every field, Persian pad rows keep their round order whether a cell says "صفر" or a digit,
and a player with no gold bars sends their total with one tap. In fa and th; screenshots in out/phone/."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import host_console, join
from .test_cheating_moth_phones import wait_until
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

NAMES = {"fa": ("سارا", "علی", "نیلوفر"), "th": ("นก", "สมชาย", "มะลิ")}


def public(table: Table) -> dict[str, Any]:
    return table.call(lambda s: s.update.message(None)["view"])


def table_action(table: Table, **action: Any) -> None:
    table.host("table_action", action=action)


def companion(game: str, lang: str, table: Table, phones: Phones, names: tuple[str, ...] | None = None,
              host: bool = True, **settings: Any) -> tuple[list[Any], Any]:
    """Three named players at ``game``'s companion mode (``settings`` set first), started; the host
    console open unless ``host`` is false (then None)."""
    table.host("set_language", language=lang)
    table.host("set_game", game=game)
    table.host("set_mode", mode="companion")
    table.host("set_seats", count=3)
    for name, value in settings.items():
        table.host("set_setting", name=name, value=value)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, names or NAMES[lang]):
        join(page, name)
    console = host_console(table, phones, lang) if host else None
    table.host("start")
    return pages, console


def moth_companion(lang: str, table: Table, phones: Phones) -> tuple[list[Any], Any]:
    """Companion Cheating Moth: round 1 ends with Sara out (0 points), Ali 5, Niloufar 11 (entered
    by the host as the table)."""
    pages, host = companion("cheating_moth", lang, table, phones)
    table_action(table, type="round_over", out=0)
    table_action(table, type="enter_points", seat=1, points=5)
    table_action(table, type="enter_points", seat=2, points=11)
    return pages, host


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_M17_a_correction_edits_the_player_picked_and_the_picker_stays(lang: str, table: Table, phones: Phones,
                                                                      shots: Path) -> None:
    _, host = moth_companion(lang, table, phones)
    host.wait_for_selector("[data-testid=host-fix-entry]")
    label = host.locator("[data-testid=host-fix-entry] option", has_text=NAMES[lang][2]).inner_text()
    host.select_option("[data-testid=host-fix-entry]", label=label)
    host.fill("[data-testid=points-fix-input]", "12")
    host.click("[data-testid=points-fix-go]")
    wait_until(host, lambda: public(table)["pad"]["rows"][2] == [12], "Niloufar corrected to 12")
    host.locator("[data-testid=pad-trace]", has_text=NAMES[lang][2]).wait_for()
    # After the table's redraw the picker is still on Niloufar and the sent number is gone: a second
    # tap sends nothing (an error on the form), and nobody's entry changes.
    picked = host.eval_on_selector("[data-testid=host-fix-entry]", "s => s.options[s.selectedIndex].text")
    assert NAMES[lang][2] in picked
    assert host.input_value("[data-testid=points-fix-input]") == ""
    host.click("[data-testid=points-fix-go]")
    host.wait_for_function("document.querySelector('[data-testid=points-fix-error]').textContent !== ''")
    assert public(table)["pad"]["rows"] == [[0], [5], [12]]
    # the form says what to type (not the card's title again), and the undo stands clear of "send"
    title = host.locator("[data-testid=host-fix-entry]").evaluate("s => s.closest('section').querySelector('h2').textContent")
    assert host.inner_text("label[for=points-fix]") != title
    send = host.locator("[data-testid=points-fix-go]").bounding_box()
    undo = host.locator("[data-testid=host-undo-points]").bounding_box()
    assert send is not None and undo is not None and undo["y"] >= send["y"] + send["height"] + 4
    shoot(host, shots, lang, "moth_companion_host_fix")


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_M17_pad_rows_keep_their_round_order_whatever_the_numbers_form(lang: str, table: Table, phones: Phones,
                                                                       shots: Path) -> None:
    pages, _ = moth_companion(lang, table, phones)
    table_action(table, type="next_round")
    table_action(table, type="round_over", out=1)
    table_action(table, type="enter_points", seat=0, points=7)
    table_action(table, type="enter_points", seat=2, points=0)
    page = pages[0]
    page.wait_for_function("document.querySelectorAll('[data-testid=pad] .pad-cells')[0]?.children.length === 2")
    # Each row's cells run round 1, round 2 in the page's reading order under their headings (right
    # to left on a Persian phone), each isolated, the same for "صفر".
    rows = page.eval_on_selector_all("[data-testid=pad] .pad-cells", """rows => rows.map(r =>
        [...r.children].map(c => [c.textContent, c.getBoundingClientRect().x, getComputedStyle(c).unicodeBidi]))""")
    assert len(rows) == 4  # the heading row and a row per seat
    head = rows[0]
    assert [cell[0] for cell in head] == (["د۱", "د۲"] if lang == "fa" else ["ร1", "ร2"])
    for row in rows:
        assert [cell[2] for cell in row] == ["isolate", "isolate"]
        assert (row[0][1] > row[1][1]) if lang == "fa" else (row[0][1] < row[1][1])  # round 1 first as the page reads
        assert [round(c[1]) for c in row] == [round(c[1]) for c in head]  # under its heading
    zero = "صفر" if lang == "fa" else "0"
    assert any(cell[0] == zero for row in rows for cell in row)
    widths = page.eval_on_selector_all("[data-testid=pad] .pad-cells", "rows => rows.map(r => r.getBoundingClientRect().width)")
    assert max(widths) - min(widths) < 2  # aligned the same way whatever their form
    page.locator("[data-testid=pad]").screenshot(path=str(shots / f"{lang}_moth_companion_pad_rows.png"))


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_S12_the_speakeasy_fix_form_names_players_and_labels_its_fields(lang: str, table: Table, phones: Phones,
                                                                        shots: Path) -> None:
    _, host = companion("speakeasy", lang, table, phones)
    host.wait_for_selector("[data-testid=pad-seat]")
    options = host.eval_on_selector_all("[data-testid=pad-seat] option", "os => os.map(o => o.textContent)")
    assert options == list(NAMES[lang])  # names, never seat numbers
    for field in ("pad-seat", "pad-clue", "pad-points"):  # every field has its own visible label
        label = host.locator(f"label[for={field}]")
        assert label.count() == 1 and label.inner_text().strip()
    host.select_option("[data-testid=pad-seat]", label=NAMES[lang][2])
    host.fill("[data-testid=pad-points]", "2")
    host.locator("[data-testid=pad-points]").blur()  # the page redraws a form once its field is left
    table.call(lambda s: s.set_name(0, NAMES[lang][0] + "!"))  # the table redraws every page
    host.wait_for_function("n => [...document.querySelectorAll('[data-testid=pad-seat] option')].some(o => o.textContent === n)",
                           arg=NAMES[lang][0] + "!")
    picked = host.eval_on_selector("[data-testid=pad-seat]", "s => s.options[s.selectedIndex].text")
    assert picked == NAMES[lang][2]  # the picker stays on its player across the redraw
    assert host.input_value("[data-testid=pad-points]") == "2"
    host.locator("[data-testid=pad-seat]").locator("xpath=../..").screenshot(path=str(shots / f"{lang}_speakeasy_companion_fix_form.png"))
