"""The LAN address phones can reach: the address of the interface holding the default route."""
from __future__ import annotations

import socket

_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


def lan_address() -> str:
    """Found without sending a packet: ``connect`` on a UDP socket only picks a route and a source
    address. Falls back to 127.0.0.1 when there is no route (no network)."""
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
        except OSError:
            continue
        if address and not address.startswith("0."):
            return address
    return "127.0.0.1"


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
