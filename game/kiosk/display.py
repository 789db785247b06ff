"""Which video driver draws the TV, chosen before the table starts: the one asked for
(``SDL_VIDEODRIVER``, ``kmsdrm`` in the systemd unit), then X11 when ``DISPLAY`` is set and Wayland
when ``WAYLAND_DISPLAY`` is, each tried in turn and logged. When none opens, :class:`NoDisplay`
carries one line naming what is missing (the ``/dev/dri/card*`` device, the ``video``/``render``
group, ``libgbm``/``libdrm``) and the program exits with
:attr:`~game.kiosk.supervise.ExitStatus.NO_DISPLAY`, a status the unit does not restart on:
retrying every few seconds cannot load a driver or add a group.
"""
from __future__ import annotations

import ctypes.util
import glob
import logging
import os
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field

from .supervise import ExitStatus

log = logging.getLogger(__name__)

KMSDRM = "kmsdrm"
DRM_CARDS = "/dev/dri/card*"
KMSDRM_GROUPS = ("video", "render")
KMSDRM_LIBRARIES = (("gbm", "libgbm1"), ("drm", "libdrm2"))  # (library, the Debian package holding it)
SDL_DEFAULT = ""  # nothing asked for and no desktop variables: SDL's own choice


class NoDisplay(Exception):
    """No video driver could open the TV; the message is one line naming what is missing."""


def fallback_order(env: Mapping[str, str]) -> list[str]:
    """The drivers to try, in order: the one asked for, then x11 and wayland when their display is set."""
    asked = env.get("SDL_VIDEODRIVER", "").strip().lower()
    order = [asked] if asked else []
    for driver, variable in (("x11", "DISPLAY"), ("wayland", "WAYLAND_DISPLAY")):
        if env.get(variable) and driver not in order:
            order.append(driver)
    return order or [SDL_DEFAULT]


@dataclass(frozen=True, slots=True)
class KmsdrmSystem:
    """What the kmsdrm driver needs from the machine (replaceable in tests)."""

    cards: Callable[[], list[str]] = field(default=lambda: sorted(glob.glob(DRM_CARDS)))
    usable: Callable[[str], bool] = field(default=lambda path: os.access(path, os.R_OK | os.W_OK))
    find_library: Callable[[str], str | None] = field(default=ctypes.util.find_library)


def kmsdrm_missing(system: KmsdrmSystem | None = None) -> list[str]:
    """What keeps kmsdrm from drawing here, in words an owner can act on (empty: nothing found)."""
    system = system or KmsdrmSystem()
    missing = []
    cards = system.cards()
    if not cards:
        missing.append(f"no {DRM_CARDS} device (no graphics driver loaded, or no GPU passed to this machine)")
    elif not any(system.usable(card) for card in cards):
        groups = "/".join(KMSDRM_GROUPS)
        missing.append(f"{cards[0]} is not usable by this user: add it to the {groups} groups "
                       f"(the unit's SupplementaryGroups=video render)")
    for library, package in KMSDRM_LIBRARIES:
        if system.find_library(library) is None:
            missing.append(f"lib{library} is not installed (Debian/Ubuntu: {package})")
    return missing


def why_not(driver: str, sdl_error: str, env: Mapping[str, str], system: KmsdrmSystem | None = None) -> str:
    """Why ``driver`` did not open, for the one line."""
    name = driver or "SDL's default"
    if driver == KMSDRM:
        missing = kmsdrm_missing(system)
        return f"{name}: {', '.join(missing)}" if missing else f"{name}: {sdl_error}"
    if driver == "x11" and env.get("DISPLAY"):
        return f"x11: no X server at DISPLAY={env['DISPLAY']} ({sdl_error})"
    if driver == "wayland" and env.get("WAYLAND_DISPLAY"):
        return f"wayland: no compositor at WAYLAND_DISPLAY={env['WAYLAND_DISPLAY']} ({sdl_error})"
    return f"{name}: {sdl_error}"


def choose_video_driver(try_driver: Callable[[str], str | None] | None = None,
                        env: MutableMapping[str, str] | None = None,
                        system: KmsdrmSystem | None = None) -> str:
    """Try each driver of :func:`fallback_order`; the first that opens is kept in ``SDL_VIDEODRIVER``
    for the window and returned. ``try_driver(name)`` returns None when it opened, else SDL's error.
    Raises :class:`NoDisplay` with one line when none opens."""
    env = os.environ if env is None else env
    try_driver = try_driver or sdl_opens
    order = fallback_order(env)
    failed: list[str] = []
    for driver in order:
        error = try_driver(driver)
        if error is None:
            if driver:
                env["SDL_VIDEODRIVER"] = driver
            if failed:
                log.warning("the TV is drawn with %s; tried first: %s", driver or "SDL's default", "; ".join(failed))
            else:
                log.info("the TV is drawn with %s", driver or "SDL's default")
            return driver
        failed.append(why_not(driver, error, env, system))
        log.info("video driver %s did not open: %s", driver or "SDL's default", failed[-1])
    raise NoDisplay(_one_line(order, failed))


def _one_line(order: Sequence[str], failed: Sequence[str]) -> str:
    untried = [d for d in ("x11", "wayland") if d not in order]
    also = f"; {' and '.join(untried)} not tried (no DISPLAY or WAYLAND_DISPLAY)" if untried else ""
    return (f"cannot draw on the TV: {'; '.join(failed)}{also}. Exit status {int(ExitStatus.NO_DISPLAY)}: "
            f"not restarted until this is fixed (the README's Kiosk section lists the system packages)")


def sdl_opens(driver: str) -> str | None:
    """Open and close SDL's video with ``driver`` (signal handlers left alone); None when it opened."""
    import pygame

    saved = {key: os.environ.get(key) for key in ("SDL_VIDEODRIVER", "SDL_NO_SIGNAL_HANDLERS")}
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    if driver:
        os.environ["SDL_VIDEODRIVER"] = driver
    try:
        pygame.display.init()
    except pygame.error as exc:
        return str(exc) or "failed"
    finally:
        pygame.display.quit()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return None

