"""The arcade board at the table: the session's side of :class:`firmware_bridge.bridge.ArcadeBridge`.

:class:`ArcadeBoard` runs on the session's loop (the one writer). It tells the bridge when a race
is armed and over (the lamps), turns the bridge's events into session changes (a button press
goes to the race floor, an unplugged board puts up a notice, the ``map_buttons`` wizard's steps
and its finished seat → button mapping) and gives the screen its ``ArcadeInfo`` (through :meth:`ArcadeBoard.to_json`).
USB arcade encoders and game pads (``pads.py``) are the table's buttons too: mapped by the same
wizard (when no board is connected), their presses judged like the board's. :func:`device_input`
takes what the TV's loop reports: its race signals and its pads.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from game.rules.base import IllegalAction, MalformedAction

from .board_events import BoardFound, BoardLost, BridgeEvent, ButtonDown, MappingDone, MappingStep
from .pads import PAD_ERROR_MS, PadDesk, PadMap
from .snapshot import ArcadeInfo, InputEvent, InputKind

if TYPE_CHECKING:
    from .race_floor import BoardButton, RaceFloor

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
    ``mapped``: save the mapping the wizard finished with (``arcade_map=`` or ``pad_map=``, the
    table record's fields); ``pad_map``: the journaled pad mapping."""

    def __init__(self, *, changed: Callable[[], None], pressed: Callable[[Any], None],
                 notice_on: Callable[[str], None], notice_off: Callable[[str], None],
                 mapped: Callable[..., None], pad_map: PadMap = ()) -> None:
        self._bridge: ArcadeLink | None = None
        self.pads = PadDesk(pad_map, changed=changed, mapped=lambda done: mapped(pad_map=done))
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

    def press(self, button: BoardButton) -> None:
        """A button pressed (the board's, or a USB pad's): to the race floor and the gestures."""
        self._pressed(button)

    # ----------------------------------------------------------------------- bridge events
    def _on_event(self, event: BridgeEvent) -> None:
        """A bridge event (``board_events.py``), on the loop; the others (button up, lamps lit, a
        board with other firmware) are the bridge's own business."""
        match event:
            case ButtonDown():
                self._pressed(event)
            case BoardLost():
                self._waiting = None
                self._done = {}
                self._unplugged = True
                self._notice_on(ARCADE_UNPLUGGED)
            case BoardFound():
                self._unplugged = False
                self._notice_off(ARCADE_UNPLUGGED)
            case MappingStep(seat=seat, button=button, waiting_for=waiting_for):
                self._waiting = waiting_for
                self._done[seat] = button
                self._changed()
            case MappingDone(mapping=mapping):
                self._waiting = None
                self._done = {}
                self._mapped(arcade_map=tuple(sorted(dict(mapping).items())))

    # ---------------------------------------------------------------------- mapping wizard
    @property
    def _board_on(self) -> bool:
        return self._bridge is not None and self._bridge.connected

    def require_connected(self) -> None:
        if not self._board_on and not self.pads.present:
            raise IllegalAction("no arcade board is connected")

    def start_mapping(self, seats: list[int]) -> None:
        """"Press your button", seat by seat: on the board when one is connected, else on the pads."""
        self.require_connected()
        if not self._board_on:
            self.pads.start(seats)
            return
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
        if self.pads.mapping_in_progress or not self._board_on:
            self.pads.cancel()
            return
        assert self._bridge is not None
        self._bridge.cancel_mapping()
        self._waiting = None
        self._done = {}
        self._changed()

    def info(self, mapping: ButtonMap) -> ArcadeInfo:
        """The board as the snapshot shows it (the same facts as :meth:`to_json`)."""
        bridge, pads = self._bridge, self.pads
        if pads.mapping_in_progress:
            return ArcadeInfo(True, True, True, pads.waiting_for, tuple(sorted(pads.done.items())),
                              tuple(sorted(dict(mapping).items())) if mapping else None, pads=True)
        return ArcadeInfo(present=bridge is not None or pads.present, connected=self._board_on or pads.present,
                          mapping_in_progress=bool(bridge is not None and bridge.mapping_in_progress),
                          waiting_for=self._waiting, done=tuple(sorted(self._done.items())),
                          mapping=tuple(sorted(dict(mapping).items())) if mapping else None, pads=pads.present)

    def to_json(self, mapping: ButtonMap) -> dict[str, Any]:
        """The board as JSON (every phone's and the host console's ``lobby.arcade``; the snapshot's
        ``ArcadeInfo``): board present, unplugged (the phones say so: races are on them now), the
        wizard's progress, the seat → button mapping."""
        bridge, pads = self._bridge, self.pads
        done = pads.done if pads.mapping_in_progress else self._done
        return {
            "present": bridge is not None or pads.present, "connected": self._board_on or pads.present,
            "unplugged": self._unplugged, "pads": pads.present,
            "mapping_in_progress": bool(bridge is not None and bridge.mapping_in_progress) or pads.mapping_in_progress,
            "waiting_for": pads.waiting_for if pads.mapping_in_progress else self._waiting,
            "done": {str(seat): button for seat, button in done.items()},
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


def device_input(event: InputEvent, board: ArcadeBoard, races: RaceFloor) -> bool:
    """What the TV's loop reports, on the session's loop: that it shows the races' signal, the flip
    of a race's first frame (the race opens then: ``RaceFloor.signal``), a USB pad plugged or
    unplugged and a pad's button (the wizard's, or a mapped seat's press like an arcade button's).
    False: not such an input. A malformed one raises MalformedAction and changes nothing."""
    payload = event.payload
    if event.kind is InputKind.SCREEN:
        races.screen = payload.get("on") is True
    elif event.kind is InputKind.SIGNAL:
        races.signal(_text(payload.get("race")), event.t_ms)
    elif event.kind is InputKind.PAD_PLUGGED:
        board.pads.plugged(_text(payload.get("pad")), str(payload.get("name", "")), payload.get("on") is True)
    elif event.kind is InputKind.PAD_DOWN:
        button, error = payload.get("button"), payload.get("error_ms", PAD_ERROR_MS)
        if not isinstance(button, int) or isinstance(button, bool) or button < 0 or not isinstance(error, (int, float)):
            raise MalformedAction("a pad press needs its button number and error")
        press = board.pads.down(_text(payload.get("pad")), button, float(event.t_ms), float(error))
        if press is not None:
            board.press(press)
    else:
        return False
    return True


def _text(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise MalformedAction("expected a name")
    return value
