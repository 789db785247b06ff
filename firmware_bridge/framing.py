"""The arcade board's line protocol (version 1), both directions: framing, checksum, messages.

Every line is printable ASCII ``<body>*<crc>\\n`` where ``<crc>`` is the CRC-16/CCITT-FALSE of the
body bytes as four upper-case hex digits (see ``PROTOCOL.md``). A line whose checksum does not
match, that is too long, or that does not parse is *dropped* with a typed :class:`FrameError`,
never half-read. This module does no I/O: :class:`LineFramer` turns arbitrary chunks of bytes into
complete lines, ``decode_*`` turns a line into a frozen message, ``encode`` does the reverse.
The firmware core (``core/arcade_core.cpp``) implements the same format; both test suites check
the shared vectors in ``core/tests/vectors.txt``.
"""
from __future__ import annotations

import binascii
import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

PROTOCOL_VERSION = 1
MAX_LINE = 96  # bytes, including "*XXXX" but not the newline
MAX_BUTTONS = 16
U32 = (1 << 32) - 1
U64 = (1 << 64) - 1


# ------------------------------------------------------------------------------------ errors
class FrameError(Exception):
    """A received line that is dropped; ``kind`` says why (counted in :class:`LinkStats`)."""

    kind = "malformed"


class BadChecksum(FrameError):
    kind = "checksum"


class MalformedLine(FrameError):
    kind = "malformed"


class LineTooLong(FrameError):
    kind = "too_long"


class UnknownMessage(FrameError):
    kind = "unknown"


# ----------------------------------------------------------------------------------- checksum
def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor).

    ``binascii.crc_hqx`` is exactly this CRC when seeded with 0xFFFF, computed in C."""
    return binascii.crc_hqx(data, 0xFFFF)


def crc16_bitwise(data: bytes) -> int:
    """The same CRC, bit by bit as the firmware computes it (kept to cross-check ``crc16``)."""
    crc = 0xFFFF
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def frame(body: str) -> bytes:
    """Wrap a body into a complete line with checksum and newline."""
    raw = body.encode("ascii")
    if _NOT_BODY.search(raw):
        raise ValueError(f"body must be printable ASCII without '*': {body!r}")
    line = raw + b"*%04X" % crc16(raw)
    if len(line) > MAX_LINE:
        raise ValueError(f"line longer than {MAX_LINE} bytes: {body!r}")
    return line + b"\n"


_NOT_BODY = re.compile(rb"[^\x20-\x29\x2B-\x7E]")  # a body is printable ASCII without '*'
_CRC_DIGITS = re.compile(rb"[0-9A-F]{4}")


def unframe(line: bytes) -> list[str]:
    """Check a line (without its newline) and return its tokens; raise a FrameError if bad."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        raise LineTooLong(f"{len(line)} bytes")
    star = line.rfind(b"*")
    if star < 0 or len(line) - star != 5:
        raise MalformedLine("no checksum")
    body, digits = line[:star], line[star + 1 :]
    if _NOT_BODY.search(body):
        raise MalformedLine("non-printable byte")
    if not _CRC_DIGITS.fullmatch(digits):
        raise MalformedLine("checksum is not four upper-case hex digits")
    if crc16(body) != int(digits, 16):
        raise BadChecksum(line.decode("ascii", "replace"))
    tokens = body.decode("ascii").split(" ")
    if not tokens[0] or "" in tokens:
        raise MalformedLine("empty token")
    return tokens


class LineFramer:
    """Splits a byte stream into lines. Feed it chunks of any size; it never blocks or guesses.

    A line longer than ``MAX_LINE`` is discarded up to its newline (reported once as too long).
    """

    def __init__(self) -> None:
        self._buf = bytearray()
        self._overflow = False

    def feed(self, chunk: bytes) -> list[bytes | FrameError]:
        out: list[bytes | FrameError] = []
        self._buf += chunk
        while True:
            nl = self._buf.find(b"\n")
            if nl < 0:
                break
            line = bytes(self._buf[:nl])
            del self._buf[: nl + 1]
            if self._overflow:
                self._overflow = False
                out.append(LineTooLong("line overflowed the buffer"))
            elif line.strip(b"\r"):
                out.append(line)
        if len(self._buf) > MAX_LINE + 1:
            self._buf.clear()
            self._overflow = True
        return out

    def reset(self) -> None:
        self._buf.clear()
        self._overflow = False


# ----------------------------------------------------------------------------------- messages
class LampMode(enum.Enum):
    OFF = "OFF"
    ON = "ON"
    BLINK = "BLINK"


class ErrorCode(enum.Enum):
    CRC = "CRC"  # the command's checksum did not match
    CMD = "CMD"  # unknown command
    ARG = "ARG"  # wrong arguments
    LEN = "LEN"  # line too long
    GONE = "GONE"  # RESEND asked for events no longer buffered


