"""The host side of the arcade-button board, on the session's asyncio loop.

Layers (as in pyserial's ``threaded`` module, but on the event loop, no reader thread):

* :class:`SerialLink` — the transport: opens the port with pyserial, reads the file descriptor in
  chunks when the loop says it is readable (never ``readline``), buffers writes, reports
  ``connection_lost`` on unplug (EOF or an I/O error).
* :class:`BoardProtocol` — framing and decoding (``framing.py``): good lines become messages,
  bad ones are counted and dropped; sequence gaps (a press line lost to noise) are healed by asking
  the board to ``RESEND``; replayed duplicates are ignored.
* :class:`ArcadeBridge` — finds the board (``--serial PORT``, else USB VID/PID, else any USB serial
  port that answers ``HI`` with a hello), keeps the clock synchronised, maps buttons to seats, lights
  lamps, arms races, and turns device-timestamped presses into session-clock events. It watches the
  heartbeat; when the board goes away it says so (:class:`BoardLost`) and polls until it is back.

The session (one writer) uses it like this::

    bridge = ArcadeBridge(port=config.serial, clock=session_clock_ms)
    bridge.add_listener(session.on_arcade_event)      # BoardFound, BoardLost, ButtonDown, ...
    await bridge.start()
    bridge.start_mapping([0, 1, 2, 3])               # lobby wizard: MappingStep ... MappingDone
    bridge.arm_race("moth-7", seats={1, 2, 3})       # lamps light; ButtonDown.to_press() -> judge
    bridge.end_race()
    await bridge.stop()
"""
from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import serial
import serial.tools.list_ports

from game.session.board_events import (  # the session's types: the bridge reports these
    BoardFound,
    BoardIncompatible,
    BoardLost,
    BridgeEvent,
    ButtonDown,
    ButtonUp,
    MappingDone,
    MappingStep,
    RaceLit,
)
from game.session.scheduler import monotonic_ms

from . import framing as fr
from .clock import ClockSample, ClockSync

log = logging.getLogger(__name__)

# USB ids of boards the firmware supports (Raspberry Pi RP2040 boards; SparkFun Pro Micro; Arduino).
KNOWN_USB_IDS: frozenset[tuple[int, int]] = frozenset(
    {(0x2E8A, 0x000A), (0x2E8A, 0x00C0), (0x1B4F, 0x9205), (0x1B4F, 0x9206), (0x2341, 0x8036), (0x2341, 0x8037)}
)


# ------------------------------------------------------------------------------------ events
class BridgeState(enum.Enum):
    STOPPED = "stopped"
    SEARCHING = "searching"
    CONNECTED = "connected"


Listener = Callable[[BridgeEvent], None]


class BridgeError(RuntimeError):
    """A request the bridge cannot carry out now (no board, unknown seat, ...)."""


@dataclass(slots=True)
class LinkStats:
    lines: int = 0
    bytes: int = 0
    dropped: Counter[str] = field(default_factory=Counter)
    resends: int = 0
    device_errors: Counter[str] = field(default_factory=Counter)


