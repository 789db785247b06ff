"""The session's public face: what the server, the kiosk and the tools import (never
``game.session.session`` or the session's other rooms): :class:`Session` and what its callers
handle. (``game/session/__init__.py`` stays empty: ``game.config`` imports the snapshot types.)"""
from .arcade import ARCADE_UNPLUGGED
from .claims import Claim, ClaimEnd
from .journal import CorruptJournal, Journal, JournalError, move_aside, prune_set_aside
from .lobby import HostCommand
from .policy import RETIRED_TOKENS, KioskPolicy, TablePolicy
from .race_floor import PressSource
from .scheduler import VirtualTime
from .seats import AskHost, NameNeeded, SeatRecord, normalise_code
from .session import ADMIN_PIN_DIGITS, HOUSEKEEPING_S, HandedOver, NoticeCode, Session, SessionListener

__all__ = ["ADMIN_PIN_DIGITS", "ARCADE_UNPLUGGED", "HOUSEKEEPING_S", "RETIRED_TOKENS", "AskHost", "Claim", "ClaimEnd",
           "CorruptJournal", "HandedOver", "HostCommand", "Journal", "JournalError", "KioskPolicy", "NameNeeded",
           "NoticeCode", "PressSource", "SeatRecord", "Session", "SessionListener", "TablePolicy", "VirtualTime",
           "move_aside", "normalise_code", "prune_set_aside"]
