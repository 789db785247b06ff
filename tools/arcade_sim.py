"""A simulated arcade-button board on a pseudo-terminal: try the game and test the bridge without
hardware.

It speaks protocol v1 exactly as the firmware does (hello, presses/releases with device time,
heartbeat, clock replies, races and lamps, RESEND from a 32-edge history) on the slave end of a pty
pair, reachable through a stable symlink (default ``/tmp/tabletop-arcade``) that survives replugs.

Command line::

    python3 tools/arcade_sim.py                       # interactive: type "press 3", "noise", ...
    python3 tools/arcade_sim.py --script "at 2.0 press 3; at 2.001 press 4; at 5 unplug; at 7 replug"
    tabletop --serial /tmp/tabletop-arcade            # in another terminal

Script / interactive commands (times in seconds from start): ``press B [hold_ms]``, ``bounce B``
(a press with contact bounce), ``noise [text]``, ``corrupt N`` (damage the next N lines), ``hang``,
``unplug``, ``replug``, ``lamps``, ``quit``. On the command line buttons are numbered 1..N as the
TV's arcade wizard names them ("Button 3" is ``press 3``); the Python API and the wire use the
board's own 0-based numbers. Started in the background (stdin closed), the board stays plugged in
until Ctrl+C or SIGTERM.

From Python (the tests)::

    sim = ArcadeSimulator(link=tmp_path / "arcade").start()
    sim.press(3, at_us=sim.device_us() + 20_000)      # exact device time of the press
    sim.unplug(); sim.replug()                        # a replug is a reboot: new clock, new boot id
    sim.close()
"""
from __future__ import annotations

import argparse
import heapq
import itertools
import os
import random
import select
import signal
import sys
import threading
import time
import tty
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from firmware_bridge import framing as fr

DEFAULT_LINK = Path("/tmp/tabletop-arcade")
FIRMWARE = "1.0.0-sim"


@dataclass(order=True)
class _Job:
    due_ns: int
    order: int
    action: Callable[[], None] = field(compare=False)


