"""ProcessRuntime: the table's loop in its own process, the TV in this one (real processes)."""
from __future__ import annotations

import asyncio
import dataclasses
import ipaddress
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import game.__main__ as tabletop
from game import catalog
from game.config import TableConfig
from game.kiosk.config import KioskConfig
from game.kiosk.web import install_kiosk
from game.server.app import ServerSettings
from game.server.frames import FrameClock
from game.server.process_runtime import Kind, ParentLink, ProcessRuntime, TableLost, Unframer, message
from game.server.runtime import StartupError
from game.session.scheduler import monotonic_ms
from game.session.session import Session
from game.session.snapshot import InputEvent, InputKind, InputSource, RunMode, TablePhase, TableSnapshot
from game.tapes import lobby_snapshot

ROOT = Path(__file__).resolve().parents[2]


def _wait_for(predicate: Callable[[], object], what: str, limit_s: float = 10.0) -> None:
    end = time.monotonic() + limit_s
    while not predicate():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


def _gone(pid: int) -> bool:
    """The process has exited (gone, or a zombie nobody reaped yet)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def host(command: str, **fields: object) -> InputEvent:
    return InputEvent(InputSource.KEYBOARD, InputKind.HOST, None, {"command": command, **fields}, 0)


def test_start_snapshot_send_stop_and_resume(tmp_path: Path) -> None:
    runtime = ProcessRuntime(TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path, admin_pin="1357"), arcade=False)
    runtime.start()
    try:
        runtime.wait_ready()
        assert runtime.pid != os.getpid() and runtime.port > 0
        assert runtime.url == f"http://127.0.0.1:{runtime.port}"
        snap = runtime.snapshot()
        assert snap.phase is TablePhase.LOBBY and snap.join_url == f"{runtime.url}/join"
        assert "PIN 1357" in runtime.links() and snap.seats[0].url in runtime.links()
        runtime.send(host("set_seats", count=9))
        _wait_for(lambda: len(runtime.snapshot().seats) == 9, "nine seats")
        assert runtime.snapshot().version == snap.version + 1
    finally:
        runtime.stop()
    assert runtime.pid is None
    again = ProcessRuntime(TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path), arcade=False)
    again.start()
    try:
        again.wait_ready()
        assert len(again.snapshot().seats) == 9  # the child closed its journal in order: resumed
    finally:
        again.stop()


SEATS = 4


def seat_and_start(session: Session) -> None:
    """On the table's loop (the child): four players seated and the game started."""
    session.host_command({"command": "set_seats", "count": SEATS})
    for record in session.table.offered:
        session.join_seat(record.token, name=f"P{record.seat + 1}")
    session.host_command({"command": "start"})
    if session.intro is not None:
        session.host_command({"command": "skip_intro"})


def test_M14_the_tvs_flip_report_opens_the_race_in_the_tables_process(tmp_path: Path) -> None:
    config = TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path, admin_pin="1234", game="cheating_moth",
                         mode=RunMode.COMPANION, seed=3)
    runtime = ProcessRuntime(config, on_started=seat_and_start, arcade=False)
    runtime.start()
    try:
        runtime.wait_ready()
        runtime.send(InputEvent(InputSource.SCREEN, InputKind.SCREEN, None, {"on": True}, monotonic_ms()))  # a TV is up
        _wait_for(lambda: (runtime.snapshot().public_view or {}).get("turn") is not None, "the first turn")
        turn = runtime.snapshot().public_view["turn"]  # type: ignore[index]
        runtime.send(InputEvent(InputSource.KEYBOARD, InputKind.GAME_ACTION, turn,
                                {"action": {"type": "call", "kind": "mosquito"}}, monotonic_ms()))
        _wait_for(lambda: runtime.snapshot().race.current is not None, "the race called")
        race = runtime.snapshot().race.current
        assert race is not None and race.waiting  # it waits for the TV's signal
        flip = monotonic_ms()
        runtime.send(InputEvent(InputSource.SCREEN, InputKind.SIGNAL, None, {"race": race.key}, flip))
        _wait_for(lambda: (now := runtime.snapshot().race.current) is not None and not now.waiting, "the race open")
        opened = runtime.snapshot().race.current
        assert opened is not None and opened.key == race.key and opened.armed_at_ms == pytest.approx(flip, abs=1)
    finally:
        runtime.stop()


def test_port_in_use_is_a_startup_error_with_the_childs_reason(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        runtime = ProcessRuntime(TableConfig(host="127.0.0.1", port=port, data_dir=tmp_path), arcade=False)
        runtime.start()
        try:
            with pytest.raises(StartupError, match=f"cannot listen on 127.0.0.1:{port}"):
                runtime.wait_ready()
        finally:
            runtime.stop()


def test_a_dead_table_process_is_noticed_with_a_clear_error(tmp_path: Path) -> None:
    runtime = ProcessRuntime(TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path), arcade=False)
    runtime.start()
    try:
        runtime.wait_ready()
        assert runtime.pid is not None
        os.kill(runtime.pid, signal.SIGKILL)
        _wait_for(lambda: not runtime.alive, "the parent to notice")
        with pytest.raises(TableLost, match="ended unexpectedly \\(killed by SIGKILL\\)"):
            runtime.snapshot()
        with pytest.raises(TableLost):
            runtime.send(host("set_seats", count=5))
    finally:
        runtime.stop()


