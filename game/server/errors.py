"""Protocol-level typed errors (the rules' own errors live in :mod:`game.rules.base`). Each has the
wire ``code`` the server sends in an ``error`` message."""
from __future__ import annotations

from game.rules.base import RulesError


class ProtocolError(RulesError):
    code = "malformed"


class UnknownKind(ProtocolError):
    code = "unknown_kind"


class Forbidden(ProtocolError):
    code = "forbidden"


class BadPin(ProtocolError):
    code = "bad_pin"


class RateLimited(ProtocolError):
    code = "rate_limited"


class TooLarge(ProtocolError):
    code = "too_large"


class TakenOver(ProtocolError):
    code = "taken_over"


class ClaimRefused(ProtocolError):
    """The host did not hand this phone the seat it asked for."""

    code = "claim_refused"


class ServerFault(ProtocolError):
    """The server could not do its part (e.g. the journal could not be written); nothing changed."""

    code = "server_error"
