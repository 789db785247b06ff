"""The attract reel's tapes (a whole bot game each) are recorded off the render thread in the live
window: the reel keeps showing what it has until the next tape is done, and orders the next game's
tape while the current one plays."""
from __future__ import annotations

import threading

from game.kiosk.attract import FINAL_MS, AttractReel, Tape, TapeOrders, record_tape


class GatedRecorder:
    """Records real tapes on the worker thread, each only once the test lets it."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str, int, int]] = []
        self.threads: set[str] = set()
        self.gate = threading.Event()

    def __call__(self, game: str, language: str, seats: int, seed: int) -> Tape:
        self.asked.append((game, language, seats, seed))
        self.threads.add(threading.current_thread().name)
        self.gate.wait(10)
        return record_tape(game, language, seats, seed)


def wait_done(orders: TapeOrders, reel: AttractReel, turn: int) -> None:
    future = orders._orders[reel._spec(turn)]  # the test waits for the worker
    future.result(10)


def test_the_reel_waits_for_its_tape_recorded_on_a_worker_thread_and_orders_the_next_one():
    recorder = GatedRecorder()
    orders = TapeOrders(threaded=True, record=recorder)
    reel = AttractReel(("fa", "th"), ["collusion", "speakeasy"], game_ms=1_000, tapes=orders)
    reel.start(0)
    assert reel.tape is None  # still recording: the caller shows the real lobby meanwhile
    reel.tick(16, screen_busy=False)
    assert reel.tape is None and recorder.asked == [("collusion", "fa", 5, 1)]  # ordered once
    recorder.gate.set()
    wait_done(orders, reel, 0)
    reel.tick(32, screen_busy=False)
    assert reel.tape is not None and reel.tape.game == "collusion" and reel.tape.language == "fa"
    wait_done(orders, reel, 1)  # the next game was ordered as this one came on
    assert recorder.asked[1] == ("speakeasy", "th", 5, 2)
    assert recorder.threads and all(n.startswith("attract-tapes") for n in recorder.threads)  # never the caller's
    reel.step = len(reel.tape.steps) - 1
    reel.tick(32 + FINAL_MS, screen_busy=False)
    assert reel.tape.game == "speakeasy" and reel.turn == 1


def test_without_a_worker_the_tape_is_recorded_when_asked_for():
    reel = AttractReel(("en",), ["collusion"])
    reel.start(0)
    assert reel.tape is not None and reel.tape.game == "collusion"
