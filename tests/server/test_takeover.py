"""Who may hold a seat: a seat's own phone (its device key) returns
silently; its link or code on another phone only asks the host, who allows (the seat moves, its
link, code and key rotate, the old phone is told) or refuses; a bot's seat needs a name."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

MakeTable = Callable[..., Any]


async def test_the_seats_own_phone_returns_silently_and_a_second_tab_steps_it_aside(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    first, _, _ = await t.seat(1, name="Ann")
    second, welcome, state = await t.seat(1)  # the same device key (a second tab of the same phone)
    error = await first.error()
    assert error["code"] == "taken_over"
    assert await first.closed() == 4001
    assert welcome["seat"] == 1 and welcome["name"] == "Ann"
    assert t.session.is_connected(1)  # the first socket's close does not mark the seat offline
    await second.send("set_name", name="Ann B")
    await second.recv("state", lambda m: m["lobby"]["seats"][1]["name"] == "Ann B")


async def test_first_join_gives_the_phone_a_device_key_that_is_not_the_link(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    link = t.session.table.seats[0].token
    _, welcome, _ = await t.seat(0, name="Ali")
    record = t.session.table.seats[0]
    assert welcome["token"] == record.device and record.device != link and record.joined


async def test_a_held_seats_link_on_a_new_phone_asks_the_host_and_shows_nothing(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    ali, _, _ = await t.seat(0, name="Ali")
    t.command("fill_bots", kind="random")
    t.command("start")
    await ali.recv("state", lambda m: m["phase"] == "playing")
    thief, claim = await t.ask(0)
    assert claim["state"] == "waiting" and claim["seat"]["name"] == "Ali" and claim["seat"]["seat"] == 0
    assert not [m for m in thief.seen if m["kind"] in ("welcome", "state")]  # no view, no secret vote
    await thief.send("action", action={"type": "vote", "target": 2}, version=t.session.version)
    assert (await thief.error())["code"] == "malformed"  # not seated: nothing it says is an action
    host = await t.host()
    request = [m for m in host.seen if m["kind"] == "state"][-1]
    assert request["lobby"]["claims"] == [{"id": t.session.claims[0].id, "seat": 0, "name": "", "seat_name": "Ali", "bot": False, "others": 0}]
    assert t.session.snapshot.claims[0].seat_name == "Ali"  # the TV draws the prompt
    await host.send("host", command="claim", args={"id": t.session.claims[0].id, "allow": False})
    assert (await thief.error())["code"] == "claim_refused"
    assert await thief.closed() == 4003
    assert t.session.claims == () and t.session.table.seats[0].device  # Ali keeps the seat
    await ali.send("ping", t=1)
    assert (await ali.recv("pong"))["t"] == 1


async def test_the_host_hands_a_dead_phones_seat_to_a_new_phone_and_everything_rotates(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    ali, _, _ = await t.seat(0, name="Ali")
    old = t.session.table.seats[0]
    new_phone, welcome, state = await t.claimed(0)  # one tap by the host
    notice = await ali.recv("notice")
    assert notice["code"] == "seat_moved" and await ali.closed() == 4001
    record = t.session.table.seats[0]
    assert (record.token, record.code, record.device) != (old.token, old.code, old.device)
    assert len({record.token, old.token, record.device, old.device}) == 4 and record.code != old.code
    assert welcome["seat"] == 0 and welcome["token"] == record.device and welcome["name"] == "Ali"
    assert state["lobby"]["seats"][0]["connected"] is True
    stale = await t.connect()  # the old phone's key and the old link are both dead
    await stale.send("hello", token=old.device)
    assert (await stale.error())["code"] == "unknown_seat"
    again = await t.connect()
    await again.send("hello", token=old.token)
    assert (await again.error())["code"] == "unknown_seat"


async def test_the_tv_shows_codes_and_links_only_for_free_seats(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    await t.seat(0, name="Ali")
    t.command("set_bot", seat=1, kind="random")
    seats = {s.seat: s for s in t.session.snapshot.seats}
    assert (seats[0].code, seats[0].url) == ("", "") and (seats[1].code, seats[1].url) == ("", "")
    assert seats[2].code == t.session.table.seats[2].code and seats[2].url.endswith(t.session.table.seats[2].token)


async def test_a_code_claims_only_a_free_seat(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    free_code = t.session.table.seats[1].code
    res = await t.client.get(f"/api/join/{free_code}")
    assert (await res.json())["url"] == f"/s/{t.session.table.seats[1].token}"
    await t.seat(0, name="Ali")
    held = await t.client.get(f"/api/join/{t.session.table.seats[0].code}")
    body = await held.json()
    assert body["held"] is True  # the phone says "ask the host"; its hello only asks
    phone = await t.connect()
    await phone.send("hello", token=body["url"].removeprefix("/s/"))
    assert (await phone.recv("claim"))["state"] == "waiting"


async def test_the_asking_phone_leaving_clears_the_request(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    await t.seat(0, name="Ali")
    asker, _ = await t.ask(0)
    assert len(t.session.claims) == 1
    host = await t.host()
    await asker.ws.close()
    await host.recv("state", lambda m: m["lobby"]["claims"] == [])
    assert t.session.claims == ()


async def test_a_bot_seats_link_without_a_name_never_unseats_the_bot(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    t.command("fill_bots", kind="random")
    t.command("start")
    phone, claim = await t.ask(1)
    assert claim["state"] == "name_needed" and claim["seat"]["bot"] == "random"
    assert t.session.table.seats[1].bot is not None and not t.session.table.seats[1].joined
    await phone.send("hello", token=t.session.table.seats[1].token, name="Sara")
    waiting = await phone.recv("claim")
    assert waiting["state"] == "waiting" and t.session.table.seats[1].bot is not None  # the host decides
    t.command("claim", id=t.session.claims[0].id, allow=True)
    welcome = await phone.recv("welcome")
    assert welcome["name"] == "Sara" and t.session.table.seats[1].bot is None and t.session.table.seats[1].joined


async def test_in_the_lobby_a_named_join_takes_a_bot_seat(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    t.command("set_bot", seat=2, kind="random")
    _, claim = await t.ask(2)
    assert claim["state"] == "name_needed" and t.session.table.seats[2].bot is not None
    phone, welcome, _ = await t.seat(2, name="Nok")
    assert welcome["name"] == "Nok" and t.session.table.seats[2].bot is None


async def test_reconnect_keeps_the_seats_secrets(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0)
    t.command("fill_bots", kind="random")
    t.command("start")
    state = await phone.recv("state", lambda m: m["phase"] == "playing")
    await phone.send("action", action={"type": "vote", "target": 2}, version=state["version"])
    await phone.recv("state", lambda m: m["view"]["me"]["card"] is not None)
    await phone.ws.close()
    again, welcome, state = await t.seat(0, last_version=state["version"])
    assert welcome["seat"] == 0 and state["view"]["me"]["card"] == {"card": "target", "target": 2}
    assert not [m for m in await again.quiet(0.1) if m["kind"] == "notice" and m["code"] == "new_table"]


async def test_closing_the_only_socket_marks_the_seat_offline(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0)
    watcher = await t.connect()
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    assert t.session.is_connected(0)
    await phone.ws.close()
    state = await watcher.recv("state", lambda m: m["lobby"]["seats"][0]["connected"] is False)
    assert state["lobby"]["seats"][0]["status"] == "joined" and not t.session.is_connected(0)


async def test_the_join_page_lists_held_seats_whose_phone_is_away(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    ali, _, _ = await t.seat(0, name="Ali")
    await t.seat(1, name="Sara")
    t.command("set_bot", seat=2, kind="random")
    await ali.ws.close()
    for _ in range(100):
        if not t.session.is_connected(0):
            break
        await ali.quiet(0.01)
    body = await (await t.client.get("/api/away")).json()
    assert [(s["seat"], s["name"]) for s in body["seats"]] == [(0, "Ali")]  # not Sara (online), not the bot
    phone = await t.connect()
    await phone.send("hello", token=body["seats"][0]["url"].removeprefix("/s/"))
    assert (await phone.recv("claim"))["state"] == "waiting"  # the listed link only asks the host


async def test_the_seated_phone_may_give_its_seat_itself(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    old, _, _ = await t.seat(0, name="Ali")
    new, _ = await t.ask(0, name="Ali")
    asked = await old.recv("claim")
    assert asked["state"] == "asked" and asked["name"] == "Ali"
    stranger, _, _ = await t.seat(1, name="Sara")
    await stranger.send("give_seat", claim=asked["claim"])
    assert (await stranger.error())["code"] == "illegal_action"  # only the seat's own phone can give it
    await old.send("give_seat", claim=asked["claim"])
    # the old phone is told it gave the seat itself (not that the host did)
    assert (await old.recv("notice"))["code"] == "seat_given" and await old.closed() == 4001
    welcome = await new.recv("welcome")
    assert welcome["seat"] == 0 and welcome["token"] == t.session.table.seats[0].device


async def test_the_seated_phones_card_goes_when_the_request_ends(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    old, _, _ = await t.seat(0, name="Ali")
    asker, _ = await t.ask(0)
    claim = (await old.recv("claim"))["claim"]
    await asker.ws.close()
    closed = await old.recv("claim")
    assert closed["state"] == "closed" and closed["claim"] == claim
