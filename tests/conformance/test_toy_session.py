"""The toy game at a real table: registered with its one descriptor, it plays through the session
(bots, its pick timer, its buzz race on the race floor, the journal) with nothing edited elsewhere."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import toygame

from game import catalog
from game.config import TableConfig
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import TablePhase


@pytest.fixture
def toy() -> Iterator[catalog.GameDescriptor]:
    desc = catalog.register(toygame.DESCRIPTOR)
    yield desc
    catalog.unregister(desc.id)


def test_the_toy_game_plays_a_whole_table_and_replays_from_the_journal(toy: catalog.GameDescriptor,
                                                                      tmp_path: Path) -> None:
    vt = VirtualTime()
    config = TableConfig(data_dir=tmp_path / "data", admin_pin="246813", seed=9, game="speakeasy")
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
    try:
        assert toy.id in session.snapshot.lobby.games
        session.host_command({"command": "set_game", "game": toy.id})
        session.host_command({"command": "set_seats", "count": 4})
        session.host_command({"command": "fill_bots", "kind": "random"})
        session.host_command({"command": "start"})
        races: set[str] = set()

        def over() -> bool:
            current = session.snapshot.race.current
            if current is not None:
                races.add(current.key)
            return session.phase is TablePhase.FINISHED

        vt.run_until(over, limit_ms=10 * 60_000)
        view = session.snapshot.public_view
        assert view is not None and view["phase"] == "game_over" and view["winners"]
        assert races == {"buzz:1", "buzz:2", "buzz:3"}  # every round's race ran on the race floor
        assert session.snapshot.race.last.key == "buzz:3"
        journal.close()
        journal, saved, _ = Journal.open(config.data_dir)
        again = Session.boot(config, None, saved, clock=vt, scheduler=vt)
        assert again.snapshot.public_view == view
        again.close()
    finally:
        session.close()
        journal.close()
