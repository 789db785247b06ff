"""Socket caps per role: the gallery of spectators is sized from the open-file
limit, a spectator over it is refused kindly (gallery_full, 4009), and seats never lose room to it."""
from __future__ import annotations

import logging
import resource
from collections.abc import Callable
from typing import Any

import pytest
from tabletop_wsphone import Phone, Table

from game.server.app import HUB, ServerSettings, socket_limits
from game.server.capacity import FD_HEADROOM, FD_WANTED, HELLO_ROOM, raise_fd_limit, size_sockets
from game.server.hub import MAX_SPECTATORS, SEAT_RESERVE
from game.server.protocol import CloseCode

MakeTable = Callable[..., Any]
INF = resource.RLIM_INFINITY


async def _watch(t: Table) -> Phone:
    phone = await t.connect()
    await phone.send("hello", role="spectator")
    return phone


async def _refused(phone: Phone) -> None:
    error = await phone.error()
    assert (error["code"], error["table_lang"]) == ("gallery_full", "en")  # the page's language: no welcome comes
    assert await phone.closed() == CloseCode.GALLERY_FULL


def _limit_for(spectators: int) -> int:
    """The open-file limit that leaves room for exactly ``spectators``."""
    return FD_HEADROOM + SEAT_RESERVE + HELLO_ROOM + spectators


async def test_a_spectator_over_the_gallery_is_refused_while_seats_and_host_get_in(make_table: MakeTable) -> None:
    t = await make_table(max_sockets=None, server={"fd_limit": _limit_for(3)})
    assert t.client.app[HUB].sockets.gallery() == 3
    for _ in range(3):
        await (await _watch(t)).recv("welcome")
    await _refused(await _watch(t))
    for seat in range(4):  # every seat's phone, and the host, still get in
        _, welcome, _ = await t.seat(seat)
        assert welcome["seat"] == seat
    await t.host()


async def test_a_seated_phone_reconnects_while_the_gallery_is_full(make_table: MakeTable) -> None:
    t = await make_table(max_sockets=None, server={"fd_limit": _limit_for(2)})
    first, _, _ = await t.seat(0)
    watchers = [await _watch(t) for _ in range(2)]
    for w in watchers:
        await w.recv("welcome")
    await _refused(await _watch(t))
    again, welcome, _ = await t.seat(0)  # the same phone on a new socket (its old one is taken over)
    assert welcome["seat"] == 0
    assert await first.closed() == CloseCode.TAKEN_OVER


async def test_a_place_in_the_gallery_frees_when_a_spectator_leaves(make_table: MakeTable) -> None:
    t = await make_table(max_sockets=None, server={"fd_limit": _limit_for(1)})
    first = await _watch(t)
    await first.recv("welcome")
    await _refused(await _watch(t))
    await first.ws.close()
    hub = t.client.app[HUB]
    for _ in range(100):  # the server notices the close
        if not any(c.role is not None for c in hub.clients):
            break
        await first.quiet(0.01)
    await (await _watch(t)).recv("welcome")


def test_size_sockets_keeps_the_seats_reserve_whatever_the_fd_limit() -> None:
    roomy = size_sockets(20_000)
    assert (roomy.spectators, roomy.seat_reserve) == (MAX_SPECTATORS, SEAT_RESERVE)
    assert roomy.total == SEAT_RESERVE + HELLO_ROOM + MAX_SPECTATORS
    common = size_sockets(1024)  # a soft limit that could not be raised
    assert common.spectators == 1024 - FD_HEADROOM - SEAT_RESERVE - HELLO_ROOM
    assert common.total + FD_HEADROOM == 1024
    tiny = size_sockets(256)
    assert tiny.spectators == 0 and tiny.gallery() == 0
    assert tiny.total - tiny.shared() == SEAT_RESERVE  # seats and host links keep their room


def test_socket_limits_from_an_injected_fd_limit() -> None:
    assert socket_limits(ServerSettings(fd_limit=1024)).gallery() == 1024 - FD_HEADROOM - SEAT_RESERVE - HELLO_ROOM
    assert socket_limits(ServerSettings(fd_limit=50_000)).gallery() == MAX_SPECTATORS
    assert socket_limits(ServerSettings(fd_limit=50_000, max_spectators=10)).gallery() == 10


class Limits:
    """A stand-in for getrlimit/setrlimit."""

    def __init__(self, soft: int, hard: int, *, refuse: bool = False) -> None:
        self.soft, self.hard, self.refuse = soft, hard, refuse

    def get(self, which: int) -> tuple[int, int]:
        assert which == resource.RLIMIT_NOFILE
        return self.soft, self.hard

    def set(self, which: int, limits: tuple[int, int]) -> None:
        if self.refuse:
            raise ValueError("not allowed")
        self.soft, self.hard = limits


@pytest.mark.parametrize(("soft", "hard", "after"), [
    (1024, 4096, 4096), (1024, 2048, 2048), (1024, 1_048_576, FD_WANTED), (1024, INF, FD_WANTED),
    (8192, 1_048_576, 8192), (1024, 1024, 1024), (INF, INF, INF),
])
def test_raise_fd_limit_goes_towards_the_hard_limit(soft: int, hard: int, after: int) -> None:
    limits = Limits(soft, hard)
    assert raise_fd_limit(get=limits.get, set_=limits.set) == after
    assert (limits.soft, limits.hard) == (after, hard)


def test_raise_fd_limit_never_fails_and_says_why(caplog: pytest.LogCaptureFixture) -> None:
    limits = Limits(1024, 4096, refuse=True)
    with caplog.at_level(logging.INFO, logger="game.server.capacity"):
        assert raise_fd_limit(get=limits.get, set_=limits.set) == 1024
    assert "stays at 1024" in caplog.text and "not allowed" in caplog.text
