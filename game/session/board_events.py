"""What an arcade board reports to the table (``firmware_bridge.bridge.ArcadeBridge`` sends them):
the session's own types, so that :class:`~game.session.arcade.ArcadeBoard` matches on them and the
bridge, a layer above, imports them from here."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .race_floor import Press, PressSource
from .snapshot import InputEvent, InputKind, InputSource

__all__ = ["SCAN_RESOLUTION_MS", "BoardFound", "BoardIncompatible", "BoardLost", "BridgeEvent", "ButtonDown",
           "ButtonUp", "MappingDone", "MappingStep", "RaceLit"]

SCAN_RESOLUTION_MS = 0.05  # the firmware scans every few µs; its timestamps are exact to this


@dataclass(frozen=True, slots=True)
class BoardFound:
    port: str
    hello: Any  # the board's hello frame (``firmware_bridge.framing.Hello``)


@dataclass(frozen=True, slots=True)
class BoardLost:
    port: str
    reason: str  # "unplugged", "silent" (no heartbeat), "closed"


@dataclass(frozen=True, slots=True)
class BoardIncompatible:
    """A board answered, but with another protocol version: it needs the matching firmware."""

    port: str
    hello: Any


@dataclass(frozen=True, slots=True)
class ButtonDown:
    """A press, on the session clock. ``seat`` is None for a button no seat is mapped to."""

    button: int
    seat: int | None
    t_ms: float
    error_ms: float
    device_us: int
    clock: str = ""  # same value: converted from one board's clock by one map (see Press.clock)

    def to_press(self, race_id: str | None = None) -> Press | None:
        if self.seat is None:
            return None
        return Press(self.seat, self.t_ms, PressSource.ARCADE, self.error_ms, race_id, self.clock, SCAN_RESOLUTION_MS)

    def to_input_event(self, race_id: str | None = None) -> InputEvent | None:
        if self.seat is None:
            return None
        payload = {"race": race_id, "t_ms": self.t_ms, "error_ms": self.error_ms, "button": self.button}
        return InputEvent(InputSource.ARCADE, InputKind.PRESS, self.seat, payload, int(self.t_ms))


@dataclass(frozen=True, slots=True)
class ButtonUp:
    button: int
    seat: int | None
    t_ms: float


@dataclass(frozen=True, slots=True)
class RaceLit:
    """The board lit the race's lamps at ``t_ms`` (session clock)."""

    race_id: str
    t_ms: float


@dataclass(frozen=True, slots=True)
class MappingStep:
    seat: int  # the seat that just got a button
    button: int
    waiting_for: int | None  # the next seat to press, None when done


@dataclass(frozen=True, slots=True)
class MappingDone:
    mapping: dict[int, int]  # seat -> button


BridgeEvent = BoardFound | BoardLost | BoardIncompatible | ButtonDown | ButtonUp | RaceLit | MappingStep | MappingDone
