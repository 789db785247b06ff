"""The session with the fake game: lobby commands, actions, versions, timers, bots, kiosk, resume."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
import tabletop_fakegame as fake
from tabletop_sessionkit import FakeClock, Recorder

from game.bots import Bot
from game.config import TableConfig
from game.rules.base import (
    BadSettings,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    StaleState,
    UnknownSeat,
)
from game.session.scheduler import VirtualTime
from game.session.seats import BotKind
from game.session.session import NoticeCode, Session
from game.session.snapshot import InputEvent, InputKind, InputSource, RunMode, SeatStatus, TablePhase

MakeFake = Callable[..., Session]


def host(session: Session, command: str, **fields: Any) -> None:
    session.host_command({"command": command, **fields})


def join_all(session: Session, count: int | None = None) -> list[str]:
    tokens = [r.token for r in session.table.offered][: count or session.table.seat_count]
    for i, token in enumerate(tokens):
        session.join_seat(token, f"P{i}")
    return tokens


async def test_fresh_table_defaults(make_fake: MakeFake) -> None:
    s = make_fake()
    assert s.phase is TablePhase.LOBBY and s.table.seat_count == 6 and s.table.preset == "normal"
    assert s.check_pin("2468") and not s.check_pin("0000") and not s.check_pin(None)
    snap = s.snapshot
    assert snap.phase is TablePhase.LOBBY and len(snap.seats) == 6
    assert all(seat.status is SeatStatus.FREE for seat in snap.seats)


async def test_lobby_commands_change_the_table(make_fake: MakeFake) -> None:
    s = make_fake()
    rec = Recorder()
    s.attach(rec)
    v = s.version
    host(s, "set_seats", count=4)
    host(s, "set_preset", preset="quick")
    host(s, "set_language", language="fa")
    host(s, "set_setting", name="rounds", value=3)
    host(s, "set_setting", name="idle_reset_minutes", value=30)
    host(s, "set_bot", seat=1, kind="random")
    host(s, "fill_bots", kind="heuristic")
    t = s.table
    assert (t.seat_count, t.preset, t.language, t.settings["rounds"]) == (4, "quick", "fa", 3)
    assert t.table_settings.idle_reset_minutes == 30
    assert [r.bot for r in t.offered] == [BotKind.HEURISTIC, BotKind.RANDOM, BotKind.HEURISTIC, BotKind.HEURISTIC]
    assert s.version == v + 7 and rec.changes == 7
    host(s, "set_bot", seat=0, kind=None)
    assert s.table.seats[0].bot is None


@pytest.mark.parametrize("payload,error", [
    ({"command": "set_seats", "count": 2}, BadSettings),
    ({"command": "set_seats", "count": 13}, BadSettings),
    ({"command": "set_seats", "count": "4"}, MalformedAction),
    ({"command": "set_preset", "preset": "nope"}, BadSettings),
    ({"command": "set_language", "language": "de"}, BadSettings),
    ({"command": "set_setting", "name": "rounds", "value": "three"}, BadSettings),
    ({"command": "set_setting", "name": "no_such", "value": 1}, BadSettings),
    ({"command": "set_setting", "name": "rounds"}, MalformedAction),
    ({"command": "set_setting", "name": "idle_reset_minutes", "value": 0}, BadSettings),
    ({"command": "set_bot", "seat": 9, "kind": "random"}, UnknownSeat),
    ({"command": "set_bot", "seat": 0, "kind": "genius"}, BadSettings),
    ({"command": "fill_bots", "kind": None}, MalformedAction),
    ({"command": "set_game", "game": "chess"}, BadSettings),
    ({"command": "next"}, IllegalAction),
    ({"command": "abort"}, IllegalAction),
    ({"command": "kick", "seat": 6}, UnknownSeat),
    ({"command": "dance"}, MalformedAction),
    ({"nothing": 1}, MalformedAction),
])
async def test_bad_host_commands_change_nothing(make_fake: MakeFake, payload: dict[str, Any], error: type) -> None:
    s = make_fake()
    before, version = s.table, s.version
    with pytest.raises(error):
        s.host_command(payload)
    assert s.table == before and s.version == version


async def test_join_name_lang_and_bot_seat_is_taken_by_a_person(make_fake: MakeFake) -> None:
    s = make_fake()
    host(s, "set_bot", seat=2, kind="random")
    token = s.table.seats[2].token
    record = s.join_seat(token, "Mina", "th")
    assert record.status is SeatStatus.JOINED and record.bot is None and (record.name, record.lang) == ("Mina", "th")
    with pytest.raises(IllegalAction):
        host(s, "set_bot", seat=2, kind="random")
    with pytest.raises(UnknownSeat):
        s.join_seat("not-a-token")
    with pytest.raises(MalformedAction):
        s.set_lang(2, "xx")
    s.set_name(2, "Mina B")
    assert s.table.seats[2].name == "Mina B"


async def test_set_seats_refuses_to_drop_a_player(make_fake: MakeFake) -> None:
    s = make_fake()
    s.join_seat(s.table.seats[5].token, "Late")
    with pytest.raises(BadSettings):
        host(s, "set_seats", count=4)
    assert s.table.seat_count == 6


async def test_start_fills_free_seats_with_the_default_bot(make_fake: MakeFake) -> None:
    s = make_fake(bot_delay_scale=1000.0)  # bots wait: nothing moves during the test
    rec = Recorder()
    s.attach(rec)
    host(s, "set_seats", count=3)
    s.join_seat(s.table.seats[0].token, "Ann")
    host(s, "start")
    assert s.phase is TablePhase.PLAYING and rec.notices == [NoticeCode.GAME_STARTED]
    assert [r.status for r in s.table.offered] == [SeatStatus.JOINED, SeatStatus.BOT, SeatStatus.BOT]
    assert s.timer is not None and s.timer.request.key == "round:1"
    assert s.snapshot.timer is not None and s.snapshot.public_view == {"round": 1, "picked": [False] * 3, "scores": [0] * 3}
    with pytest.raises(IllegalAction):
        host(s, "set_seats", count=4)


async def test_actions_are_checked_then_applied(make_fake: MakeFake) -> None:
    s = make_fake(bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    join_all(s)
    with pytest.raises(IllegalAction):
        s.submit_action(0, {"type": "pick", "value": 1}, s.version)  # lobby
    host(s, "start")
    v = s.version
    with pytest.raises(MalformedAction):
        s.submit_action(0, {"type": "pick", "value": "1"}, v)
    with pytest.raises(MalformedAction):
        s.submit_action(0, {"type": "fly"}, v)
    with pytest.raises(IllegalAction):
        s.submit_action(0, {"type": "pick", "value": 7}, v)
    with pytest.raises(UnknownSeat):
        s.submit_action(3, {"type": "pick", "value": 1}, v)
    with pytest.raises(StaleState):
        s.submit_action(0, {"type": "pick", "value": 1}, v + 1)  # from the future
    assert s.version == v
    s.submit_action(0, {"type": "pick", "value": 2}, v)
    assert s.version == v + 1 and s.last_events == ({"type": "picked", "seat": 0},)
    with pytest.raises(IllegalAction):
        s.submit_action(0, {"type": "pick", "value": 1}, s.version)  # already picked


async def test_stale_state_only_when_the_seats_own_options_changed(make_fake: MakeFake) -> None:
    s = make_fake(bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    join_all(s)
    host(s, "start")
    seen = s.version
    s.submit_action(1, {"type": "pick", "value": 1}, seen)  # another seat acts: seat 0 may still use `seen`
    s.submit_action(0, {"type": "pick", "value": 3}, seen)
    s.submit_action(2, {"type": "pick", "value": 1}, s.version)  # round 1 reveals; round 2 starts
    with pytest.raises(StaleState):
        s.submit_action(0, {"type": "pick", "value": 1}, seen)  # made on round 1's options
    s.submit_action(0, {"type": "pick", "value": 1}, s.version)


async def test_not_your_turn_when_the_seat_has_nothing_to_do(make_fake: MakeFake) -> None:
    s = make_fake(bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    join_all(s)
    host(s, "start")
    s.submit_action(0, {"type": "pick", "value": 1}, s.version)
    version = s.version
    with pytest.raises(NotYourTurn):
        s.submit_action(0, {"type": "tap", "t_ms": 0}, s.version)
    assert s.version == version


async def test_timed_actions_are_stamped_by_the_session_clock(make_fake: MakeFake) -> None:
    clock = FakeClock(5_000)
    s = make_fake(clock=clock, bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    join_all(s)
    host(s, "start")
    clock.now = 7_345
    s.submit_action(1, {"type": "tap", "t_ms": 123}, s.version)  # the phone's own time is ignored
    assert s.update.message(1)["view"]["me"]["tap"] == 7_345


async def test_timer_expiry_is_applied_as_the_table(make_fake: MakeFake, vt: VirtualTime) -> None:
    s = make_fake(bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    host(s, "set_preset", preset="quick")
    host(s, "set_setting", name="round_ms", value=20)
    join_all(s)
    host(s, "start")
    s.submit_action(0, {"type": "pick", "value": 3}, s.version)
    vt.advance(19)
    assert s.run is not None and s.run.state.round == 1  # not before the timer runs out
    vt.advance(1)
    assert s.run is not None and s.run.state.scores == (3, 0, 0)
    assert s.last_events == ({"type": "revealed", "round": 1, "picks": [3, 0, 0]},)


async def test_bots_play_to_the_end_and_next_returns_to_the_lobby(make_fake: MakeFake, vt: VirtualTime) -> None:
    s = make_fake(bot_delay_scale=0.0)
    rec = Recorder()
    s.attach(rec)
    host(s, "set_seats", count=4)
    host(s, "fill_bots", kind="random")
    host(s, "start")
    vt.run_until(lambda: s.phase is TablePhase.FINISHED)
    assert NoticeCode.GAME_FINISHED in rec.notices
    assert s.run is not None and s.run.state.scores == (6, 6, 6, 6)  # the fake bot always picks 3
    with pytest.raises(GameOver):
        s.submit_action(0, {"type": "tap", "t_ms": 0}, s.version)
    host(s, "next")
    assert s.phase is TablePhase.LOBBY and s.run is None
    assert all(r.bot is BotKind.RANDOM for r in s.table.offered)


async def test_kick_frees_the_seat_and_a_bot_plays_it_during_a_game(make_fake: MakeFake) -> None:
    s = make_fake(bot_delay_scale=1000.0)
    rec = Recorder()
    s.attach(rec)
    host(s, "set_seats", count=3)
    old = join_all(s)
    host(s, "start")
    host(s, "kick", seat=1)
    record = s.table.seats[1]
    assert rec.revoked == [1] and record.token != old[1] and record.bot is BotKind.HEURISTIC
    assert s.seat_by_token(old[1]) is None
    host(s, "abort")
    assert s.phase is TablePhase.LOBBY and NoticeCode.TABLE_RESET in rec.notices
    host(s, "kick", seat=0)
    assert s.table.seats[0].status is SeatStatus.FREE


async def test_presence_does_not_grow_the_version(make_fake: MakeFake) -> None:
    s = make_fake()
    v = s.version
    s.set_connected(0, True)
    assert s.version == v and s.snapshot.seats[0].connected and s.update.lobby_json(host=False)["seats"][0]["connected"]
    s.set_connected(0, False)
    assert not s.snapshot.seats[0].connected


async def test_handle_input_from_the_keyboard(make_fake: MakeFake) -> None:
    s = make_fake()
    s.handle_input(InputEvent(InputSource.KEYBOARD, InputKind.HOST, None, {"command": "set_seats", "count": 5}, 0))
    assert s.table.seat_count == 5 and s.snapshot.lobby.host_error is None
    s.handle_input(InputEvent(InputSource.KEYBOARD, InputKind.HOST, None, {"command": "set_seats", "count": 50}, 0))
    assert s.table.seat_count == 5 and s.snapshot.lobby.host_error.code == "bad_settings"


async def test_kiosk_idle_reset(make_fake: MakeFake, config: TableConfig) -> None:
    clock = FakeClock()
    s = make_fake(clock=clock, cfg=replace(config, mode=RunMode.KIOSK), bot_delay_scale=1000.0)
    rec = Recorder()
    s.attach(rec)
    host(s, "set_seats", count=3)
    tokens = join_all(s, 2)
    host(s, "start")
    clock.now += 9 * 60_000
    s.check_idle()
    assert s.phase is TablePhase.PLAYING
    clock.now += 2 * 60_000
    s.check_idle()
    assert s.phase is TablePhase.LOBBY and NoticeCode.NEW_GROUP in rec.notices
    assert set(rec.revoked) >= {0, 1} and all(s.seat_by_token(t) is None for t in tokens)
    assert all(r.bot is None and not r.joined for r in s.table.seats)  # the next group finds every seat free


async def test_resume_replays_to_the_same_state(make_fake: MakeFake, config: TableConfig) -> None:
    s = make_fake(bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    tokens = join_all(s)
    host(s, "start")
    s.submit_action(0, {"type": "pick", "value": 2}, s.version)
    s.submit_action(1, {"type": "tap", "t_ms": 0}, s.version)
    state, version, table = s.run.state, s.version, s.table
    s.close()
    again = make_fake(bot_delay_scale=1000.0)
    assert again.run is not None and again.run.state == state
    assert again.version == version and again.table == table
    assert [again.seat_by_token(t).seat for t in tokens] == [0, 1, 2]
    assert again.timer is not None and again.last_events == s.last_events and again.event_seq == s.event_seq


async def test_resume_after_finish_and_lobby(make_fake: MakeFake, vt: VirtualTime) -> None:
    s = make_fake(bot_delay_scale=0.0)
    host(s, "set_seats", count=3)
    host(s, "fill_bots", kind="random")
    host(s, "start")
    vt.run_until(lambda: s.phase is TablePhase.FINISHED)
    s.close()
    again = make_fake(bot_delay_scale=0.0)
    assert again.phase is TablePhase.FINISHED and again.run is not None and again.run.state == s.run.state
    host(again, "next")
    again.close()
    third = make_fake()
    assert third.phase is TablePhase.LOBBY and third.run is None


async def test_new_starts_fresh(make_fake: MakeFake, config: TableConfig) -> None:
    s = make_fake()
    token = s.table.seats[0].token
    s.close()
    fresh = make_fake(cfg=replace(config, new=True))
    assert fresh.seat_by_token(token) is None and fresh.version == 1


async def test_housekeeping_checkpoints_the_journal_only_when_quiet(make_fake: MakeFake, config: TableConfig) -> None:
    from game.session.journal import JOURNAL_NAME

    clock = FakeClock()
    s = make_fake(clock=clock)
    db_file = config.data_dir / JOURNAL_NAME
    host(s, "set_seats", count=5)
    size = db_file.stat().st_size
    s.housekeeping()  # a write just happened: not now
    assert db_file.stat().st_size == size
    clock.now += 5_000
    s.housekeeping()
    assert db_file.stat().st_size > size  # the tables moved from the WAL into the database file


class _Tapper(Bot):
    """A bot that never stops acting (always taps while it may)."""

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
        return next((a for a in legal if isinstance(a, fake.Tap)), None)

    def think_ms(self) -> int:
        return 0


async def test_a_bot_that_never_stops_is_held_after_a_streak(make_fake: MakeFake, vt: VirtualTime) -> None:
    from game.session.bots import MAX_BOT_STREAK

    s = make_fake(bot_factory=lambda game, kind, seat, seed: _Tapper(), bot_delay_scale=0.0)
    host(s, "set_seats", count=3)
    s.join_seat(s.table.seats[0].token, "Ann")
    s.join_seat(s.table.seats[2].token, "Bo")
    host(s, "set_bot", seat=1, kind="random")
    host(s, "start")
    start = s.version
    vt.advance(0)  # everything due now runs, the bot's next turns included
    assert s.version == start + MAX_BOT_STREAK
    s.submit_action(0, {"type": "pick", "value": 1}, s.version)  # someone else acts: the bot may again
    vt.advance(0)
    assert s.version == start + 1 + 2 * MAX_BOT_STREAK


@pytest.mark.parametrize("command", [{"command": "kick", "seat": 1}, {"command": "abort"},
                                     {"command": "set_language", "language": "th"}])
async def test_a_journal_failure_changes_nothing(make_fake: MakeFake, command: dict[str, Any]) -> None:
    from game.session.journal import JournalError

    s = make_fake(bot_delay_scale=1000.0)
    host(s, "set_seats", count=3)
    join_all(s)
    host(s, "start")
    s.set_connected(1, True)
    before = (s.table, s.run, s.version, s.is_connected(1), s.timer)
    s._journal.close()  # the disk went away
    with pytest.raises(JournalError):
        s.host_command(command)
    with pytest.raises(JournalError):
        s.submit_action(0, {"type": "pick", "value": 1}, s.version)
    assert (s.table, s.run, s.version, s.is_connected(1), s.timer) == before
