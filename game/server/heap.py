"""Garbage collection off the players' path.

CPython's cycle collector runs when container allocations outnumber frees by 700: in practice in
the middle of handling an action, the busiest allocator (a change builds every seat's view before
the previous change's are freed). Traced in ``bench/bench_ws.py`` with 200 spectators, about one
action in forty paid for a generation-1 pass (1-1.5 ms) and now and then one for a full pass
(20-90 ms). While the table serves, its loop collects the young generations once a second instead,
between actions, where such a pass finds little alive (~0.15 ms); the automatic threshold is
raised to a safety net; a full pass runs once the table has been still for ``QUIET_S`` (at most
every ``FULL_MIN_S``), or after ``FULL_MAX_S`` whatever happens. Reference counting frees almost
everything anyway (states are plain acyclic data): this only decides when the cycle collector looks.

Freed memory goes back to the system too: a flood of sockets that never say hello grew the table
from 50 to 135 MB RSS, and stayed there after every socket was closed, though Python held almost
none of it (``bench/bench_flood_memory.py``): glibc keeps a freed heap for reuse. :class:`HeapTrim`
calls ``malloc_trim`` once the sockets of a flood are gone, and after each quiet full pass.

A closed connection must be freed when it closes, not at the next full pass: Python's small-object
allocator keeps a 1 MiB arena as long as one object in it lives, so garbage that waits for the
collector during a flood grows the arenas, and whatever outlives it scattered across them keeps
them all. Each connection used to close as cyclic garbage (:func:`drop_cycles` says which cycles):
traced with ``bench/bench_flood_memory.py``, ~1000 closed connections waited in the oldest
generation, and the table kept 21 more arenas (21 MiB) after the flood, though only ~100 KB in them
was alive; with the cycles cut, 8 (the peak's live sockets, each arena kept by a few blocks).
"""
from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

YOUNG_EVERY_S = 1.0
QUIET_S = 5.0  # no change for this long: a full pass will not be in anyone's way
FULL_MIN_S = 60.0
FULL_MAX_S = 600.0
SAFETY_NET = (20_000, 10, 10)  # the automatic collector's thresholds while a table serves
FLOOD_GONE = 200  # sockets come and gone since the last trim, none opening now: a flood has gone

_holders = 0
_saved: tuple[int, int, int] | None = None


def _hold() -> None:
    """Raise the automatic thresholds (once for all tables in this process)."""
    global _holders, _saved
    if _holders == 0:
        _saved = gc.get_threshold()
        gc.set_threshold(*SAFETY_NET)
    _holders += 1


def _release() -> None:
    global _holders
    _holders -= 1
    if _holders == 0 and _saved is not None:
        gc.set_threshold(*_saved)


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None elsewhere: musl, macOS)."""
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


def drop_cycles(handler: Any, transport: Any) -> None:
    """Cut the reference cycles of a connection that has closed (``handler``: aiohttp's protocol,
    ``transport``: asyncio's), so reference counting frees it at once: aiohttp's handler keeps its
    WebSocket's heartbeat callback (the WebSocket holds its request, the request the handler), and
    asyncio's socket transport its own bound read callback. Neither is read once the connection has
    closed; an attribute a future aiohttp or asyncio no longer has is left alone."""
    for owner, name in ((handler, "_data_received_cb"), (transport, "_read_ready_cb")):
        if getattr(owner, name, None) is not None:
            setattr(owner, name, None)


class HeapTrim:
    """Hands the heap a flood left behind back to the system: told every second the sockets open
    and the count ever opened (:meth:`seen`), it trims once :data:`FLOOD_GONE` have come and gone
    since its last trim and none opened in the last second (the flood has stopped). A count, not
    a peak: the hub holds few silent sockets at once (it cuts the oldest), so a flood of thousands
    never shows as many open together."""

    def __init__(self, trim: Callable[[int], int] | None = None) -> None:
        self._trim = trim if trim is not None else _malloc_trim()
        self._opened = 0  # ever opened, at the last look
        self._gone_base = 0  # opened minus open at the last trim: what had closed by then
        self.trims = 0

    def seen(self, open_now: int, opened: int) -> None:
        gone = opened - open_now
        quiet, self._opened = opened == self._opened, opened
        if quiet and gone - self._gone_base >= FLOOD_GONE:
            self.trim()
            self._gone_base = gone

    def trim(self) -> None:
        if self._trim is not None:
            self._trim(0)
            self.trims += 1


class Collector:
    """Collects on the table's loop: the young generations every ``YOUNG_EVERY_S``, everything
    when the table is quiet. ``version`` reads the table's change counter."""

    def __init__(self, version: Callable[[], int], clock: Callable[[], float] = time.monotonic,
                 heap: HeapTrim | None = None) -> None:
        self._version = version
        self.heap = heap if heap is not None else HeapTrim()
        self._clock = clock
        self._seen = version()
        self._changed_at = self._last_full = clock()
        self.young_passes = 0
        self.full_passes = 0

    def tick(self) -> None:
        now, version = self._clock(), self._version()
        if version != self._seen:
            self._seen, self._changed_at = version, now
        quiet = now - self._changed_at >= QUIET_S
        since_full = now - self._last_full
        if (quiet and since_full >= FULL_MIN_S) or since_full >= FULL_MAX_S:
            gc.collect()
            self.heap.trim()  # what the pass (and the quiet spell before it) freed goes back too
            self._last_full = now
            self.full_passes += 1
        else:
            gc.collect(1)
            self.young_passes += 1

    async def run(self) -> None:
        while True:
            await asyncio.sleep(YOUNG_EVERY_S)
            self.tick()


async def collecting(collector: Collector) -> AsyncIterator[None]:
    """For an aiohttp cleanup context: the collector runs while the table serves."""
    _hold()
    task = asyncio.create_task(collector.run())
    try:
        yield
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        _release()
