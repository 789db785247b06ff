"""The firmware builds for its real target: the Arduino sketch and the core compiled for
an ATmega32U4 (Arduino Leonardo / Pro Micro) with Debian's gcc-avr, avr-libc and arduino-core-avr
(``make -C firmware_bridge/core avr``; ``tools/test`` installs them), warnings as errors in our
code, and it fits: flash under the Caterina bootloader's limit, RAM with room for the stack.
Skips only where that toolchain is absent."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "core"
ARDUINO_AVR = Path("/usr/share/arduino/hardware/arduino/avr")
LEONARDO_FLASH = 28_672  # boards.txt leonardo.upload.maximum_size: 32 KiB less the 4 KiB bootloader
LEONARDO_RAM = 2_560  # leonardo.upload.maximum_data_size
STACK_ROOM = 512  # bytes left for the stack and the core's locals at run time

TOOLS = ("make", "avr-gcc", "avr-g++", "avr-objcopy", "avr-size")


@pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS) or not (ARDUINO_AVR / "cores" / "arduino").is_dir(),
                    reason="no AVR toolchain (apt-get install gcc-avr avr-libc arduino-core-avr)")
@pytest.mark.timeout(300)
def test_the_sketch_builds_for_the_atmega32u4_and_fits(tmp_path: Path) -> None:
    run = subprocess.run(["make", "-C", str(CORE), "avr", f"BUILD={tmp_path}"], capture_output=True, text=True,
                         timeout=290)
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    assert (tmp_path / "avr" / "arcade_board.hex").stat().st_size > 0
    program = re.search(r"Program:\s+(\d+) bytes", run.stdout)
    data = re.search(r"Data:\s+(\d+) bytes", run.stdout)
    assert program is not None and data is not None, report
    assert int(program.group(1)) <= LEONARDO_FLASH, report
    assert int(data.group(1)) <= LEONARDO_RAM - STACK_ROOM, report
