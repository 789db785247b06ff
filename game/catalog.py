"""The game catalog: one :class:`GameDescriptor` per game and per variant, the one registry the
session, the server, the screen and the phone app read.

Adding a game = its files (engine, bots, screen with its scripted moments, phone module, strings,
how-to-play slides) and one line in :data:`CATALOG`. Nothing else branches on a game's name: its
settings menus come from its engine's ``settings_schema()``, its phone words from its own
``phone_strings`` files. A game kept outside the tree (a plug-in: ``tests/conformance/toygame``) names
its ``folder``, where its phone module and string files are. Module paths are resolved lazily, so
importing the catalog imports no game (and no pygame).

Tests register extra games (a toy game) with :func:`register`; :func:`unregister` takes them off.
"""
from __future__ import annotations

import enum
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.bots import Bot, BotKind
    from game.howto import Slide
    from game.render.moments import Tapes
    from game.rules.base import GameEngine


class PlayMode(enum.Enum):
    """How a variant is played: on the big screen with phones as hands, or as a companion to a
    boxed copy of the game on a real table."""

    TABLE = "table"
    COMPANION = "companion"


class UnknownGame(KeyError):
    """No game of that id is in the catalog."""


def _resolve(path: str) -> Any:
    """``"package.module:attribute"`` -> the attribute (imported on first use)."""
    module, _, attribute = path.partition(":")
    if not attribute:
        raise ValueError(f"{path!r} is not 'module:attribute'")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True, slots=True)
class GameDescriptor:
    """Everything the house needs to know about one game or variant."""

    id: str  # unique: "collusion", "cheating_moth", "collusion_companion", ...
    family: str  # the game it is a variant of ("collusion"); the lobby groups by family
    mode: PlayMode
    engine: str  # "game.rules.collusion:ENGINE" (an import path, resolved lazily)
    bots: str | None  # "game.bots.collusion:make_bot" (``make_bot(kind, seat, seed)``) or None
    screen: str  # the module exporting the game's scenes on the big screen
    phone: str  # the phone module, relative to game/web/js/ ("games/collusion.js")
    strings: tuple[str, ...]  # i18n domains the game's screen uses, e.g. ("screen_cheating_moth",)
    title_key: str  # i18n key of the game's name (in the "screen" and "web" domains)
    views: str = ""  # the page of its views, actions and events, from the repository root ("" = docs/views/<id>.md)
    howto: str = ""  # "game.howto.collusion:SLIDES": its how-to-play slides, pure data ("" = none)
    tapes: str = ""  # its scripted moments, "<screen>.tapes:TAPES" ("" = that; game/render/tapes.py)
    phone_strings: tuple[str, ...] = ()  # i18n domains of its phone's words ("web_collusion"), served with "web"
    folder: str = ""  # a plug-in's own folder (its phone module and string files), else game/web/js/ and game/i18n/

    @property
    def views_doc(self) -> str:
        return self.views or f"docs/views/{self.id}.md"

    def how_to_play(self) -> tuple[Slide, ...]:
        """The explanation the TV plays before the game's first round (``game/howto``)."""
        return _resolve(self.howto) if self.howto else ()

    def load_tapes(self) -> Tapes:
        """The game's scripted moments (screenshots, scene tests, the README's pictures): a
        :class:`game.render.moments.Tapes` in its screen package (imports pygame)."""
        return _resolve(self.tapes or f"{self.screen}.tapes:TAPES")

    def load_engine(self) -> GameEngine:
        return _resolve(self.engine)

    @property
    def has_bots(self) -> bool:
        return self.bots is not None

    def make_bot(self, kind: BotKind | str, seat: int, seed: int) -> Bot:
        """A bot of ``kind`` playing ``seat``; raises ``game.bots.UnknownBot`` when there is none."""
        from game.bots import BotKind, UnknownBot

        try:
            kind_value = BotKind(kind).value
        except ValueError:
            kinds = ", ".join(k.value for k in BotKind)
            raise UnknownBot(f"unknown bot kind {kind!r}; choose one of {kinds}") from None
        if self.bots is None:
            raise UnknownBot(f"no bots for {self.id!r}")
        return _resolve(self.bots)(kind_value, seat, seed)


def _table_game(game: str, strings: tuple[str, ...]) -> GameDescriptor:
    return GameDescriptor(
        id=game, family=game, mode=PlayMode.TABLE, engine=f"game.rules.{game}:ENGINE",
        bots=f"game.bots.{game}:make_bot", screen=f"game.render.games.{game}", phone=f"games/{game}.js",
        strings=strings, title_key=f"game.{game}", howto=f"game.howto.{game}:SLIDES", phone_strings=(f"web_{game}",),
    )


CATALOG: tuple[GameDescriptor, ...] = (
    _table_game("collusion", ("screen",)),
    _table_game("speakeasy", ("screen_speakeasy",)),
    _table_game("cheating_moth", ("screen_cheating_moth",)),
    GameDescriptor(
        id="cheating_moth_companion", family="cheating_moth", mode=PlayMode.COMPANION,
        engine="game.rules.cheating_moth_companion:ENGINE",
        bots=None,  # the cards are physical: a bot cannot hold, play or count them
        screen="game.render.games.cheating_moth_companion", phone="games/cheating_moth_companion.js",
        strings=("screen_cheating_moth_companion",), title_key="game.cheating_moth_companion",
        howto="game.howto.cheating_moth_companion:SLIDES", phone_strings=("web_cheating_moth", "web_cheating_moth_companion"),
    ),
    GameDescriptor(
        id="collusion_companion", family="collusion", mode=PlayMode.COMPANION,
        engine="game.rules.collusion_companion:ENGINE",
        bots="game.bots.collusion_companion:make_bot",  # digital gold only: a bot holds no real bars
        screen="game.render.games.collusion_companion", phone="games/collusion_companion.js",
        strings=("screen", "screen_collusion_companion"), title_key="game.collusion_companion",
        howto="game.howto.collusion_companion:SLIDES", phone_strings=("web_collusion", "web_collusion_companion"),
    ),
    GameDescriptor(
        id="speakeasy_companion", family="speakeasy", mode=PlayMode.COMPANION,
        engine="game.rules.speakeasy_companion:ENGINE",
        bots=None,  # the clues describe the real people at the table: a bot can be neither described nor point
        screen="game.render.games.speakeasy_companion", phone="games/speakeasy_companion.js",
        strings=("screen", "screen_speakeasy_companion"), title_key="game.speakeasy_companion",
        howto="game.howto.speakeasy_companion:SLIDES", phone_strings=("web_speakeasy", "web_speakeasy_companion"),
    ),
)

_registered: dict[str, GameDescriptor] = {}


def register(desc: GameDescriptor) -> GameDescriptor:
    """Add a game at run time (tests: a toy game); its id must be new."""
    if any(d.id == desc.id for d in games()):
        raise ValueError(f"a game with id {desc.id!r} is already in the catalog")
    _registered[desc.id] = desc
    return desc


def unregister(game_id: str) -> None:
    """Take a game added by :func:`register` off again (the catalog's own lines stay)."""
    _registered.pop(game_id, None)


def games(mode: PlayMode | None = None) -> tuple[GameDescriptor, ...]:
    """Every game in catalog order (then registered ones), or those of one ``mode``."""
    every = CATALOG + tuple(_registered.values())
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


def folders() -> tuple[str, ...]:
    """The plug-in games' own folders (where their phone modules and string files are)."""
    return tuple(d.folder for d in games() if d.folder)


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