class ArcadeSimulator:
    """The board. Thread-safe public methods; one worker thread does all the I/O."""

    def __init__(
        self,
        *,
        buttons: int = 12,
        link: Path | str | None = DEFAULT_LINK,
        debounce_us: int = 5000,
        heartbeat_ms: int = 500,
        seed: int | None = None,
        fragment: bool = False,
        protocol: int = fr.PROTOCOL_VERSION,
    ) -> None:
        self.buttons = buttons
        self.protocol = protocol  # another number plays a board with incompatible firmware
        self.link = Path(link) if link is not None else None
        self.debounce_us = debounce_us
        self.heartbeat_ns = heartbeat_ms * 1_000_000
        self.fragment = fragment  # write lines in random small pieces, as USB packets may split them
        self._rng = random.Random(seed)
        self._lock = threading.RLock()
        self._jobs: list[_Job] = []
        self._order = itertools.count()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)  # a full pipe already means "wake up"
        self._thread: threading.Thread | None = None
        self._stop = False
        self._master: int | None = None
        self._slave: int | None = None
        self._framer = fr.LineFramer()
        self.received: list[fr.HostCommand | fr.FrameError] = []
        self.lamp_modes: dict[int, tuple[fr.LampMode, int]] = {}
        self._corrupt = 0
        self._hung = False
        self._boot()

    # ------------------------------------------------------------------ lifecycle (any thread)
    def start(self) -> ArcadeSimulator:
        with self._lock:
            self._plug()
        self._thread = threading.Thread(target=self._run, name="arcade-sim", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop = True
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2)
        with self._lock:
            self._unplug()
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()

    def __enter__(self) -> ArcadeSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def port(self) -> str:
        """What the bridge opens: the stable link if there is one, else the pty's own name."""
        if self.link is not None:
            return str(self.link)
        if self._slave is None:
            raise RuntimeError("unplugged")
        return os.ttyname(self._slave)

    @property
    def plugged(self) -> bool:
        return self._master is not None

    # ------------------------------------------------------------------ device state
    def _boot(self) -> None:
        self.boot_id = self._rng.randrange(1 << 16)
        # A device clock far from the host's: starts ~3 s before its 32-bit counter would wrap.
        self._clock_base_ns = time.monotonic_ns()
        self._clock_start_us = (1 << 32) - 3_000_000 + self._rng.randrange(1000)
        self.seq = 0
        self.history: deque[fr.ButtonEdge] = deque(maxlen=32)
        self.race_mask = 0
        self.race_pending = 0
        self._held: set[int] = set()  # debounced state
        self._level: dict[int, bool] = {}  # raw pin levels
        self._quiet_until: dict[int, int] = {}
        self.lamp_modes.clear()
        self._next_hb_ns = time.monotonic_ns() + self.heartbeat_ns

    def device_us(self, at_ns: int | None = None) -> int:
        now = time.monotonic_ns() if at_ns is None else at_ns
        return self._clock_start_us + (now - self._clock_base_ns) // 1000

    def host_ms(self, device_us: int) -> float:
        """When ``device_us`` happens on the host's monotonic clock, in ms (the truth tests check
        the bridge's clock conversion against)."""
        return self._ns_of(device_us) / 1e6

    def _ns_of(self, device_us: int) -> int:
        return self._clock_base_ns + (device_us - self._clock_start_us) * 1000

    def lit_lamps(self) -> set[int]:
        """Lamps lit now (blinking ones in their on half)."""
        now_ms = self.device_us() // 1000
        with self._lock:
            lit = {b for b, (mode, period) in self.lamp_modes.items()
                   if mode is fr.LampMode.ON or (mode is fr.LampMode.BLINK and now_ms % period < period // 2)}
            return (lit - set(fr.buttons_of(self.race_mask))) | set(fr.buttons_of(self.race_pending))

    # ------------------------------------------------------------------ scripting (any thread)
    def press(self, button: int, *, at_us: int | None = None, hold_us: int = 60_000) -> int:
        """Press ``button`` at device time ``at_us`` (default: now) and release it ``hold_us`` later.
        Returns the device time of the press."""
        self._check_button(button)
        at = self.device_us() if at_us is None else at_us
        with self._lock:  # both edges queued together: the worker sees them in device-time order
            self._level_at(button, True, at)
            self._level_at(button, False, at + hold_us)
        return at

    def bounce(self, button: int, *, at_us: int | None = None, hold_us: int = 60_000) -> int:
        """A press whose contact chatters for 1.6 ms, then a release that chatters too. The eager
        debounce (as in the firmware) reports exactly one press and one release."""
        with self._lock:
            at = self.press(button, at_us=at_us, hold_us=hold_us)
            for k in range(1, 5):
                self._level_at(button, k % 2 == 0, at + 400 * k)
                self._level_at(button, k % 2 == 1, at + hold_us + 300 * k)
        return at

    def _level_at(self, button: int, down: bool, at_us: int) -> None:
        self._schedule(self._ns_of(at_us), lambda: self._raw(button, down, at_us))

    def inject_noise(self, data: bytes | None = None) -> None:
        """Write raw bytes onto the line (default: a random burst of junk, sometimes without newline)."""
        junk = data if data is not None else bytes(self._rng.randrange(256) for _ in range(self._rng.randrange(3, 40)))
        self._schedule(time.monotonic_ns(), lambda: self._write(junk))

    def flood(self, data: bytes, timeout_s: float = 30.0) -> threading.Thread:
        """Write all of ``data`` onto the line as fast as the host reads it (1 MB of garbage, a 2 MB
        line without a newline), beside the board's own lines; join the returned thread to wait."""

        def pour() -> None:
            end, view = time.monotonic() + timeout_s, memoryview(data)
            while view and time.monotonic() < end:
                master = self._master
                if master is None or self._hung:
                    return
                try:
                    _, ready, _ = select.select([], [master], [], 0.05)
                    if ready:
                        view = view[os.write(master, view[:4096]):]
                except (BlockingIOError, OSError, ValueError):
                    time.sleep(0.001)

        thread = threading.Thread(target=pour, name="arcade-sim-flood", daemon=True)
        thread.start()
        return thread

    def corrupt_next(self, lines: int = 1) -> None:
        """Damage one byte in each of the next ``lines`` lines the board sends (noise on the cable)."""
        with self._lock:
            self._corrupt += lines

    def unplug(self) -> None:
        with self._lock:
            self._unplug()

    def hang(self, hung: bool = True) -> None:
        """Freeze the firmware: the port stays open but nothing is sent or answered."""
        with self._lock:
            self._hung = hung

    def replug(self) -> None:
        """Plug back in: the board reboots (new clock, seq 0, new boot id) and says hello."""
        with self._lock:
            self._unplug()
            self._hung = False
            self._boot()
            self._plug()
        self._wake()

    def _check_button(self, button: int) -> None:
        if not 0 <= button < self.buttons:
            raise ValueError(f"the board has buttons 0..{self.buttons - 1}, not {button}")

    def _schedule(self, due_ns: int, action: Callable[[], None]) -> None:
        with self._lock:
            heapq.heappush(self._jobs, _Job(due_ns, next(self._order), action))
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(BlockingIOError):
            os.write(self._wake_w, b"x")

    # ------------------------------------------------------------------ pty plumbing (locked)
    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._framer.reset()
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            if tmp.is_symlink() or tmp.exists():
                tmp.unlink()
            tmp.symlink_to(os.ttyname(slave))
            os.replace(tmp, self.link)
        self._send(fr.Hello(self.protocol, FIRMWARE, self.buttons, self.buttons, self.debounce_us, self.boot_id, self.seq))

    def _unplug(self) -> None:
        if self._master is None:
            return
        if self.link is not None and self.link.is_symlink():
            self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    # ------------------------------------------------------------------ the worker thread
    def _run(self) -> None:
        while not self._stop:
            timeout = self._due_jobs()
            fds = [self._wake_r] + ([self._master] if self._master is not None else [])
            try:
                ready, _, _ = select.select(fds, [], [], timeout)
            except (OSError, ValueError):  # the master was closed by unplug() meanwhile
                continue
            if self._wake_r in ready:
                os.read(self._wake_r, 4096)
            with self._lock:
                if self._master is not None and self._master in ready:
                    self._read_commands()

    def _due_jobs(self) -> float:
        """Run every job that is due; return how long to sleep."""
        while True:
            with self._lock:
                now = time.monotonic_ns()
                if self._master is not None and now >= self._next_hb_ns:
                    self._next_hb_ns = now + self.heartbeat_ns
                    self._send(fr.Heartbeat(self.device_us(now), self.seq))
                if not self._jobs or self._jobs[0].due_ns > now:
                    nxt = min([self._next_hb_ns] + [j.due_ns for j in self._jobs[:1]])
                    return max(0.0, (nxt - now) / 1e9)
                job = heapq.heappop(self._jobs)
                job.action()

    def _read_commands(self) -> None:
        try:
            data = os.read(self._master, 4096)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        for item in self._framer.feed(data):
            if isinstance(item, fr.FrameError):
                self.received.append(item)
                self._send(fr.DeviceError(fr.ErrorCode.LEN))
                continue
            try:
                cmd = fr.decode_host(item)
            except fr.FrameError as exc:
                self.received.append(exc)
                code = fr.ErrorCode.CMD if isinstance(exc, fr.UnknownMessage) else (
                    fr.ErrorCode.CRC if isinstance(exc, fr.BadChecksum) or "checksum" in str(exc) else fr.ErrorCode.ARG)
                self._send(fr.DeviceError(code))
                continue
            self.received.append(cmd)
            self._execute(cmd)

    def _execute(self, cmd: fr.HostCommand) -> None:
        now = self.device_us()
        valid = (1 << self.buttons) - 1
        match cmd:
            case fr.HelloRequest():
                self._send(fr.Hello(self.protocol, FIRMWARE, self.buttons, self.buttons, self.debounce_us, self.boot_id, self.seq))
            case fr.ClockRequest(token):
                self._send(fr.ClockReply(token, now))
            case fr.Arm(race, mask):
                self.race_mask = self.race_pending = mask & valid
                self._send(fr.Armed(race, self.race_mask, now))
            case fr.Disarm(race):
                self.race_mask = self.race_pending = 0
                self._send(fr.Disarmed(race, now))
            case fr.SetLamps(mask, mode, period):
                for b in fr.buttons_of(mask & valid):
                    self.lamp_modes[b] = (mode, period)
                self._send(fr.Ok("LAMP"))
            case fr.Resend(seq):
                self._replay(seq)
            case fr.SetDebounce(us):
                self.debounce_us = us
                self._send(fr.Ok("DEB"))

    def _replay(self, seq: int) -> None:
        kept = [e for e in self.history if e.seq >= max(seq, 1)]
        gone = bool(self.history) and max(seq, 1) < self.history[0].seq
        if gone:
            self._send(fr.DeviceError(fr.ErrorCode.GONE))
        for edge in kept:
            self._send(edge)
        if not gone:
            self._send(fr.Ok("RESEND"))

    def _raw(self, button: int, down: bool, at_us: int) -> None:
        """A raw pin level change, through the same eager debounce as the firmware core."""
        self._level[button] = down
        self._debounced(button, at_us)

    def _debounced(self, button: int, at_us: int) -> None:
        down = self._level.get(button, False)
        quiet_until = self._quiet_until.get(button, 0)
        if at_us < quiet_until:  # inside the window: the scan loop looks again when it closes
            self._schedule(self._ns_of(quiet_until), lambda: self._debounced(button, quiet_until))
            return
        if down == (button in self._held):
            return
        self._quiet_until[button] = at_us + self.debounce_us
        # the level may differ again once the window closes: look then, as the scan loop would
        recheck = at_us + self.debounce_us
        self._schedule(self._ns_of(recheck), lambda: self._debounced(button, recheck))
        self._held.symmetric_difference_update({button})
        if self._master is None:
            return  # unplugged: nothing reaches a host
        self.seq += 1
        edge = fr.ButtonEdge(self.seq, button, at_us, down)
        self.history.append(edge)
        if down:
            self.race_pending &= ~(1 << button)
        self._send(edge)

    def _send(self, msg: fr.DeviceMessage) -> None:
        line = fr.encode(msg)
        if self._corrupt > 0:
            self._corrupt -= 1
            i = self._rng.randrange(len(line) - 1)
            line = line[:i] + bytes([line[i] ^ 0x04]) + line[i + 1 :]
        self._write(line)

    def _write(self, data: bytes) -> None:
        if self._master is None or self._hung:
            return
        pieces = [data]
        if self.fragment and len(data) > 2:
            cut = sorted(self._rng.sample(range(1, len(data)), k=min(3, len(data) - 1)))
            pieces = [data[a:b] for a, b in zip([0] + cut, cut + [len(data)])]
        for piece in pieces:
            try:
                os.write(self._master, piece)
            except (BlockingIOError, OSError):
                return  # no host draining the port: the line is lost, as on the real board


# ---------------------------------------------------------------------------- command line
def _board_button(sim: ArcadeSimulator, number: int) -> int:
    """The board's 0-based button for the TV's "Button ``number``" (1..N), or a clear ValueError."""
    if not 1 <= number <= sim.buttons:
        raise ValueError(f"buttons are numbered 1..{sim.buttons} (as the TV names them), not {number}")
    return number - 1


def _run_command(sim: ArcadeSimulator, words: list[str]) -> bool:
    """Execute one script/interactive command; False means quit."""
    if not words:
        return True
    op, args = words[0], [int(w) for w in words[1:] if w.isdigit()]
    if op == "quit":
        return False
    actions: dict[str, Callable[[], object]] = {
        "press": lambda: sim.press(_board_button(sim, args[0]),
                                   hold_us=(args[1] if len(args) > 1 else 60) * 1000),
        "bounce": lambda: sim.bounce(_board_button(sim, args[0])),
        "noise": lambda: sim.inject_noise(" ".join(words[1:]).encode() + b"\n" if len(words) > 1 else None),
        "corrupt": lambda: sim.corrupt_next(args[0] if args else 1),
        "unplug": sim.unplug,
        "hang": sim.hang,
        "replug": sim.replug,
        "lamps": lambda: print("lit:", sorted(b + 1 for b in sim.lit_lamps()), flush=True),
    }
    action = actions.get(op)
    if action is None:
        print(f"unknown command {op!r}; try: {', '.join(actions)}, quit", file=sys.stderr)
    else:
        try:
            action()
        except IndexError:
            print(f"{op}: which button? e.g. '{op} 3'", file=sys.stderr)
        except ValueError as exc:
            print(f"{op}: {exc}", file=sys.stderr)
    return True


def parse_script(text: str) -> list[tuple[float, list[str]]]:
    """``"at 1.5 press 3; at 2 unplug"`` -> [(1.5, ["press", "3"]), (2.0, ["unplug"])]."""
    steps = []
    for part in filter(None, (p.strip() for p in text.split(";"))):
        words = part.split()
        if len(words) < 3 or words[0] != "at":
            raise ValueError(f"script step must read 'at SECONDS COMMAND ...': {part!r}")
        steps.append((float(words[1]), words[2:]))
    return sorted(steps, key=lambda s: s[0])


def _stop_on_sigterm(_signum: int, _frame: object) -> None:
    raise KeyboardInterrupt  # the same clean close as Ctrl+C: the port's link is removed


def _interact(sim: ArcadeSimulator, lines: Iterable[str]) -> None:
    """Commands from ``lines`` until ``quit``; when they end (stdin closed: started in the
    background), the board stays plugged in until Ctrl+C or SIGTERM."""
    for line in lines:
        if not _run_command(sim, line.split()):
            return
    print("no more commands (stdin closed): the board stays plugged in until Ctrl+C or SIGTERM",
          file=sys.stderr, flush=True)
    while True:
        time.sleep(3600)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Simulated arcade-button board on a pty")
    ap.add_argument("--link", default=str(DEFAULT_LINK), help="stable path of the port (symlink)")
    ap.add_argument("--buttons", type=int, default=12)
    ap.add_argument("--script", help="e.g. 'at 1 press 3; at 1.001 press 4; at 3 unplug; at 4 replug'")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--fragment", action="store_true", help="split lines into small random pieces")
    args = ap.parse_args(argv)
    sim = ArcadeSimulator(buttons=args.buttons, link=args.link, seed=args.seed, fragment=args.fragment).start()
    print(f"arcade simulator on {sim.port} (buttons 1..{args.buttons}, as the TV names them)", flush=True)
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        if args.script:
            start = time.monotonic()
            for at, words in parse_script(args.script):
                time.sleep(max(0.0, start + at - time.monotonic()))
                if not _run_command(sim, words):
                    break
            time.sleep(0.2)
        else:
            _interact(sim, sys.stdin)
    except KeyboardInterrupt:
        pass
    finally:
        sim.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
