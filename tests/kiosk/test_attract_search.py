"""The attract reel plays the ladder's ``search`` bots (the best demos); the window records its
tapes in a worker process of low priority (the ordering ahead: ``test_attract_tapes.py``)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from game.bots import BotKind
from game.bots.search import set_default_budget
from game.kiosk.attract import DEMO_BOTS, WORKER_NICE, AttractReel, TapeOrders, TapeWorker, WorkerLost, record_tape

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_tapes_are_played_by_search_bots() -> None:
    assert DEMO_BOTS is BotKind.SEARCH
    tape = record_tape("speakeasy", "en", 5, 3)
    assert tape == record_tape("speakeasy", "en", 5, 3, BotKind.SEARCH)
    assert tape != record_tape("speakeasy", "en", 5, 3, BotKind.HEURISTIC)


def test_the_reel_shows_the_search_bots_tape() -> None:
    reel = AttractReel(("en",), ["speakeasy"], seed=3)
    reel.start(0)
    assert reel.tape == record_tape("speakeasy", "en", 5, 3, BotKind.SEARCH)


def os_nice_now() -> int:
    return os.nice(0)


def test_the_windows_tape_worker_records_in_a_low_priority_process() -> None:
    set_default_budget("speakeasy", None)  # the worker thinks with the play budget: so does this test
    worker = TapeWorker()
    try:
        orders = TapeOrders(worker=worker)
        spec = ("speakeasy", "fa", 3, 2)
        orders.order(spec)
        assert worker.submit(os_nice_now).result(timeout=120) >= WORKER_NICE
        assert worker.submit(os.getpid).result(timeout=60) != os.getpid()
        assert orders._orders[spec].result(timeout=120) == record_tape(*spec)  # the test waits for the worker
        assert orders.take(spec) == record_tape(*spec)
    finally:
        worker.shutdown()


WORKER_PARENT = """
import sys, time
from game.kiosk.attract import TapeWorker
worker = TapeWorker()
print(worker.submit(__import__("os").getpid).result(timeout=60), flush=True)
worker.submit(time.sleep, 600)  # busy: it reads no pipe while it works
time.sleep(600)
"""


def test_a_busy_tape_worker_dies_with_its_parent(tmp_path: Path) -> None:
    """kill -9 of the window's process while the worker records: the kernel ends the worker too
    (PR_SET_PDEATHSIG), it does not record for nobody."""
    parent = subprocess.Popen([sys.executable, "-c", WORKER_PARENT], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert parent.stdout is not None
    worker = int(parent.stdout.readline())
    time.sleep(0.5)  # the worker is in its sleep
    parent.kill()
    parent.wait(10)
    give_up = time.monotonic() + 20
    while Path(f"/proc/{worker}").exists() and "Z" not in _state(worker) and time.monotonic() < give_up:
        time.sleep(0.05)
    assert not Path(f"/proc/{worker}").exists() or "Z" in _state(worker)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


def test_a_job_the_worker_never_answered_fails_and_the_next_one_gets_a_new_worker() -> None:
    worker = TapeWorker()
    try:
        first = worker.submit(os.getpid).result(timeout=60)
        lost = worker.submit(time.sleep, 600)
        os.kill(first, signal.SIGTERM)  # systemd's stop reached the worker alone
        with pytest.raises(WorkerLost):
            lost.result(timeout=30)
        assert worker.submit(os.getpid).result(timeout=60) not in (first, os.getpid())
    finally:
        worker.shutdown()
