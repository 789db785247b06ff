"""A frame over the hard limit closes the socket with 1009 (as docs/protocol.md
says) whatever its size, and a ``too_large`` error echoes the message's id."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

MakeTable = Callable[..., Any]


@pytest.mark.parametrize("size", [70 * 1024, 1024 * 1024, 4 * 1024 * 1024])
async def test_frames_over_the_hard_limit_close_with_1009(make_table: MakeTable, size: int) -> None:
    t = await make_table()
    phone, _, _ = await t.seat(0, name="Sara")
    await phone.send_raw("x" * size)
    assert await phone.closed() == 1009
    back, welcome, _ = await t.seat(0)  # the table is fine: the same phone is back
    assert welcome["name"] == "Sara"


async def test_too_large_echoes_the_message_id(make_table: MakeTable) -> None:
    t = await make_table()
    phone, _, _ = await t.seat(0, name="Sara")
    version = t.session.version
    await phone.send_raw(json.dumps({"v": 1, "kind": "set_name", "id": 41, "name": "x" * 9000}))
    error = await phone.error()
    assert error["code"] == "too_large" and error["id"] == 41
    await phone.send_raw(json.dumps({"v": 1, "kind": "set_name", "id": "n-7", "name": "x" * 60_000}))
    error = await phone.error()
    assert error["code"] == "too_large" and error["id"] == "n-7"
    assert t.session.version == version
