"""The phone app loads a game's module from what the table says: every ``state``
carries the game's catalog ``phone`` path, and that file exists in the phone app."""
from __future__ import annotations

import pytest

from game import catalog
from game.config import TableConfig
from game.session.session import Session


@pytest.mark.parametrize("game", catalog.ids(catalog.PlayMode.TABLE))
def test_state_names_the_games_phone_module(game: str, config: TableConfig) -> None:
    s = Session.boot(config, None, None, bot_delay_scale=1000.0)
    s.host_command({"command": "set_game", "game": game})
    phone = catalog.get(game).phone
    assert s.state_message(None)["phone"] == phone
    assert s.state_message(0)["phone"] == phone
    served = catalog.phone_file(phone)  # what /js/<phone> serves: the file in the game's own phone/ folder
    assert served is not None and served.is_file()
    s.close()