# --------------------------------------------------------------------------------- transport
class SerialLink:
    """Non-blocking reads and writes of an open serial port on the loop (POSIX file descriptor)."""

    def __init__(self, loop: asyncio.AbstractEventLoop, port: serial.Serial, protocol: BoardProtocol) -> None:
        self._loop = loop
        self._port = port
        self._fd = port.fileno()
        self._protocol = protocol
        self._out = bytearray()
        self._closed = False
        os.set_blocking(self._fd, False)
        loop.add_reader(self._fd, self._on_readable)
        protocol.connection_made(self)

    @classmethod
    def open(cls, loop: asyncio.AbstractEventLoop, path: str, protocol: BoardProtocol) -> SerialLink:
        port = serial.Serial()
        port.port = path
        port.baudrate = 115200  # ignored by USB CDC boards
        port.timeout = 0
        port.exclusive = True
        port.open()  # raises serial.SerialException (or OSError) if absent or busy
        return cls(loop, port, protocol)

    @property
    def closed(self) -> bool:
        return self._closed

    def _on_readable(self) -> None:
        try:
            data = os.read(self._fd, 65536)
        except BlockingIOError:
            return
        except OSError as exc:
            self._lose(exc)
            return
        if not data:
            self._lose(ConnectionError("end of file: the board was unplugged"))
            return
        self._protocol.data_received(data)

    def write(self, data: bytes) -> None:
        if self._closed:
            return
        if self._out:
            self._out += data
            return
        try:
            sent = os.write(self._fd, data)
        except BlockingIOError:
            sent = 0
        except OSError as exc:
            self._lose(exc)
            return
        if sent < len(data):
            self._out += data[sent:]
            self._loop.add_writer(self._fd, self._on_writable)

    def _on_writable(self) -> None:
        try:
            sent = os.write(self._fd, self._out)
        except BlockingIOError:
            return
        except OSError as exc:
            self._lose(exc)
            return
        del self._out[:sent]
        if not self._out:
            self._loop.remove_writer(self._fd)

    def _lose(self, exc: BaseException | None) -> None:
        if self._closed:
            return
        self.close()
        self._protocol.connection_lost(exc)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._loop.remove_reader(self._fd)
        self._loop.remove_writer(self._fd)
        with contextlib.suppress(OSError, serial.SerialException):
            self._port.close()


# ---------------------------------------------------------------------------------- protocol
class BoardProtocol:
    """Bytes in, messages out (to ``on_message``), with gap healing. No policy here."""

    def __init__(self, on_message: Callable[[fr.DeviceMessage], None], on_lost: Callable[[BaseException | None], None]) -> None:
        self._on_message = on_message
        self._on_lost = on_lost
        self._framer = fr.LineFramer()
        self.link: SerialLink | None = None
        self.stats = LinkStats()
        self._highest: int | None = None  # highest edge seq seen since the (re)connection
        self._seen: set[int] = set()
        self._resend_asked: int | None = None

    # transport callbacks
    def connection_made(self, link: SerialLink) -> None:
        self.link = link

    def connection_lost(self, exc: BaseException | None) -> None:
        self.link = None
        self._on_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.stats.bytes += len(data)
        for item in self._framer.feed(data):
            if isinstance(item, fr.FrameError):
                self.stats.dropped[item.kind] += 1
                continue
            try:
                msg = fr.decode_device(item)
            except fr.FrameError as exc:
                self.stats.dropped[exc.kind] += 1
                continue
            self.stats.lines += 1
            self._dispatch(msg)

    def send(self, cmd: fr.HostCommand) -> None:
        if self.link is not None:
            self.link.write(fr.encode(cmd))

    def restart_sequence(self, last_seq: int) -> None:
        """Start tracking from the board's hello: ``last_seq`` edges happened before we listened
        (or before the reboot it announces) and are not asked for."""
        self._highest = last_seq
        self._seen = {s for s in self._seen if s <= last_seq}
        self._resend_asked = None

    # sequence tracking
    def _dispatch(self, msg: fr.DeviceMessage) -> None:
        if isinstance(msg, fr.ButtonEdge):
            if not self._fresh(msg.seq):
                return
        elif isinstance(msg, fr.Heartbeat):
            self._check_heartbeat(msg.last_seq)
        elif isinstance(msg, fr.DeviceError):
            self.stats.device_errors[msg.code.value] += 1
        self._on_message(msg)

    def _fresh(self, seq: int) -> bool:
        if seq in self._seen:
            return False  # a replayed edge we already have
        self._seen.add(seq)
        if len(self._seen) > 512:
            self._seen = {s for s in self._seen if s > seq - 256}
        if self._highest is None:
            self._highest = seq
        elif seq > self._highest + 1:
            self._ask_resend(self._highest + 1)
            self._highest = seq
        else:
            self._highest = max(self._highest, seq)
        return True

    def _check_heartbeat(self, last_seq: int) -> None:
        if self._highest is None:
            self._highest = last_seq  # edges from before we connected are not ours
        elif last_seq > self._highest:
            self._ask_resend(self._highest + 1)
            self._highest = last_seq
        elif self._resend_asked is not None:
            missing = [s for s in range(self._resend_asked, self._highest + 1) if s not in self._seen]
            self._resend_asked = None
            if missing:
                self._ask_resend(missing[0])

    def _ask_resend(self, seq: int) -> None:
        self._resend_asked = seq if self._resend_asked is None else min(self._resend_asked, seq)
        self.stats.resends += 1
        self.send(fr.Resend(seq))


