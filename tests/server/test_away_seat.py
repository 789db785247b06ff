"""Over the wire: a kiosk's seated phone that walked away, freed by the other phones' ``free_away``
once it has been away a minute; before that, or from the wrong phone, ``error not_away``."""
from __future__ import annotations

from typing import Any

from tabletop_wsphone import Table

from game.session.policy import AWAY_FREE_MS
from game.session.scheduler import VirtualTime
from game.session.snapshot import RunMode

MakeTable = Any


async def test_two_phones_free_the_seat_of_a_third_that_left(make_table: MakeTable) -> None:
    vt = VirtualTime()
    t: Table = await make_table(seats=3, time=vt, mode=RunMode.KIOSK)
    sara, _, _ = await t.seat(0, name="Sara")
    ali, _, _ = await t.seat(1, name="Ali")
    nok, _, _ = await t.seat(2, name="Nok")
    t.command("start")
    await sara.recv("state", lambda m: m["phase"] == "playing")
    await nok.ws.close()
    await sara.recv("state", lambda m: not m["lobby"]["seats"][2]["connected"])
    await sara.send("free_away", seat=2)
    assert (await sara.error())["code"] == "not_away"  # a moment away is not gone
    vt.advance(AWAY_FREE_MS)
    state = await ali.recv("state", lambda m: bool(m["lobby"]["away"]))
    assert state["lobby"]["away"] == [{"seat": 2, "since_ms": state["lobby"]["away"][0]["since_ms"], "agreed": [], "needed": 2}]
    await sara.send("free_away", seat=2)
    await ali.recv("state", lambda m: m["lobby"]["away"] and m["lobby"]["away"][0]["agreed"] == [0])
    await ali.send("free_away", seat="2")  # a seat is a number: refused, nothing counted
    assert (await ali.error())["code"] == "malformed"
    await ali.send("free_away", seat=2)
    freed = await sara.recv("state", lambda m: not m["lobby"]["away"])
    assert freed["lobby"]["seats"][2]["bot"] is not None and freed["phase"] == "playing"
