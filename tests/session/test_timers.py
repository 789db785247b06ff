"""TimerRequest key semantics: the same key keeps the running timer, a new key restarts it, None
cancels it; only the current timer's expiry is delivered."""
from __future__ import annotations

import asyncio

from tabletop_sessionkit import FakeClock

from game.rules.base import TimerRequest
from game.session.timers import GameTimer


async def test_same_key_keeps_new_key_restarts_none_cancels() -> None:
    clock = FakeClock(1_000)
    fired: list[str] = []
    timer = GameTimer(clock, lambda request: fired.append(request.key))
    timer.sync(TimerRequest("a", 60_000, "expire-a", "vote"))
    assert timer.running is not None and timer.running.deadline_ms == 61_000
    clock.now = 5_000
    timer.sync(TimerRequest("a", 60_000, "expire-a", "vote"))
    assert timer.running.deadline_ms == 61_000  # continues
    timer.sync(TimerRequest("b", 30_000, "expire-b", "showdown"))
    assert timer.running.deadline_ms == 35_000 and timer.running.info.label == "showdown"
    assert timer.running.to_json(20_000)["remaining_ms"] == 15_000
    timer.sync(None)
    assert timer.running is None
    await asyncio.sleep(0)
    assert fired == []


async def test_only_the_current_timer_fires() -> None:
    fired: list[str] = []
    timer = GameTimer(FakeClock(), lambda request: fired.append(request.on_expiry))
    timer.sync(TimerRequest("a", 10, "old", ""))
    timer.sync(TimerRequest("b", 20, "new", ""))
    for _ in range(200):
        if fired:
            break
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.03)
    assert fired == ["new"] and timer.running is None
