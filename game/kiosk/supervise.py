"""systemd supervision without a dependency: ``sd_notify`` over the ``NOTIFY_SOCKET`` datagram
socket, and a watchdog that pings only while *both* the render loop and the server loop are alive.

The unit (``tools/systemd/tabletop.service``) is ``Type=notify`` with ``WatchdogSec=``: systemd
sets ``NOTIFY_SOCKET`` and ``WATCHDOG_USEC``. Each loop calls :meth:`Watchdog.beat` (the render loop
every frame, the server loop every second: with a window, from the table's own process through its
link, ``ProcessRuntime.on_beat``); a small thread sends ``WATCHDOG=1`` every half period,
but only when every loop has beaten within that half period. A hung frame or a stuck asyncio loop
stops the pings, and systemd restarts the table (which resumes from its journal).
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from enum import IntEnum
from typing import Any

from game.session.snapshot import InputEvent, TableSnapshot

log = logging.getLogger(__name__)

RENDER_LOOP = "render"
SERVER_LOOP = "server"
SERVER_BEAT_S = 1.0


class ExitStatus(IntEnum):
    """How the table ends, as the systemd unit reads it (``tools/systemd/tabletop.service``): it is
    ``Restart=always``, so every exit but those listed in ``RestartPreventExitStatus=`` (the ones
    retrying cannot help, and staff's explicit stop) brings the table back."""

    DONE = 0  # SIGTERM: `systemctl stop` (systemd never restarts a unit it stopped) or Ctrl+C
    CONFIG_ERROR = 2  # the config file is wrong (systemd shows 2/INVALIDARGUMENT)
    TABLE_LOST = 3  # the table's process died under the TV (game/server/process_runtime.py): restarted
    NO_DISPLAY = 6  # no video driver can draw the TV: a missing device, group or library (6/NOTCONFIGURED)
    STAFF_STOP = 10  # staff stopped the kiosk at the TV with the PIN


class Notifier:
    """Sends ``sd_notify`` messages; does nothing when not started by systemd (no NOTIFY_SOCKET)."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]  # an abstract socket
        self.address = address
        self._lock = threading.Lock()

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, *fields: str) -> bool:
        """One datagram of ``KEY=value`` lines; False when it could not be sent (never raises)."""
        if not self.address:
            return False
        data = "\n".join(fields).encode()
        with self._lock:
            try:
                with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                    sock.sendto(data, self.address)
            except OSError as exc:
                log.warning("sd_notify to %r failed: %s", self.address, exc)
                return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")


def watchdog_period_s(environ: Mapping[str, str] | None = None) -> float | None:
    """systemd's watchdog period for this process (``WATCHDOG_USEC``, and ``WATCHDOG_PID`` if set)."""
    env = os.environ if environ is None else environ
    usec, pid = env.get("WATCHDOG_USEC", ""), env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 1_000_000


class Watchdog:
    """Pings ``WATCHDOG=1`` while every named loop beats (see module docs)."""

    def __init__(self, notifier: Notifier, period_s: float, loops: Iterable[str] = (RENDER_LOOP, SERVER_LOOP),
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.notifier = notifier
        self.interval_s = period_s / 2
        self.loops = tuple(loops)
        self._clock = clock
        self._beats: dict[str, float] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.pings = 0
        self.misses = 0  # in a row (the log line comes on the first and every tenth)
        self.missed_total = 0  # every ping held back since start (/metrics: tabletop_watchdog_misses_total)

    def beat(self, loop: str) -> None:
        self._beats[loop] = self._clock()  # one dict store: safe from any thread

    def stale(self) -> list[str]:
        """The loops that have not beaten within the last interval (or never)."""
        now = self._clock()
        return [name for name in self.loops if now - self._beats.get(name, float("-inf")) > self.interval_s]

    def tick(self) -> bool:
        """Ping if every loop is alive; returns whether it pinged."""
        stale = self.stale()
        if stale:
            self.misses += 1
            self.missed_total += 1
            if self.misses == 1 or self.misses % 10 == 0:
                log.error("watchdog: no ping, the %s loop is not running", " and ".join(stale))
            return False
        self.misses = 0
        self.pings += 1
        return self.notifier.send("WATCHDOG=1")

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.tick()


def start_watchdog(loops: Iterable[str], environ: Mapping[str, str] | None = None) -> Watchdog | None:
    """The running watchdog when systemd asked for one, else None."""
    notifier = Notifier(environ)
    period = watchdog_period_s(environ)
    if not notifier.enabled or period is None:
        return None
    watchdog = Watchdog(notifier, period, loops)
    watchdog.start()
    return watchdog


def beat_server_loop(watchdog: Watchdog, loop: asyncio.AbstractEventLoop) -> asyncio.TimerHandle:
    """Beat for the server loop once a second, from the loop itself (call on the loop's thread)."""

    def beat() -> None:
        watchdog.beat(SERVER_LOOP)
        handles[0] = loop.call_later(SERVER_BEAT_S, beat)

    watchdog.beat(SERVER_LOOP)
    handles = [loop.call_later(SERVER_BEAT_S, beat)]
    return handles[0]


class SupervisedRuntime:
    """The window's view of the runtime, beating for the render loop on every frame's snapshot read
    and telling systemd READY=1 once the first frame (the lobby) is on screen."""

    def __init__(self, runtime: Any, notifier: Notifier, watchdog: Watchdog | None) -> None:
        self._runtime = runtime
        self._notifier = notifier
        self._watchdog = watchdog
        self.frames = 0

    def snapshot(self) -> TableSnapshot:
        self.frames += 1
        if self.frames == 2:  # the first frame has been drawn and flipped
            self._notifier.ready("lobby on screen")
        if self._watchdog is not None and self.frames >= 2:  # beating from the first frame on screen:
            self._watchdog.beat(RENDER_LOOP)  # READY=1 always goes before the first WATCHDOG=1
        snapshot: TableSnapshot = self._runtime.snapshot()
        return snapshot

    def send(self, event: InputEvent) -> None:
        self._runtime.send(event)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._runtime, name)
