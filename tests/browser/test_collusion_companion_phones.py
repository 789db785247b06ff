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
    return table.call(lambda s: s.update.message(seat)["view"])


def vote(page: Any, target: int) -> None:
    page.click(f"[data-testid=vote-{target}]")
    page.wait_for_selector(f"[data-testid=vote-{target}][aria-pressed=true]")
    page.click("[data-testid=lock]")


def enter_total(page: Any, text: str) -> None:
    page.fill("[data-testid=total-input]", text)
    page.click("[data-testid=total-go]")


def real_gold_table(table: Table) -> None:
    """Three seats of Collusion with real gold on the table, 8 to win."""
    table.host("set_game", game="collusion_companion")
    table.host("set_seats", count=3)
    table.host("set_setting", name="gold", value="physical")
    table.host("set_setting", name="target_score", value=8)


def play_to_the_check(pages: list[Any]) -> None:
    """Seats 0 and 2 name seat 1, seat 1 names seat 0: seat 1 is the target and dies (C10); 0 and 2
    duel and both split: the round is over and each phone is asked the C17 check."""
    vote(pages[0], 1)
    vote(pages[2], 1)
    vote(pages[1], 0)
    for i in (0, 2):
        pages[i].click("[data-testid=showdown-split]")
        pages[i].wait_for_selector("[data-testid=showdown-split][aria-pressed=true]")
        pages[i].click("[data-testid=lock]")


def test_three_phones_play_a_companion_round_with_real_gold(table: Table, phones: Phones, shots: Path) -> None:
    real_gold_table(table)
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
    play_to_the_check(pages)

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
    for page in (pages[0], pages[2]):
        page.wait_for_selector("[data-testid=total-input]")
    pages[1].wait_for_selector("[data-testid=total-none]")  # Ali has no bars: one tap, nothing to type
    pages[0].screenshot(path=str(shots / "collusion_companion_count_en.png"), full_page=True)
    enter_total(pages[0], "25")
    assert "between 6 and 10" in pages[0].inner_text("[data-testid=total-error]")
    assert pages[0].input_value("[data-testid=total-input]") == "25"  # C17: a refused total stays to correct
    pages[0].screenshot(path=str(shots / "collusion_companion_total_error_en.png"), full_page=True)
    enter_total(pages[0], "9")
    pages[0].wait_for_selector("[data-testid=my-entry]")
    assert "9" not in str(seat_view(table, 2)["companion"]["count"])  # secret until everyone entered
    pages[1].click("[data-testid=total-none]")
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


# Per paragraph of the page: how many lines it takes and how many words stand on its last line.
LINES_AND_LAST_WORDS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('p, li, label, h1, h2')) {
    if (!el.checkVisibility()) continue;  // in a closed <details>
    const tops = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const rect = range.getClientRects()[0];
        if (rect) tops.push(Math.round(rect.top));
      }
    }
    if (!tops.length) continue;
    const last = Math.max(...tops);
    out.push({ text: el.textContent.slice(0, 60), lines: new Set(tops).size, last: tops.filter((t) => last - t < 4).length });
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["fa", "en"])
def test_C17_no_word_is_left_alone_on_the_check_page(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    """The secret check's note wrapped "... اگر کسی بگوید بله، همه / می‌شمارند.": one word alone on
    the last line. The phone evens a paragraph's last lines (text-wrap: pretty)."""
    names = {"fa": ("علی", "نیلوفر", "سارا"), "en": ("Ali", "Mia", "Sara")}[lang]
    table.host("set_language", language=lang)
    real_gold_table(table)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, names):
        join(page, name)
    table.host("start")
    pages[1].wait_for_selector(".vote-grid")
    play_to_the_check(pages)
    pages[0].wait_for_selector("[data-testid=reached-yes]")
    pages[0].screenshot(path=str(shots / f"collusion_companion_check_{lang}.png"), full_page=True)
    paragraphs = pages[0].evaluate(LINES_AND_LAST_WORDS)
    assert len(paragraphs) > 5
    assert [p["text"] for p in paragraphs if p["lines"] > 1 and p["last"] < 2] == []
