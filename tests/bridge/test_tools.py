"""The simulator's scripting and debounce, the serial monitor's decoding, ``python -m firmware_bridge``."""
from __future__ import annotations

import argparse
import asyncio
import io
import json
import time

import pytest
import serial

from firmware_bridge import __main__ as cli
from firmware_bridge import framing as fr
from tools import serial_monitor
from tools.arcade_sim import ArcadeSimulator, parse_script

pytestmark = pytest.mark.timeout(60)


def test_parse_script_sorts_steps_and_rejects_nonsense():
    assert parse_script("at 2 unplug; at 1.5 press 3 80 ;") == [(1.5, ["press", "3", "80"]), (2.0, ["unplug"])]
    for bad in ("press 3", "at x press 3", "at 1"):
        with pytest.raises(ValueError):
            parse_script(bad)


def test_simulated_contact_bounce_gives_one_press_and_one_release(tmp_path):
    with ArcadeSimulator(link=tmp_path / "a", seed=2) as sim:
        at = sim.bounce(6, at_us=sim.device_us() + 1000, hold_us=30_000)
        end = time.monotonic() + 2
        while len(sim.history) < 2 and time.monotonic() < end:
            time.sleep(0.01)
        time.sleep(0.05)  # any bounce would have been reported by now
        edges = [(e.button, e.pressed, e.device_us) for e in sim.history]
    assert edges == [(6, True, at), (6, False, at + 30_000)]


def test_simulator_refuses_buttons_it_does_not_have(tmp_path):
    with ArcadeSimulator(link=tmp_path / "a", buttons=4) as sim, pytest.raises(ValueError):
        sim.press(4)


def test_serial_monitor_prints_decoded_and_dropped_lines(tmp_path):
    with ArcadeSimulator(link=tmp_path / "a", seed=4) as sim:
        port = serial.Serial(sim.port, 115200, timeout=0.05)
        try:
            port.write(fr.frame("CLK 77"))
            sim.inject_noise(b"P 1 2 3*0000\n")
            out = io.StringIO()
            serial_monitor.monitor(port, out, duration=0.4, raw=False)
        finally:
            port.close()
    text = out.getvalue()
    assert "ClockReply(token=77" in text
    assert "!! dropped (checksum): b'P 1 2 3*0000'" in text
    assert serial_monitor.describe(b"HI*4087") == "(host) HelloRequest()"


async def test_cli_runs_a_race_on_the_simulator(tmp_path, capsys):
    with ArcadeSimulator(link=tmp_path / "a", seed=5) as sim:
        args = argparse.Namespace(serial=sim.port, map=None, race=[1, 2], timeout=3.0, wait=5.0)

        async def presses() -> None:
            await asyncio.sleep(0.4)
            base = sim.device_us()
            sim.press(2, at_us=base + 10_000)
            sim.press(1, at_us=base + 12_000)

        code, _ = await asyncio.gather(cli.run(args), presses())
    assert code == 0
    printed = capsys.readouterr().out
    result = json.loads(printed[printed.index("{") :])
    assert result["order"] == [2, 1] and result["margins_ms"] == [pytest.approx(2.0, abs=0.01)]


def test_cli_rejects_bad_seat_lists():
    with pytest.raises(SystemExit):
        cli.main(["--race", "a,b"])


def test_command_line_numbers_buttons_as_the_tv_does(tmp_path, capsys):
    from tools.arcade_sim import _run_command

    with ArcadeSimulator(link=tmp_path / "a", buttons=4, seed=1) as sim:
        _run_command(sim, ["press", "3"])  # the TV's "Button 3"
        _run_command(sim, ["press", "0"])
        _run_command(sim, ["press", "5"])
        _run_command(sim, ["press"])
        end = time.monotonic() + 2
        while not sim.history and time.monotonic() < end:
            time.sleep(0.01)
        pressed = {e.button for e in sim.history if e.pressed}
    assert pressed == {2}
    err = capsys.readouterr().err
    assert "numbered 1..4" in err and "not 0" in err and "not 5" in err
    assert "which button?" in err


def test_started_in_the_background_the_board_stays_plugged_in_until_sigterm(tmp_path):
    import signal
    import subprocess
    import sys
    from pathlib import Path

    link = tmp_path / "arcade"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.Popen([sys.executable, str(root / "tools" / "arcade_sim.py"), "--link", str(link)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        assert "stays plugged in" in proc.stderr.readline()  # stdin is closed: it says so and stays
        assert proc.poll() is None and link.exists()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        assert not link.exists()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
