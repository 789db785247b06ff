"""A frame over the hard limit closes its socket with 1009, also when the frame is large. aiohttp
sends the 1009 close frame and closes the TCP connection at once; the rest of a ~1 MB frame is
still arriving, and closing a socket with unread data makes the kernel send a reset that the phone
reads before the close frame (it sees 1006). :func:`linger_after_too_big` keeps
such a connection reading (aiohttp discards what arrives) until the peer closes its side or
``LINGER_S`` passes, then closes it.
"""
from __future__ import annotations

import asyncio
import contextlib
import socket
from typing import Any

from aiohttp import WebSocketError, WSCloseCode, web

LINGER_S = 2.0  # at most this long reading what a peer over the limit still sends


def linger_after_too_big(ws: web.WebSocketResponse, transport: asyncio.Transport | None) -> None:
    """Install on ``transport`` (this socket's own): a close while ``ws`` failed with 1009 waits
    for the peer to stop sending (at most ``LINGER_S``)."""
    if transport is None:
        return
    real_close = transport.close
    loop = asyncio.get_running_loop()
    deadline: list[asyncio.TimerHandle] = []

    def close() -> None:
        if deadline:  # lingering: the peer's end of stream closes at once, anything else waits
            if _peer_finished(transport):
                finish()
            return
        exc = ws.exception()
        if isinstance(exc, WebSocketError) and exc.code == WSCloseCode.MESSAGE_TOO_BIG:
            deadline.append(loop.call_later(LINGER_S, finish))
            return
        finish()

    def finish() -> None:
        for handle in deadline:
            handle.cancel()
        deadline.clear()
        with contextlib.suppress(AttributeError):
            del transport.close  # the instance's hook goes
        real_close()

    transport.close = close  # type: ignore[method-assign]  # this transport only


def _peer_finished(transport: asyncio.Transport) -> bool:
    """The peer closed its side (its end of stream is the next thing to read)."""
    raw: Any = transport.get_extra_info("socket")
    if raw is None:
        return True
    try:
        with socket.fromfd(raw.fileno(), socket.AF_INET, socket.SOCK_STREAM) as sock:
            return sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
