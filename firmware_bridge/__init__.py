"""Arcade buttons for the tabletop: the board's line protocol (``framing``), device-clock sync
(``clock``) and the asyncio host bridge (``bridge``). The firmware lives in ``core/`` (portable
C++17) and ``arcade_board/`` (Arduino sketch); the protocol is documented in ``PROTOCOL.md``.
"""
from .framing import PROTOCOL_VERSION, LampMode

__all__ = ["PROTOCOL_VERSION", "LampMode"]
