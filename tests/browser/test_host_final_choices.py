"""One clear ending on the host page: after the game it offers the TV's two choices, *Play again,
same players* and *New players*, as two buttons; a double tap is one choice (the hand-over happens
once, no error follows), and New players gives every seat a new link. In Persian and Thai with long
names at the table. Screenshots: out/phone/<lang>_host_final_choices.png."""
from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import pytest

from game import catalog, i18n
from game.rules.base import RulesError

from .conftest import Phones, Table
from .phone import host_console

pytestmark = pytest.mark.browser

LONG_NAMES = ("Maximiliana Worthingtons", "ณัฐวุฒิ ศรีสุวรรณพงษ์", "محمدرضا تهرانیان")


def finish_a_game(table: Table) -> None:
    """A short Collusion game to its end: three named people (their moves chosen by the heuristic
    bot, sent as their phones would) and bots on the other seats."""
    for seat, name in enumerate(LONG_NAMES):
        table.call(lambda s, seat=seat, name=name: s.join_seat(s.table.seats[seat].token, name, "en"))
    table.host("set_setting", name="target_score", value=10)
    table.host("set_setting", name="target_score_large", value=10)
    table.host("fill_bots", kind="heuristic")
    table.host("start")
    brains = [catalog.get("collusion").make_bot("heuristic", seat, 7 + seat) for seat in range(len(LONG_NAMES))]
    deadline = time.monotonic() + 240
    while table.call(lambda s: s.phase.value) != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        for seat, brain in enumerate(brains):
            table.call(lambda s, seat=seat, brain=brain: _move(s, seat, brain))
        time.sleep(0.05)


def _move(session: Any, seat: int, brain: Any) -> None:
    run = session.run
    if run is None or session.phase.value != "playing":
        return
    legal = list(run.engine.legal_actions(run.state, seat))
    action = brain.choose(run.engine.view(run.state, seat), legal) if legal else None
    if action is not None:
        with contextlib.suppress(RulesError):
            session.submit_action(seat, run.engine.action_to_wire(action), None)


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_the_host_page_offers_the_two_choices_and_a_double_tap_is_one(lang: str, table: Table, phones: Phones,
                                                                      shots: Path) -> None:
    table.host("set_language", language=lang)
    frames: list[dict[str, Any]] = []
    host = host_console(table, phones, lang, frames)
    finish_a_game(table)
    again, new = host.locator("[data-testid=host-play-again]"), host.locator("[data-testid=host-new-players]")
    again.wait_for()
    assert again.inner_text().strip() == i18n.text(lang, "web", "host.play_again")
    assert new.inner_text().strip() == i18n.text(lang, "web", "host.new_players")
    for button in (again, new):  # whole on the page: neither cut nor overflowing the phone's width
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
        assert button.evaluate("b => b.scrollWidth <= b.clientWidth")
    host.screenshot(path=str(shots / f"{lang}_host_final_choices.png"), full_page=True)
    old_links = table.call(lambda s: [r.token for r in s.table.offered])
    new.dblclick()
    host.wait_for_selector("[data-testid=host-start]")
    assert table.call(lambda s: s.phase.value) == "lobby"
    assert table.call(lambda s: s.host_error) is None  # the second tap sent nothing the table refused
    assert not set(old_links) & set(table.call(lambda s: [r.token for r in s.table.offered]))  # new links
    assert table.call(lambda s: [r.name for r in s.table.offered if r.name]) == []  # the last group's names are gone
    sent = [f for f in frames if f.get("kind") == "host" and f.get("command") == "new_players"]
    assert len(sent) <= 1  # a frame the page sent (when the socket log has it): once
