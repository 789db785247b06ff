"""Secrets: from each seat's socket, try to read or act for every other seat — nothing leaks,
nothing changes."""
from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from tabletop_wsphone import Phone, Table

MakeTable = Callable[..., Any]
N = 4


def _all_me(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        if isinstance(node.get("me"), dict):
            yield node["me"]
        for value in node.values():
            yield from _all_me(value)
    elif isinstance(node, list):
        for value in node:
            yield from _all_me(value)


async def _table(make_table: MakeTable) -> tuple[Table, list[Phone], Phone]:
    t = await make_table(seats=N)
    phones = [(await t.seat(i, name=f"P{i}"))[0] for i in range(N)]
    watcher = await t.connect()
    await watcher.send("hello", role="spectator")
    await watcher.recv("welcome")
    t.command("start")
    for p in (*phones, watcher):
        await p.recv("state", lambda m: m["phase"] == "playing")
    return t, phones, watcher


async def test_no_seat_can_act_for_another(make_table: MakeTable) -> None:
    t, phones, _ = await _table(make_table)
    s = t.session
    tokens = [r.token for r in s.table.offered]
    for i, phone in enumerate(phones):
        for j in range(N):
            if j == i:
                continue
            version, state = s.version, s.run.state
            attempts = [
                {"v": 1, "kind": "action", "action": {"type": "vote", "target": i}, "version": version, "seat": j},
                {"v": 1, "kind": "action", "action": {"type": "vote", "target": i, "seat": j}, "version": version},
                {"v": 1, "kind": "action", "action": {"type": "ambush", "seat": j}, "version": version},
                {"v": 1, "kind": "hello", "token": tokens[j]},
                {"v": 1, "kind": "set_name", "name": "hijack", "seat": j},
                {"v": 1, "kind": "set_lang", "lang": "fa", "token": tokens[j]},
            ]
            for attempt in attempts:
                await phone.send_raw(json.dumps(attempt))
                assert (await phone.error())["code"] == "malformed"
            assert s.run.state == state and s.version == version
            assert s.table.seats[j].name == f"P{j}" and s.table.seats[j].lang is None
    views = [s.run.engine.view(s.run.state, j)["me"] for j in range(N)]
    assert all(v["card"] is None for v in views)


async def test_each_seat_sees_only_its_own_secrets(make_table: MakeTable) -> None:
    t, phones, watcher = await _table(make_table)
    s = t.session
    # everybody votes (and one changes the card) so private cards exist
    for i in range(N):
        s.submit_action(i, {"type": "vote", "target": (i + 1) % N}, s.version)
    s.submit_action(2, {"type": "ambush"}, s.version)
    final = s.version
    public = (await watcher.recv("state", lambda m: m["version"] == final))["view"]
    for i, phone in enumerate(phones):
        state = await phone.recv("state", lambda m: m["version"] == final)
        me = state["view"]["me"]
        assert me["seat"] == i and me["gold"] == s.run.engine.view(s.run.state, i)["me"]["gold"]
        assert {k: v for k, v in state["view"].items() if k != "me"} == public  # the rest is public
        assert all(found["seat"] == i for m in phone.seen for found in _all_me(m))
    # no message to any phone or the spectator ever held another seat's token or code
    secrets_of = {r.seat: (r.token, r.code) for r in s.table.offered}
    for i, phone in enumerate(phones):
        text = "\n".join(phone.raw)
        for j, (token, code) in secrets_of.items():
            if j != i:
                assert token not in text and f'"{code}"' not in text
    watcher_text = "\n".join(watcher.raw)
    assert not any(tok in watcher_text or f'"{code}"' in watcher_text for tok, code in secrets_of.values())
    watcher_views = [m["view"] for m in watcher.seen if m["kind"] == "state" and m["view"]]
    assert watcher_views and all("me" not in view for view in watcher_views)


async def test_ambush_pick_only_for_the_seats_own_prompt(make_table: MakeTable) -> None:
    t, phones, _ = await _table(make_table)
    s = t.session
    # seats 1,2,3 vote for 0; 0 ambushes: 0 is the target, survives and must pick a victim (C10)
    s.submit_action(0, {"type": "ambush"}, s.version)
    for i in (1, 2, 3):
        s.submit_action(i, {"type": "vote", "target": 0}, s.version)
    for i in range(N):
        s.submit_action(i, {"type": "lock"}, s.version)
    assert s.run.engine.view(s.run.state, None)["phase"] == "ambush_choice"
    state, version = s.run.state, s.version
    for i in (1, 2, 3):
        await phones[i].send("action", action={"type": "ambush_pick", "victim": 1 if i != 1 else 2}, version=version)
        assert (await phones[i].error())["code"] == "not_your_turn"
    assert s.run.state == state
    await phones[0].send("action", action={"type": "ambush_pick", "victim": 2}, version=version)
    after = await phones[0].recv("state", lambda m: m["version"] > version)
    assert after["view"]["last_reveal"]["ambush_picks"][0]["victim"] == 2
