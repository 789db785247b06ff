"""systemd supervision: sd_notify over a real unix datagram socket standing in for systemd's
NOTIFY_SOCKET; the watchdog pings only while the render and the server loops both beat."""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.kiosk.supervise import (
    RENDER_LOOP,
    SERVER_LOOP,
    Notifier,
    SupervisedRuntime,
    Watchdog,
    beat_server_loop,
    watchdog_period_s,
)

UNIT = Path(__file__).resolve().parents[2] / "tools" / "systemd" / "tabletop.service"


class FakeSystemd:
    """The receiving end of NOTIFY_SOCKET."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))

    def pending(self) -> list[str]:
        out = []
        self.sock.setblocking(False)
        try:
            while True:
                out.append(self.sock.recv(4096).decode())
        except BlockingIOError:
            return out

    def wait_for(self, field: str, timeout_s: float = 30.0) -> list[str]:
        """Messages up to and including the first one holding ``field`` (an event, not a timer)."""
        seen = []
        self.sock.settimeout(timeout_s)
        while True:
            message = self.sock.recv(4096).decode()
            seen.append(message)
            if field in message.split("\n"):
                return seen


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path / "notify.sock")
    yield fake
    fake.sock.close()


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_notifier_sends_ready_to_the_socket(systemd: FakeSystemd) -> None:
    notifier = Notifier({"NOTIFY_SOCKET": str(systemd.path)})
    assert notifier.ready("lobby on screen")
    assert systemd.pending() == ["READY=1\nSTATUS=lobby on screen"]


def test_notifier_reaches_an_abstract_socket() -> None:
    name = f"tabletop-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).stopping()
        assert sock.recv(100) == b"STOPPING=1"


def test_without_systemd_nothing_is_sent() -> None:
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.ready()
    assert watchdog_period_s({}) is None
    assert watchdog_period_s({"WATCHDOG_USEC": "30000000"}) == 30.0
    assert watchdog_period_s({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}) is None  # meant for pid 1


def test_watchdog_pings_only_while_both_loops_beat(systemd: FakeSystemd) -> None:
    clock = Clock()
    dog = Watchdog(Notifier({"NOTIFY_SOCKET": str(systemd.path)}), 30.0, (RENDER_LOOP, SERVER_LOOP), clock)
    assert not dog.tick() and systemd.pending() == []  # nobody has beaten yet
    dog.beat(RENDER_LOOP)
    dog.beat(SERVER_LOOP)
    assert dog.tick() and systemd.pending() == ["WATCHDOG=1"]
    clock.now += 16  # past half the period: the render loop hangs in a frame, the server goes on
    dog.beat(SERVER_LOOP)
    assert dog.stale() == [RENDER_LOOP]
    assert not dog.tick() and systemd.pending() == []
    dog.beat(RENDER_LOOP)
    clock.now += 16  # now the server loop is stuck
    dog.beat(RENDER_LOOP)
    assert dog.stale() == [SERVER_LOOP] and not dog.tick()
    dog.beat(SERVER_LOOP)
    assert dog.tick() and systemd.pending() == ["WATCHDOG=1"]
    assert dog.missed_total == 3 and dog.misses == 0  # /metrics counts every held-back ping, for good


def test_supervised_runtime_beats_every_frame_and_is_ready_after_the_first(systemd: FakeSystemd) -> None:
    class Runtime:
        url = "http://table"

        def snapshot(self) -> str:
            return "snap"  # type: ignore[return-value]

        def send(self, event: object) -> None: ...

    clock = Clock()
    dog = Watchdog(Notifier({"NOTIFY_SOCKET": str(systemd.path)}), 30.0, (RENDER_LOOP,), clock)
    runtime = SupervisedRuntime(Runtime(), dog.notifier, dog)
    assert runtime.snapshot() == "snap" and systemd.pending() == []  # frame 1 is not drawn yet
    assert dog.stale() == [RENDER_LOOP]  # nor beating: no WATCHDOG=1 may go before READY=1
    runtime.snapshot()
    assert systemd.pending() == ["READY=1\nSTATUS=lobby on screen"]
    runtime.snapshot()
    assert systemd.pending() == [] and runtime.url == "http://table"
    assert dog.stale() == []


async def test_the_server_loop_beats_from_the_loop() -> None:
    clock = Clock()
    dog = Watchdog(Notifier({}), 30.0, (SERVER_LOOP,), clock)
    handle = beat_server_loop(dog, asyncio.get_running_loop())
    assert dog.stale() == []
    handle.cancel()


def test_the_unit_is_type_notify_with_a_watchdog() -> None:
    unit = UNIT.read_text()
    for line in ("Type=notify", "WatchdogSec=30", "Restart=always", "RestartPreventExitStatus=2 6 10",
                 "Environment=SDL_VIDEODRIVER=kmsdrm", "SupplementaryGroups=video render input audio dialout",
                 "WantedBy=multi-user.target"):
        assert line in unit.splitlines()


def test_a_headless_table_tells_systemd_it_is_ready_and_pings(systemd: FakeSystemd, tmp_path: Path) -> None:
    env = {**os.environ, "NOTIFY_SOCKET": str(systemd.path), "WATCHDOG_USEC": "400000"}
    env.pop("WATCHDOG_PID", None)
    proc = subprocess.Popen([sys.executable, "-m", "game", "--headless", "--new", "--port", "0",
                             "--host", "127.0.0.1", "--data", str(tmp_path / "data")],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert "READY=1" in systemd.wait_for("READY=1")[-1]
        systemd.wait_for("WATCHDOG=1")
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err.decode()
    assert "STOPPING=1" in systemd.pending()
