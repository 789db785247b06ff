"""Memory after a flood of WebSocket connections that never say hello.

    python3 bench/bench_flood_memory.py [--sockets 4000] [--rounds 3] [--addresses 100]

Starts a real headless table (``python -m game``, as ``tests/reliability/flood_kit.py`` does) and
reads its resident memory (RSS, /proc) at rest: the baseline. Then ``--rounds`` waves of
``--sockets`` connections from ``--addresses`` loopback addresses (127.0.0.2 …), each completing
the WebSocket upgrade and then staying silent (no hello): the table caps and evicts them and closes
the rest at its hello deadline. After the last wave every socket is closed; the table's RSS is read
again after ``--settle-s`` seconds. Prints the baseline, the peak and the RSS after, and after /
baseline (the bare limit here is the table's own memory before the flood, measured in this run).
"""
from __future__ import annotations

import argparse
import asyncio
import base64
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

import flood_kit  # noqa: E402


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def silent_socket(port: int, address: str, held: list[asyncio.StreamWriter]) -> bool:
    """One WebSocket upgrade, then silence; True when the table upgraded it."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    except OSError:
        return False
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    held.append(writer)
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError):
        return False
    return head.startswith(b"HTTP/1.1 101")


async def wave(port: int, sockets: int, addresses: int, pid: int) -> tuple[int, float]:
    """Open ``sockets`` silent WebSockets (50 at a time); hold them for the hello deadline; close."""
    held: list[asyncio.StreamWriter] = []
    upgraded, peak = 0, 0.0
    for start in range(0, sockets, 50):
        batch = [silent_socket(port, f"127.0.0.{2 + (start + i) % addresses}", held) for i in range(min(50, sockets - start))]
        upgraded += sum(await asyncio.gather(*batch))
        peak = max(peak, rss_mib(pid))
    for _ in range(12):  # the hello deadline (10 s) passes with the flood held open
        await asyncio.sleep(1.0)
        peak = max(peak, rss_mib(pid))
    for writer in held:
        writer.close()
    return upgraded, peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sockets", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--addresses", type=int, default=100)
    parser.add_argument("--settle-s", type=float, default=8.0)
    args = parser.parse_args()
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="flood-mem-") as tmp, flood_kit.table(Path(tmp)) as table:
        pid = table.process.pid
        time.sleep(2.0)
        baseline = rss_mib(pid)
        peak = baseline
        for n in range(args.rounds):
            upgraded, top = asyncio.run(wave(table.port, args.sockets, args.addresses, pid))
            peak = max(peak, top)
            print(f"  wave {n + 1}: {args.sockets} silent sockets, {upgraded} upgraded by the table; RSS peak {top:.0f} MiB")
        time.sleep(args.settle_s)
        after = rss_mib(pid)
    print(f"table RSS: baseline {baseline:.0f} MiB, peak {peak:.0f} MiB, after the flood {after:.0f} MiB"
          f" (after / baseline x{after / baseline:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
