"""The toy game's phone page (tests/conformance/toygame): a game registered from its own folder,
with no shared file edited, has its phone module and its words served by the table and played
on a real phone: T1, a pick from the phone."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from game import catalog

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "conformance"))
import toygame  # the toy game's folder, beside the conformance suite


@pytest.fixture
def toy() -> Iterator[catalog.GameDescriptor]:
    desc = catalog.register(toygame.DESCRIPTOR)
    yield desc
    catalog.unregister(desc.id)


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_T1_a_phone_picks_in_the_toy_game(toy: catalog.GameDescriptor, table: Any, phones: Any, lang: str) -> None:
    table.host("set_language", language=lang)
    table.host("set_game", game=toy.id)
    table.host("set_seats", count=3)
    page, other, _ = (join(phones, table.seat_url(seat), name) for seat, name in ((0, "Sara"), (1, "Nok"), (2, "Reza")))
    assert toygame.DESCRIPTOR.phone == "games/toy_guess.js"
    words = {k: v for k, v in page.evaluate("async (l) => (await fetch(`/i18n/${l}.json`)).json()", lang).items()
             if k.startswith("toy_guess.")}
    assert words["toy_guess.pick"]  # the toy's own phone words, served with the shared ones
    table.host("start")
    page.wait_for_selector("[data-testid=toy-pick-2]")
    assert words["toy_guess.pick"] in page.inner_text(".toy-guess")
    page.click("[data-testid=toy-pick-2]")  # the others have not picked: the round waits (T1/T2)
    waiting = page.wait_for_selector("[data-testid=toy-waiting]")
    assert waiting.inner_text().strip() == words["toy_guess.picked"].replace("{n}", "2" if lang == "en" else "۲")
    other.wait_for_selector("[data-testid=toy-pick-1]")


@pytest.mark.parametrize("lang", ["th"])
def test_T3_a_phone_buzzes_with_the_games_text_race_key(toy: catalog.GameDescriptor, table: Any, phones: Any,
                                                         lang: str) -> None:
    """A plug-in's race keys are its own ("buzz:1"): the phone's press names it and wins the buzz."""
    table.host("set_language", language=lang)
    table.host("set_game", game=toy.id)
    table.host("set_seats", count=3)
    pages = [join(phones, table.seat_url(seat), name) for seat, name in ((0, "Sara"), (1, "Nok"), (2, "Reza"))]
    table.host("start")
    for n, page in zip((2, 1, 3), pages):
        page.click(f"[data-testid=toy-pick-{n}]")
    buzz = pages[1].wait_for_selector("[data-testid=toy-buzz]")
    assert table.call(lambda s: s.update.message(None)["view"]["race"]) == {"id": "buzz:1"}
    buzz.dispatch_event("pointerdown")
    pages[1].wait_for_selector("[data-testid=toy-buzz][disabled]")
    won = table.call(lambda s: [e for e in s.last_events if e["type"] == "buzz_won"])
    for _ in range(100):
        if won:
            break
        pages[1].wait_for_timeout(50)
        won = table.call(lambda s: [e for e in s.last_events if e["type"] == "buzz_won"])
    assert won and won[0]["seat"] == 1


def join(phones: Any, url: str, name: str) -> Any:
    page = phones.open(url)
    page.fill("[data-testid=name-input]", name)
    page.click("[data-testid=name-go]")
    page.wait_for_selector("[data-testid=me-card]")
    return page
