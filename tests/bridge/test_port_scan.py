"""The board search lists serial ports again only when a device node came or went (the watched
directory's mtime moved), or after its backstop: not a full pyserial listing every half second."""
from __future__ import annotations

import os
from pathlib import Path

from firmware_bridge.bridge import ArcadeBridge, PortScan


def test_ports_are_listed_again_only_when_the_device_directory_changes(tmp_path: Path) -> None:
    now = [0.0]
    found: list[str] = []

    def listing() -> list[str]:
        return list(found)

    scan = PortScan(listing, watched=(str(tmp_path),), backstop_s=30.0, clock=lambda: now[0])
    assert scan() == [] and scan.listings == 1
    for _ in range(50):  # 25 s of searching every half second, nothing plugged in
        now[0] += 0.5
        assert scan() == []
    assert scan.listings == 1
    now[0] += 0.5
    (tmp_path / "ttyACM0").touch()  # a board plugged in: a new node in the directory
    os.utime(tmp_path, ns=(0, os.stat(tmp_path).st_mtime_ns + 1_000_000))  # coarse clocks: make the move visible
    found.append("/dev/ttyACM0")
    listed = scan.listings
    assert scan() == ["/dev/ttyACM0"] and scan.listings == listed + 1


def test_the_backstop_lists_again_when_nothing_moved(tmp_path: Path) -> None:
    now = [0.0]
    scan = PortScan(lambda: ["/dev/ttyUSB0"], watched=(str(tmp_path),), backstop_s=30.0, clock=lambda: now[0])
    scan()
    now[0] += 29.0
    scan()
    assert scan.listings == 1
    now[0] += 1.0
    scan()
    assert scan.listings == 2


def test_a_bridge_searches_with_a_port_scan_by_default() -> None:
    assert isinstance(ArcadeBridge()._ports, PortScan)
