"""Screenshots of the key phone pages in English, Persian and Thai (out/phone/<lang>_<page>.png),
taken while three phones play a short game; each language's pages are also checked for direction
and for text drawn with the table's own Noto fonts (no tofu boxes)."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from game.server.app import I18N_DIR, phone_strings

from .conftest import ADMIN_PIN, Phones, Table
from .phone import join, play_step
from .test_collusion_phones import start_short_game

pytestmark = pytest.mark.browser

STRING_KEYS = phone_strings(I18N_DIR, "en") or {}  # the shared words and every game's own, as the table serves them
NAMES = {"en": ("Sara", "Ali", "Nok"), "fa": ("سارا", "علی", "نوک"), "th": ("นก", "Sara", "อาลี")}
GAME_STEPS = 1_500

# Which key pages are on a phone's screen now (one round trip per phone).
DETECT = """() => {
  const q = (s) => document.querySelector(s) !== null;
  const on = {
    vote: q('.vote-grid') && !q('.vote-card.selected') && !q('[data-testid=out]'),
    vote_picked: q('.vote-card.selected') && q('[data-testid=lock]'),
    locked: q('[data-testid=locked]'),
    reveal: q('details.happen[open] [data-testid=reveal]'),
    out: q('[data-testid=out]'),
    ambush: q('[data-testid^=victim-]'),
    showdown: q('.showdown-grid'),
    result: q('[data-testid=result]'),
  };
  return Object.keys(on).filter((k) => on[k]);
}"""


def raw_keys(text: str) -> list[str]:
    """String keys shown as they are ("speakeasy.title.game_over"): a string the app looked up and
    no language has."""
    namespaces = sorted({key.split(".")[0] for key in STRING_KEYS})
    return re.findall(r"\b(?:{})(?:\.[a-z0-9_]+)+\b".format("|".join(namespaces)), text)


def shoot(page: Any, folder: Path, lang: str, name: str) -> None:
    """Screenshot the whole page (out/phone/<lang>_<name>.png); it shows no string key raw."""
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"{lang}_{name}.png"), full_page=True, animations="disabled")
    assert raw_keys(page.inner_text("body")) == [], f"{lang}_{name}: a string key shows raw"


def fonts_used(page: Any) -> list[str]:
    """The font faces the page has loaded (family + unicode range): the Noto files by script."""
    return page.evaluate("""() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.unicodeRange)""")


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_key_pages_in_each_language(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    code_page = phones.open(f"{table.url}/join", scale=2)
    code_page.wait_for_selector("[data-testid=code-input]")
    # The code page follows the phone's own choice; pick the language through the sheet like a player.
    if lang != "en":
        code_page.click("[data-testid=lang-btn]")
        code_page.click(f".sheet-option[lang={lang}]")
        code_page.wait_for_function(f"document.documentElement.lang === '{lang}'")
    shoot(code_page, shots, lang, "join_code")

    pages = [phones.open(table.seat_url(i), scale=2 if i == 0 else 1) for i in range(3)]
    pages[0].wait_for_selector("[data-testid=name-input]")
    shoot(pages[0], shots, lang, "name")
    for page, name in zip(pages, NAMES[lang]):
        join(page, name)
    pages[0].wait_for_function("document.querySelectorAll('[data-testid=seat-list] .status-joined').length === 3")
    shoot(pages[0], shots, lang, "lobby")

    # The table's language is every phone's language by default, with the right direction.
    for page in pages:
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "fa" else "ltr")

    host = phones.open(f"{table.url}/host", scale=2)
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=host-start]")
    shoot(host, shots, lang, "host")

    start_short_game(table)
    taken: set[str] = set()
    done = [False, False, False]
    for _ in range(GAME_STEPS):
        for page in pages:
            for name in page.evaluate(DETECT):
                if name not in taken:
                    page.wait_for_timeout(150)  # let a fresh reveal's highlight settle
                    shoot(page, shots, lang, name)
                    taken.add(name)
        for i, page in enumerate(pages):
            done[i] = done[i] or play_step(page)
            if "locked" not in taken and page.locator("[data-testid=locked]").count():
                # Caught right after the tap: the last phone's lock starts the reveal at once.
                shoot(page, shots, lang, "locked")
                taken.add("locked")
        if all(done):
            break
        pages[0].wait_for_timeout(40)
    assert all(done)
    for name in ("vote", "vote_picked", "locked", "reveal", "result"):
        assert name in taken, f"{name} never appeared"
    # The end reads "Game over" above the winner card (no "And the winner is…" above "You lost").
    assert pages[0].inner_text("[data-testid=status]") == {"en": "Game over", "fa": "پایان بازی", "th": "จบเกม"}[lang]

    watch = phones.open(f"{table.url}/watch", scale=2)
    watch.wait_for_selector(".game.public")
    shoot(watch, shots, lang, "watch")
    assert watch.locator("[data-testid=my-gold]").count() == 0

    # A phone losing Wi-Fi says so; the seat opened in a second tab of the same phone (its own key:
    # no host approval needed) tells the first one.
    pages[1].context.set_offline(True)
    pages[1].wait_for_selector("#banner:not([hidden])")
    shoot(pages[1], shots, lang, "offline")
    pages[0].context.new_page().goto(pages[0].url)
    pages[0].wait_for_selector("[data-testid=use-here]")
    shoot(pages[0], shots, lang, "taken_over")

    # Each script drew with its own Noto file: Arabic for Persian, Thai for Thai.
    ranges = " ".join(fonts_used(pages[0]))
    if lang == "fa":
        assert "U+600-6FF" in ranges.upper().replace("U+0600", "U+600")
    if lang == "th":
        assert "U+E00-E7F" in ranges.upper().replace("U+0E00", "U+E00")
