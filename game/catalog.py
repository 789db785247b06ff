"""The game catalog: one :class:`GameDescriptor` per game and per variant, the one registry the
session, the server, the screen, the kiosk and the tools read.

Adding a game = one package (``game/games/<id>/`` in this tree, or a distribution of its own) whose
``DESCRIPTORS`` are named by one entry point in the ``tabletop.games`` group: engine, bots, screen
with its scripted moments, phone module, strings, how-to-play slides, views page and rulebook, all in
its folder. Nothing else branches on a game's name: the descriptor declares what the game can do as
data (seats, races, referee actions, search budget, default preset, string domains), and shared code
reads those. Module paths are resolved lazily, so reading the catalog imports no engine (and no pygame).

Tests register extra games (a toy game) with :func:`register`; :func:`unregister` takes them off.
"""
from __future__ import annotations

import enum
import importlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from game.errors import TableError
from game.rules.base import RaceMode

if TYPE_CHECKING:
    from game.bots import Bot
    from game.howto import Slide
    from game.render.moments import Tapes
    from game.rules.base import GameEngine

ENTRY_POINT_GROUP = "tabletop.games"
PHONE_URL_DIR = "games"  # a game's phone modules are served at /js/games/<file> (beside the shell's common.js)

class PlayMode(enum.Enum):
    """How a variant is played: on the big screen with phones as hands, or as a companion to a
    boxed copy of the game on a real table."""

    TABLE = "table"
    COMPANION = "companion"


class UnknownGame(KeyError):
    """No game of that id is in the catalog."""


class UnknownBot(TableError, ValueError):
    """No bot of that kind (or none at all) for a game: names the kinds there are."""

    code = "unknown_bot"


class BadGamePackage(TableError, ValueError):
    """An installed game's entry point names something that is not its descriptors."""

    code = "bad_game_package"


def _resolve(path: str) -> Any:
    """``"package.module:attribute"`` -> the attribute (imported on first use)."""
    module, _, attribute = path.partition(":")
    if not attribute:
        raise ValueError(f"{path!r} is not 'module:attribute'")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True, slots=True)
class SeatRange:
    """How many players a game is played by (its engine refuses other counts)."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if not (isinstance(self.low, int) and isinstance(self.high, int)) or not 1 <= self.low <= self.high:
            raise ValueError(f"bad seat range {self.low!r}..{self.high!r}")

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and self.low <= n <= self.high


@dataclass(frozen=True, slots=True)
class GameDescriptor:
    """Everything the house needs to know about one game or variant: where its parts are (lazy
    ``"module:attribute"`` paths and files in its ``folder``) and what it can do, as data."""

    id: str  # unique: "<family>" for the table game, "<family>_companion" for its companion edition, ...
    family: str  # the game it is an edition of; the lobby groups by family
    mode: PlayMode
    engine: str  # "game.games.<id>.rules:ENGINE" (an import path, resolved lazily)
    bots: str | None  # "game.games.<id>.bots:make_bot" (``make_bot(kind, seat, seed)``) or None
    screen: str  # the module exporting the game's scenes on the big screen
    phone: str  # the phone module's URL under /js/ ("games/<id>.js"); the file is in ``folder``/phone/
    strings: tuple[str, ...]  # i18n domains the game's screen uses, e.g. ("screen_cheating_moth",)
    title_key: str  # i18n key of the game's name (in the "screen" and "web" domains)
    folder: str  # the game's own folder: strings/ (its string files), phone/ (its phone modules), its pages
    seats: SeatRange  # players it is played by (the conformance suite checks the engine agrees)
    views: str = "views.md"  # the page of its views, actions and events, in ``folder``
    rulebook: str = ""  # its rulebook in ``folder`` ("": a variant played by its family's rules)
    howto: str = ""  # "game.games.<id>.howto:SLIDES": its how-to-play slides, pure data ("" = none)
    tapes: str = ""  # its scripted moments of a real session, "game.games.<id>.tapes:TAPES" (game/tapes.py)
    phone_strings: tuple[str, ...] = ()  # i18n domains of its phone's words ("web_collusion"), served with "web"
    phone_data: str = ""  # "module:function" (name -> JSON or None): data its phones fetch at /games/<id>/<name>.json
    races: frozenset[RaceMode] = frozenset()  # the races its engine may ask the session to judge
    referee: bool = False  # the host may act as the table (``GameEngine.table_actions``): companion games
    search_iterations: int = 32  # a ``search`` bot's rollouts a decision at 6 seats (its measured budget)
    ladder_seats: int = 6  # the table size its bot ladder and balance are measured at (bench/bench_bots.py)
    rank: int = 100  # catalog order (the first table game is the default one); plug-ins sort after

    @property
    def views_doc(self) -> Path:
        return Path(self.folder) / self.views

    @property
    def rulebook_doc(self) -> Path | None:
        return Path(self.folder) / self.rulebook if self.rulebook else None

    @property
    def strings_folder(self) -> Path:
        return Path(self.folder) / "strings"

    @property
    def phone_file(self) -> Path:
        return Path(self.folder) / "phone" / Path(self.phone).name

    def load_phone_data(self, name: str) -> Any:
        """The game's data called ``name`` for its phones (None: there is none)."""
        return _resolve(self.phone_data)(name) if self.phone_data and name.isidentifier() else None

    def how_to_play(self) -> tuple[Slide, ...]:
        """The explanation the TV plays before the game's first round (``game/howto``)."""
        return _resolve(self.howto) if self.howto else ()

    def load_tapes(self) -> Tapes:
        """The game's scripted moments (screenshots, scene tests, the README's pictures): a
        :class:`game.render.moments.Tapes` in its package (runs real sessions; imports pygame)."""
        if not self.tapes:
            raise UnknownGame(f"{self.id!r} has no scripted moments")
        return _resolve(self.tapes)

    def load_engine(self) -> GameEngine:
        return _resolve(self.engine)

    @property
    def has_bots(self) -> bool:
        return self.bots is not None

    def make_bot(self, kind: enum.Enum | str, seat: int, seed: int) -> Bot:
        """A bot of ``kind`` playing ``seat``; raises :class:`UnknownBot` when there is none (the game's
        factory names the kinds it has)."""
        if self.bots is None:
            raise UnknownBot(f"no bots for {self.id!r}")
        return _resolve(self.bots)(kind.value if isinstance(kind, enum.Enum) else kind, seat, seed)