# ------------------------------------------------------------------------------- port finding
def candidate_ports() -> list[str]:
    """Serial ports that may be the board: known USB ids first, then other USB serial ports."""
    known: list[str] = []
    other: list[str] = []
    for info in serial.tools.list_ports.comports():
        if info.vid is None:
            continue
        (known if (info.vid, info.pid) in KNOWN_USB_IDS else other).append(info.device)
    return known + other


class PortScan:
    """The board's candidate ports, listed again only when they may have changed: a serial device
    plugged in or out adds or removes a node in ``/dev`` (the directory's mtime moves), so between
    changes the search costs one ``stat`` instead of pyserial walking ``/sys`` and matching names.
    A full listing every ``backstop_s`` catches what a watched directory's mtime would miss."""

    def __init__(self, listing: Callable[[], list[str]] = candidate_ports, watched: Sequence[str] = ("/dev",),
                 backstop_s: float = 30.0, clock: Callable[[], float] = time.monotonic) -> None:
        self._listing, self._watched, self._backstop_s, self._clock = listing, tuple(watched), backstop_s, clock
        self._stamp: tuple[int, ...] | None = None
        self._listed_at = float("-inf")
        self._ports: list[str] = []
        self.listings = 0  # full listings made (for tests and the bench)

    def _now_stamp(self) -> tuple[int, ...]:
        stamps = []
        for path in self._watched:
            try:
                stamps.append(os.stat(path).st_mtime_ns)
            except OSError:
                stamps.append(-1)
        return tuple(stamps)

    def __call__(self) -> list[str]:
        stamp, now = self._now_stamp(), self._clock()
        if stamp != self._stamp or now - self._listed_at >= self._backstop_s:
            self._stamp, self._listed_at = stamp, now
            self._ports = self._listing()
            self.listings += 1
        return list(self._ports)


