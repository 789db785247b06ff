"""Builds and runs the firmware core's host unit tests (firmware_bridge/core/tests) under pytest."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "core"


@pytest.mark.skipif(shutil.which(os.environ.get("CXX", "g++")) is None or shutil.which("make") is None,
                    reason="no C++ compiler or make on this machine")
@pytest.mark.timeout(240)
def test_firmware_core_host_tests_pass():
    run = subprocess.run(["make", "-C", str(CORE), "test"], capture_output=True, text=True, timeout=230)
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert "FAIL" not in run.stdout
    assert " 0 failed" in run.stdout, report
    assert "ok   sketch:" in run.stdout, report  # the Arduino sketch compiles and runs on stubs
