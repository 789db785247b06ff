"""The LAN address phones can reach: the address of the interface holding the default route, and
:class:`AddressWatch`, which re-checks it while the table runs (a café's Wi-Fi or cable may come up
after the program started) so the QR codes and links follow the address."""
from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit

log = logging.getLogger(__name__)

_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")
NO_NETWORK = "127.0.0.1"  # what lan_address() gives without a route: only this computer reaches it
RECHECK_NO_NETWORK_S = 3.0  # no network yet: look again soon
RECHECK_S = 20.0  # a network: look now and then (a new DHCP lease, another Wi-Fi)
# rtnetlink multicast groups: links, IPv4/IPv6 addresses and IPv4 routes coming and going
_RTMGRP_LINK, _RTMGRP_IPV4_IFADDR, _RTMGRP_IPV4_ROUTE, _RTMGRP_IPV6_IFADDR = 0x1, 0x10, 0x40, 0x100


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
    return NO_NETWORK


def base_url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def phones_cannot_reach(url: str) -> bool:
    """Whether a link points at this computer only (loopback), so no phone can open it."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class AddressWatch:
    """Re-checks the LAN address (every ``RECHECK_NO_NETWORK_S`` without a network, every
    ``RECHECK_S`` with one, and at once when the kernel reports a link or address change) and calls
    ``on_change(url)`` with the new base URL when it moved. ``source``: where the address comes from
    (:func:`lan_address`; tests inject theirs)."""

    def __init__(self, port: int, on_change: Callable[[str], None],
                 source: Callable[[], str] = lan_address) -> None:
        self.port = port
        self.on_change = on_change
        self.source = source
        self.url = base_url(source(), port)
        self.checks = 0
        self._wake: asyncio.Event | None = None

    @property
    def offline(self) -> bool:
        return phones_cannot_reach(self.url)

    def check(self) -> bool:
        """Look at the address now; True (and ``on_change`` called) when the URL changed."""
        self.checks += 1
        url = base_url(self.source(), self.port)
        if url == self.url:
            return False
        before, self.url = self.url, url
        if self.offline:
            log.warning("the network is gone: phones cannot reach the table until it is back (was %s)", before)
        else:
            log.warning("phones now reach the table at %s (the QR codes follow)", url)
        self.on_change(url)
        return True

    def wake(self) -> None:
        """Check at once (a network change was reported)."""
        if self._wake is not None:
            self._wake.set()

    async def run(self) -> None:
        """Check until cancelled (a task on the table's loop)."""
        self._wake = asyncio.Event()
        with _network_changes(self.wake):
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), RECHECK_NO_NETWORK_S if self.offline else RECHECK_S)
                self._wake.clear()
                try:
                    self.check()
                except Exception:  # a failing address look-up must not end the watch
                    log.exception("the LAN address could not be checked")


@contextlib.contextmanager
def _network_changes(changed: Callable[[], None]) -> Iterator[bool]:
    """Call ``changed`` on every rtnetlink message about links, addresses or routes (Linux), on the
    running loop; elsewhere (or when the socket is refused) the watch only polls. Yields whether
    changes are heard."""
    loop = asyncio.get_running_loop()
    sock = _netlink_socket()
    if sock is None:
        yield False
        return

    def readable() -> None:
        with contextlib.suppress(OSError):
            while sock.recv(65536):
                pass
        changed()

    loop.add_reader(sock.fileno(), readable)
    try:
        yield True
    finally:
        loop.remove_reader(sock.fileno())
        sock.close()


def _netlink_socket() -> socket.socket | None:
    family = getattr(socket, "AF_NETLINK", None)
    if family is None:
        return None
    try:
        sock = socket.socket(family, socket.SOCK_RAW | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC,
                             getattr(socket, "NETLINK_ROUTE", 0))
    except OSError as exc:
        log.info("network changes are not heard (%s): the address is polled", exc)
        return None
    try:
        sock.bind((0, _RTMGRP_LINK | _RTMGRP_IPV4_IFADDR | _RTMGRP_IPV4_ROUTE | _RTMGRP_IPV6_IFADDR))
    except OSError as exc:
        sock.close()
        log.info("network changes are not heard (%s): the address is polled", exc)
        return None
    return sock
