"""USB arcade encoders and game pads on the TV's loop: SDL joystick events (pygame-ce) as inputs.

The common "zero-delay" encoder kits (DragonRise, Xinmotek, Reyann, ...) and game pads are USB
HID joysticks; SDL reports them as ``JOYDEVICEADDED`` / ``JOYDEVICEREMOVED`` (hot-plug) and
``JOYBUTTONDOWN``. :class:`Pads` turns those into ``InputEvent``s for the session
(``PAD_PLUGGED``, ``PAD_DOWN``), which maps a pad's buttons to seats with the arcade wizard
(``game/session/pads.py``) and judges their presses like any source (``PressSource.PAD``).

A pad is named by its SDL GUID (the same for every unit of one model) and its place among the
plugged pads of that GUID (``<guid>#0``, ``#1``): stable across replugging, so the journaled mapping
holds. SDL delivers a press when the loop pumps events (once a frame), so a press is stamped
half-way between the previous pump and this one, with half that gap as its error (the session
counts at least ``PAD_ERROR_MS``, the USB pad's precision shown with its source).
"""
from __future__ import annotations

import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import pygame

from game.clock import monotonic_ms
from game.session.snapshot import InputEvent, InputKind, InputSource

log = logging.getLogger(__name__)

# SDL drops joystick events while its window is not focused (a desktop with the host's console in
# front of the TV's window): the guests' buttons must work whatever has the focus. Read by SDL when
# pygame.init() opens the joystick subsystem, which run_window does after importing this module.
os.environ.setdefault("SDL_JOYSTICK_ALLOW_BACKGROUND_EVENTS", "1")

PAD_EVENTS = frozenset({pygame.JOYDEVICEADDED, pygame.JOYDEVICEREMOVED, pygame.JOYBUTTONDOWN})


class Joystick(Protocol):
    """What :class:`Pads` uses of ``pygame.joystick.JoystickType``."""

    def get_instance_id(self) -> int: ...

    def get_guid(self) -> str: ...

    def get_name(self) -> str: ...


def open_joystick(device_index: int) -> Joystick:
    return pygame.joystick.Joystick(device_index)


@dataclass(frozen=True, slots=True)
class Pad:
    id: str  # "<guid>#<n>"
    name: str
    device: Joystick  # kept open: SDL sends a closed joystick's events no more


class Pads:
    """The pads plugged in, by SDL instance id. ``clock``: the session clock (ms); ``open_pad``:
    opens SDL device ``index`` (tests give a fake for a posted ``JOYDEVICEADDED``)."""

    def __init__(self, clock: Callable[[], float] = monotonic_ms,
                 open_pad: Callable[[int], Joystick] = open_joystick) -> None:
        self._clock = clock
        self._open = open_pad
        self._pads: dict[int, Pad] = {}
        self._last_pump: float | None = None

    @staticmethod
    def owns(event: pygame.event.Event) -> bool:
        return event.type in PAD_EVENTS

    def pumped(self) -> None:
        """The loop has taken this frame's events: later presses happened after now."""
        self._last_pump = self._clock()

    def input(self, event: pygame.event.Event) -> list[InputEvent]:
        """The session's inputs for one pad event (none for a device that cannot be opened)."""
        if event.type == pygame.JOYDEVICEADDED:
            return self._added(int(event.device_index))
        if event.type == pygame.JOYDEVICEREMOVED:
            pad = self._pads.pop(int(event.instance_id), None)
            return [] if pad is None else [self._plugged(pad, False)]
        if event.type == pygame.JOYBUTTONDOWN:
            pad = self._pads.get(int(event.instance_id))
            if pad is None:
                return []
            now = self._clock()
            half = max(0.0, now - self._last_pump) / 2 if self._last_pump is not None else 0.0
            return [InputEvent(InputSource.PAD, InputKind.PAD_DOWN, None,
                               {"pad": pad.id, "button": int(event.button), "error_ms": round(half, 3)}, now - half)]
        return []

    def _added(self, index: int) -> list[InputEvent]:
        try:
            device = self._open(index)
            instance, guid, name = device.get_instance_id(), device.get_guid(), device.get_name()
        except pygame.error as exc:
            log.warning("a USB pad could not be opened: %s", exc)
            return []
        if instance in self._pads:
            return []
        taken = {p.id for p in self._pads.values()}
        n = next(k for k in range(len(taken) + 1) if f"{guid}#{k}" not in taken)
        pad = self._pads[instance] = Pad(f"{guid}#{n}", name, device)
        log.info("USB pad plugged in: %s (%s)", name, pad.id)
        return [self._plugged(pad, True)]

    def _plugged(self, pad: Pad, on: bool) -> InputEvent:
        return InputEvent(InputSource.PAD, InputKind.PAD_PLUGGED, None, {"pad": pad.id, "name": pad.name, "on": on},
                          self._clock())
