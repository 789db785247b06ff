"""Players for every game: ``make_bot(game, kind, seat, seed)`` asks the game's catalog entry
(:mod:`game.catalog`) for its bot factory; kinds are ``"random"`` (tests only), ``"heuristic"``,
``"belief"`` (keeps a probability over what its seat cannot see and acts on it) and ``"search"``
(information-set Monte Carlo search over determinisations drawn from that belief, see
:mod:`game.bots.search`).

Players pick a :class:`Level` (easy / normal / hard, labels ``bot.level.*``); :data:`LEVEL_KIND`
maps it to the kind chosen by measurement (``bench/bench_bots.py``, figures in each
``docs/rules/<game>.md``, "Balance (measured)").

A ``search`` bot's ``choose`` is still one plain, pure call: it spends a counted budget
(:class:`game.bots.search.SearchBudget`; ``SearchBot(seat, seed, budget)`` or
:func:`game.bots.search.set_default_budget`) and touches nothing shared, so the session runs it in an
executor off the table's loop (:attr:`Bot.thinks_off_loop`). Its default budget keeps a move's p99 under 200 ms of CPU at
12 seats.

A bot sees only what its seat may see (``view(state, seat)``) and the legal actions; it is
deterministic for a seed (its own ``random.Random`` — bots are not engines, so that is allowed).
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from typing import Any, Protocol, TypeVar, runtime_checkable

from game import catalog


class BotKind(enum.Enum):
    RANDOM = "random"
    HEURISTIC = "heuristic"
    BELIEF = "belief"
    SEARCH = "search"


class Level(enum.Enum):
    """What players pick in the lobby; ``label_key`` is its i18n string (en/fa/th)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @property
    def label_key(self) -> str:
        return f"bot.level.{self.value}"

    @property
    def kind(self) -> BotKind:
        return LEVEL_KIND[self]

    @staticmethod
    def of(kind: BotKind | str | None) -> Level | None:
        """The level a bot kind is offered as (``None`` for ``random``, a tests-only kind, or no bot)."""
        return next((level for level, k in LEVEL_KIND.items() if k.value == (kind.value if isinstance(kind, BotKind) else kind)),
                    None)


LEVEL_KIND: dict[Level, BotKind] = {
    Level.EASY: BotKind.HEURISTIC,
    Level.NORMAL: BotKind.BELIEF,
    Level.HARD: BotKind.SEARCH,
}
"""Level -> bot kind, as measured by ``bench/bench_bots.py`` (each game's rulebook, "Balance"): each
kind wins over half of its games against the one below. ``random`` is no level: tests only."""

BOT_KINDS: tuple[str, ...] = tuple(k.value for k in BotKind)


def kind_choices() -> str:
    """Every bot kind, quoted, for a message: ``'random', 'heuristic', 'belief' or 'search'``."""
    names = [repr(kind) for kind in BOT_KINDS]
    return f"{', '.join(names[:-1])} or {names[-1]}"


UnknownBot = catalog.UnknownBot  # no bot of that game or kind exists (declared with the descriptors that name bots)


@runtime_checkable
class Bot(Protocol):
    """A player. ``choose`` returns one of ``legal`` or ``None`` (nothing to do now); ``think_ms``
    is how long a human-like bot waits before acting (for races: its reaction time).

    Bots subclass this protocol to inherit the defaults of its optional hooks (:attr:`uses_view`,
    :attr:`thinks_off_loop`, :meth:`race_press`); callers use the hooks directly, never probe for them.
    """

    uses_view: bool = True
    """``False`` tells a simulator it may pass ``None`` instead of building the view, for a bot that
    decides from the legal actions alone. The session always passes the real view."""

    thinks_off_loop: bool = False
    """``True`` for a bot whose ``choose`` may take long (a search spending its budget): the session
    calls it in an executor off the table's loop and applies the answer only if the seat's choices
    are still current (``game/session/bot_driver.py``). Such a bot's ``choose`` touches nothing
    shared. By default a bot answers at once, on the loop."""

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None: ...

    def think_ms(self) -> int: ...

    def race_press(self, view: Any) -> Any | None:
        """A race opened (the engine's ``race``): anything but ``None`` means this bot presses,
        ``think_ms()`` after the race opened. Asked once per race, from its seat's view. By default
        a bot never races."""
        return None


def uses_view(bot: Bot) -> bool:
    """Whether ``bot`` reads its view (:attr:`Bot.uses_view`)."""
    return bool(bot.uses_view)


B = TypeVar("B")


def build_kind(game: str, makers: Mapping[BotKind, Callable[[int, int], B]], kind: BotKind | str,
               seat: int, seed: int) -> B:
    """A game's ``make_bot``: the maker of ``kind`` from ``makers`` (:class:`UnknownBot` if none)."""
    try:
        maker = makers[BotKind(kind)]
    except (ValueError, KeyError):
        raise UnknownBot(f"unknown {game} bot kind {kind!r}; choose one of {', '.join(k.value for k in makers)}") from None
    return maker(seat, seed)


def make_bot(game: str, kind: BotKind | str, seat: int, seed: int) -> Bot:
    """A bot of ``kind`` for ``game`` playing ``seat``; raises :class:`UnknownBot` for bad names."""
    try:
        desc = catalog.get(game)
    except catalog.UnknownGame:
        raise UnknownBot(f"unknown game {game!r}; choose one of {', '.join(catalog.ids())}") from None
    return desc.make_bot(kind, seat, seed)
