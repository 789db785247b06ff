"""The TV and the phones name the same buttons (fa, th): the TV's hint to end a turn quotes the
phone's own "Done" button, its last-round hint the phone's "See the final standings", and the host
console's buttons say whose card it is ("Sara put down a MOSQUITO"), never "I" / "my"."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game import i18n

from .conftest import Phones, Table
from .test_cheating_moth_companion_phones import phone_text
from .test_cheating_moth_phones import wait_until
from .test_group_pad import NAMES, companion
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

def tv(lang: str, key: str, **values: Any) -> str:
    return i18n.text(lang, "screen_cheating_moth_companion", key, **values)


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_the_tv_names_the_phones_own_buttons(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    pages, host = companion("cheating_moth", lang, table, phones, rounds=1)
    turn = table.call(lambda s: s.update.message(None)["view"]["turn"])
    done = pages[turn].locator("[data-testid=end-turn]")
    done.wait_for()
    # The TV's turn hint quotes the very label of the button on the phone in turn.
    assert done.inner_text() in tv(lang, "turn_hint", button=phone_text(lang, "mothc.end_turn"))
    # The host console acts for the player in turn: their name on the buttons, not "I put down…".
    call = host.locator("[data-testid=host-call-mosquito]")
    call.wait_for()
    assert NAMES[lang][turn] in call.inner_text()
    assert call.inner_text() != phone_text(lang, "mothc.call.mosquito")
    host.locator("details summary", has_text=phone_text(lang, "mothc.host_out_title")).click()
    assert NAMES[lang][2] in host.inner_text("[data-testid=host-round_over-2]")
    shoot(host, shots, lang, "moth_companion_host_for_player")
    # The last round's scoring: the phones' button is "See the final standings", and so says the TV.
    table.host("table_action", action={"type": "round_over", "out": 2})
    for seat, points in ((0, 4), (1, 6)):
        table.host("table_action", action={"type": "enter_points", "seat": seat, "points": points})
    finish = pages[0].locator("[data-testid=next-round]")
    finish.wait_for()
    assert finish.inner_text() == phone_text(lang, "mothc.finish")
    assert finish.inner_text() in tv(lang, "scoring.ready", button=phone_text(lang, "mothc.finish"))
    wait_until(pages[0], lambda: table.call(lambda s: s.update.message(None)["view"]["waiting_for"]) == [], "every entry in")
