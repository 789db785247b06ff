"""USB arcade encoders and game pads at the table: the session's side of ``game/render/pads.py``.

The TV's loop reads the pads (SDL joystick events through pygame-ce: the common "zero-delay"
encoder kits, game pads) and sends their plugging and their buttons as ``InputEvent``s
(``PAD_PLUGGED``, ``PAD_DOWN``); the session applies them on its loop (the one writer).

:class:`PadDesk` keeps which pads are plugged in, the journaled seat → pad button mapping
(``TableRecord.pad_map``: a button is ``"<pad id>/<button>"``, the pad id stable across replugs),
and the mapping wizard for pads ("press the button of seat N", seat by seat, as for the arcade
board). A mapped button's press becomes a :class:`PadButton`, which the race floor takes like an
arcade button (a race press with :attr:`PressSource.PAD`, or half of a double press); an unmapped
pad's buttons do nothing outside the wizard.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from game.rules.base import IllegalAction

from .race_floor import Press, PressSource

PadMap = tuple[tuple[int, str], ...]  # the journaled (seat, "<pad>/<button>") pairs, sorted by seat
PAD_ERROR_MS = 8.0  # the least a pad press may be off: half a 60 Hz frame of the TV's loop that reads it


def button_key(pad: str, button: int) -> str:
    """How a pad's button is named in the mapping."""
    return f"{pad}/{button}"


@dataclass(frozen=True, slots=True)
class PadButton:
    """A pad button pressed, on the session clock (the race floor's ``BoardButton``); ``seat`` is
    None for a button no seat is mapped to."""

    seat: int | None
    t_ms: float
    error_ms: float

    def to_press(self, race_id: str | None = None) -> Press | None:
        if self.seat is None:
            return None
        return Press(self.seat, self.t_ms, PressSource.PAD, max(PAD_ERROR_MS, self.error_ms), race_id)


def pad_map_from(data: Any) -> PadMap:
    """The journaled pairs (a seat and a button at most once each); anything else raises ValueError."""
    pairs = tuple((int(seat), str(key)) for seat, key in data)
    seats, keys = [p[0] for p in pairs], [p[1] for p in pairs]
    if len(set(seats)) != len(seats) or len(set(keys)) != len(keys) or any(s < 0 for s in seats) \
            or any("/" not in k for k in keys):
        raise ValueError("journal table has a wrong pad button mapping")
    return tuple(sorted(pairs))


class PadDesk:
    """The pads plugged in, their mapping and their wizard. ``changed``: publish a new snapshot;
    ``mapped``: journal the mapping the wizard finished with."""

    def __init__(self, mapping: PadMap, *, changed: Callable[[], None], mapped: Callable[[PadMap], None]) -> None:
        self._pads: dict[str, str] = {}  # pad id -> its name, plugged in now
        self._seats: dict[str, int] = {key: seat for seat, key in mapping}
        self._changed = changed
        self._mapped = mapped
        self._queue: list[int] | None = None  # the wizard: seats still to press, in order
        self._done: dict[int, str] = {}  # seat -> button key, pressed so far in this wizard

    @property
    def present(self) -> bool:
        return bool(self._pads)

    @property
    def mapping_in_progress(self) -> bool:
        return self._queue is not None

    @property
    def waiting_for(self) -> int | None:
        return self._queue[0] if self._queue else None

    @property
    def done(self) -> dict[int, int]:
        """The wizard's progress: seat -> the pad button number it pressed."""
        return {seat: int(key.rsplit("/", 1)[1]) for seat, key in self._done.items()}

    def plugged(self, pad: str, name: str, on: bool) -> None:
        """A pad came (``on``) or went; the wizard stops when the last one goes."""
        if on:
            self._pads[pad] = name
        else:
            self._pads.pop(pad, None)
            if not self._pads:
                self._queue, self._done = None, {}
        self._changed()

    def down(self, pad: str, button: int, t_ms: float, error_ms: float) -> PadButton | None:
        """A pad's button: the wizard's next seat while it runs (None), else the mapped seat's press."""
        key = button_key(pad, button)
        if self._queue is not None:
            self._wizard_press(key)
            return None
        return PadButton(self._seats.get(key), t_ms, error_ms)

    # ------------------------------------------------------------------------------- wizard
    def start(self, seats: list[int]) -> None:
        if not self._pads:
            raise IllegalAction("no arcade buttons or pads are plugged in")
        if not seats:
            raise IllegalAction("no seats to map")
        self._queue, self._done = list(seats), {}
        self._changed()

    def cancel(self) -> None:
        self._queue, self._done = None, {}
        self._changed()

    def _wizard_press(self, key: str) -> None:
        assert self._queue is not None
        if key in self._done.values():
            return  # a button already given to a seat in this wizard
        seat = self._queue.pop(0)
        self._done[seat] = key
        if self._queue:
            self._changed()
            return
        done, self._queue, self._done = self._done, None, {}
        kept = {k: s for k, s in self._seats.items() if s not in done and k not in done.values()}
        self._seats = {**kept, **{k: s for s, k in done.items()}}
        self._mapped(tuple(sorted((s, k) for k, s in self._seats.items())))
