"""Kiosk hand-over between groups: every seat link and code is replaced, the old group's phones are
told kindly and closed, and their old links show nothing of the next group's table."""
from __future__ import annotations

from typing import Any

from tabletop_wsphone import Table

from game.server.protocol import CloseCode
from game.session.snapshot import RunMode, SeatStatus, TablePhase

MakeTable = Any


async def test_hand_over_rotates_every_token_and_code_and_tells_the_old_phones(make_table: MakeTable) -> None:
    t: Table = await make_table(mode=RunMode.KIOSK)
    sara, _, _ = await t.seat(0, name="Sara")
    ali, _, _ = await t.seat(1, name="Ali")
    host = await t.host()
    t.command("start")
    await sara.state()
    before = t.session.table.seats
    t.session.hand_over()
    for phone in (sara, ali):
        notice = await phone.recv("notice", lambda m: m["code"] == "new_group")
        assert "new game" in notice["message"]
        assert await phone.closed() == CloseCode.NEW_GROUP
    after = t.session.table.seats
    assert all(a.token != b.token and a.code != b.code for a, b in zip(after, before))  # all 12 seats
    assert not {a.token for a in after} & {b.token for b in before}
    assert not {a.code for a in after} & {b.code for b in before}
    assert t.session.phase is TablePhase.LOBBY and t.session.run is None
    assert all(s.status is SeatStatus.FREE and s.name == "" for s in t.session.snapshot.seats)
    state = await host.recv("state", lambda m: m["phase"] == "lobby")  # staff keep the host link
    assert [s["name"] for s in state["lobby"]["seats"]] == ["", "", "", ""] and state["view"] is None


async def test_the_old_phones_get_no_frame_of_the_next_groups_table(make_table: MakeTable) -> None:
    t: Table = await make_table(mode=RunMode.KIOSK)
    sara, _, _ = await t.seat(0, name="Sara")
    ali, _, _ = await t.seat(1, name="Ali")
    t.command("start")
    await sara.state()
    await ali.state()
    seen = {id(p): len(p.seen) for p in (sara, ali)}
    t.session.hand_over()
    for phone in (sara, ali):
        assert await phone.closed() == CloseCode.NEW_GROUP
        after = phone.seen[seen[id(phone)]:]
        assert after[-1]["kind"] == "notice" and after[-1]["code"] == "new_group"  # told kindly ...
        assert [m for m in after if m["kind"] == "state" and m["phase"] != "playing"] == []  # ... and nothing of the new lobby
    assert t.session.phase is TablePhase.LOBBY


async def test_an_old_link_gets_a_clear_message_and_no_state(make_table: MakeTable) -> None:
    t: Table = await make_table(mode=RunMode.KIOSK)
    old = t.session.table.seats[2]
    sara, _, _ = await t.seat(2, name="Sara")
    t.session.hand_over()
    await sara.closed()
    t.session.join_seat(t.session.table.seats[2].token, "Mina")  # the next group takes the seat
    again = await t.connect()
    await again.send("hello", token=old.token, name="Sara")
    error = await again.error()
    assert error["code"] == "new_group" and "new game" in error["message"]
    assert await again.closed() == CloseCode.NEW_GROUP
    assert all(m["kind"] == "error" for m in again.seen)  # no welcome, no state, no names
    assert "Mina" not in "".join(again.raw)
    response = await t.client.get(f"/api/join/{old.code}")
    assert response.status == 404  # the old typed code leads nowhere


async def test_a_stranger_link_is_still_just_refused(make_table: MakeTable) -> None:
    t: Table = await make_table(mode=RunMode.KIOSK)
    t.session.hand_over()
    phone = await t.connect()
    await phone.send("hello", token="x" * 24)
    assert (await phone.error())["code"] == "unknown_seat"
    assert await phone.closed() == CloseCode.REFUSED


async def test_a_phone_can_skip_the_how_to_play_but_send_no_other_host_command(make_table: MakeTable) -> None:
    t: Table = await make_table(mode=RunMode.KIOSK)
    t.command("set_setting", name="how_to_play", value=True)
    sara, _, _ = await t.seat(0, name="Sara")
    t.command("start")
    state = await sara.recv("state", lambda m: m["lobby"].get("how_to_play") is True)
    assert state["phase"] == "lobby"
    await sara.send("host", command="abort", args={})
    assert (await sara.error())["code"] == "forbidden"
    await sara.send("host", command="skip_intro", args={})
    await sara.recv("state", lambda m: m["phase"] == "playing")
    assert t.session.phase is TablePhase.PLAYING


async def test_a_phone_waiting_for_a_seat_at_the_hand_over_is_let_go_and_hears_of_the_new_game(make_table: MakeTable) -> None:
    t: Table = await make_table(mode=RunMode.KIOSK)
    old = t.session.table.seats[0]
    await t.seat(0, name="Sara")
    waiting, claim = await t.ask(0, name="Sam")
    assert claim["state"] == "waiting" and len(t.session.claims) == 1
    t.session.hand_over()
    assert t.session.claims == () and t.session.snapshot.claims == ()  # the next group's seat is never given to it
    assert await waiting.closed() == CloseCode.POLICY  # it asks again by itself ...
    again = await t.connect()
    await again.send("hello", token=old.token, name="Sam")
    assert (await again.error())["code"] == "new_group"  # ... and hears that the table has a new game
