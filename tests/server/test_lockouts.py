"""Guessing is hopeless and lockouts are narrow. Wrong PINs back off per address
and, table-wide, only for addresses that guessed wrong themselves; wrong codes back off per
address but a free seat's code always works; unknown seat links back off per address but a
seated phone's own key always works. The clock is injected: no test waits for real time."""
from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tabletop_wsphone import PIN, Table

from game.config import TableConfig
from game.server.app import JOIN_FAILURES_PER_MINUTE
from game.server.hub import TOKEN_FREE_FAILURES
from game.session.session import ADMIN_PIN_DIGITS, Session

MakeTable = Callable[..., Any]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


async def wrong_pins(t: Table, address: str, count: int) -> None:
    for i in range(count):
        host = await t.connect(address)
        await host.send("hello", role="host", pin=f"9{i:05d}")
        assert (await host.error())["code"] == "bad_pin"
        await host.ws.close()


async def host_hello(t: Table, address: str, pin: str = PIN) -> dict[str, Any]:
    host = await t.connect(address)
    await host.send("hello", role="host", pin=pin)
    while True:  # the welcome, or the error that refuses it
        message = await host._next()
        if message["kind"] in ("welcome", "error"):
            return message


async def test_a_fresh_table_has_a_six_digit_pin(tmp_path: Path) -> None:
    session = Session.boot(TableConfig(data_dir=tmp_path), None, None)
    assert len(session.table.admin_pin) == ADMIN_PIN_DIGITS == 6 and session.table.admin_pin.isdigit()
    session.close()


