"""Whether the big screen has somewhere to draw, decided before SDL is touched: without a display
SDL quietly falls back to an off-screen driver (a core's worth of drawing nobody sees) and its
audio layer fills the terminal with ALSA and XDG complaints."""
from __future__ import annotations

import glob
import os
import sys
from collections.abc import Callable, Mapping, MutableMapping

NO_WINDOW_DRIVERS = frozenset({"dummy", "offscreen"})
NO_SOUND_MARK = "no soundcards"


def no_display(env: Mapping[str, str] | None = None, platform: str = sys.platform,
               has_gpu: Callable[[], bool] = lambda: bool(glob.glob("/dev/dri/card*"))) -> bool:
    """True when a window could not be seen: on Linux, no X11 or Wayland display, no console GPU
    (KMS/DRM) and no video driver chosen by hand. Other systems always have a desktop."""
    env = os.environ if env is None else env
    if not platform.startswith("linux"):
        return False
    driver = env.get("SDL_VIDEODRIVER", "").strip().lower()
    if driver:
        return driver in NO_WINDOW_DRIVERS
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or has_gpu())


def quiet_audio(env: MutableMapping[str, str] | None = None, cards: str = "/proc/asound/cards") -> None:
    """No sound card: SDL's dummy audio driver instead of ALSA's screenful of errors."""
    env = os.environ if env is None else env
    if "SDL_AUDIODRIVER" in env:
        return
    try:
        with open(cards, encoding="utf-8", errors="replace") as f:
            listed = f.read()
    except OSError:
        listed = NO_SOUND_MARK
    if NO_SOUND_MARK in listed or not listed.strip():
        env["SDL_AUDIODRIVER"] = "dummy"
