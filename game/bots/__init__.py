"""Players for every game: ``make_bot(game, kind, seat, seed)`` asks the game's catalog entry
(:mod:`game.catalog`) for its bot factory; kinds are ``"random"`` and ``"heuristic"``.

A bot sees only what its seat may see (``view(state, seat)``) and the legal actions; it is
deterministic for a seed (its own ``random.Random`` — bots are not engines, so that is allowed).
"""
from __future__ import annotations

import enum
from typing import Any, Protocol, runtime_checkable

from game import catalog


class BotKind(enum.Enum):
    RANDOM = "random"
    HEURISTIC = "heuristic"


BOT_KINDS: tuple[str, ...] = tuple(k.value for k in BotKind)


class UnknownBot(ValueError):
    """No bot of that game or kind exists."""


@runtime_checkable
class Bot(Protocol):
    """A player. ``choose`` returns one of ``legal`` or ``None`` (nothing to do now); ``think_ms``
    is how long a human-like bot waits before acting (for races: its reaction time).

    Bots subclass this protocol to inherit the defaults of its optional hooks (:attr:`uses_view`,
    :meth:`race_press`); callers use the hooks directly, never probe for them.
    """

    uses_view: bool = True
    """``False`` tells a simulator it may pass ``None`` instead of building the view, for a bot that
    decides from the legal actions alone. The session always passes the real view."""

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


def make_bot(game: str, kind: BotKind | str, seat: int, seed: int) -> Bot:
    """A bot of ``kind`` for ``game`` playing ``seat``; raises :class:`UnknownBot` for bad names."""
    try:
        desc = catalog.get(game)
    except catalog.UnknownGame:
        raise UnknownBot(f"unknown game {game!r}; choose one of {', '.join(catalog.ids())}") from None
    return desc.make_bot(kind, seat, seed)