async def test_wrong_pins_back_off_per_address_and_a_neighbour_still_gets_in(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    await wrong_pins(t, "10.0.0.66", 5)
    refused = await host_hello(t, "10.0.0.66")  # the guesser: even the right PIN waits now
    assert refused["code"] == "bad_pin" and "wait 1 s" in refused["message"]
    assert (await host_hello(t, "10.0.0.7"))["kind"] == "welcome"  # the host's own phone: not held back
    clock.now += 1.0
    await wrong_pins(t, "10.0.0.66", 1)
    assert "wait 2 s" in (await host_hello(t, "10.0.0.66"))["message"]  # each wrong guess doubles the wait
    clock.now += 2.0
    assert (await host_hello(t, "10.0.0.66"))["kind"] == "welcome"


async def test_a_table_wide_attack_holds_back_only_addresses_that_guessed_wrong(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    for n in range(21):  # many devices, two wrong guesses each: the PIN itself is under attack
        await wrong_pins(t, f"10.0.1.{n}", 2)
    assert (await host_hello(t, "10.0.1.3"))["code"] == "bad_pin"  # a guesser waits even with the right PIN
    assert (await host_hello(t, "10.0.0.7"))["kind"] == "welcome"  # a device that never guessed wrong gets in


async def test_during_an_attack_a_host_who_mistypes_once_still_gets_in(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    for n in range(30):
        await wrong_pins(t, f"10.0.1.{n}", 2)
    await wrong_pins(t, "10.0.0.7", 1)  # the host's slip
    assert (await host_hello(t, "10.0.0.7"))["kind"] == "welcome"


async def staff_hello(t: Table, address: str, key: str, pin: str = PIN) -> dict[str, Any]:
    host = await t.connect(address)
    await host.send("hello", role="host", pin=pin, token=key)
    while True:
        message = await host._next()
        if message["kind"] in ("welcome", "error"):
            await host.ws.close()
            return message


async def test_a_staff_phone_is_judged_by_its_own_wrong_pins_never_by_others(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    key = (await host_hello(t, "10.0.0.7"))["staff_key"]  # a right PIN once: this console's staff key
    assert isinstance(key, str) and len(key) >= 24
    for n in range(30):  # the attack, from the staff phone's own address among others
        await wrong_pins(t, f"10.0.1.{n}", 3)
    await wrong_pins(t, "10.0.0.7", 3)
    for _ in range(3):  # the staff phone mistypes (from an address the attack has locked)
        assert (await staff_hello(t, "10.0.0.7", key, pin="000000"))["code"] == "bad_pin"
    welcome = await staff_hello(t, "10.0.0.7", key)
    assert welcome["kind"] == "welcome" and welcome["staff_key"] == key
    assert (await staff_hello(t, "10.0.2.9", key))["kind"] == "welcome"  # a new address: the same device
    assert (await staff_hello(t, "10.0.1.4", "forged-" + key[7:]))["code"] == "bad_pin"  # an unknown key is no key


async def test_a_staff_phone_that_keeps_guessing_waits_on_its_own_backoff(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    key = (await host_hello(t, "10.0.0.7"))["staff_key"]
    for _ in range(5):
        assert (await staff_hello(t, "10.0.0.7", key, pin="000000"))["message"] == "wrong PIN"
    refused = await staff_hello(t, "10.0.0.7", key)
    assert refused["code"] == "bad_pin" and "wait 1 s" in refused["message"]
    assert (await host_hello(t, "10.0.0.8"))["kind"] == "welcome"  # another console is not held back by it
    clock.now += 1.0
    assert (await staff_hello(t, "10.0.0.7", key))["kind"] == "welcome"


async def test_wrong_codes_never_lock_out_a_free_seat(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    codes = t.session.table.codes()
    wrong = [a + b + c + d for a in "ACD" for b in "EFH" for c in "JKM" for d in "NPR" if a + b + c + d not in codes]
    guesser = {"X-Test-Address": "10.0.0.66"}
    for code in wrong[:JOIN_FAILURES_PER_MINUTE]:
        assert (await t.client.get(f"/api/join/{code}", headers=guesser)).status == 404
    assert (await t.client.get(f"/api/join/{wrong[-1]}", headers=guesser)).status == 429
    free = await t.client.get(f"/api/join/{t.session.table.seats[1].code}", headers=guesser)
    assert free.status == 200  # the TV shows free codes to everyone: the guesser's own phone can still join
    await t.seat(0, name="Ali")
    held = await t.client.get(f"/api/join/{t.session.table.seats[0].code}", headers=guesser)
    assert held.status == 429  # a held seat's code (it asks the host) waits
    neighbour = await t.client.get(f"/api/join/{t.session.table.seats[0].code}", headers={"X-Test-Address": "10.0.0.7"})
    assert neighbour.status == 200
    clock.now += 1.0
    assert (await t.client.get(f"/api/join/{wrong[-1]}", headers=guesser)).status == 404


async def test_wrong_token_hellos_back_off_but_a_seated_phone_always_returns(make_table: MakeTable) -> None:
    clock = Clock()
    t = await make_table(server={"clock": clock})
    ali, _, _ = await t.seat(0, name="Ali")
    await ali.ws.close()
    for i in range(TOKEN_FREE_FAILURES):
        phone = await t.connect()
        await phone.send("hello", token=f"guess{i:020d}")
        assert (await phone.error())["code"] == "unknown_seat"
    phone = await t.connect()
    await phone.send("hello", token="guess-one-more-00000000")
    error = await phone.error()
    assert error["code"] == "rate_limited" and await phone.closed() == 4003
    back, welcome, _ = await t.seat(0)  # Ali's phone from the same address: its own key is never held back
    assert welcome["name"] == "Ali"
    fresh, welcome, _ = await t.seat(1)  # a free seat's link too
    assert welcome["seat"] == 1


async def test_the_host_consoles_wrong_pins_and_openings_leave_one_audit_line_each_with_the_address(
        make_table: MakeTable, caplog: pytest.LogCaptureFixture) -> None:
    t = await make_table(server={"clock": Clock()})
    with caplog.at_level(logging.INFO, "game.audit"):
        await wrong_pins(t, "10.0.0.66", 1)
        assert (await host_hello(t, "10.0.0.7"))["kind"] == "welcome"
    assert [r.getMessage() for r in caplog.records if r.name == "game.audit"] == [
        "wrong admin PIN from 10.0.0.66 on the host console", "host console opened from 10.0.0.7 with the PIN"]
    assert PIN not in caplog.text and "900000" not in caplog.text
