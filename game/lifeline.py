"""Helpers never hold up a stop, and never outlive the program.

A helper process never outlives the process that started it.

``systemctl stop`` and the watchdog signal every process of the unit, but a plain restart loop, a
``kill -9`` of the TV or an out-of-memory kill end only one: a worker left behind would go on
burning a core for nobody. On Linux the kernel kills the worker when its parent dies
(``prctl(PR_SET_PDEATHSIG)``); elsewhere the worker still ends when the pipe to its parent reaches
its end, between two jobs.

A helper thread (a bot thinking, a how-to tape recorded ahead) never holds up the program's exit:
:class:`DaemonExecutor` runs its jobs on a daemon thread, where ``ThreadPoolExecutor``'s threads are
joined at exit, so a ``systemctl stop`` during a search bot's move waited for the move.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent(parent_pid: int, sig: signal.Signals = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies; True when it will.
    Call it first thing in the child, on its main thread. The kernel ties the signal to the parent
    *thread* that started this process, so start workers from a thread that lives as long as the
    parent (the main thread). A parent already gone before the call is caught by ``parent_pid``."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) != 0:
        return False
    if os.getppid() != parent_pid:  # the parent died before the call: nobody will send it
        os.kill(os.getpid(), sig)
    return True


class DaemonExecutor(Executor):
    """Jobs run one at a time, in order, on one daemon thread made when first needed (see module
    docs): what the work computes is worth nothing once the program stops, so nobody waits for it."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._jobs: queue.SimpleQueue[tuple[Future[Any], Callable[..., Any], tuple[Any, ...], dict[str, Any]] | None] = \
            queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
                self._thread.start()
        self._jobs.put((future, fn, args, kwargs))
        return future

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            future, fn, args, kwargs = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as exc:  # handed to whoever waits on the future
                future.set_exception(exc)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """No more jobs after the one running (which is not waited for: see the class docs)."""
        self._jobs.put(None)