# device -> host
@dataclass(frozen=True, slots=True)
class Hello:
    protocol: int
    firmware: str
    buttons: int
    lamps: int
    debounce_us: int
    boot_id: int
    last_seq: int  # sequence number of the last edge sent (0: none yet): where a new host starts


@dataclass(frozen=True, slots=True)
class ButtonEdge:
    """A press (``pressed=True``) or release, stamped with the 64-bit device time in µs."""

    seq: int
    button: int
    device_us: int
    pressed: bool


@dataclass(frozen=True, slots=True)
class Heartbeat:
    device_us: int
    last_seq: int


@dataclass(frozen=True, slots=True)
class ClockReply:
    token: int
    device_us: int


@dataclass(frozen=True, slots=True)
class Armed:
    race: int
    mask: int
    device_us: int


@dataclass(frozen=True, slots=True)
class Disarmed:
    race: int
    device_us: int


@dataclass(frozen=True, slots=True)
class Ok:
    command: str


@dataclass(frozen=True, slots=True)
class DeviceError:
    code: ErrorCode


DeviceMessage = Union[Hello, ButtonEdge, Heartbeat, ClockReply, Armed, Disarmed, Ok, DeviceError]


# host -> device
@dataclass(frozen=True, slots=True)
class HelloRequest:
    pass


@dataclass(frozen=True, slots=True)
class ClockRequest:
    token: int


@dataclass(frozen=True, slots=True)
class Arm:
    race: int
    mask: int


@dataclass(frozen=True, slots=True)
class Disarm:
    race: int


@dataclass(frozen=True, slots=True)
class SetLamps:
    mask: int
    mode: LampMode
    period_ms: int = 0  # BLINK only: full on+off period


@dataclass(frozen=True, slots=True)
class Resend:
    seq: int


@dataclass(frozen=True, slots=True)
class SetDebounce:
    debounce_us: int


HostCommand = Union[HelloRequest, ClockRequest, Arm, Disarm, SetLamps, Resend, SetDebounce]


# ------------------------------------------------------------------------------- token helpers
def _uint(token: str, limit: int = U32) -> int:
    if not token.isdigit() or len(token) > 20:
        raise MalformedLine(f"not a number: {token!r}")
    value = int(token)
    if value > limit:
        raise MalformedLine(f"out of range: {token!r}")
    return value


def _mask(token: str) -> int:
    if not (1 <= len(token) <= 4) or any(c not in "0123456789ABCDEF" for c in token):
        raise MalformedLine(f"not a hex mask: {token!r}")
    return int(token, 16)


def _button(token: str) -> int:
    value = _uint(token)
    if value >= MAX_BUTTONS:
        raise MalformedLine(f"no button {value}")
    return value


def _arity(tokens: list[str], n: int) -> None:
    if len(tokens) != n + 1:
        raise MalformedLine(f"{tokens[0]} takes {n} argument(s), got {len(tokens) - 1}")


# ------------------------------------------------------------------------- device -> host decode
def _d_hello(t: list[str]) -> Hello:
    _arity(t, 7)
    if not t[2] or len(t[2]) > 16:
        raise MalformedLine("bad firmware version")
    return Hello(
        _uint(t[1], 0xFF), t[2], _uint(t[3], MAX_BUTTONS), _uint(t[4], MAX_BUTTONS), _uint(t[5]), _uint(t[6], 0xFFFF), _uint(t[7])
    )


def _d_edge(pressed: bool) -> Callable[[list[str]], ButtonEdge]:
    def parse(t: list[str]) -> ButtonEdge:
        _arity(t, 3)
        return ButtonEdge(_uint(t[1]), _button(t[2]), _uint(t[3], U64), pressed)

    return parse


def _d_heartbeat(t: list[str]) -> Heartbeat:
    _arity(t, 2)
    return Heartbeat(_uint(t[1], U64), _uint(t[2]))


def _d_clock(t: list[str]) -> ClockReply:
    _arity(t, 2)
    return ClockReply(_uint(t[1]), _uint(t[2], U64))


def _d_armed(t: list[str]) -> Armed:
    _arity(t, 3)
    return Armed(_uint(t[1], 0xFFFF), _mask(t[2]), _uint(t[3], U64))


def _d_disarmed(t: list[str]) -> Disarmed:
    _arity(t, 2)
    return Disarmed(_uint(t[1], 0xFFFF), _uint(t[2], U64))


def _d_ok(t: list[str]) -> Ok:
    _arity(t, 1)
    if t[1] not in _HOST_DECODERS:
        raise MalformedLine(f"OK for unknown command {t[1]!r}")
    return Ok(t[1])


def _d_error(t: list[str]) -> DeviceError:
    _arity(t, 1)
    try:
        return DeviceError(ErrorCode(t[1]))
    except ValueError:
        raise MalformedLine(f"unknown error code {t[1]!r}") from None