def test_every_scripted_moments_snapshot_crosses_the_link_unchanged() -> None:
    """What the TV can be shown, every game's scenes (races, reveals, companion tables) in Persian:
    the snapshots the table's process sends arrive equal."""
    sent = [snap for game in catalog.games() for moment in game.load_tapes().moments("fa") for snap in moment.snapshots]
    assert len({snap.game for snap in sent}) == len(catalog.games())
    unframer = Unframer()
    for snap in sent:
        [(kind, arrived)] = unframer.feed(message(Kind.SNAPSHOT, snap))
        assert kind is Kind.SNAPSHOT and arrived == snap


class Publisher:
    """Stands in for the session on the table's side of the link: a snapshot and its listeners."""

    def __init__(self, snapshot: TableSnapshot) -> None:
        self.snapshot = snapshot
        self.listeners: list[Any] = []

    def attach(self, listener: Any) -> None:
        self.listeners.append(listener)

    def publish(self, snapshot: TableSnapshot) -> None:
        self.snapshot = snapshot
        for listener in self.listeners:
            listener.updated(SimpleNamespace(snapshot=snapshot))


async def test_a_slow_window_gets_the_newest_snapshot_not_every_one() -> None:
    base = lobby_snapshot(12)
    table_end, window_end = socket.socketpair()
    for sock, option in ((table_end, socket.SO_SNDBUF), (window_end, socket.SO_RCVBUF)):
        sock.setsockopt(socket.SOL_SOCKET, option, 4096)
    loop = asyncio.get_running_loop()
    transport, link = await loop.connect_accepted_socket(ParentLink, table_end)
    session = Publisher(base)
    link.serve(session, FrameClock())  # type: ignore[arg-type]
    last = base.version + 400
    for version in range(base.version + 1, last + 1):  # the window reads nothing meanwhile
        session.publish(dataclasses.replace(base, version=version))
        await asyncio.sleep(0)
    window_end.setblocking(False)
    unframer, got = Unframer(), []
    while not got or got[-1].version != last:
        try:
            data = window_end.recv(1 << 16)
        except BlockingIOError:
            await asyncio.sleep(0.001)  # the link writes the newest once the window has read
            continue
        got += [payload for kind, payload in unframer.feed(data) if kind is Kind.SNAPSHOT]
    assert got[0] == base and got[-1] == dataclasses.replace(base, version=last)  # the first, the newest
    assert len(got) < 100 and [s.version for s in got] == sorted({s.version for s in got})  # few, in order
    transport.close()
    window_end.close()


def _metrics(url: str) -> str:
    with urllib.request.urlopen(f"{url}/metrics", timeout=5) as response:
        return str(response.read().decode())


def test_the_frames_the_tv_draws_reach_the_tables_metrics(tmp_path: Path) -> None:
    kiosk = KioskConfig(admin_pin="482193", how_to_play=False, metrics_from=(ipaddress.ip_network("127.0.0.0/8"),))
    config = TableConfig(host="127.0.0.1", port=0, mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="482193",
                         kiosk=kiosk)
    runtime = ProcessRuntime(config, ServerSettings(extend=install_kiosk), arcade=False)  # as game.__main__ composes it
    runtime.start()
    try:
        runtime.wait_ready()
        assert "tabletop_frame_age_seconds " not in _metrics(runtime.url)  # no frame drawn yet
        runtime.snapshot()  # the TV reads a snapshot per frame it draws
        _wait_for(lambda: "tabletop_frame_age_seconds " in _metrics(runtime.url), "the frame told with a beat")
    finally:
        runtime.stop()


# ------------------------------------------------------------------ tabletop with its window
TABLETOP = """
import sys
import game.__main__ as tabletop
import game.kiosk.display as display
tabletop.no_display = lambda: False  # SDL's dummy driver stands in for a screen
display.choose_video_driver = lambda: None
sys.exit(tabletop.main(sys.argv[1:]))
"""


