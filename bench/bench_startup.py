"""CPU seconds from a process's start to its first answer, the table beside its bare limit.

    python3 bench/bench_startup.py [--runs 5]

Each run starts a fresh process and polls ``GET /join`` on loopback until it answers 200; the
process's own CPU time (user + system, /proc) at that moment is the figure. The table: ``python -m
game --headless --new`` (the headless table: no window, one process). The bare limit, in the same
run: a Python process that imports aiohttp and serves a fixed ``/join`` page. Prints p50 / max of
each, their ratio, and the load average (the machine is shared).
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BARE = """
import sys
from aiohttp import web
app = web.Application()
app.router.add_get("/join", lambda request: web.Response(text="<html>join</html>", content_type="text/html"))
web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), print=None)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
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
    for label, values in (("bare aiohttp server", bare), ("headless table", table)):
        print(f"{label:<22} CPU to /join: p50 {statistics.median(values):.3f} s  max {max(values):.3f} s  (n={len(values)})")
    print(f"{'':<22} table / bare limit: p50 x{statistics.median(table) / statistics.median(bare):.2f}")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