_DEVICE_DECODERS: dict[str, Callable[[list[str]], DeviceMessage]] = {
    "HELLO": _d_hello,
    "P": _d_edge(True),
    "R": _d_edge(False),
    "HB": _d_heartbeat,
    "CLK": _d_clock,
    "ARMED": _d_armed,
    "DISARMED": _d_disarmed,
    "OK": _d_ok,
    "ERR": _d_error,
}


def decode_device(line: bytes) -> DeviceMessage:
    """Decode one line the board sent (without newline); raise FrameError if it must be dropped."""
    tokens = unframe(line)
    decoder = _DEVICE_DECODERS.get(tokens[0])
    if decoder is None:
        raise UnknownMessage(tokens[0])
    return decoder(tokens)


# ------------------------------------------------------------------------- host -> device decode
def _h_lamp(t: list[str]) -> SetLamps:
    if len(t) not in (3, 4):
        raise MalformedLine("LAMP takes 2 or 3 arguments")
    try:
        mode = LampMode(t[2])
    except ValueError:
        raise MalformedLine(f"unknown lamp mode {t[2]!r}") from None
    if (mode is LampMode.BLINK) != (len(t) == 4):
        raise MalformedLine("BLINK needs a period; ON/OFF take none")
    period = _uint(t[3], 60_000) if len(t) == 4 else 0
    if mode is LampMode.BLINK and period < 2:
        raise MalformedLine("blink period too short")
    return SetLamps(_mask(t[1]), mode, period)


def _h_simple(cls: type, *limits: int) -> Callable[[list[str]], HostCommand]:
    def parse(t: list[str]) -> HostCommand:
        _arity(t, len(limits))
        return cls(*(_uint(tok, lim) for tok, lim in zip(t[1:], limits)))

    return parse


def _h_arm(t: list[str]) -> Arm:
    _arity(t, 2)
    return Arm(_uint(t[1], 0xFFFF), _mask(t[2]))


_HOST_DECODERS: dict[str, Callable[[list[str]], HostCommand]] = {
    "HI": _h_simple(HelloRequest),
    "CLK": _h_simple(ClockRequest, U32),
    "ARM": _h_arm,
    "DISARM": _h_simple(Disarm, 0xFFFF),
    "LAMP": _h_lamp,
    "RESEND": _h_simple(Resend, U32),
    "DEB": _h_simple(SetDebounce, 1_000_000),
}


def decode_host(line: bytes) -> HostCommand:
    """Decode one command line the host sent (the simulator and the monitor use this)."""
    tokens = unframe(line)
    decoder = _HOST_DECODERS.get(tokens[0])
    if decoder is None:
        raise UnknownMessage(tokens[0])
    return decoder(tokens)


# ------------------------------------------------------------------------------------ encoding
def body_of(msg: DeviceMessage | HostCommand) -> str:
    """The body text (without checksum) of any message, in either direction."""
    match msg:
        case Hello():
            return f"HELLO {msg.protocol} {msg.firmware} {msg.buttons} {msg.lamps} {msg.debounce_us} {msg.boot_id} {msg.last_seq}"
        case ButtonEdge():
            return f"{'P' if msg.pressed else 'R'} {msg.seq} {msg.button} {msg.device_us}"
        case Heartbeat():
            return f"HB {msg.device_us} {msg.last_seq}"
        case ClockReply():
            return f"CLK {msg.token} {msg.device_us}"
        case Armed():
            return f"ARMED {msg.race} {msg.mask:X} {msg.device_us}"
        case Disarmed():
            return f"DISARMED {msg.race} {msg.device_us}"
        case Ok():
            return f"OK {msg.command}"
        case DeviceError():
            return f"ERR {msg.code.value}"
        case HelloRequest():
            return "HI"
        case ClockRequest():
            return f"CLK {msg.token}"
        case Arm():
            return f"ARM {msg.race} {msg.mask:X}"
        case Disarm():
            return f"DISARM {msg.race}"
        case SetLamps():
            tail = f" {msg.period_ms}" if msg.mode is LampMode.BLINK else ""
            return f"LAMP {msg.mask:X} {msg.mode.value}{tail}"
        case Resend():
            return f"RESEND {msg.seq}"
        case SetDebounce():
            return f"DEB {msg.debounce_us}"
    raise TypeError(f"not a protocol message: {msg!r}")


def encode(msg: DeviceMessage | HostCommand) -> bytes:
    return frame(body_of(msg))


def mask_of(buttons: set[int] | frozenset[int] | list[int] | tuple[int, ...]) -> int:
    mask = 0
    for b in buttons:
        if not 0 <= b < MAX_BUTTONS:
            raise ValueError(f"no button {b}")
        mask |= 1 << b
    return mask


def buttons_of(mask: int) -> tuple[int, ...]:
    return tuple(b for b in range(MAX_BUTTONS) if mask >> b & 1)
