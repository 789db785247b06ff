"""What the session shows (``presenter.py``): the snapshot's typed parts are the same facts as the
JSON the host console reads (no JSON round trip builds them any more), the message parts are
cached per change, and only host links see the claims and the table's own actions."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tabletop_racekit as kit
from tabletop_racekit import seat_people

from game.config import TableConfig
from game.session.scheduler import VirtualTime
from game.session.session import NoticeCode, Session
from game.session.snapshot import ArcadeInfo, ClaimInfo, RaceInfo
from game.session.update import TableUpdate

pytestmark = pytest.mark.timeout(60)


class SameFacts:
    """A listener checking, at every change, the typed race/arcade/claims against their JSON."""

    def __init__(self, session: Session) -> None:
        self.session, self.checked, self.races_seen = session, 0, 0

    def updated(self, update: TableUpdate) -> None:
        s = self.session
        snap = update.snapshot
        assert snap is s.snapshot
        assert snap.race == RaceInfo.from_json(s._races.to_json())
        assert snap.arcade == ArcadeInfo.from_json(s._board.to_json(s.table.arcade_map))
        assert snap.claims == tuple(ClaimInfo.from_json(c.to_json(s.table)) for c in s.claims[:1])  # the TV: one at a time
        self.checked += 1
        self.races_seen += snap.race.current is not None

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        pass

    def notice(self, code: NoticeCode) -> None:
        pass


@pytest.fixture
def moth(tmp_path: Path) -> Iterator[tuple[Session, VirtualTime, SameFacts]]:
    vt = VirtualTime()
    config = TableConfig(data_dir=tmp_path, admin_pin="2468", seed=5, game="cheating_moth")
    session = Session.boot(config, None, None, clock=vt, scheduler=vt)
    facts = SameFacts(session)
    session.attach(facts)
    seat_people(session)
    yield session, vt, facts
    session.close()


async def test_races_and_false_starts_are_shown_as_the_race_floor_reports_them(moth: Any) -> None:
    session, vt, facts = moth
    session.host_command({"command": "start"})
    for seed in range(3):  # three mosquito races, each with a false start on the way
        seat, action = await kit.move_until_playable(session, "mosquito", seed, vt=vt)
        jumper = next(s for s in range(4) if s != seat)
        session.press(jumper, session.clock(), kit.PressSource.KEYBOARD)
        vt.advance(5)
        session.submit_action(seat, action, None)
        race = session.snapshot.public_view["race"]
        for s in race["eligible"]:
            session.press(s, session.clock() + 30, kit.PressSource.KEYBOARD, race=race["id"])
        await kit.wait_decided(session, race["id"], 8.0, vt=vt)
        assert session.snapshot.race.last is not None
    assert facts.races_seen > 0 and facts.checked > 20


async def test_claims_on_the_tv_match_the_host_consoles_list(moth: Any) -> None:
    session, _, facts = moth
    session.request_claim(0, "Zed", "th")
    session.request_claim(1, None, None)
    assert [c.seat_name for c in session.snapshot.claims] == ["P1"]  # the TV shows one request at a time
    assert [c["name"] for c in session.update.lobby_json(host=True)["claims"]] == ["Zed", ""]
    assert "claims" not in session.update.lobby_json(host=False)  # only host links see who asks
    assert facts.checked > 0


def test_message_parts_are_built_once_per_update(tmp_path: Path) -> None:
    vt = VirtualTime()
    session = Session.boot(TableConfig(data_dir=tmp_path, admin_pin="2468", seed=5, game="cheating_moth_companion"),
                           None, None, clock=vt, scheduler=vt)
    common = session.update.common(host=False)
    assert session.update.common(host=False) is common and session.update.seat(None) is session.update.seat(None)
    assert "table_legal" not in common and session.update.common(host=True)["table_legal"] == []
    seat_people(session)
    assert session.update.common(host=False) is not common and session.update.common(host=False)["version"] > common["version"]
    session.host_command({"command": "start"})
    assert session.update.common(host=True)["table_legal"]  # the referee may act for the players
    assert session.update.message(0) == {**session.update.common(host=False), **session.update.seat(0).to_json()}
    session.close()


class Kept:
    """A listener keeping every update it is handed."""

    def __init__(self) -> None:
        self.updates: list[TableUpdate] = []

    def updated(self, update: TableUpdate) -> None:
        self.updates.append(update)

    def seat_revoked(self, seat: int, reason: NoticeCode = NoticeCode.KICKED) -> None:
        pass

    def notice(self, code: NoticeCode) -> None:
        pass


def test_every_listener_gets_the_same_update_and_it_never_changes(tmp_path: Path) -> None:
    vt = VirtualTime()
    session = Session.boot(TableConfig(data_dir=tmp_path, admin_pin="2468", seed=5, game="collusion"),
                           None, None, clock=vt, scheduler=vt)
    first, second = Kept(), Kept()
    session.attach(first)
    session.attach(second)
    seat_people(session)
    session.host_command({"command": "start"})
    assert first.updates and all(a is b for a, b in zip(first.updates, second.updates, strict=True))
    update = first.updates[-1]
    assert update is session.update and update.snapshot is session.snapshot
    assert update.seat(None).view is update.snapshot.public_view  # the TV's public view is the spectators'
    before = {seat: update.message(seat) for seat in (None, 0, 1)}
    vote = next(a for a in update.seat(0).legal if a["type"] == "vote")
    session.submit_action(0, vote, session.version)
    assert session.update is not update and session.update.version == update.version + 1
    assert {seat: update.message(seat) for seat in (None, 0, 1)} == before  # a past change's frames stay as they were
    fresh = TableUpdate(update.kind, update.snapshot, update.timer, update.lobby, update.play)
    assert fresh.seat(0) == update.seat(0)  # built later from the same change: the same view
    session.close()


async def test_a_seat_frame_carries_only_what_a_seat_reads_and_the_host_gets_the_editors(moth: Any) -> None:
    """The host console's choices and editors (2 KB of a twelve-seat frame) go to host links only;
    a seat learns which settings name a seat, so its phone shows the seat, not an index."""
    session, _, _ = moth
    host_only = {"presets", "games", "play_modes", "table_settings", "table_setting_choices", "settings_schema"}
    seat = session.update.lobby_json(host=False)
    host = session.update.lobby_json(host=True)
    assert not host_only & seat.keys() and host_only <= host.keys()
    assert seat["seat_settings"] == host["seat_settings"] == ["first_guard"]
    assert [s["key"] for s in host["settings_schema"] if s["unit"] == "seat"] == ["first_guard"]
    session.host_command({"command": "start"})
    assert not host_only & session.update.message(0)["lobby"].keys()


async def test_the_lobby_facts_are_kept_across_moves_and_made_again_when_the_catalog_changes(moth: Any) -> None:
    from dataclasses import replace

    from game import catalog

    session, _, _ = moth
    session.host_command({"command": "start"})
    before = session.snapshot.lobby
    assert session._presenter.lobby_info() is before  # a move leaves the record, engine and catalog as they were
    catalog.register(replace(catalog.get(session.table.game), id="a_second_copy"))
    try:
        assert "a_second_copy" in session._presenter.lobby_info().games
    finally:
        catalog.unregister("a_second_copy")
    assert "a_second_copy" not in session._presenter.lobby_info().games


def test_a_move_keeps_the_lobby_json_and_a_lobby_change_makes_it_again(tmp_path: Path) -> None:
    """The lobby part (twelve seats' JSON per audience) is made once while the lobby stays as it
    was; a seat's name, a connection or a kick makes it again."""
    vt = VirtualTime()
    session = Session.boot(TableConfig(data_dir=tmp_path, admin_pin="2468", seed=3), None, None, clock=vt, scheduler=vt)
    try:
        session.host_command({"command": "set_seats", "count": 4})
        for record in session.table.offered:
            session.join_seat(record.token, f"P{record.seat}")
        session.host_command({"command": "set_setting", "name": "conspiracy_ms", "value": 3_600_000})
        session.host_command({"command": "start"})
        before = {host: session.update.lobby_json(host=host) for host in (False, True)}
        seat = next(s for s, legal in session._legal.by_seat.items() if legal)
        session.submit_action(seat, session.update.message(seat)["legal"][0], session.version)
        assert all(session.update.lobby_json(host=host) is before[host] for host in (False, True))
        session.host_command({"command": "kick", "seat": 1})
        after = session.update.lobby_json(host=False)
        assert after is not before[False] and after["seats"][1]["status"] != before[False]["seats"][1]["status"]
    finally:
        session.close()
