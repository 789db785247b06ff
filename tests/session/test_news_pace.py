"""The TV sets the pace of public news: while a TV is up, a batch holding news (a reveal and its
deaths) makes every frame say ``look`` until the TV reports it told that batch, or until it can't
(it never saw the batch, or took too long); no TV, no wait; private news (a vote cast) never waits."""
from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

import pytest

from game.config import TableConfig
from game.rules.base import MalformedAction
from game.session.news import SEEN_WAIT_MS, TELL_WAIT_MS
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, InputSource, TablePhase


def collusion(config: TableConfig, vt: VirtualTime, *, tv: bool) -> Session:
    """Four people at a Collusion table (no bots: only the test acts), a TV up or not."""
    s = Session.boot(replace(config, seed=5), None, None, clock=vt, scheduler=vt)
    s.host_command({"command": "set_seats", "count": 4})
    for record in s.table.offered:
        s.join_seat(record.token, f"P{record.seat + 1}")
    if tv:
        s.handle_input(InputEvent(InputSource.SCREEN, InputKind.SCREEN, None, {"on": True}, vt.now_ms()))
    s.host_command({"command": "start"})
    assert s.phase is TablePhase.PLAYING
    return s


def report(s: Session, vt: VirtualTime, seen: int, told: int) -> None:
    s.handle_input(InputEvent(InputSource.SCREEN, InputKind.TOLD, None, {"seen": seen, "told": told}, vt.now_ms()))


def vote_all(s: Session) -> list[dict[str, Any]]:
    """Every seat votes for the next seat and locks: the round's reveal. Returns the batch's events."""
    for seat in range(4):
        vote = {"type": "vote", "target": (seat + 1) % 4}
        if vote in s.update.seat(seat).legal:  # not yet cast
            s.submit_action(seat, vote, None)
    for seat in range(4):
        if any(a["type"] == "lock" for a in s.update.seat(seat).legal):
            s.submit_action(seat, {"type": "lock"}, None)
    return list(s.update.events)


def look(s: Session, seat: int | None = None) -> bool:
    return bool(s.update.message(seat)["look"])


def test_C_a_reveal_waits_for_the_tv_to_tell_it(config: TableConfig, vt: VirtualTime) -> None:
    s = collusion(config, vt, tv=True)
    report(s, vt, s.event_seq, s.event_seq)  # the TV follows the table
    s.submit_action(0, {"type": "vote", "target": 1}, None)
    assert not look(s, 0) and not look(s, 1)  # a vote cast is nobody's news: never held
    events = vote_all(s)
    assert any(e["type"] == "reveal" for e in events)
    held = s.event_seq
    assert all(look(s, seat) for seat in range(4)) and look(s) and s.update.message(None, host=True)["look"]
    assert s.snapshot.events == s.update.events  # the TV itself gets the batch at once: it tells it
    report(s, vt, held, held - 1)  # the TV saw it and is telling it: the phones wait on, past the first bound
    vt.advance(SEEN_WAIT_MS * 2)
    assert look(s, 0)
    version = s.version
    report(s, vt, held, held)  # told: every phone hears of it now, the table's version unchanged
    assert not look(s, 0) and s.version == version


def test_C_no_tv_no_wait(config: TableConfig, vt: VirtualTime) -> None:
    s = collusion(config, vt, tv=False)
    vote_all(s)
    assert not look(s, 0) and not look(s)


def test_C_a_tv_that_never_saw_the_batch_does_not_hold_the_table(
        config: TableConfig, vt: VirtualTime, caplog: pytest.LogCaptureFixture) -> None:
    s = collusion(config, vt, tv=True)
    vote_all(s)
    assert look(s, 0)
    vt.advance(SEEN_WAIT_MS - 1)
    assert look(s, 0)
    with caplog.at_level(logging.WARNING, logger="game.session.news"):
        vt.advance(1)
    assert not look(s, 0)
    assert any("did not tell batch" in r.getMessage() for r in caplog.records)


def test_C_a_tv_still_telling_after_the_long_bound_lets_the_phones_go(config: TableConfig, vt: VirtualTime) -> None:
    s = collusion(config, vt, tv=True)
    vote_all(s)
    report(s, vt, s.event_seq, s.event_seq - 1)
    vt.advance(TELL_WAIT_MS - 1)
    assert look(s, 0)
    vt.advance(1)
    assert not look(s, 0)


def test_C_a_batch_the_tv_already_told_is_not_held(config: TableConfig, vt: VirtualTime) -> None:
    """A TV ahead of the phones' frames (it told the batch before the session published it) holds nothing."""
    s = collusion(config, vt, tv=True)
    report(s, vt, s.event_seq + 10, s.event_seq + 10)
    vote_all(s)
    assert not look(s, 0)


def test_a_new_game_or_the_lobby_holds_nothing(config: TableConfig, vt: VirtualTime) -> None:
    s = collusion(config, vt, tv=True)
    vote_all(s)
    assert look(s, 0)
    s.host_command({"command": "abort"})
    assert s.phase is TablePhase.LOBBY and not look(s, 0)
    vt.advance(TELL_WAIT_MS)  # the old wait's deadline is gone: nothing fires
    assert not look(s, 0)


@pytest.mark.parametrize("payload", [{}, {"seen": 3}, {"seen": "3", "told": 3}, {"seen": 3, "told": -1},
                                     {"seen": True, "told": 3}, {"seen": 3.5, "told": 3}])
def test_a_malformed_tv_report_is_refused_and_changes_nothing(config: TableConfig, vt: VirtualTime,
                                                               payload: dict[str, Any]) -> None:
    s = collusion(config, vt, tv=True)
    vote_all(s)
    version = s.version
    s.handle_input(InputEvent(InputSource.SCREEN, InputKind.TOLD, None, payload, vt.now_ms()))
    assert look(s, 0) and s.version == version
    assert s.host_error is not None and s.host_error.code == MalformedAction.code
