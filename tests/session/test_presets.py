"""A table's edition follows its language unless the host chose one (Collusion:
Tabani in Persian, Rod Ruang in Thai; Speakeasy: the deck of the language)."""
from __future__ import annotations

from pathlib import Path

import pytest

from game.config import TableConfig
from game.session.scheduler import VirtualTime
from game.session.session import Session


def table(tmp_path: Path, game: str, language: str) -> Session:
    vt = VirtualTime()
    config = TableConfig(data_dir=tmp_path / "d", admin_pin="2468", game=game, language=language)
    return Session.boot(config, None, None, clock=vt, scheduler=vt)


@pytest.mark.parametrize(("language", "edition"), [("th", "rod_ruang"), ("fa", "tabani"), ("en", "tabani")])
def test_a_collusion_table_starts_with_the_edition_of_its_language(tmp_path: Path, language: str, edition: str):
    session = table(tmp_path, "collusion", language)
    assert session.table.preset == edition
    assert session.table.settings == session.engine.settings_to_wire(session.engine.default_settings(edition))


def test_the_edition_follows_the_language_in_the_lobby_until_the_host_chooses(tmp_path: Path):
    session = table(tmp_path, "speakeasy", "th")
    session.host_command({"command": "set_game", "game": "collusion"})
    assert session.table.preset == "rod_ruang"  # a game picked at a Thai table
    session.host_command({"command": "set_language", "language": "fa"})
    assert session.table.preset == "tabani"
    session.host_command({"command": "set_preset", "preset": "rod_ruang"})
    session.host_command({"command": "set_language", "language": "en"})
    assert session.table.preset == "rod_ruang"  # the host chose: kept
