"""Idle half-open connections from many addresses never lock out the seated
phones and the host. A real table in a subprocess (its open-file limit as inherited, then 1,024),
a flood of silent connections from 140 loopback addresses (127.0.0.2 … 127.0.0.141) re-opened as
the table closes them; meanwhile the seated phone reconnects (its usual address, then an address
the table never saw) and the host's console logs in. The noise is one log line per kind per
minute: no traceback, the log bounded."""
from __future__ import annotations

from pathlib import Path

import pytest
from flood_kit import Flood, reconnect_under_flood, seat_phone, table, tracebacks

BACK_S = 2.0  # the promise: back within 2 s whatever strangers hold (the bench measures its p99)
GENEROUS_S = 2 * BACK_S  # checked here with room for a loaded CI machine (before the fix: 8.7 s and timeouts)
LOG_BYTES = 64 * 1024
TRIES = 3


@pytest.mark.timeout(180)
@pytest.mark.parametrize("fd_limit", [0, 1024], ids=["default-open-file-limit", "open-file-limit-1024"])
async def test_half_open_flood_from_140_addresses_never_locks_out_seats_or_host(tmp_path: Path, fd_limit: int) -> None:
    with table(tmp_path, fd_limit) as t:
        device_key = await seat_phone(t.port, t.seat_token)
        flood = Flood(t.port, addresses=140, per_address=40)
        try:
            result = await reconnect_under_flood(flood, device_key, TRIES)
        finally:
            flood.close()
        assert flood.opened >= 140 * 40  # the flood was as big as promised
        assert result.failed == []
        assert len(result.seated) == len(result.moved) == len(result.host) == TRIES
        assert max(result.seated + result.moved + result.host) <= GENEROUS_S
        log = t.log_text()
        assert tracebacks(log) == 0, log[-2000:]
        assert "network noise" in log  # counted, in one line per kind per minute
        assert t.log_bytes <= LOG_BYTES
