"""The hand-over's line in the log tells how long the final scores were on screen, as it was: a
restart's downtime is not screen time (after a crash the log said "shown for 20 s" for scores that
were up 7.6 s)."""
from __future__ import annotations

import logging
from types import SimpleNamespace

import pytest

from game.kiosk.config import KioskConfig, Timers
from game.session.journal import SavedTimer
from game.session.policy import HAND_OVER_KEY, HandOverClock, KioskPolicy
from game.session.scheduler import VirtualTime
from game.session.snapshot import TablePhase

RESULTS_S = 20


def clock_of(vt: VirtualTime, wall: list[int]) -> HandOverClock:
    policy = KioskPolicy(KioskConfig(timers=Timers(results_s=RESULTS_S)))
    return HandOverClock(policy, vt, lambda: None, lambda: True, clock=vt.now_ms, wall=lambda: wall[0])


def test_the_log_tells_the_seconds_the_scores_were_on_screen(caplog: pytest.LogCaptureFixture) -> None:
    vt, wall = VirtualTime(), [1_000_000]
    hand_over = clock_of(vt, wall)
    hand_over.game_finished(1)
    vt.advance(3_250)  # the last reveal plays
    assert hand_over.results_shown()
    with caplog.at_level(logging.INFO, "game.session.policy"):
        vt.advance(RESULTS_S * 1000)
    assert "the final scores were shown for 20.0 s; the table is handed to the next group" in caplog.text


def test_after_a_restart_the_log_tells_the_screen_time_since_the_restart(caplog: pytest.LogCaptureFixture) -> None:
    vt, wall = VirtualTime(), [1_000_000]
    hand_over = clock_of(vt, wall)
    finished = SimpleNamespace(phase=TablePhase.FINISHED, game_no=4)  # what resume reads of the table
    left_ms = 7_600  # 12.4 s of the 20 were on screen before the crash; the downtime is gone
    hand_over.resume(SavedTimer(4, HAND_OVER_KEY, wall[0] + left_ms), finished)
    with caplog.at_level(logging.INFO, "game.session.policy"):
        vt.advance(left_ms)
    assert "the results time (20 s) is up: 7.6 s on screen since the restart, the rest before it" in caplog.text
    assert "shown for 20" not in caplog.text
