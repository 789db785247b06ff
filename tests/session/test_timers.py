"""TimerRequest key semantics: the same key keeps the running timer, a new key restarts it, None
cancels it; only the current timer's expiry is delivered (on virtual time)."""
from __future__ import annotations

from game.rules.base import TimerRequest
from game.session.scheduler import VirtualTime
from game.session.timers import GameTimer


def test_same_key_keeps_new_key_restarts_none_cancels() -> None:
    vt = VirtualTime(1_000)
    fired: list[str] = []
    timer = GameTimer(vt, vt, lambda request: fired.append(request.key))
    timer.sync(TimerRequest("a", 60_000, "expire-a", "vote"))
    assert timer.running is not None and timer.running.deadline_ms == 61_000
    vt.advance(4_000)
    timer.sync(TimerRequest("a", 60_000, "expire-a", "vote"))
    assert timer.running.deadline_ms == 61_000  # continues
    timer.sync(TimerRequest("b", 30_000, "expire-b", "showdown"))
    assert timer.running.deadline_ms == 35_000 and timer.running.info.label == "showdown"
    assert timer.running.to_json(20_000)["remaining_ms"] == 15_000
    timer.sync(None)
    assert timer.running is None
    vt.advance(120_000)
    assert fired == [] and vt.pending() == 0


def test_only_the_current_timer_fires_at_its_deadline() -> None:
    vt = VirtualTime(0)
    fired: list[tuple[str, int]] = []
    timer = GameTimer(vt, vt, lambda request: fired.append((request.on_expiry, vt.now_ms())))
    timer.sync(TimerRequest("a", 10, "old", ""))
    timer.sync(TimerRequest("b", 20, "new", ""))
    vt.advance(19)
    assert fired == []
    vt.advance(1)
    assert fired == [("new", 20)] and timer.running is None
    vt.advance(1_000)
    assert fired == [("new", 20)]


def test_virtual_time_runs_callbacks_in_time_order_and_cancelled_ones_never() -> None:
    vt = VirtualTime(0)
    seen: list[tuple[str, int]] = []
    vt.call_later(30, lambda: seen.append(("c", vt.now_ms())))
    vt.call_later(10, lambda: seen.append(("a", vt.now_ms())))
    vt.call_later(10, lambda: seen.append(("b", vt.now_ms())))
    vt.call_later(20, lambda: seen.append(("x", vt.now_ms()))).cancel()
    vt.advance(25)
    assert seen == [("a", 10), ("b", 10)] and vt.now_ms() == 25
    vt.run_until(lambda: len(seen) == 3)
    assert seen[-1] == ("c", 30)
