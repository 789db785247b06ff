"""A crash is counted as a crash: the run is marked clean only by the process that owns the
table's life (the TV's exit path, with a window). A killed TV, a lost X display, a killed table
process, the watchdog's SIGABRT and a killed headless kiosk are each counted once, on the owner's
page and in ``/metrics`` (``tabletop_crashes_total``), with their cause in the log; a stop is not."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from stop_kit import HANG_S, PIN, Kiosk, Scene, group, running, stop, xvfb

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]


@pytest.fixture
def display() -> Iterator[str]:
    with xvfb() as name:
        yield name


def _get(kiosk: Kiosk, path: str) -> str:
    request = urllib.request.Request(f"http://127.0.0.1:{kiosk.port}{path}", headers={"X-Admin-Pin": PIN})
    with urllib.request.urlopen(request, timeout=10) as answer:
        return str(answer.read().decode())


def counted(folder: Path) -> tuple[float, str]:
    """Started again (headless): ``tabletop_crashes_total`` and the owner's page's JSON."""
    with running(folder, Scene.LOBBY, None) as again:
        metrics = _get(again, "/metrics")
        owner = _get(again, "/api/owner")
        stop(again, signal.SIGTERM)
    total = re.search(r"^tabletop_crashes_total (\S+)$", metrics, re.MULTILINE)
    assert total is not None, metrics
    return float(total.group(1)), owner


def the_log(folder: Path) -> str:
    return (folder / "data" / "logs" / "tabletop.log").read_text(encoding="utf-8", errors="replace")


def _table_process(kiosk: Kiosk) -> int:
    """The table's process: the TV's child running the table (process_runtime's child entry; the
    attract loop's tape worker is another child)."""
    children = Path(f"/proc/{kiosk.process.pid}/task/{kiosk.process.pid}/children").read_text().split()
    return next(int(pid) for pid in children if b"child_entry" in Path(f"/proc/{pid}/cmdline").read_bytes())


def _ends(kiosk: Kiosk) -> int:
    """The TV's exit status, once every process of the kiosk has ended (none outlives it)."""
    status = kiosk.process.wait(HANG_S)
    give_up = time.monotonic() + HANG_S
    while group(kiosk.process.pid) and time.monotonic() < give_up:
        time.sleep(0.05)
    assert group(kiosk.process.pid) == [], kiosk.output[-2000:]
    return status


def _kill_tv(kiosk: Kiosk) -> int:
    os.kill(kiosk.process.pid, signal.SIGKILL)
    return _ends(kiosk)


def _kill_table(kiosk: Kiosk) -> int:
    os.kill(_table_process(kiosk), signal.SIGKILL)
    return _ends(kiosk)


def _watchdog(kiosk: Kiosk) -> int:
    os.kill(kiosk.process.pid, signal.SIGABRT)  # systemd's WatchdogSignal, to the main process
    return _ends(kiosk)


CASES: dict[str, tuple[Callable[[Kiosk], int], int, str]] = {
    # what happens, the TV's exit status, what the log then says
    "tv_killed": (_kill_tv, -signal.SIGKILL, r"the table stops without a clean stop: the TV's process \(pid \d+\) ended"),
    "table_killed": (_kill_table, 3, r"the table's process ended unexpectedly \(killed by SIGKILL\)"),
    "watchdog": (_watchdog, -signal.SIGABRT, r"Fatal Python error: Aborted"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_each_kind_of_crash_under_the_window_is_counted_once_with_its_cause(tmp_path: Path, display: str, case: str) -> None:
    act, status, said = CASES[case]
    with running(tmp_path, Scene.LOBBY, display) as kiosk:
        _drawn(kiosk)
        assert act(kiosk) == status, kiosk.output[-2000:]
    assert re.search(said, the_log(tmp_path)), the_log(tmp_path)[-2000:]
    total, owner = counted(tmp_path)
    assert total == 1 and '"crashes": 1' in owner.replace('"week": {', ""), owner
    assert "cause" in owner


def _drawn(kiosk: Kiosk) -> None:
    """The TV has drawn its first frame (the table's /metrics tells the age of its last one)."""
    give_up = time.monotonic() + HANG_S
    while "tabletop_frame_age_seconds" not in _get(kiosk, "/metrics"):
        assert time.monotonic() < give_up, kiosk.output[-2000:]
        time.sleep(0.1)


def test_a_lost_x_display_is_a_crash_with_the_x_error_in_the_log(tmp_path: Path) -> None:
    with xvfb() as name, running(tmp_path, Scene.LOBBY, name) as kiosk:
        _drawn(kiosk)
        server = subprocess.run(["pgrep", "-f", f"Xvfb {name} "], capture_output=True, text=True).stdout.split()
        for pid in server:
            os.kill(int(pid), signal.SIGKILL)
        assert _ends(kiosk) != 0
    assert f"the TV lost its X display {name}" in the_log(tmp_path)
    assert re.search(r"the table stops without a clean stop: the TV's process \(pid \d+\)", the_log(tmp_path))
    assert counted(tmp_path)[0] == 1


def test_a_killed_headless_kiosk_is_counted_at_its_next_start(tmp_path: Path) -> None:
    with running(tmp_path, Scene.LOBBY, None) as kiosk:
        os.killpg(kiosk.process.pid, signal.SIGKILL)
        kiosk.process.wait(HANG_S)
    total, owner = counted(tmp_path)
    assert total == 1 and "no word from it" in owner
    assert "ended without a clean stop: no word from it" in the_log(tmp_path)


def test_a_stop_is_not_a_crash(tmp_path: Path, display: str) -> None:
    with running(tmp_path, Scene.LOBBY, display) as kiosk:
        assert stop(kiosk, signal.SIGTERM).status == 0
    assert counted(tmp_path)[0] == 0
