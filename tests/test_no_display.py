"""``tabletop`` on a machine with no display says so and runs headless, with a
clean terminal (no SDL off-screen window, no ALSA/XDG noise); ``tools/test`` says before it runs
apt-get that it needs root or sudo; the phone README no longer says phones cannot press in races."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from game.display_check import no_display, quiet_audio

ROOT = Path(__file__).resolve().parents[1]


def test_no_display_is_told_from_the_environment() -> None:
    def no_gpu() -> bool:
        return False

    assert no_display({}, "linux", no_gpu)
    assert not no_display({"DISPLAY": ":0"}, "linux", no_gpu)
    assert not no_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux", no_gpu)
    assert not no_display({}, "linux", lambda: True)  # a console with KMS/DRM (a kiosk without X)
    assert no_display({"DISPLAY": ":0", "SDL_VIDEODRIVER": "offscreen"}, "linux", no_gpu)
    assert not no_display({"SDL_VIDEODRIVER": "kmsdrm"}, "linux", no_gpu)
    assert not no_display({}, "darwin", no_gpu) and not no_display({}, "win32", no_gpu)


def test_no_sound_card_means_sdls_dummy_audio(tmp_path: Path) -> None:
    env: dict[str, str] = {}
    quiet_audio(env, str(tmp_path / "missing"))
    assert env == {"SDL_AUDIODRIVER": "dummy"}
    cards = tmp_path / "cards"
    cards.write_text(" 0 [PCH            ]: HDA-Intel - HDA Intel PCH\n", encoding="utf-8")
    env = {}
    quiet_audio(env, str(cards))
    assert env == {}
    env = {"SDL_AUDIODRIVER": "pulseaudio"}
    quiet_audio(env, str(tmp_path / "missing"))
    assert env == {"SDL_AUDIODRIVER": "pulseaudio"}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_tabletop_without_a_display_runs_headless_with_a_clean_terminal(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY") and not k.startswith("SDL_")}
    env.update(PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    if no_display(env) is False:  # this machine has a console GPU: the window would open for real
        return
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "--host", "127.0.0.1", "--port", str(_free_port()), "--data", str(tmp_path),
         "--new", "--pin", "246813"], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("Host:"):  # the links are printed with or without a window
                break
        else:
            raise AssertionError("tabletop did not start")
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[:1] == ["tabletop: no display found — running headless (phones, /watch and /host work as usual; "
                         "start with --headless to skip this check)"]
    assert not [line for line in lines if "ALSA" in line or "XDG" in line], err


def test_tools_test_says_it_needs_root_or_sudo_before_apt_get() -> None:
    script = (ROOT / "tools" / "test").read_text(encoding="utf-8")
    notice = script.find("needs root or sudo")
    assert 0 <= notice < script.find("apt-get update")


def test_the_phone_readme_says_phones_press_in_races() -> None:
    readme = (ROOT / "game" / "web" / "README.md").read_text(encoding="utf-8")
    assert "no phone\n  `press` message" not in readme and "`press`" in readme
