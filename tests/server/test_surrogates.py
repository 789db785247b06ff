"""A lone UTF-16 surrogate anywhere in a message (token, PIN, id, field name,
kind, name, an action's text) is answered as ``malformed`` and logged once: never a dropped
socket, never a traceback, and the socket keeps working."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

MakeTable = Callable[..., Any]
S = "\\ud800"  # as it travels: a JSON escape of a lone high surrogate

BAD = [
    f'{{"v": 1, "kind": "hello", "token": "{S}"}}',
    f'{{"v": 1, "kind": "hello", "role": "host", "pin": "12{S}"}}',
    f'{{"v": 1, "kind": "hello", "role": "spectator", "id": "{S}"}}',
    f'{{"v": 1, "kind": "hello", "role": "spectator", "{S}": 1}}',
    f'{{"v": 1, "kind": "{S}"}}',
    f'{{"v": 1, "kind": "hello", "role": "{S}x"}}',
    f'{{"v": 1, "kind": "hello", "token": "ok", "name": "Ali{S}"}}',
    f'{{"v": 1, "kind": "ping", "t": 1, "id": "a{S}b"}}',
]


@pytest.mark.parametrize("text", BAD)
async def test_a_lone_surrogate_is_malformed_and_the_socket_lives(make_table: MakeTable, text: str,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    t = await make_table(seats=3)
    phone = await t.connect()
    with caplog.at_level(logging.INFO):
        await phone.send_raw(text)
        error = await phone.error()
        assert error["code"] == "malformed" and "id" not in error
        await phone.send_raw(text)  # again: answered again, logged once
        assert (await phone.error())["code"] == "malformed"
    await phone.send("hello", role="spectator")
    assert (await phone.recv("welcome"))["role"] == "spectator"  # the socket still works
    assert not [r for r in caplog.records if r.exc_info]  # no traceback
    assert len([r for r in caplog.records if "surrogate" in r.getMessage()]) == 1


async def test_a_seated_phones_surrogates_in_actions_and_names(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, state = await t.seat(0, name="Ali")
    for text in (f'{{"v": 1, "kind": "set_name", "name": "{S}"}}',
                 f'{{"v": 1, "kind": "action", "action": {{"type": "{S}"}}, "version": {state["version"]}}}',
                 f'{{"v": 1, "kind": "host", "command": "{S}"}}'):
        await phone.send_raw(text)
        assert (await phone.error())["code"] == "malformed"
    assert t.session.table.seats[0].name == "Ali"


def test_secrets_with_surrogates_never_match_and_never_raise(make_table: MakeTable) -> None:
    from game.session.seats import fresh_seats
    from game.session.table import TableRecord

    table = TableRecord("collusion", None, {}, "en", 3, fresh_seats(), admin_pin="123456")
    assert table.seat_by_token("\ud800") is None and table.seat_by_device("a\udfff") is None


def test_encode_never_raises_on_text_that_is_not_unicode() -> None:
    from game.server.protocol import encode

    assert encode({"m": "x\ud800"}) == b'{"m":"x?"}'
