"""Under each flood a seated guest (or strangers) can raise — 4,000 half-open ``GET /ws``
from the address of a seated phone, 140 addresses' hello-less WebSockets, one address re-opening
~1,000 connections a second, 20 addresses claiming an away seat through ``/api/away`` — the seated
phone is back with its device key, the host logs in, the lost phone's player gets the seat again,
and no traceback reaches the log. A real table in a subprocess; every flood from loopback
addresses in its own process, bounded in count and time (``reconnect_kit``); the bench measures
p50/p99 (``bench/bench_hostile.py --reconnect-only``), this checks the promise with room for a
loaded machine."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import reconnect_kit
from flood_kit import seat_phone, table, tracebacks

GENEROUS_S = 4.0  # the promise is 2 s (the bench's p99); room for a loaded CI machine
TRIES = 2


@pytest.mark.timeout(240)
@pytest.mark.parametrize("kind", ["seated_half_open", "hello_less", "churn", "claims"])
async def test_the_seated_phone_the_host_and_a_lost_phone_get_back_under_each_flood(tmp_path: Path, kind: str) -> None:
    with table(tmp_path) as t:
        tokens = reconnect_kit.seat_tokens((tmp_path / "server.out").read_text(encoding="utf-8"))
        key = await seat_phone(t.port, t.seat_token)
        await reconnect_kit.seat_guest(t.port, tokens[1])
        with reconnect_kit.flood(kind, t.port):
            if kind == "claims":
                times = await reconnect_kit.lost_phone_back(t.port, key, TRIES)
                assert len(times.lost) == TRIES
            else:
                times = await reconnect_kit.measure(t.port, key, TRIES)
                assert len(times.seated) == len(times.host) == TRIES
        await asyncio.sleep(1.0)
        assert times.failed == []
        assert max(times.seated + times.host + times.lost) <= GENEROUS_S
        log = t.log_text()
        assert tracebacks(log) == 0, log[-2000:]
