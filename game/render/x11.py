"""X's errors reach the log (call once the window is open on X11).

Xlib reports a lost display (the X server gone, the window's connection closed) and protocol errors
on stderr and then exits the process, so the cause of such a crash was only in the journal. The
handlers here log one line first (the kiosk's ``logs/tabletop.log`` has it), then leave Xlib and SDL
to do what they did; the exit is the TV's crash, counted by the table's process.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import logging

log = logging.getLogger(__name__)

class _XErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p), ("resourceid", ctypes.c_ulong),
                ("serial", ctypes.c_ulong), ("error_code", ctypes.c_ubyte), ("request_code", ctypes.c_ubyte),
                ("minor_code", ctypes.c_ubyte)]


_IO_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_XErrorEvent))
_KEPT: list[object] = []  # the handlers C holds: alive as long as the process


def log_x_errors(display: str) -> bool:
    """On X11 (call once the window is open): X's errors reach the log. Xlib reports a lost display
    (the X server gone, the window's connection closed) and protocol errors on stderr and then
    exits the process; the handlers here log one line first, then leave Xlib and SDL to do what they
    did (the exit is the TV's crash, counted by the table's process). False when libX11 is not loaded."""
    name = ctypes.util.find_library("X11")
    if name is None:
        return False
    try:
        x11 = ctypes.CDLL(name)  # SDL's own copy: dlopen hands back the library already loaded
    except OSError:
        return False
    x11.XSetIOErrorHandler.restype = ctypes.c_void_p
    x11.XSetErrorHandler.restype = ctypes.c_void_p

    def lost(_display: int | None) -> int:
        log.critical("the TV lost its X display %s (fatal X connection error): the window is gone, "
                     "the program exits and the table's run is counted as a crash", display)
        return 0  # Xlib exits the process after this

    def error(dpy: int | None, event: ctypes._Pointer[_XErrorEvent]) -> int:
        e = event.contents
        text = ctypes.create_string_buffer(200)
        x11.XGetErrorText(ctypes.c_void_p(dpy), e.error_code, text, len(text))
        log.critical("X error on display %s: %s (request %d.%d, resource 0x%x)", display,
                     text.value.decode(errors="replace"), e.request_code, e.minor_code, e.resourceid)
        return int(previous(dpy, event)) if previous is not None else 0

    io_handler, error_handler = _IO_HANDLER(lost), _ERROR_HANDLER(error)
    _KEPT.extend((io_handler, error_handler))
    x11.XSetIOErrorHandler(io_handler)
    old = x11.XSetErrorHandler(error_handler)
    previous = _ERROR_HANDLER(old) if old else None  # SDL's safety net, then Xlib's default (exits)
    _KEPT.append(previous)
    return True
