"""Three phones play a companion round of Collusion with real gold through the real server: the
votes and the Final Showdown on the phones, the secret C17 check, the secret count with a bad
entry refused on the phone, the totals revealed together, a host correction with its trace, C18."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import ADMIN_PIN, Phones, Table
from .phone import join

pytestmark = pytest.mark.browser

NAMES = ("Sara", "Ali", "Nok")


def seat_view(table: Table, seat: int) -> dict[str, Any]:
    return table.call(lambda s: s.state_message(seat)["view"])


def vote(page: Any, target: int) -> None:
    page.click(f"[data-testid=vote-{target}]")
    page.wait_for_selector(f"[data-testid=vote-{target}][aria-pressed=true]")
    page.click("[data-testid=lock]")


def enter_total(page: Any, text: str) -> None:
    page.fill("[data-testid=total-input]", text)
    page.click("[data-testid=total-go]")


def test_three_phones_play_a_companion_round_with_real_gold(table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_game", game="collusion_companion")
    table.host("set_seats", count=3)
    table.host("set_setting", name="gold", value="physical")
    table.host("set_setting", name="target_score", value=8)
    host = phones.open(f"{table.url}/host")
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    frames: list[list[dict[str, Any]]] = [[], [], []]
    pages = [phones.open(table.seat_url(i), frames=frames[i]) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    table.host("start")
    for page in pages:
        page.wait_for_selector(".vote-grid")
    assert pages[0].inner_text("[data-testid=real-bars]")  # real gold: the phone knows the count only
    pages[0].screenshot(path=str(shots / "collusion_companion_vote_en.png"), full_page=True)

    # Sara and Nok name Ali, Ali names Sara: Ali is the target and dies (C10); Sara and Nok duel.
    vote(pages[0], 1)
    vote(pages[2], 1)
    vote(pages[1], 0)
    for i in (0, 2):
        pages[i].click("[data-testid=showdown-split]")
        pages[i].wait_for_selector("[data-testid=showdown-split][aria-pressed=true]")
        pages[i].click("[data-testid=lock]")

    # C17: each phone is asked in secret; nobody else learns the answer.
    for page in pages:
        page.wait_for_selector("[data-testid=reached-yes]")
    assert "C15" in pages[1].inner_text("[data-testid=quick-rule]")
    pages[0].click("[data-testid=reached-yes]")
    pages[0].wait_for_selector("[data-testid=reached-yes][aria-pressed=true]")
    assert seat_view(table, 1)["me"]["reached"] is None
    pages[1].click("[data-testid=reached-no]")
    pages[2].click("[data-testid=reached-no]")

    # The count: a total that does not fit the bars is refused on the phone, in words.
    for page in pages:
        page.wait_for_selector("[data-testid=total-input]")
    pages[0].screenshot(path=str(shots / "collusion_companion_count_en.png"), full_page=True)
    enter_total(pages[0], "25")
    assert "between 6 and 10" in pages[0].inner_text("[data-testid=total-error]")
    assert pages[0].input_value("[data-testid=total-input]") == "25"  # C17: a refused total stays to correct
    pages[0].screenshot(path=str(shots / "collusion_companion_total_error_en.png"), full_page=True)
    enter_total(pages[0], "9")
    pages[0].wait_for_selector("[data-testid=my-entry]")
    assert "9" not in str(seat_view(table, 2)["companion"]["count"])  # secret until everyone entered
    enter_total(pages[1], "0")
    enter_total(pages[2], "7")

    # Revealed together; Nok fixes a miscount, the host corrects it once more; every phone shows both.
    for page in pages:
        page.wait_for_selector("[data-testid=pad-2]")
    pages[2].click("[data-testid=total-fix]")
    enter_total(pages[2], "10")
    pages[1].wait_for_selector("[data-testid=pad-trace]")
    assert "corrected by Nok" in pages[1].inner_text("[data-testid=pad-trace]")
    host.fill("[data-testid=host-total-2-input]", "8")  # the referee on the host console
    host.click("[data-testid=host-total-2-go]")
    pages[1].wait_for_function("document.querySelector('[data-testid=pad-trace]').innerText.includes('by the host')")
    pages[1].screenshot(path=str(shots / "collusion_companion_review_en.png"), full_page=True)
    host.screenshot(path=str(shots / "collusion_companion_host_en.png"), full_page=True)
    host.click("[data-testid=host-confirm]")

    # C18: Sara's 9 is the highest total at the target.
    for page in pages:
        page.wait_for_selector("[data-testid=result]")
    assert pages[0].locator(".result-banner.win").count() == 1
    assert pages[2].locator(".result-banner.lose").count() == 1
    assert table.call(lambda s: s.phase.value) == "finished"
    for i, received in enumerate(frames):
        for f in received:
            if f.get("kind") == "state" and f.get("view"):
                assert f["view"]["me"]["seat"] == i
                assert f["view"]["me"]["gold"] is None  # the program never claims a real bar's value