def _as_descriptors(value: object, where: str) -> tuple[GameDescriptor, ...]:
    items = value if isinstance(value, tuple | list) else (value,)
    if not items or not all(isinstance(d, GameDescriptor) for d in items):
        raise BadGamePackage(f"entry point {where} must name a GameDescriptor or a tuple of them")
    return tuple(items)


def _discover() -> tuple[GameDescriptor, ...]:
    """Every installed game: the ``tabletop.games`` entry points (this distribution's own games and
    any game installed as a distribution of its own), in ``rank`` order."""
    from importlib import metadata  # lazily: it imports email and socket, which an engine never needs

    found: dict[str, GameDescriptor] = {}
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        for desc in _as_descriptors(point.load(), f"{point.name} = {point.value}"):
            found.setdefault(desc.id, desc)
    return tuple(sorted(found.values(), key=lambda d: (d.rank, d.id)))


_installed: tuple[GameDescriptor, ...] | None = None
_registered: dict[str, GameDescriptor] = {}
_changes = 0  # how many times register/unregister changed the catalog (what was derived from it is stale)


def installed() -> tuple[GameDescriptor, ...]:
    """The games found through entry points (read once)."""
    global _installed
    if _installed is None:
        _installed = _discover()
        if not _installed:
            raise UnknownGame(f"no games installed: no entry point in {ENTRY_POINT_GROUP!r} (pip install the project)")
    return _installed


def register(desc: GameDescriptor) -> GameDescriptor:
    """Add a game at run time (tests: a toy game); its id must be new."""
    global _changes
    if any(d.id == desc.id for d in games()):
        raise ValueError(f"a game with id {desc.id!r} is already in the catalog")
    _registered[desc.id] = desc
    _changes += 1
    return desc


def unregister(game_id: str) -> None:
    """Take a game added by :func:`register` off again (installed games stay)."""
    global _changes
    if _registered.pop(game_id, None) is not None:
        _changes += 1


def changes() -> int:
    """A number that grows whenever a game is registered or taken off: what was derived from the
    catalog under an older number is stale."""
    return _changes


def games(mode: PlayMode | None = None) -> tuple[GameDescriptor, ...]:
    """Every game in catalog order (then registered ones), or those of one ``mode``."""
    every = installed() + tuple(_registered.values())
    return every if mode is None else tuple(d for d in every if d.mode is mode)


def ids(mode: PlayMode | None = None) -> tuple[str, ...]:
    return tuple(d.id for d in games(mode))


def default_game() -> str:
    """The game a table starts with when its configuration names none: the catalog's first table game."""
    return games(PlayMode.TABLE)[0].id


def phone_domains() -> tuple[str, ...]:
    """The games' phone string domains (each once, in catalog order): the table serves them with
    the shared ``web`` words as one object per language (``/i18n/<lang>.json``)."""
    return tuple(dict.fromkeys(domain for d in games() for domain in d.phone_strings))


def string_folders() -> tuple[Path, ...]:
    """Where the games' own string files are (each game's ``strings/``)."""
    return tuple(dict.fromkeys(d.strings_folder for d in games()))


def phone_file(url_path: str) -> Path | None:
    """The file of a game's phone module served at ``/js/<url_path>`` (None: no game's): each game's
    ``phone/`` files are served beside the shell's ``js/games/`` so their relative imports hold."""
    folder, _, name = url_path.rpartition("/")
    if folder != PHONE_URL_DIR or not name.endswith(".js"):
        return None
    found = (Path(d.folder) / "phone" / name for d in games())
    return next((path for path in found if path.is_file()), None)


def variant(game_id: str, mode: PlayMode) -> GameDescriptor:
    """The game of ``mode`` in the same family as ``game_id`` (else the first game of ``mode``):
    switching a lobby between table and companion keeps the game when it has both."""
    family = get(game_id).family if game_id in ids() else None
    choices = games(mode)
    if not choices:
        raise UnknownGame(f"no {mode.value} games in the catalog")
    return next((d for d in choices if d.family == family), choices[0])


def get(game_id: str) -> GameDescriptor:
    for desc in games():
        if desc.id == game_id:
            return desc
    raise UnknownGame(f"unknown game {game_id!r}; choose one of {', '.join(ids())}")


def get_engine(game_id: str) -> GameEngine:
    """The engine of a game by catalog id (raises :class:`UnknownGame`, a KeyError)."""
    return get(game_id).load_engine()


def rulebooks() -> Iterable[tuple[GameDescriptor, Path]]:
    """Each game's rulebook (variants share their family's)."""
    return ((d, d.rulebook_doc) for d in games() if d.rulebook_doc is not None)
