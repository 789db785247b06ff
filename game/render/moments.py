"""The values a game's scripted moments come in (``game/tapes.py`` records them; each
game's ``TAPES`` lists them): pure data, so the catalog can name their type without importing a screen."""
from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from game.session.snapshot import TableSnapshot


@dataclass(frozen=True, slots=True)
class Moment:
    """A scene worth a picture: the snapshots to feed the screen, then how long to let it play."""

    name: str
    snapshots: tuple[TableSnapshot, ...]
    play_s: float = 1.0
    settings_open: bool = False


@dataclass(frozen=True, slots=True)
class PhoneShot:
    """A README picture of a phone at a real table: ``seats`` seats, the first one's phone named,
    the game started, then each ``clicks`` test id clicked; taken once ``shown`` is on the page."""

    file: str
    seats: int
    clicks: tuple[str, ...]
    shown: str


@dataclass(frozen=True, slots=True)
class Tapes:
    """A game's scripted moments (its screen package's ``TAPES``, the catalog's ``tapes``): every
    scene in play order, and which of them (and which phone page) the README shows."""

    moments: Callable[[str], Iterator[Moment]]  # language -> the moments
    readme: Mapping[str, str] = dataclasses.field(default_factory=dict)  # moment name -> picture file
    phone: PhoneShot | None = None

