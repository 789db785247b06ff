"""What the Speakeasy scenes draw, read from the public view (``game/games/speakeasy/views.md``).

Pure functions over the JSON view: no pygame here. A beat keeps its own copy of what it shows
(taken when its events arrived), because by the time it plays the view may show the next clue."""
from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

# The engine's own enums: one source for the wire values.
from game.games.speakeasy.rules import ClueResult, Identity, Phase, ScoreLine, TieBreak
from game.games.speakeasy.rules import Outcome as Outcome  # the scenes read it here
from game.render.kit.seats import SeatModel, look_of
from game.rules.base import RulesError, from_fields
from game.session.snapshot import TableSnapshot

CLUE_LANGUAGES = ("en", "fa", "th")  # the built-in decks; "custom" is shown in the table's language


@dataclass(frozen=True, slots=True)
class Seat(SeatModel):
    """A seat at the Speakeasy table: its look and its public state (the layer cache keys on these)."""

    score: int
    correct: int
    identity: Identity | None  # only once revealed


@dataclass(frozen=True, slots=True)
class Clue:
    text: str
    number: int
    total: int
    deck: str


@dataclass(frozen=True, slots=True)
class Bonus:
    seat: int
    identity: Identity
    points: int


@dataclass(frozen=True, slots=True)
class Final:
    bonuses: tuple[Bonus, ...]
    identities: tuple[Identity, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    tie_break: TieBreak


def _enum(kind: type[enum.Enum], value: Any, default: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        return default


def seat_models(snapshot: TableSnapshot, view: Mapping[str, Any] | None = None) -> tuple[Seat, ...]:
    """Seats joined with their public game state (names and looks from the lobby)."""
    view = view if view is not None else (snapshot.public_view or {})
    game_seats = {s.get("seat"): s for s in view.get("seats", []) if isinstance(s, Mapping)}
    n = len(view.get("seats", [])) or len(snapshot.seats)
    out: list[Seat] = []
    for i in range(n):
        g = game_seats.get(i, {})
        identity = _enum(Identity, g.get("identity"), None) if g.get("revealed") else None
        out.append(Seat(**look_of(snapshot, i), score=int(g.get("score", 0) or 0),
                        correct=int(g.get("correct_points", 0) or 0), identity=identity))
    return tuple(out)


def with_scores(seats: Sequence[Seat], scores: Sequence[int]) -> tuple[Seat, ...]:
    return tuple(replace(s, score=scores[s.seat]) if s.seat < len(scores) else s for s in seats)


def with_identities(seats: Sequence[Seat], identities: Mapping[int, Identity | None]) -> tuple[Seat, ...]:
    return tuple(replace(s, identity=identities[s.seat]) if s.seat in identities else s for s in seats)


def phase(view: Mapping[str, Any] | None) -> Phase | None:
    return _enum(Phase, view.get("phase"), None) if view else None


def clue_from(view: Mapping[str, Any] | None) -> Clue | None:
    data = view.get("clue") if view else None
    if view is None or not isinstance(data, Mapping) or not isinstance(data.get("text"), str):
        return None
    return Clue(data["text"], int(data.get("number", 0) or 0), int(data.get("total", 0) or 0), str(view.get("deck", "")))


def clue_language(clue: Clue, table_lang: str) -> str:
    """The language a clue is written in: its built-in deck's, else (a table's own deck) the table's."""
    return clue.deck if clue.deck in CLUE_LANGUAGES else table_lang


def result_from(data: Mapping[str, Any] | None) -> ClueResult | None:
    """The view's ``reveal``: the engine's own :class:`ClueResult`, read back with its types (a score
    line's ``cause`` is derived from its reason, so it is not read); ``None`` when absent or from
    another version of the game."""
    if not isinstance(data, Mapping) or not isinstance(data.get("scores", []), list):
        return None
    lines = [{k: v for k, v in line.items() if k != "cause"} if isinstance(line, Mapping) else line
             for line in data.get("scores", [])]
    try:
        return from_fields(ClueResult, {**data, "scores": lines})
    except RulesError:
        return None


def final_from(view: Mapping[str, Any] | None) -> Final | None:
    data = view.get("final") if view else None
    if not isinstance(data, Mapping):
        return None
    bonuses = tuple(Bonus(int(b["seat"]), _enum(Identity, b.get("identity"), Identity.CITIZEN), int(b.get("points", 0)))
                    for b in data.get("bonuses", []) if isinstance(b, Mapping) and isinstance(b.get("seat"), int))
    return Final(
        bonuses=bonuses,
        identities=tuple(_enum(Identity, i, Identity.CITIZEN) for i in data.get("identities", [])),
        scores=tuple(int(s) for s in data.get("scores", [])),
        winners=tuple(int(w) for w in data.get("winners", [])),
        tie_break=_enum(TieBreak, data.get("tie_break"), TieBreak.NONE),
    )


def scores_before(seats: Sequence[Seat], lines: Sequence[ScoreLine | Bonus]) -> tuple[int, ...]:
    """Each seat's score before ``lines`` were added (the view already holds the totals after)."""
    out = [s.score for s in seats]
    for line in lines:
        if 0 <= line.seat < len(out):
            out[line.seat] -= line.points
    return tuple(out)


def pointed(view: Mapping[str, Any] | None) -> frozenset[int]:
    return frozenset(int(s) for s in (view or {}).get("pointed", []) if isinstance(s, int))


def pointers(view: Mapping[str, Any] | None) -> tuple[int, ...]:
    return tuple(int(s) for s in (view or {}).get("pointers", []) if isinstance(s, int))


def event_types(events: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(e.get("type")) for e in events if isinstance(e, Mapping)]
