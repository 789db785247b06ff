"""The root of every typed error at the table.

:class:`TableError` has three families beneath it, each with the wire ``code`` the server sends in
an ``error`` message:

* rules errors — :class:`game.rules.base.RulesError` (illegal action, not your turn, bad settings,
  unknown seat, stale state, malformed action), raised by the engines and the session;
* protocol errors — :class:`game.server.errors.ProtocolError` (unknown kind, too large, rate
  limited, taken over), raised by the server about a message;
* admin errors — :class:`game.server.errors.AdminError` (forbidden, bad PIN), about who may run
  the table.

:class:`game.server.errors.ServerFault` is the server's own failure (nothing changed).
"""
from __future__ import annotations


class TableError(Exception):
    """Base of every typed error; ``code`` is the wire error code."""

    code = "error"

    def wire_fields(self) -> dict[str, str | int]:
        """What the error's wire message carries besides its code and message, for a phone to say
        exactly what was refused in its own language (none by default)."""
        return {}
