"""A TV that cannot be drawn on gives one clear line naming what is missing, after
trying the drivers in a logged order, and an exit status the systemd unit does not loop on."""
from __future__ import annotations

import glob
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.kiosk.display import KMSDRM, KmsdrmSystem, NoDisplay, choose_video_driver, fallback_order, kmsdrm_missing
from game.kiosk.supervise import ExitStatus
from game.session.journal import JOURNAL_NAME

ROOT = Path(__file__).resolve().parents[2]
ALL_THERE = KmsdrmSystem(cards=lambda: ["/dev/dri/card0"], usable=lambda _p: True,
                         find_library=lambda name: f"lib{name}.so")


def test_the_order_is_the_driver_asked_for_then_x11_then_wayland() -> None:
    assert fallback_order({"SDL_VIDEODRIVER": "kmsdrm"}) == ["kmsdrm"]
    assert fallback_order({"SDL_VIDEODRIVER": "KMSDRM", "DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}) == \
        ["kmsdrm", "x11", "wayland"]
    assert fallback_order({"SDL_VIDEODRIVER": "x11", "DISPLAY": ":0"}) == ["x11"]
    assert fallback_order({}) == [""]  # nothing asked for: SDL's own choice


def test_a_fallback_that_opens_is_kept_for_the_window_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    env = {"SDL_VIDEODRIVER": "kmsdrm", "DISPLAY": ":0"}
    tried: list[str] = []

    def opens(driver: str) -> str | None:
        tried.append(driver)
        return "kmsdrm not available" if driver == KMSDRM else None

    missing = KmsdrmSystem(cards=list, usable=lambda _p: True, find_library=lambda name: f"lib{name}.so")
    with caplog.at_level(logging.INFO, logger="game.kiosk.display"):
        assert choose_video_driver(opens, env, missing) == "x11"
    assert tried == ["kmsdrm", "x11"] and env["SDL_VIDEODRIVER"] == "x11"
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1 and "x11" in warned[0] and "/dev/dri/card*" in warned[0]


def test_each_missing_piece_is_named() -> None:
    assert kmsdrm_missing(ALL_THERE) == []
    no_card = KmsdrmSystem(cards=list, usable=lambda _p: True, find_library=lambda n: f"lib{n}.so")
    assert "no /dev/dri/card* device" in kmsdrm_missing(no_card)[0]
    not_in_group = KmsdrmSystem(cards=lambda: ["/dev/dri/card1"], usable=lambda _p: False,
                                find_library=lambda n: f"lib{n}.so")
    assert kmsdrm_missing(not_in_group) == [
        "/dev/dri/card1 is not usable by this user: add it to the video/render groups "
        "(the unit's SupplementaryGroups=video render)"]
    no_libs = KmsdrmSystem(cards=lambda: ["/dev/dri/card0"], usable=lambda _p: True, find_library=lambda _n: None)
    assert kmsdrm_missing(no_libs) == ["libgbm is not installed (Debian/Ubuntu: libgbm1)",
                                       "libdrm is not installed (Debian/Ubuntu: libdrm2)"]


def test_when_nothing_opens_one_line_names_every_driver_tried() -> None:
    env = {"SDL_VIDEODRIVER": "kmsdrm", "WAYLAND_DISPLAY": "wayland-0"}
    with pytest.raises(NoDisplay) as caught:
        choose_video_driver(lambda d: f"{d} not available", env, ALL_THERE)
    line = str(caught.value)
    assert "\n" not in line and line.startswith("cannot draw on the TV: kmsdrm: kmsdrm not available; ")
    assert "wayland: no compositor at WAYLAND_DISPLAY=wayland-0" in line and "x11 not tried" in line
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"  # unchanged


@pytest.mark.skipif(bool(glob.glob("/dev/dri/card*")), reason="a GPU is here: kmsdrm might really open")
def test_kmsdrm_forced_where_it_is_not_available_exits_with_one_line_and_the_status_the_unit_keeps(
        tmp_path: Path) -> None:
    config = tmp_path / "kiosk.toml"
    config.write_text(f'[server]\ndata_dir = "{tmp_path / "data"}"\nport = 8799\n[admin]\npin = "482193"\n',
                      encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET")}
    env.update(SDL_VIDEODRIVER="kmsdrm", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "game", "--mode", "kiosk", "--config", str(config)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == ExitStatus.NO_DISPLAY
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("tabletop: cannot draw on the TV: kmsdrm: ") and "/dev/dri/card*" in lines[0]
    assert "Traceback" not in done.stderr and done.stdout == ""  # no links printed: the server never started
    assert not (tmp_path / "data" / JOURNAL_NAME).exists()  # nor was the table's journal opened
