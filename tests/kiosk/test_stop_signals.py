"""A stop is a stop: SIGTERM or SIGINT sent to every process of the kiosk at once, as systemd
stops a unit (``KillMode=control-group``), in every scene, headless and in a real X window: the
program exits with status 0 (what ``systemctl stop`` expects), the table closed in order (journal
folded in, the run marked stopped cleanly), and no process of it is left. How long it takes is
measured by ``bench/bench_stop.py`` (the README's Measured table); here a stop slower than
:data:`stop_kit.HANG_S` is a hang."""
from __future__ import annotations

import os
import shutil
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from stop_kit import HANG_S, Scene, closed_cleanly, group, reach, running, stop, xvfb

pytestmark = [pytest.mark.slow, pytest.mark.timeout(240)]
WINDOW_SCENES = list(Scene)
HEADLESS_SCENES = [s for s in Scene if s is not Scene.ATTRACT]  # the attract loop is the TV's


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed (Debian: apt install xvfb; tools/test installs it)")
    with xvfb() as name:
        yield name


def _stops(folder: Path, scene: Scene, display: str | None, sig: signal.Signals) -> None:
    with running(folder, scene, display) as kiosk:
        reach(kiosk, scene)
        stopped = stop(kiosk, sig)
        assert stopped.left == [], f"still running after the stop: {stopped.left}\n{kiosk.output[-3000:]}"
        assert stopped.status == 0, f"exit status {stopped.status}\n{kiosk.output[-3000:]}"
        assert closed_cleanly(kiosk.data), kiosk.output[-3000:]


@pytest.mark.parametrize("scene", WINDOW_SCENES, ids=lambda s: s.value)
def test_sigterm_to_the_whole_group_stops_the_window_in_every_scene(tmp_path: Path, display: str, scene: Scene) -> None:
    _stops(tmp_path, scene, display, signal.SIGTERM)


@pytest.mark.parametrize("scene", [Scene.ATTRACT, Scene.RACE], ids=lambda s: s.value)
def test_sigint_to_the_whole_group_stops_the_window(tmp_path: Path, display: str, scene: Scene) -> None:
    _stops(tmp_path, scene, display, signal.SIGINT)


@pytest.mark.parametrize("scene", HEADLESS_SCENES, ids=lambda s: s.value)
def test_sigterm_to_the_whole_group_stops_a_headless_kiosk_in_every_scene(tmp_path: Path, scene: Scene) -> None:
    _stops(tmp_path, scene, None, signal.SIGTERM)


def test_no_worker_outlives_a_tv_killed_in_the_attract_loop(tmp_path: Path, display: str) -> None:
    """kill -9 of the TV alone (a plain restart loop, the out-of-memory killer): its table process
    sees its link end and closes, the tape worker dies with it (PR_SET_PDEATHSIG)."""
    with running(tmp_path, Scene.ATTRACT, display) as kiosk:
        reach(kiosk, Scene.ATTRACT)
        os.kill(kiosk.process.pid, signal.SIGKILL)
        kiosk.process.wait(HANG_S)
        give_up = time.monotonic() + HANG_S
        while group(kiosk.process.pid) and time.monotonic() < give_up:
            time.sleep(0.05)
        assert group(kiosk.process.pid) == [], kiosk.output[-2000:]
