"""Watch an arcade board (or the simulator) talk: prints every line decoded, and every dropped one
with the reason.

    python3 tools/serial_monitor.py /tmp/tabletop-arcade            # the simulator's port
    python3 tools/serial_monitor.py --send HI --send "CLK 1" --send "LAMP FFF BLINK 400"
    python3 tools/serial_monitor.py /dev/ttyACM0 --duration 10 --raw

Without a port it takes the first USB serial port that may be the board (known USB ids first).
``--send`` takes a command body; the checksum is added. Reads in chunks, like the bridge.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TextIO

import serial

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge import framing as fr
from firmware_bridge.bridge import candidate_ports


def describe(line: bytes) -> str:
    """One received line as text: the decoded message, or why it is dropped."""
    try:
        return repr(fr.decode_device(line))
    except fr.UnknownMessage:
        pass
    except fr.FrameError as exc:
        return f"!! dropped ({exc.kind}): {line!r}"
    try:
        return "(host) " + repr(fr.decode_host(line))  # a loopback or the sim's echo
    except fr.FrameError as exc:
        return f"!! dropped ({exc.kind}): {line!r}"


def monitor(port: serial.Serial, out: TextIO, duration: float | None, raw: bool) -> int:
    framer = fr.LineFramer()
    start = time.monotonic()
    count = 0
    while duration is None or time.monotonic() - start < duration:
        chunk = port.read(max(1, port.in_waiting))  # blocks up to the port timeout
        if not chunk:
            continue
        stamp = (time.monotonic() - start) * 1000
        for item in framer.feed(chunk):
            count += 1
            text = f"!! dropped ({item.kind})" if isinstance(item, fr.FrameError) else describe(item)
            out.write(f"{stamp:10.1f} ms  {text}\n")
            if raw and isinstance(item, bytes):
                out.write(f"{'':13}  {item!r}\n")
        out.flush()
    return count


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Print the arcade board's protocol lines, decoded")
    ap.add_argument("port", nargs="?", help="serial port (default: the first candidate USB port)")
    ap.add_argument("--send", action="append", default=[], metavar="BODY", help='command body, e.g. "CLK 1"')
    ap.add_argument("--duration", type=float, help="stop after this many seconds")
    ap.add_argument("--raw", action="store_true", help="also print each line's raw bytes")
    args = ap.parse_args(argv)
    path = args.port or next(iter(candidate_ports()), None)
    if path is None:
        print("no serial port found; name one (the simulator's is /tmp/tabletop-arcade)", file=sys.stderr)
        return 2
    try:
        port = serial.Serial(path, 115200, timeout=0.2)
    except (serial.SerialException, OSError) as exc:
        print(f"cannot open {path}: {exc}", file=sys.stderr)
        return 2
    print(f"listening on {path}", file=sys.stderr)
    try:
        for body in args.send:
            try:
                port.write(fr.frame(body))
            except ValueError as exc:
                print(f"not sent: {exc}", file=sys.stderr)
        monitor(port, sys.stdout, args.duration, args.raw)
    except KeyboardInterrupt:
        pass
    except serial.SerialException as exc:
        print(f"port lost: {exc}", file=sys.stderr)
        return 1
    finally:
        port.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
