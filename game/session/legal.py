"""Each seat's legal actions for the game in play, in engine and wire form, and since which
version a seat's choices are current (a phone's choice made against an older state is stale).

The session recomputes the book after every change (:meth:`LegalBook.refresh`) and checks every
seat's input against it (:meth:`LegalBook.check_version`, :meth:`LegalBook.check`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import replace
from typing import Any

from game.rules.base import GameEngine, IllegalAction, MalformedAction, NotYourTurn, StaleState

__all__ = ["LegalBook", "is_timed", "legal_form", "zero_time"]


def is_timed(action: Any) -> bool:
    """A timed action: it carries when it happened (``t_ms``), which the session stamps."""
    return dataclasses.is_dataclass(action) and any(f.name == "t_ms" for f in dataclasses.fields(action))


def zero_time(action: Any) -> Any:
    """The form ``legal_actions`` lists an action in: with ``t_ms`` = 0."""
    return replace(action, t_ms=0) if is_timed(action) else action


def legal_form(engine: GameEngine, action: Any) -> Any:
    """The form an action has in ``legal_actions``: ``t_ms`` zeroed, then the engine's
    :meth:`~game.rules.base.GameEngine.legal_form` (a companion's points zeroed)."""
    return engine.legal_form(zero_time(action))


class LegalBook:
    def __init__(self) -> None:
        self._legal: dict[int, list[Any]] = {}
        self._wire: dict[int, list[dict[str, Any]]] = {}
        self._since: dict[int, int] = {}

    @property
    def by_seat(self) -> dict[int, list[Any]]:
        return self._legal

    def get(self, seat: int) -> list[Any]:
        return self._legal.get(seat, [])

    def wire(self, seat: int) -> list[dict[str, Any]]:
        return self._wire.get(seat, [])

    def wires(self) -> dict[int, list[dict[str, Any]]]:
        """Every seat's legal actions in wire form, as of now (a seat's list is replaced, never changed)."""
        return dict(self._wire)

    def clear(self) -> None:
        """No game in play: nobody may act."""
        self._legal, self._wire = {}, {}

    def refresh(self, engine: GameEngine, state: Any, n_seats: int, version: int, actor: int | None,
                new_step: bool) -> None:
        """Recompute every seat's legal actions. A seat's choices go stale when a new timed step
        begins (a new timer key: a new vote, a new phase) or when its legal actions change because
        of someone else — not because of its own action, so a phone may change its mind twice in a
        row without waiting for the state in between."""
        for seat in range(n_seats):
            legal = list(engine.legal_actions(state, seat))
            changed = seat not in self._wire or legal != self._legal.get(seat)
            if changed:
                self._legal[seat] = legal
                self._wire[seat] = [engine.action_to_wire(a) for a in legal]
            if new_step or (changed and seat != actor):
                self._since[seat] = version

    def is_current(self, seat: int, version: int, current: int) -> bool:
        """Whether a choice of ``seat`` made at ``version`` still stands (``current``: the table's version)."""
        return self._since.get(seat, 0) <= version <= current

    def check_version(self, seat: int, version: Any, current: int) -> None:
        """A seat's choice made at ``version`` is current (``current``: the table's version)."""
        if not isinstance(version, int) or isinstance(version, bool):
            raise MalformedAction("version must be a whole number")
        if not self.is_current(seat, version, current):
            raise StaleState("the table has moved on since this choice; here is the current state")

    def check(self, engine: GameEngine | None, seat: int, action: Any) -> None:
        """``action`` is one of ``seat``'s legal actions now."""
        legal = self._legal.get(seat, [])
        if not legal:
            raise NotYourTurn("nothing to do for this seat now")
        if engine is None or legal_form(engine, action) not in legal:
            raise IllegalAction("this action is not allowed now")