def _tabletop(tmp_path: Path, *args: str, **env_vars: str) -> tuple[subprocess.Popen[str], int]:
    """``tabletop`` with its window (SDL's dummy driver) up, and its table's process id."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy",
           "PYGAME_HIDE_SUPPORT_PROMPT": "1", "PYTHONUNBUFFERED": "1", **env_vars}
    proc = subprocess.Popen([sys.executable, "-c", TABLETOP, "--host", "127.0.0.1", "--port", "0", "--data",
                             str(tmp_path), "--new", "--pin", "246813", *args], cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("Host:"):
            break
    else:
        raise AssertionError(f"tabletop did not start: {proc.communicate()[1]}")
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
    tables = [int(pid) for pid in children
              if b"child_entry" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(tables) == 1 and len(children) == 1  # the table alone: no multiprocessing resource tracker beside it
    return proc, tables[0]


def _said(err: str) -> list[str]:
    """stderr's lines but the table's log line about the loopback address (``--host 127.0.0.1``)."""
    return [line for line in err.splitlines() if line.strip() and "no network yet" not in line]


def test_tabletop_exits_non_zero_with_one_line_when_its_table_process_dies(tmp_path: Path) -> None:
    proc, table = _tabletop(tmp_path)
    try:
        os.kill(table, signal.SIGKILL)
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 3  # ExitStatus.TABLE_LOST: systemd restarts it
    said = _said(err)  # one line, a log record: it reaches the kiosk's log file too
    assert len(said) == 1 and " ERROR game: " in said[0]
    assert said[0].endswith("the table's process ended unexpectedly (killed by SIGKILL); the TV closes so the table restarts")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_ctrl_c_or_stop_reaches_both_and_the_window_stops_its_table_once(tmp_path: Path, sig: signal.Signals) -> None:
    proc, table = _tabletop(tmp_path)
    try:
        os.killpg(proc.pid, sig)  # a terminal's Ctrl+C, systemd's stop: every process of the group gets it
        _, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0 and _said(err) == []
    _wait_for(lambda: _gone(table), "the table's process to end")


class _Descriptor:
    def __set_name__(self, owner: type, name: str) -> None:
        raise tabletop.StopRequested("SIGTERM")  # the signal handler, run while a module is imported


class _Runtime:
    def __init__(self, config: TableConfig, settings: object) -> None:
        self.crashes: list[str | None] = []

    def stop(self, crash: str | None = None) -> None:
        self.crashes.append(crash)


def _no_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """``run_table`` as with a screen, but the table's process and the window are the test's."""
    import game.kiosk.display as display
    import game.server.process_runtime as process_runtime

    monkeypatch.setattr(tabletop, "no_display", lambda: False)
    monkeypatch.setattr(display, "choose_video_driver", lambda: None)
    monkeypatch.setattr(process_runtime, "ProcessRuntime", _Runtime)


def test_a_stop_that_lands_while_the_window_imports_a_module_is_a_stop_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """systemd's SIGTERM while the window imports its modules (a kiosk's attract reel): Python 3.11
    wraps the handler's StopRequested, raised in a class body's ``__set_name__``, in a RuntimeError.
    Still status 0 and the table stopped cleanly, not the TV's crash (seen once in CI)."""
    runtimes: list[_Runtime] = []

    def importing(runtime: _Runtime, *_: object) -> int:
        runtimes.append(runtime)
        type("Imported", (), {"field": _Descriptor()})  # as a module's class statement runs it
        raise AssertionError("unreachable")

    _no_window(monkeypatch)
    monkeypatch.setattr(tabletop, "_run_windowed", importing)
    config = TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path)
    assert tabletop.run_table(config) == 0
    assert [r.crashes for r in runtimes] == [[None]]


def test_a_real_failure_of_the_window_is_still_a_crash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runtimes: list[_Runtime] = []

    def failing(runtime: _Runtime, *_: object) -> int:
        runtimes.append(runtime)
        raise RuntimeError("the display went away")

    _no_window(monkeypatch)
    monkeypatch.setattr(tabletop, "_run_windowed", failing)
    with pytest.raises(RuntimeError, match="the display went away"):
        tabletop.run_table(TableConfig(host="127.0.0.1", port=0, data_dir=tmp_path))
    assert [r.crashes for r in runtimes] == [["the TV failed: RuntimeError: the display went away"]]


def test_the_table_process_ends_when_its_window_process_is_killed(tmp_path: Path) -> None:
    proc, table = _tabletop(tmp_path)
    try:
        proc.kill()
        proc.wait(10)
        _wait_for(lambda: _gone(table), "the table's process to end")
    finally:
        proc.kill()
        if not _gone(table):
            os.kill(table, signal.SIGKILL)


def test_systemds_watchdog_is_pinged_with_the_table_beating_from_its_own_process(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as systemd:
        systemd.bind(str(tmp_path / "notify"))
        systemd.settimeout(20)
        proc, _ = _tabletop(tmp_path, NOTIFY_SOCKET=str(tmp_path / "notify"), WATCHDOG_USEC="3000000")
        try:
            said: list[str] = []
            while "WATCHDOG=1" not in said:  # pinged only while the render loop and the table's loop both beat
                said += systemd.recv(512).decode().splitlines()
            assert "READY=1" in said  # the lobby is on screen
            proc.send_signal(signal.SIGTERM)  # systemctl stop
            _, err = proc.communicate(timeout=30)
            while "STOPPING=1" not in said:
                said += systemd.recv(512).decode().splitlines()
        finally:
            proc.kill()
    assert proc.returncode == 0 and "Traceback" not in err  # (a first tick before the window is up logs a miss)
