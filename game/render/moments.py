"""The values a game's scripted moments come in (``game/tapes.py`` records them; each
game's ``TAPES`` lists them): pure data, so the catalog can name their type without importing a screen."""
from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
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



# The people of a tape: mixed scripts by default (every screenshot and scene test shows mixed text);
# the how-to-play's worked examples name them in the table's language (a Thai table meets สมชาย,
# not سارا).
LOCAL_NAMES: Mapping[str, tuple[str, ...]] = {
    "fa": ("علی", "نیلوفر", "مریم", "رضا", "سارا", "امیرحسین", "نیما", "فاطمه", "محمدرضا", "زهرا", "پریسا", "کیان"),
    "th": ("สมชาย", "มาลี", "สมศักดิ์", "ปิยะนุช", "ธนากร", "วรรณา", "กิตติพงษ์", "อรุณี", "ณัฐพล", "สุดารัตน์", "ประเสริฐ",
           "จันทร์เพ็ญ"),
    "en": ("Ali", "Mia", "Sam", "Nora", "Tom", "Lena", "Reza", "Kai", "Zoë", "Max", "Ruth", "Ben"),
}
_PEOPLE: ContextVar[tuple[str, ...] | None] = ContextVar("tape_people", default=None)


def tape_people() -> tuple[str, ...] | None:
    """The names a tape recorded now gives its people (None: the tapes' own mixed names)."""
    return _PEOPLE.get()


@contextlib.contextmanager
def people_of(lang: str) -> Iterator[None]:
    """Tapes recorded inside this block name their people in ``lang`` (the how-to-play's examples)."""
    token = _PEOPLE.set(LOCAL_NAMES.get(lang))
    try:
        yield
    finally:
        _PEOPLE.reset(token)
