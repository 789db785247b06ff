"""The arcade board at the table: the session's side of :class:`firmware_bridge.bridge.ArcadeBridge`.

:class:`ArcadeBoard` runs on the session's loop (the one writer). It tells the bridge when a race
is armed and over (the lamps), turns the bridge's events into session changes (a button press
goes to the race floor, an unplugged board puts up a notice, the ``map_buttons`` wizard's steps
and its finished seat → button mapping) and gives the screen its ``ArcadeInfo`` (through :meth:`ArcadeBoard.to_json`).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from game.rules.base import IllegalAction

from .snapshot import ArcadeInfo

if TYPE_CHECKING:
    from .race_floor import BoardButton

ARCADE_UNPLUGGED = "arcade_unplugged"  # notice (i18n key): the board went away, phones take over


class RaceButtons(Protocol):
    """What the buttons use of the race floor (``race_floor.RaceFloor``)."""

    @property
    def armed(self) -> bool: ...

    def press_button(self, button: BoardButton) -> None: ...

    def double_press(self, seat: int, t_ms: float) -> bool: ...


class ArcadeLink(Protocol):
    """What the session uses of :class:`firmware_bridge.bridge.ArcadeBridge`."""

    mapping: dict[int, int]

    @property
    def connected(self) -> bool: ...

    @property
    def mapping_in_progress(self) -> bool: ...

    def add_listener(self, listener: Callable[[Any], None]) -> None: ...

    def arm_race(self, race_id: str, seats: Any) -> None: ...

    def end_race(self) -> None: ...

    def start_mapping(self, seats: Any) -> None: ...

    def cancel_mapping(self) -> None: ...

    def set_mapping(self, mapping: dict[int, int]) -> None: ...


ButtonMap = tuple[tuple[int, int], ...]  # the journaled seat → button mapping (TableRecord.arcade_map)


class ArcadeBoard:
    """The board, when one is attached. ``changed``: publish a new snapshot; ``pressed``: a
    ``ButtonDown`` for the race floor; ``notice_on``/``notice_off``: show or clear a notice;
    ``mapped``: save the mapping the wizard finished with."""

    def __init__(self, *, changed: Callable[[], None], pressed: Callable[[Any], None],
                 notice_on: Callable[[str], None], notice_off: Callable[[str], None],
                 mapped: Callable[[dict[int, int]], None]) -> None:
        self._bridge: ArcadeLink | None = None
        self._waiting: int | None = None  # the seat the mapping wizard waits for
        self._done: dict[int, int] = {}  # seat -> button, pressed so far in this wizard
        self._changed = changed
        self._pressed = pressed
        self._notice_on = notice_on
        self._notice_off = notice_off
        self._mapped = mapped
        self._unplugged = False  # the board went away (the notice is up) and has not come back

    def attach(self, bridge: ArcadeLink, mapping: ButtonMap) -> None:
        """Use ``bridge`` for races, with the journaled button ``mapping`` restored."""
        self._bridge = bridge
        if mapping:
            bridge.set_mapping(dict(mapping))
        bridge.add_listener(self._on_event)
        self._changed()

    # ------------------------------------------------------------------------------ lamps
    def arm_race(self, race_id: str, seats: frozenset[int]) -> None:
        """Tell the bridge about a race, connected or not: it keeps the race while unplugged and
        lights the lamps of who has not pressed yet when the board is found again."""
        if self._bridge is not None:
            self._bridge.arm_race(race_id, seats)

    def end_race(self) -> None:
        if self._bridge is not None:
            self._bridge.end_race()

    # ----------------------------------------------------------------------- bridge events
    def _on_event(self, event: Any) -> None:
        """A bridge event (``firmware_bridge.bridge``), on the loop."""
        kind = type(event).__name__
        if kind == "ButtonDown":
            self._pressed(event)
        elif kind == "BoardLost":
            self._waiting = None
            self._done = {}
            self._unplugged = True
            self._notice_on(ARCADE_UNPLUGGED)
        elif kind == "BoardFound":
            self._unplugged = False
            self._notice_off(ARCADE_UNPLUGGED)
        elif kind == "MappingStep":
            self._waiting = event.waiting_for
            self._done[event.seat] = event.button
            self._changed()
        elif kind == "MappingDone":
            self._waiting = None
            self._done = {}
            self._mapped(dict(event.mapping))

    # ---------------------------------------------------------------------- mapping wizard
    def require_connected(self) -> None:
        if self._bridge is None or not self._bridge.connected:
            raise IllegalAction("no arcade board is connected")

    def start_mapping(self, seats: list[int]) -> None:
        """"Press your button", seat by seat (the board must be connected)."""
        self.require_connected()
        assert self._bridge is not None
        try:
            self._bridge.start_mapping(seats)
        except (RuntimeError, ValueError) as exc:
            raise IllegalAction(str(exc)) from None
        self._waiting = seats[0]
        self._done = {}
        self._changed()

    def map_buttons(self, seats: list[int], *, cancel: bool, racing: bool) -> None:
        """The host starts ("press your button", seat by seat, for ``seats``) or ``cancel``s the
        mapping wizard; not while a race runs (``racing``)."""
        self.require_connected()
        if cancel:
            self.cancel_mapping()
            return
        if racing:
            raise IllegalAction("not during a race")
        self.start_mapping(seats)

    def cancel_mapping(self) -> None:
        self.require_connected()
        assert self._bridge is not None
        self._bridge.cancel_mapping()
        self._waiting = None
        self._done = {}
        self._changed()

    def info(self, mapping: ButtonMap) -> ArcadeInfo:
        """The board as the snapshot shows it (the same facts as :meth:`to_json`)."""
        bridge = self._bridge
        return ArcadeInfo(present=bridge is not None, connected=bool(bridge is not None and bridge.connected),
                          mapping_in_progress=bool(bridge is not None and bridge.mapping_in_progress),
                          waiting_for=self._waiting, done=tuple(sorted(self._done.items())),
                          mapping=tuple(sorted(dict(mapping).items())) if mapping else None)

    def to_json(self, mapping: ButtonMap) -> dict[str, Any]:
        """The board as JSON (every phone's and the host console's ``lobby.arcade``; the snapshot's
        ``ArcadeInfo``): board present, unplugged (the phones say so: races are on them now), the
        wizard's progress, the seat → button mapping."""
        bridge = self._bridge
        return {
            "present": bridge is not None, "connected": bool(bridge is not None and bridge.connected),
            "unplugged": self._unplugged,
            "mapping_in_progress": bool(bridge is not None and bridge.mapping_in_progress),
            "waiting_for": self._waiting, "done": {str(seat): button for seat, button in self._done.items()},
            "mapping": {str(seat): button for seat, button in dict(mapping).items()} if mapping else None,
        }


class ArcadeButtons:
    """A seat's arcade button pressed: a race press while a race runs (``races``: the race
    floor), else — while a game is ``playing`` — maybe half of a double press (the race floor's
    ``double_press``: never during a race or its after-window), whose seat ``gesture`` is told."""

    def __init__(self, races: RaceButtons, playing: Callable[[], bool], gesture: Callable[[int], None]) -> None:
        self._races = races
        self._playing = playing
        self._gesture = gesture

    def down(self, button: BoardButton) -> None:
        armed = self._races.armed
        self._races.press_button(button)
        press = button.to_press(None) if not armed and self._playing() else None
        if press is None:
            return
        if self._races.double_press(press.seat, press.t_ms):
            self._gesture(press.seat)
