"""Three phones play a short game of Speakeasy against bots through the real server: each phone
shows its own identity (never another's before it is revealed), hosts choose on their phone."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join, look, speakeasy_step
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

GAME_STEPS = 1_500


SCREENS = {
    "choose": ".vote-grid [data-testid^=seat-]:not([disabled]) >> nth=0",
    "reveal": "[data-testid=reveal]",
    "result": "[data-testid=result]",
}


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_three_phones_play_speakeasy(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    frames: list[list[dict[str, Any]]] = [[], [], []]
    pages = [phones.open(table.seat_url(i), frames=frames[i], scale=2 if i == 0 else 1) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    table.host("set_game", game="speakeasy")
    table.host("set_seats", count=4)
    table.host("set_setting", name="clues_per_game", value=4)
    table.host("set_setting", name="reveal_ms", value=0)  # the next host taps "next clue"
    table.host("fill_bots", kind="random")
    table.host("start")

    for i, page in enumerate(pages):
        look(page, "identity")
        mine = table.call(lambda s, seat=i: s.update.message(seat)["view"]["me"]["identity"])
        assert page.get_attribute("[data-testid=identity] .identity-box", "class").endswith(f"identity-{mine}")

    done = [False, False, False]
    taken: set[str] = set()
    for _ in range(GAME_STEPS):
        for name, selector in SCREENS.items():
            if name not in taken and pages[0].locator(selector).count():
                shoot(pages[0], shots, lang, f"speakeasy_{name}")
                taken.add(name)
        for i, page in enumerate(pages):
            done[i] = done[i] or speakeasy_step(page)
        if all(done):
            break
        pages[0].wait_for_timeout(40)
    assert all(done), "the game did not reach its end on every phone"
    # The end reads naturally: "Game over" above the winner card (not a raw key, not a teaser).
    assert pages[0].inner_text("[data-testid=status]") == {"en": "Game over", "fa": "پایان بازی"}[lang]
    assert table.call(lambda s: s.phase.value) == "finished"

    # No phone ever received another seat's identity before the game revealed it.
    for i, received in enumerate(frames):
        for f in received:
            if f.get("kind") != "state" or not f.get("view") or f["view"]["phase"] == "game_over":
                continue
            view = f["view"]
            assert view["me"]["seat"] == i
            for seat in view["seats"]:
                assert seat["identity"] is None or seat["revealed"]