# ------------------------------------------------------------------------------------ bridge
class ArcadeBridge:
    """See the module docstring. All methods are called on the loop that ran ``start()``."""

    def __init__(
        self,
        *,
        port: str | None = None,
        clock: Callable[[], float] = monotonic_ms,
        ports: Callable[[], list[str]] | None = None,
        poll_s: float = 0.5,
        handshake_s: float = 1.0,
        silence_s: float = 2.5,
        sync_every_s: float = 1.0,
    ) -> None:
        self.port = port  # None: search
        self._clock = clock
        self._ports = ports if ports is not None else PortScan()  # a new listing only when /dev changed
        self._poll_s = poll_s
        self._handshake_s = handshake_s
        self._silence_s = silence_s
        self._sync_every_s = sync_every_s
        self._listeners: list[Listener] = []
        self.state = BridgeState.STOPPED
        self.hello: fr.Hello | None = None
        self.connected_port: str | None = None
        self.sync = ClockSync()
        self.mapping: dict[int, int] = {}  # seat -> button; empty: button i is seat i
        self._protocol: BoardProtocol | None = None
        self._task: asyncio.Task[None] | None = None
        self._hello_waiter: asyncio.Future[fr.Hello] | None = None
        self._lost: asyncio.Event = asyncio.Event()
        self._last_rx = 0.0
        self._tokens = itertools.count(1)
        self._pending_clk: dict[int, float] = {}
        self._refused: set[str] = set()
        self._incompatible: set[str] = set()  # said so once; not again until it changes
        self._race_numbers = itertools.count(1)
        self._race: tuple[str, int, frozenset[int]] | None = None
        self._race_pressed: set[int] = set()  # seats of the race seen pressing
        self._wizard: list[int] | None = None  # seats still to map, in order
        self._wizard_done: dict[int, int] = {}
        self._side_tasks: set[asyncio.Task[None]] = set()
        self._unsynced: list[fr.ButtonEdge] = []  # edges received before the first clock sample

    # ---------------------------------------------------------------- listeners and lifecycle
    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _emit(self, event: BridgeEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # a faulty listener must not break the link
                log.exception("arcade listener failed on %r", event)

    @property
    def connected(self) -> bool:
        return self.state is BridgeState.CONNECTED

    @property
    def stats(self) -> LinkStats:
        return self._protocol.stats if self._protocol else LinkStats()

    async def start(self) -> None:
        if self._task is None:
            self.state = BridgeState.SEARCHING
            self._task = asyncio.get_running_loop().create_task(self._supervise(), name="arcade-bridge")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for side in list(self._side_tasks):
            side.cancel()
        self._close_link()
        self.state = BridgeState.STOPPED

    async def wait_connected(self, timeout: float) -> fr.Hello:
        """For tools and tests: wait until a board is connected."""
        async def poll() -> fr.Hello:
            while self.hello is None or not self.connected:
                await asyncio.sleep(0.01)
            return self.hello
        return await asyncio.wait_for(poll(), timeout)

    # ---------------------------------------------------------------- the supervisor
    async def _supervise(self) -> None:
        while True:
            for path in self._candidates():
                if await self._try_connect(path):
                    await self._run_connected(path)
                    break
            await asyncio.sleep(self._poll_s)

    def _candidates(self) -> list[str]:
        if self.port is not None:
            return [self.port]
        listed = self._ports()
        self._refused &= set(listed)  # a port that went away may come back as the board
        return [p for p in listed if p not in self._refused]

    async def _try_connect(self, path: str) -> bool:
        loop = asyncio.get_running_loop()
        self._lost = asyncio.Event()
        protocol = BoardProtocol(self._on_message, self._on_link_lost)
        try:
            SerialLink.open(loop, path, protocol)
        except (OSError, serial.SerialException, ValueError):
            return False  # not there (yet) or busy
        self._protocol = protocol
        hello = await self._handshake()
        if hello is None or hello.protocol != fr.PROTOCOL_VERSION:
            self._close_link()
            if self.port is None:
                self._refused.add(path)
            if hello is not None and path not in self._incompatible:
                self._incompatible.add(path)
                log.warning("board on %s speaks protocol %d, not %d", path, hello.protocol, fr.PROTOCOL_VERSION)
                self._emit(BoardIncompatible(path, hello))
            return False
        self._incompatible.discard(path)
        protocol.restart_sequence(hello.last_seq)
        self._on_connected(path, hello)
        return True

    async def _handshake(self) -> fr.Hello | None:
        self._hello_waiter = asyncio.get_running_loop().create_future()
        try:
            for _ in range(3):
                self._send(fr.HelloRequest())
                try:
                    return await asyncio.wait_for(asyncio.shield(self._hello_waiter), self._handshake_s / 3)
                except TimeoutError:
                    if self._lost.is_set():
                        return None
            return None
        finally:
            self._hello_waiter = None

    def _on_connected(self, path: str, hello: fr.Hello) -> None:
        self.hello = hello
        self.connected_port = path
        self.state = BridgeState.CONNECTED
        self._last_rx = self._clock()
        if self.mapping and max(self.mapping.values()) >= hello.buttons:
            self.mapping = {}
        if self._race is not None:  # plugged back mid-race: light the lamps of who has not pressed
            self._send(fr.Arm(self._race[1], self._mask_of(self._race[2] - self._race_pressed)))
        self._emit(BoardFound(path, hello))

    async def _run_connected(self, path: str) -> None:
        try:
            await self._sync_burst()
            if self._race is not None:  # reconnected mid-race: one map for the rest of it
                self.sync.freeze()
            while not self._lost.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._lost.wait(), self._sync_every_s)
                if self._clock() - self._last_rx > self._silence_s * 1000:
                    self._close_link()
                    self._lose(path, "silent")
                    return
                self._request_clock()
            self._lose(path, "unplugged")
        finally:
            self._close_link()

    async def _sync_burst(self) -> None:
        for _ in range(8):
            self._request_clock()
            await asyncio.sleep(0.01)

    def _lose(self, path: str, reason: str) -> None:
        self.state = BridgeState.SEARCHING
        self.hello = None
        self.connected_port = None
        self.sync.reset()
        self._pending_clk.clear()
        self._unsynced.clear()
        self._emit(BoardLost(path, reason))

    def _close_link(self) -> None:
        if self._protocol is not None and self._protocol.link is not None:
            self._protocol.link.close()
        self._protocol = None

    def _on_link_lost(self, exc: BaseException | None) -> None:
        self._lost.set()

    def _send(self, cmd: fr.HostCommand) -> None:
        if self._protocol is not None:
            self._protocol.send(cmd)

    # ---------------------------------------------------------------- incoming messages
    def _on_message(self, msg: fr.DeviceMessage) -> None:
        now = self._clock()
        self._last_rx = now
        match msg:
            case fr.Hello():
                self._on_hello(msg)
            case fr.ClockReply(token, device_us):
                sent = self._pending_clk.pop(token, None)
                if sent is not None:
                    self.sync.add(ClockSample(sent, now, device_us))
                    self._flush_unsynced()
            case fr.ButtonEdge():
                self._on_edge(msg)
            case fr.Armed(race, _mask, device_us):
                if self._race and self._race[1] == race and self.sync.ready:
                    self._emit(RaceLit(self._race[0], self.sync.map().to_session_ms(device_us)))
            case _:
                pass

    def _on_hello(self, hello: fr.Hello) -> None:
        if self._hello_waiter is not None and not self._hello_waiter.done():
            self._hello_waiter.set_result(hello)
        if self.hello is not None and hello.boot_id != self.hello.boot_id:
            self.sync.reset()  # the board rebooted behind our back: new clock
            if self._protocol:
                self._protocol.restart_sequence(hello.last_seq)
            self._sync_burst_soon()
        if self.state is BridgeState.CONNECTED:
            self.hello = hello

    def _sync_burst_soon(self) -> None:
        task = asyncio.get_running_loop().create_task(self._sync_burst())
        self._side_tasks.add(task)
        task.add_done_callback(self._side_tasks.discard)

    def _on_edge(self, edge: fr.ButtonEdge) -> None:
        if not self.sync.ready:  # just connected: hold it until the first clock answer
            self._unsynced.append(edge)
            return
        clock = self.sync.map()
        t_ms = clock.to_session_ms(edge.device_us)
        mapping = self._wizard is not None  # while mapping, buttons belong to no seat yet
        seat = None if mapping else self.seat_of(edge.button)
        if not edge.pressed:
            self._emit(ButtonUp(edge.button, seat, t_ms))
            return
        if mapping:
            self._wizard_press(edge.button)
        if self._race is not None and seat is not None:
            self._race_pressed.add(seat)
        clock_id = f"arcade-{self.hello.boot_id if self.hello else 0}-{clock.version}"
        self._emit(ButtonDown(edge.button, seat, t_ms, clock.error_at(edge.device_us), edge.device_us, clock_id))

    def _flush_unsynced(self) -> None:
        edges, self._unsynced = self._unsynced, []
        for edge in edges:
            self._on_edge(edge)

    def _request_clock(self) -> None:
        token = next(self._tokens) & fr.U32
        self._pending_clk[token] = self._clock()
        if len(self._pending_clk) > 32:
            del self._pending_clk[min(self._pending_clk)]
        self._send(fr.ClockRequest(token))

    # ---------------------------------------------------------------- seats and buttons
    def seat_of(self, button: int) -> int | None:
        if not self.mapping:
            return button
        for seat, b in self.mapping.items():
            if b == button:
                return seat
        return None

    def button_of(self, seat: int) -> int | None:
        if not self.mapping:
            return seat if self.hello is None or seat < self.hello.buttons else None
        return self.mapping.get(seat)

    def set_mapping(self, mapping: dict[int, int]) -> None:
        """Restore a saved seat → button mapping (two seats may not share a button)."""
        if len(set(mapping.values())) != len(mapping) or any(b < 0 or b >= fr.MAX_BUTTONS for b in mapping.values()):
            raise BridgeError(f"bad mapping {mapping}")
        self.mapping = dict(mapping)

    def _mask_of(self, seats: Iterable[int]) -> int:
        buttons = [self.button_of(s) for s in seats]
        return fr.mask_of([b for b in buttons if b is not None])

    # ---------------------------------------------------------------- the lobby wizard
    def start_mapping(self, seats: Sequence[int]) -> None:
        """"Press your button": seats in this order each press one free button. Every lamp blinks;
        a mapped button's lamp stays lit. Emits MappingStep per seat and MappingDone at the end."""
        if not self.connected:
            raise BridgeError("no arcade board connected")
        hello = self.hello
        if hello is None or not seats or len(set(seats)) != len(seats) or len(seats) > hello.buttons:
            raise BridgeError(f"cannot map seats {list(seats)} onto this board")
        self._wizard = list(seats)
        self._wizard_done = {}
        self._send(fr.SetLamps((1 << hello.buttons) - 1, fr.LampMode.BLINK, 600))

    def cancel_mapping(self) -> None:
        if self._wizard is not None:
            self._wizard = None
            self.lamps_off()

    @property
    def mapping_in_progress(self) -> bool:
        return self._wizard is not None

    def _wizard_press(self, button: int) -> None:
        assert self._wizard is not None
        if button in self._wizard_done.values():
            return
        seat = self._wizard.pop(0)
        self._wizard_done[seat] = button
        self._send(fr.SetLamps(1 << button, fr.LampMode.ON))
        waiting = self._wizard[0] if self._wizard else None
        self._emit(MappingStep(seat, button, waiting))
        if waiting is None:
            self._wizard = None
            self.mapping = dict(self._wizard_done)
            self.lamps_off()
            self._emit(MappingDone(dict(self.mapping)))

    # ---------------------------------------------------------------- lamps and races
    def set_lamps(self, seats: Iterable[int], mode: fr.LampMode, period_ms: int = 500) -> None:
        self._send(fr.SetLamps(self._mask_of(seats), mode, period_ms if mode is fr.LampMode.BLINK else 0))

    def lamps_off(self) -> None:
        self._send(fr.SetLamps(fr.mask_of(tuple(range(fr.MAX_BUTTONS))), fr.LampMode.OFF))

    def arm_race(self, race_id: str, seats: Iterable[int]) -> None:
        """Light the lamps of these seats; the clock map is frozen until ``end_race`` so every press
        of the race is converted alike. Presses still arrive as ButtonDown events either way."""
        seat_set = frozenset(seats)
        number = next(self._race_numbers) & 0xFFFF
        self._race = (race_id, number, seat_set)
        self._race_pressed = set()
        self.sync.freeze()
        self._send(fr.Arm(number, self._mask_of(seat_set)))

    def end_race(self) -> None:
        if self._race is not None:
            self._send(fr.Disarm(self._race[1]))
        self._race = None
        self.sync.thaw()
