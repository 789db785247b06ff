"""What the Collusion scenes draw, read from the public view (``game/games/collusion/views.md``).

Pure functions over the JSON view: no pygame here. A beat captures its own copy at the moment its
events arrived, because by the time it plays the view may already show the next round."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

# The engine's own enums: one source for the wire values.
from game.games.collusion.rules import CardKind as Card
from game.games.collusion.rules import DeathKind, Phase, RoundEnd, ShowdownChoice, ShowdownResult
from game.render.kit.seats import SeatModel, look_of
from game.rules.base import RulesError, from_fields
from game.session.snapshot import TableSnapshot

T = TypeVar("T")
Choice = ShowdownChoice  # the scenes' short name


@dataclass(frozen=True, slots=True)
class Seat(SeatModel):
    """A seat at the Collusion table: its look and its public state (the layer cache keys on these)."""

    alive: bool
    in_round: bool
    bars: int


@dataclass(frozen=True, slots=True)
class Death:
    seat: int
    kind: DeathKind
    cause: str
    by: int | None


@dataclass(frozen=True, slots=True)
class Reveal:
    round: int
    vote: int
    cards: tuple[Card, ...]
    voted_for: tuple[int | None, ...]
    tally: tuple[int, ...]
    targets: tuple[int, ...]
    ambushers: tuple[int, ...]
    ambush_picks: tuple[tuple[int, int | None, bool], ...]  # (by, victim, random)
    deaths: tuple[Death, ...]
    resolved: bool


@dataclass(frozen=True, slots=True)
class Final:
    winners: tuple[int, ...]
    reason: str
    cause: str
    totals: tuple[int, ...]
    bars: tuple[int, ...]


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def seat_models(snapshot: TableSnapshot, view: Mapping[str, Any] | None = None) -> tuple[Seat, ...]:
    """Seats joined with their public game state (names and looks from the lobby)."""
    view = view if view is not None else (snapshot.public_view or {})
    game_seats = {s.get("seat"): s for s in view.get("seats", []) if isinstance(s, Mapping)}
    n = len(view.get("seats", [])) or len(snapshot.seats)
    return tuple(Seat(**look_of(snapshot, i), alive=bool(game_seats.get(i, {}).get("alive", True)),
                      in_round=bool(game_seats.get(i, {}).get("in_round", True)),
                      bars=int(game_seats.get(i, {}).get("bars", 0) or 0)) for i in range(n))


def with_alive(seats: Sequence[Seat], alive: Sequence[bool]) -> tuple[Seat, ...]:
    from dataclasses import replace

    return tuple(replace(s, alive=a) for s, a in zip(seats, alive))


def phase(view: Mapping[str, Any] | None) -> Phase | None:
    try:
        return Phase(view.get("phase")) if view else None
    except ValueError:
        return None


def reveal_from(data: Mapping[str, Any] | None) -> Reveal | None:
    if not isinstance(data, Mapping):
        return None
    deaths = tuple(
        Death(int(d["seat"]), DeathKind(d["kind"]), str(d.get("cause", "")), _int_or_none(d.get("by")))
        for d in data.get("deaths", []) if isinstance(d, Mapping) and d.get("kind") in DeathKind._value2member_map_
    )
    picks = tuple(
        (int(p["by"]), _int_or_none(p.get("victim")), bool(p.get("random", False)))
        for p in data.get("ambush_picks", []) if isinstance(p, Mapping)
    )
    return Reveal(
        round=int(data.get("round", 0)), vote=int(data.get("vote", 0)),
        cards=tuple(Card(c) if c in Card._value2member_map_ else Card.OUT for c in data.get("cards", [])),
        voted_for=tuple(_int_or_none(v) for v in data.get("voted_for", [])),
        tally=tuple(int(t) for t in data.get("tally", [])),
        targets=tuple(int(t) for t in data.get("targets", [])),
        ambushers=tuple(int(t) for t in data.get("ambushers", [])),
        ambush_picks=picks, deaths=deaths, resolved=bool(data.get("resolved", False)),
    )


def _engine_value(cls: type[T], data: Any) -> T | None:
    """The view's copy of an engine value (``last_showdown``, ``last_round_end``) read back as the
    engine's own type; ``None`` when absent or from another version of the game."""
    if data is None:
        return None
    try:
        return from_fields(cls, data)
    except RulesError:
        return None


def showdown_from(data: Mapping[str, Any] | None) -> ShowdownResult | None:
    return _engine_value(ShowdownResult, data)


def round_end_from(data: Mapping[str, Any] | None) -> RoundEnd | None:
    return _engine_value(RoundEnd, data)


def final_from(view: Mapping[str, Any] | None) -> Final | None:
    if not view:
        return None
    final = view.get("final")
    if not isinstance(final, Mapping):
        return None
    return Final(tuple(int(w) for w in view.get("winners", [])), str(final.get("reason", "")),
                 str(final.get("cause", "")), tuple(int(t) for t in final.get("totals", [])),
                 tuple(int(b) for b in final.get("bars", [])))


def alive_before(reveal: Reveal, n: int) -> tuple[bool, ...]:
    """Who was alive when the cards were revealed: everyone with a card state other than ``out``."""
    return tuple(i < len(reveal.cards) and reveal.cards[i] is not Card.OUT for i in range(n))


def event_types(events: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(e.get("type")) for e in events if isinstance(e, Mapping)]
