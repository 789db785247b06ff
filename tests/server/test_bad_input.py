"""Bad input: malformed JSON, unknown kinds, wrong types, oversized and flooding messages.
Every one gets a clear error and leaves the table unchanged."""
from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.rules.base import MalformedAction, RulesError
from game.server.protocol import ClientKind, parse_message
from game.server.ratelimit import RateLimit

MakeTable = Callable[..., Any]


async def _playing(make_table: MakeTable, **kw: Any):
    t = await make_table(seats=3, **kw)
    phone, _, _ = await t.seat(0)
    t.command("fill_bots", kind="random")
    t.command("start")
    state = await phone.recv("state", lambda m: m["phase"] == "playing")
    return t, phone, state


@pytest.mark.parametrize("text,code", [
    ("{", "malformed"),
    ("[]", "malformed"),
    ("null", "malformed"),
    ('"hello"', "malformed"),
    ('{"kind": "ping", "t": 1}', "malformed"),                      # no protocol version
    ('{"v": 2, "kind": "ping", "t": 1}', "malformed"),
    ('{"v": true, "kind": "ping", "t": 1}', "malformed"),
    ('{"v": 1, "kind": 5}', "malformed"),
    ('{"v": 1, "kind": "teleport"}', "unknown_kind"),
    ('{"v": 1, "kind": "ping"}', "malformed"),
    ('{"v": 1, "kind": "ping", "t": "now"}', "malformed"),
    ('{"v": 1, "kind": "ping", "t": NaN}', "malformed"),
    ('{"v": 1, "kind": "action", "action": {"type": "ambush"}}', "malformed"),
    ('{"v": 1, "kind": "action", "action": {"type": "ambush"}, "version": "7"}', "malformed"),
    ('{"v": 1, "kind": "action", "action": {"type": "ambush"}, "version": 1.5}', "malformed"),
    ('{"v": 1, "kind": "action", "action": "ambush", "version": 1}', "malformed"),
    ('{"v": 1, "kind": "action", "action": {"type": "vote", "target": 1, "extra": 2}, "version": 1}', "malformed"),
    ('{"v": 1, "kind": "action", "action": {"type": "vote", "target": true}, "version": 1}', "malformed"),
    ('{"v": 1, "kind": "set_name", "name": 42}', "malformed"),
    ('{"v": 1, "kind": "set_name", "name": ""}', "malformed"),
    ('{"v": 1, "kind": "set_lang", "lang": "klingon"}', "malformed"),
    ('{"v": 1, "kind": "set_lang"}', "malformed"),
    ('{"v": 1, "kind": "ping", "t": 1, "id": {"x": 1}}', "malformed"),
    ('{"v": 1, "kind": "hello", "token": "abc"}', "malformed"),     # hello twice
    ("[" * 5000 + "]" * 5000, "too_large"),
    ("[" * 3000 + "]" * 3000, "malformed"),                        # too deep to parse
])
async def test_bad_messages_are_refused_and_change_nothing(make_table: MakeTable, text: str, code: str) -> None:
    t, phone, state = await _playing(make_table)
    before, version = t.session.run.state, t.session.version
    await phone.send_raw(text)
    error = await phone.error()
    assert error["code"] == code and isinstance(error["message"], str) and error["message"]
    assert t.session.run.state == before and t.session.version == version
    await phone.send("ping", t=1)  # the socket still works
    assert (await phone.recv("pong"))["t"] == 1


async def test_error_echoes_the_id_of_a_bad_message(make_table: MakeTable) -> None:
    t, phone, _ = await _playing(make_table)
    await phone.send_raw('{"v": 1, "kind": "teleport", "id": "m-9"}')
    error = await phone.error()
    assert error == {"v": 1, "kind": "error", "code": "unknown_kind", "message": error["message"], "id": "m-9"}


async def test_first_message_must_be_hello(make_table: MakeTable) -> None:
    t = await make_table()
    phone = await t.connect()
    await phone.send("ping", t=1)
    error = await phone.error()
    assert error["code"] == "malformed" and "hello" in error["message"]
    await phone.send("set_name", name="Eve")
    assert (await phone.error())["code"] == "malformed"


async def test_binary_frames_are_refused(make_table: MakeTable) -> None:
    t, phone, _ = await _playing(make_table)
    await phone.ws.send_bytes(b'{"v":1,"kind":"ping","t":1}')
    assert (await phone.error())["code"] == "malformed"


async def test_oversized_message_gets_too_large(make_table: MakeTable) -> None:
    t, phone, state = await _playing(make_table)
    version = t.session.version
    big = json.dumps({"v": 1, "kind": "set_name", "name": "x" * 9000})
    await phone.send_raw(big)
    assert (await phone.error())["code"] == "too_large"
    assert t.session.version == version and t.session.table.seats[0].name == ""
    await phone.send_raw(json.dumps({"v": 1, "kind": "set_name", "name": "ب" * 3000}, ensure_ascii=False))  # 6 KB
    assert (await phone.error())["code"] == "malformed"  # within the byte limit, too long as a name


async def test_huge_frame_closes_the_socket(make_table: MakeTable) -> None:
    t, phone, _ = await _playing(make_table)
    await phone.send_raw("x" * (70 * 1024))
    assert await phone.closed() == 1009
    other, _, state = await t.seat(0)  # the table is fine: the same phone is back
    assert state["phase"] == "playing"


async def test_flooding_is_rate_limited(make_table: MakeTable) -> None:
    t, phone, state = await _playing(make_table, rate=RateLimit(capacity=5, per_second=0.001))
    version = t.session.version
    for i in range(40):
        await phone.send("set_name", name=f"n{i}")
    got = await phone.quiet(0.3)
    errors = [m for m in got if m["kind"] == "error"]
    assert errors and {e["code"] for e in errors} == {"rate_limited"}
    assert len(errors) == 1  # at most one rate_limited error per second
    assert t.session.version <= version + 5  # only the burst got through
    assert t.session.table.seats[0].name in {f"n{i}" for i in range(5)}


# ---------------------------------------------------------------------------- the parser alone
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(st.sampled_from(["v", "kind", "id", "token", "t", "action", "version", "name", "lang",
                                        "role", "command", "args", "pin"]), json_values, max_size=6))
def test_parser_returns_a_typed_message_or_a_typed_error(data: dict[str, Any]) -> None:
    try:
        message = parse_message(json.dumps(data))
    except RulesError as exc:
        assert exc.code in ("malformed", "unknown_kind", "too_large")
        return
    assert isinstance(message.kind, ClientKind) and data["v"] == 1


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_parser_on_any_text(text: str) -> None:
    with contextlib.suppress(RulesError):
        parse_message(text)


def test_parser_host_args() -> None:
    message = parse_message('{"v":1,"kind":"host","command":"set_bot","args":{"seat":2,"kind":"random"}}')
    assert message.body.payload == {"command": "set_bot", "seat": 2, "kind": "random"}
    with pytest.raises(MalformedAction):
        parse_message('{"v":1,"kind":"host","command":"start","args":[1]}')
    with pytest.raises(MalformedAction):
        parse_message('{"v":1,"kind":"host","command":7}')
