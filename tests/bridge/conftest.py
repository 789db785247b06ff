"""Fixtures for the bridge tests: a simulated board on a real pty pair and a bridge on the loop."""
from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from firmware_bridge.bridge import ArcadeBridge, BridgeEvent
from tools.arcade_sim import ArcadeSimulator


class Recorder:
    """Collects bridge events; ``await wait(kind, pred)`` returns the first matching new event."""

    def __init__(self) -> None:
        self.events: list[BridgeEvent] = []
        self._cursor = 0
        self._changed = asyncio.Event()

    def __call__(self, event: BridgeEvent) -> None:
        self.events.append(event)
        self._changed.set()

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    async def wait(self, kind: type, pred: Callable[[Any], bool] = lambda e: True, timeout: float = 3.0) -> Any:
        async def scan() -> Any:
            while True:
                for i in range(self._cursor, len(self.events)):
                    e = self.events[i]
                    if isinstance(e, kind) and pred(e):
                        self._cursor = i + 1
                        return e
                self._changed.clear()
                await self._changed.wait()
        return await asyncio.wait_for(scan(), timeout)


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def sim(tmp_path: Path):
    board = ArcadeSimulator(link=tmp_path / "arcade", seed=7, fragment=True).start()
    yield board
    board.close()


@pytest.fixture
async def bridge(sim: ArcadeSimulator, recorder: Recorder):
    rec = recorder
    br = ArcadeBridge(port=sim.port, poll_s=0.05, silence_s=1.5, sync_every_s=0.2)
    br.add_listener(rec)
    await br.start()
    await br.wait_connected(5)
    for _ in range(200):  # the connection's burst of clock samples
        if br.sync.samples >= 8:
            break
        await asyncio.sleep(0.01)
    br.recorder = rec  # type: ignore[attr-defined]
    yield br
    await br.stop()
