"""Start is refused at once, with the engine's own reason, when the game cannot be dealt for the
table as it is (Cheating Moth's one deck seats five, M2): before, the how-to-play ran and the table
then stayed in its lobby with no word why (the kiosk soak's groups found the last one's names on
their seats)."""
from __future__ import annotations

import pytest

from game.rules.base import BadSettings
from game.session.snapshot import RunMode, TablePhase
from game.tapes import ScriptedTable


@pytest.mark.parametrize("mode", [RunMode.TABLE, RunMode.KIOSK])
def test_M2_six_seats_of_cheating_moth_on_one_deck_are_refused_on_start(mode: RunMode) -> None:
    table = ScriptedTable("cheating_moth", 6, "en", people=3, bots=3, mode=mode)
    table.host("set_setting", name="how_to_play", value=True)  # the explanation first, as a kiosk has it
    with pytest.raises(BadSettings, match="M2"):
        table.start()
    assert table.session.phase is TablePhase.LOBBY and table.session.intro is None  # nothing began
    table.host("set_setting", name="two_decks", value=True)
    table.start()  # two decks seat six
    table.wait(120_000)
    assert table.session.phase is TablePhase.PLAYING
