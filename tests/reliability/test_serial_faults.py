"""Serial faults mid-race through the simulated board on a pty (``bench/bench_serial.py`` prints
how fast the bridge is back): the race ends fairly — the board's press before the fault counts,
the phones decide the rest, the screen says the board is gone while it is — and no traceback."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from serial_kit import Fault, run_fault

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("fault", list(Fault), ids=[f.name.lower() for f in Fault])
def test_a_race_survives_a_serial_fault(fault: Fault, tmp_path: Path) -> None:
    outcome = asyncio.run(run_fault(fault, tmp_path))
    assert outcome.order == outcome.expected  # the true order: board first, then the phones
    assert outcome.sources[0] == "arcade" and set(outcome.sources[1:]) == {"phone"}
    assert outcome.tracebacks == []
    if fault in (Fault.REPLUGS, Fault.HUNG):
        assert outcome.said_unplugged  # the big screen's notice while the board was gone
        assert len(outcome.back_ms) == (9 if fault is Fault.REPLUGS else 1)  # back after every replug
