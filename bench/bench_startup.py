"""CPU seconds from a process's start to its first answer, the table beside its bare limit.

    python3 bench/bench_startup.py [--runs 5] [--window auto|no] [--root DIR]

Each run starts a fresh process and polls ``GET /join`` on loopback until it answers 200; the
process's own CPU time (user + system, /proc) at that moment is the figure. The table: ``python -m
game --headless --new`` (the headless table: no window, one process). The bare limit, in the same
run: a Python process that imports aiohttp and serves a fixed ``/join`` page. Prints p50 / max of
each, their ratio, and the load average (the machine is shared).

With Xvfb installed (``--window auto``), also the program with its window (``python -m game --new``
on a virtual display): CPU seconds of the TV's process and the table's, summed, when the first
lobby frame is on screen. The window says so itself: it sends systemd's ``READY=1`` once that frame
is flipped (``game.kiosk.supervise.SupervisedRuntime``), here to the bench's own ``NOTIFY_SOCKET``.
It does so at the next tick's snapshot, after ``run_window`` has synthesised the sounds (right
after the first flip; ~0.12 CPU-s here): the figure includes them.
Its bare limit: a process that imports pygame and aiohttp, opens the same window, flips one frame.

``--root DIR``: measure the program in another checkout (a "before"), with this bench.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_tv_soak import tree  # a process and every one below it
from bench_ws import start_xvfb  # a virtual display on a free display number

ROOT = Path(__file__).resolve().parent.parent
BARE = """
import sys
from aiohttp import web
app = web.Application()
app.router.add_get("/join", lambda request: web.Response(text="<html>join</html>", content_type="text/html"))
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
"""
BARE_WINDOW = """
import os, socket
import aiohttp.web
import pygame
pygame.display.init()
window = pygame.display.set_mode((1280, 720))
window.fill((20, 20, 40))
pygame.display.flip()
with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
    sock.sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
while pygame.event.wait().type != pygame.QUIT:  # SDL turns SIGTERM into QUIT
    pass
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def tree_cpu_s(pid: int) -> float:
    """CPU seconds of ``pid`` and every process below it (the TV's and the table's)."""
    total = 0.0
    for p in tree(pid):
        with contextlib.suppress(OSError):  # gone meanwhile: nothing to add
            total += cpu_s(p)
    return total


@contextlib.contextmanager
def xvfb() -> Iterator[str]:
    """A virtual 1280×720 display (``bench_ws.start_xvfb``), stopped on the way out."""
    proc, display = start_xvfb("1280x720")
    try:
        yield display
    finally:
        proc.terminate()
        proc.wait(10)


def cpu_to_lobby(args: list[str], display: str) -> float:
    """CPU seconds of the process tree started by ``args`` when it sends ``READY=1``."""
    with tempfile.TemporaryDirectory(prefix="bench-notify-") as folder, \
            socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as notify:
        address = str(Path(folder) / "notify")
        notify.bind(address)
        notify.settimeout(60)
        env = {**os.environ, "PYTHONPATH": str(ROOT), "DISPLAY": display, "SDL_VIDEODRIVER": "x11",
               "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1", "NOTIFY_SOCKET": address}
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while b"READY=1" not in notify.recv(4096).split(b"\n"):
                pass
            return tree_cpu_s(proc.pid)
        finally:
            proc.terminate()
            proc.wait(20)


def cpu_to_join(args: list[str], port: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/join", timeout=1) as answer:
                    if answer.status == 200:
                        return cpu_s(proc.pid)
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"{args} did not answer /join")
    finally:
        proc.terminate()
        proc.wait(20)


def report(what: str, limit: tuple[str, list[float]], program: tuple[str, list[float]]) -> None:
    for label, values in (limit, program):
        print(f"{label:<22} {what}: p50 {statistics.median(values):.3f} s  max {max(values):.3f} s  (n={len(values)})")
    print(f"{'':<22} {program[0]} / bare limit: p50 x{statistics.median(program[1]) / statistics.median(limit[1]):.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--window", choices=("auto", "no"), default="auto",
                        help="auto: also CPU to the lobby on screen, with its window on Xvfb, when Xvfb is installed")
    parser.add_argument("--root", type=Path, default=None, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    if args.root is not None:
        global ROOT
        ROOT = args.root.resolve()
    print(f"checkout {ROOT}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    table: list[float] = []
    bare: list[float] = []
    for _ in range(args.runs):  # alternated: the load drifts
        port = free_port()
        bare.append(cpu_to_join([sys.executable, "-c", BARE, str(port)], port))
        with tempfile.TemporaryDirectory(prefix="bench-start-") as data:
            port = free_port()
            table.append(cpu_to_join([sys.executable, "-m", "game", "--headless", "--new", "--host", "127.0.0.1",
                                      "--port", str(port), "--data", data], port))
    report("CPU to /join", ("bare aiohttp server", bare), ("headless table", table))
    if args.window == "auto" and shutil.which("Xvfb"):
        window: list[float] = []
        bare_window: list[float] = []
        with xvfb() as display:
            for _ in range(args.runs):
                bare_window.append(cpu_to_lobby([sys.executable, "-c", BARE_WINDOW], display))
                with tempfile.TemporaryDirectory(prefix="bench-start-") as data:
                    window.append(cpu_to_lobby([sys.executable, "-m", "game", "--new", "--host", "127.0.0.1",
                                                "--port", str(free_port()), "--data", data], display))
        report("CPU to lobby", ("bare pygame window", bare_window), ("table + TV window", window))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
