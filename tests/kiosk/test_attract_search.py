"""The attract reel plays the ladder's ``search`` bots (the best demos); the window records its
tapes in a worker process of low priority (the ordering ahead: ``test_attract_tapes.py``)."""
from __future__ import annotations

import os

from game.bots import BotKind
from game.bots.search import set_default_budget
from game.kiosk.attract import DEMO_BOTS, WORKER_NICE, AttractReel, TapeOrders, TapeWorker, record_tape


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
