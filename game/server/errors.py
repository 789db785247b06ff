"""The server's typed errors, beside the rules' own (:mod:`game.rules.base`) under one root,
:class:`game.errors.TableError`. Each has the wire ``code`` the server sends in an ``error`` message."""
from __future__ import annotations

from game.errors import TableError


class StartupError(Exception):
    """The table could not start (port in use, unwritable data directory, ...)."""


class ProtocolError(TableError):
    """A message the protocol refuses (before any rule is asked)."""

    code = "malformed"


class UnknownKind(ProtocolError):
    code = "unknown_kind"


class TooLarge(ProtocolError):
    code = "too_large"


class RateLimited(ProtocolError):
    code = "rate_limited"


class GalleryFull(ProtocolError):
    """A spectator over the gallery's cap (seats never lose room to spectators)."""

    code = "gallery_full"


class TakenOver(ProtocolError):
    code = "taken_over"


class ClaimRefused(ProtocolError):
    """The host did not hand this phone the seat it asked for."""

    code = "claim_refused"


class AdminError(TableError):
    """Who may run the table: host commands and the admin PIN."""

    code = "forbidden"


class Forbidden(AdminError):
    code = "forbidden"


class BadPin(AdminError):
    code = "bad_pin"


class ServerFault(TableError):
    """The server could not do its part (e.g. the journal could not be written); nothing changed."""

    code = "server_error"
