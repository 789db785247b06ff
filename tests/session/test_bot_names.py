"""A bot has one name everywhere: the session gives it a name from its seat
colour in the table's language (``seating.bot_name``), the same in the big screen's snapshot and in
every phone's lobby; the phone adds a robot mark beside it."""
from __future__ import annotations

import pytest

from game.config import TableConfig
from game.session.session import Session

EXPECTED = {"en": "Yellow", "fa": "زرد", "th": "เหลือง"}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_a_bot_is_named_the_same_on_the_screen_and_the_phones(lang: str, config: TableConfig) -> None:
    s = Session.boot(config, None, None, bot_delay_scale=1000.0)
    s.host_command({"command": "set_language", "language": lang})
    s.host_command({"command": "set_bot", "seat": 3, "kind": "heuristic"})
    phone_seat = s.update.message(0)["lobby"]["seats"][3]
    assert phone_seat["bot"] == "heuristic"
    assert phone_seat["name"] == s.snapshot.seats[3].name == EXPECTED[lang]
    assert s.snapshot.seats[0].name == ""  # a free seat stays nameless
    s.close()
