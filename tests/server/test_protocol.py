"""Every message kind and every error code of docs/protocol.md, over real sockets."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tabletop_wsphone import PIN, Table

MakeTable = Callable[..., Any]


async def test_seat_hello_welcome_and_state(make_table: MakeTable) -> None:
    t: Table = await make_table()
    phone, welcome, state = await t.seat(2, name="Sara", lang="fa", last_version=1)
    record = t.session.table.seats[2]
    assert welcome["v"] == 1 and welcome["role"] == "seat" and welcome["seat"] == 2
    assert (welcome["token"], welcome["code"], welcome["name"], welcome["lang"]) == (record.device, record.code, "Sara", "fa")
    assert welcome["colour"] == "#009E73" and welcome["symbol"] == "triangle" and welcome["colour_name"] == "green"
    assert welcome["table_lang"] == "en" and welcome["game"] == "collusion" and welcome["mode"] == "table"
    assert isinstance(welcome["server_ms"], int)
    assert state["phase"] == "lobby" and state["view"] is None and state["legal"] == [] and state["timer"] is None
    lobby_seat = state["lobby"]["seats"][2]
    assert lobby_seat["name"] == "Sara" and lobby_seat["connected"] is True and lobby_seat["status"] == "joined"
    assert "code" not in lobby_seat and "url" not in lobby_seat


async def test_set_name_and_set_lang(make_table: MakeTable) -> None:
    t = await make_table()
    phone, _, _ = await t.seat(0)
    await phone.send("set_name", name="  Nok ")
    state = await phone.recv("state", lambda m: m["lobby"]["seats"][0]["name"] == "Nok")
    await phone.send("set_lang", lang="th")
    state = await phone.recv("state", lambda m: m["lobby"]["seats"][0]["lang"] == "th")
    assert t.session.table.seats[0].lang == "th" and state["lobby"]["language"] == "en"


async def test_ping_pong(make_table: MakeTable) -> None:
    t = await make_table()
    phone = await t.connect()
    await phone.send("hello", role="spectator")
    await phone.recv("welcome")
    await phone.send("ping", t=1234.5)
    pong = await phone.recv("pong")
    assert pong["t"] == 1234.5 and isinstance(pong["server_ms"], int)


async def test_host_link_runs_the_lobby_and_starts(make_table: MakeTable) -> None:
    t = await make_table()
    host = await t.host()
    await host.send("host", command="set_seats", args={"count": 3})
    state = await host.recv("state", lambda m: m["lobby"]["seat_count"] == 3)
    assert all("code" in s and s["url"].startswith("http") for s in state["lobby"]["seats"])
    await host.send("host", command="set_preset", args={"preset": "rod_ruang"})
    await host.send("host", command="set_setting", args={"name": "conspiracy_ms", "value": 120_000})
    await host.send("host", command="set_language", args={"language": "fa"})
    await host.send("host", command="fill_bots", args={"kind": "random"})
    await host.send("host", command="start")
    state = await host.recv("state", lambda m: m["phase"] == "playing")
    assert state["lobby"]["preset"] == "rod_ruang" and state["lobby"]["settings"]["conspiracy_ms"] == 120_000
    assert state["view"]["phase"] == "vote" and "me" not in state["view"] and state["legal"] == []
    assert state["timer"]["label"] == "conspiracy" and 0 < state["timer"]["remaining_ms"] <= 120_000
    assert (await host.recv("notice"))["code"] == "game_started"
    await host.send("host", command="abort")
    assert (await host.recv("notice", lambda m: m["code"] == "table_reset"))
    assert t.session.phase.value == "lobby"


async def test_action_flow_and_acknowledgement_by_state(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phones = [(await t.seat(i))[0] for i in range(3)]
    t.command("start")
    states = [await p.recv("state", lambda m: m["phase"] == "playing") for p in phones]
    mine = states[0]
    assert {"type": "vote", "target": 1} in mine["legal"] and {"type": "vote", "target": 0} not in mine["legal"]
    await phones[0].send("action", action={"type": "vote", "target": 1}, version=mine["version"], id="a1")
    after = await phones[0].recv("state", lambda m: m["version"] > mine["version"])
    assert after["view"]["me"]["card"] == {"card": "target", "target": 1}
    assert after["events"] == [{"type": "vote_cast", "seat": 0}]
    other = await phones[1].recv("state", lambda m: m["version"] == after["version"])
    assert other["view"]["seats"][0]["card_down"] is True and other["view"]["me"]["card"] is None


@pytest.mark.parametrize("action,version_delta,code", [
    ({"type": "vote", "target": 0}, 0, "illegal_action"),   # own colour (C1)
    ({"type": "vote", "target": "1"}, 0, "malformed"),
    ({"type": "fly"}, 0, "malformed"),
    ({"type": "lock"}, 0, "illegal_action"),                # nothing down yet
    ({"type": "vote", "target": 1}, 5, "stale_state"),      # a version from the future
    ({"type": "vote", "target": 9}, 0, "illegal_action"),
])
async def test_action_errors_change_nothing(make_table: MakeTable, action: dict[str, Any], version_delta: int,
                                            code: str) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0)
    t.command("fill_bots", kind="random")
    t.command("start")
    state = await phone.recv("state", lambda m: m["phase"] == "playing")
    before = t.session.run.state
    await phone.send("action", action=action, version=state["version"] + version_delta, id=7)
    error = await phone.error()
    assert error["code"] == code and error["id"] == 7 and error["message"]
    assert t.session.run.state == before and t.session.version == state["version"]
    if code == "stale_state":
        assert (await phone.state())["version"] == state["version"]  # the server re-sends the state


async def test_stale_state_after_the_vote_moved_on(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phones = [(await t.seat(i))[0] for i in range(3)]
    t.command("start")
    first = await phones[0].recv("state", lambda m: m["phase"] == "playing")
    # everyone votes for seat 0 and locks: the reveal kills seat 0 ... and a new vote starts
    for i, target in ((0, 1), (1, 0), (2, 0)):
        s = t.session
        s.submit_action(i, {"type": "vote", "target": target}, s.version)
        s.submit_action(i, {"type": "lock"}, s.version)
    assert t.session.run.state != first  # moved on
    await phones[0].send("action", action={"type": "ambush"}, version=first["version"])
    assert (await phones[0].error())["code"] == "stale_state"  # a new step began since that state


async def test_a_seat_may_change_its_mind_twice_on_the_same_state(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phones = [(await t.seat(i))[0] for i in range(3)]
    t.command("start")
    state = await phones[0].recv("state", lambda m: m["phase"] == "playing")
    await phones[1].send("action", action={"type": "vote", "target": 2}, version=state["version"])
    await phones[0].send("action", action={"type": "vote", "target": 1}, version=state["version"])
    await phones[0].send("action", action={"type": "vote", "target": 2}, version=state["version"])
    await phones[0].send("action", action={"type": "ambush"}, version=state["version"])
    final = await phones[0].recv("state", lambda m: m["view"]["me"]["card"] == {"card": "ambush", "target": None})
    assert final["version"] == state["version"] + 4
    assert not [m for m in phones[0].seen if m["kind"] == "error"]


async def test_not_your_turn(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phones = [(await t.seat(i))[0] for i in range(3)]
    t.command("start")
    s = t.session
    # seats 1 and 2 vote for 0, seat 0 votes for 1: seat 0 is the target and dies (C10); 1 and 2 go
    # to the Final Showdown (C15), where seat 0 has nothing to do
    for i, target in ((0, 1), (1, 0), (2, 0)):
        s.submit_action(i, {"type": "vote", "target": target}, s.version)
        s.submit_action(i, {"type": "lock"}, s.version)
    state = await phones[0].recv("state", lambda m: m["version"] == s.version)
    assert state["view"]["phase"] == "showdown" and state["legal"] == []
    await phones[0].send("action", action={"type": "ambush"}, version=state["version"])
    assert (await phones[0].error())["code"] == "not_your_turn"
    assert s.version == state["version"]


async def test_game_over(make_table: MakeTable) -> None:
    t = await make_table(seats=3, bot_delay_scale=0.0)
    watcher = await t.connect()
    await watcher.send("hello", role="spectator")
    t.command("set_setting", name="target_score", value=6)
    t.command("fill_bots", kind="heuristic")
    t.command("start")
    await watcher.recv("notice", lambda m: m["code"] == "game_finished")
    phone, _, state = await t.claimed(0, name="Late")  # a late player gets the bot's seat from the host
    assert state["phase"] == "finished"
    await phone.send("action", action={"type": "ambush"}, version=state["version"])
    assert (await phone.error())["code"] == "game_over"


async def test_lobby_action_is_illegal_and_host_commands_are_forbidden_for_seats(make_table: MakeTable) -> None:
    t = await make_table()
    phone, _, state = await t.seat(0)
    await phone.send("action", action={"type": "ambush"}, version=state["version"])
    assert (await phone.error())["code"] == "illegal_action"
    await phone.send("host", command="start")
    assert (await phone.error())["code"] == "forbidden"
    assert t.session.phase.value == "lobby"


async def test_spectator_cannot_act_or_rename(make_table: MakeTable) -> None:
    t = await make_table()
    phone = await t.connect()
    await phone.send("hello", role="spectator")
    welcome = await phone.recv("welcome")
    assert welcome["seat"] is None and welcome["token"] is None
    for kind, fields in (("action", {"action": {"type": "ambush"}, "version": 1}), ("set_name", {"name": "x"}),
                         ("set_lang", {"lang": "fa"}), ("host", {"command": "start"})):
        await phone.send(kind, **fields)
        assert (await phone.error())["code"] == "forbidden"


async def test_bad_host_values(make_table: MakeTable) -> None:
    t = await make_table()
    host = await t.host()
    for fields, code in (({"command": "set_seats", "count": 40}, "bad_settings"),
                         ({"command": "set_bot", "seat": 11, "kind": "random"}, "unknown_seat"),
                         ({"command": "next"}, "illegal_action"),
                         ({"command": "set_setting", "name": "conspiracy_ms", "value": 5}, "bad_settings")):
        before = t.session.table
        await host.send("host", command=fields.pop("command"), args=fields)
        assert (await host.error())["code"] == code
        assert t.session.table == before


async def test_unknown_seat_and_bad_pin(make_table: MakeTable) -> None:
    t = await make_table()
    phone = await t.connect()
    await phone.send("hello", token="x" * 24)
    assert (await phone.error())["code"] == "unknown_seat"
    assert await phone.closed() == 4003
    host = await t.connect()
    for _ in range(3):
        await host.send("hello", role="host", pin="0000")
        assert (await host.error())["code"] == "bad_pin"
    assert await host.closed() == 4003


async def test_host_pin_right_after_a_wrong_one(make_table: MakeTable) -> None:
    t = await make_table()
    host = await t.connect()
    await host.send("hello", role="host", pin="1111")
    assert (await host.error())["code"] == "bad_pin"
    await host.send("hello", role="host", pin=PIN)
    assert (await host.recv("welcome"))["role"] == "host"


async def test_kick_notice_and_close(make_table: MakeTable) -> None:
    t = await make_table()
    phone, _, _ = await t.seat(1)
    host = await t.host()
    await host.send("host", command="kick", args={"seat": 1})
    notice = await phone.recv("notice")
    assert notice["code"] == "kicked"
    assert await phone.closed() == 4004
    assert t.session.table.seats[1].status.value == "free"


async def test_new_table_notice_for_a_phone_from_an_older_table(make_table: MakeTable) -> None:
    t = await make_table()
    phone = await t.connect()
    await phone.send("hello", token=t.session.table.seats[0].token, last_version=10_000)
    await phone.recv("welcome")
    assert (await phone.recv("notice"))["code"] == "new_table"


async def test_game_finished_notice_with_bots(make_table: MakeTable) -> None:
    t = await make_table(seats=3, bot_delay_scale=0.0)
    watcher = await t.connect()
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    t.command("set_setting", name="target_score", value=6)
    t.command("fill_bots", kind="heuristic")
    t.command("start")
    notice = await watcher.recv("notice", lambda m: m["code"] == "game_finished")
    assert notice and t.session.phase.value == "finished"
    last = [m for m in watcher.seen if m["kind"] == "state"][-1]
    assert last["phase"] == "finished" and last["view"]["winners"]


async def test_journal_failure_is_a_server_error_and_changes_nothing(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0)
    t.command("fill_bots", kind="random")
    t.command("start")
    state = await phone.recv("state", lambda m: m["phase"] == "playing")
    before = t.session.run.state
    t.journal.close()  # the disk went away
    await phone.send("action", action={"type": "ambush"}, version=state["version"], id="x")
    error = await phone.error()
    assert error["code"] == "server_error" and error["id"] == "x"
    assert t.session.run.state == before and t.session.version == state["version"]


async def test_wrong_pins_are_limited_per_address(make_table: MakeTable) -> None:
    t = await make_table()
    for pins in (["1", "2", "3"], ["4", "5"]):
        host = await t.connect()
        for pin in pins:
            await host.send("hello", role="host", pin=pin)
            assert (await host.error())["code"] == "bad_pin"
        if len(pins) == 3:
            assert await host.closed() == 4003
    late = await t.connect()
    await late.send("hello", role="host", pin=PIN)  # even the right PIN waits now
    error = await late.error()
    assert error["code"] == "bad_pin" and "wait" in error["message"]
    assert await late.closed() == 4003
