"""What the Cheating Moth scenes draw, read from the public view (``game/games/cheating_moth/views.md``)
and from the race judge's outcome of the latest race (``snapshot.race.last``).

Pure functions over JSON: no pygame here. A beat keeps its own parsed copy, because by the time it
plays the view may already show the next turn."""
from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# The engine's own enums: one source for the wire values.
from game.games.cheating_moth.rules import Kind, Phase
from game.render.kit.seats import SeatModel, look_of
from game.session.snapshot import RaceDone, TableSnapshot


class Tell(enum.Enum):
    TREMBLE = "tremble"
    SLEEVE = "sleeve"


class Source(enum.Enum):
    ARCADE = "arcade"
    PAD = "pad"  # a USB arcade encoder or game pad
    PHONE = "phone"
    KEYBOARD = "keyboard"
    BOT = "bot"


RACE_PHASES = (Phase.MOSQUITO_RACE, Phase.BEETLE_RACE)
GIVE_PHASES = (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE, Phase.PENALTY_GIVE)


@dataclass(frozen=True, slots=True)
class Seat(SeatModel):
    """A seat at the Cheating Moth table: its look and its public state (M11)."""

    hand: int | None  # exact count, or None for "many" (M11)
    guard: bool
    tell: Tell | None
    total: int


@dataclass(frozen=True, slots=True)
class TopCard:
    kind: Kind
    number: int


@dataclass(frozen=True, slots=True)
class Accusation:
    guard: int
    target: int
    caught: bool


@dataclass(frozen=True, slots=True)
class RaceResult:
    """A decided race: the engine's ``race_decided`` joined with the judge's outcome when known."""

    race: int
    kind: Kind
    player: int
    number: int | None  # the raced number (the decided event leaves it to the race before it)
    order: tuple[int, ...]
    times_ms: tuple[float, ...]  # full precision (M16)
    margins_ms: tuple[float, ...]
    error_ms: tuple[float, ...]
    no_press: tuple[int, ...]
    void: tuple[int, ...]
    winner: int | None
    slowest: int | None
    tied: tuple[int, ...]
    by_rng: bool
    close: bool
    sources: tuple[Source | None, ...]  # per entry of ``order`` (None: unknown)
    error_bound_ms: float
    false_starts: tuple[tuple[int, float], ...]  # (seat, early by ms)
    within_ms: float = 0.0  # > 0: ``tied`` were too close to call (game/rules/race.py) and drawn

    def too_close(self, place: int) -> bool:
        """Is the gap between ``place`` and the one before it too close to call? (A race decided by
        the one rule: both are in the drawn group; an older one: within their two error bounds.)"""
        if not 0 < place < len(self.margins_ms) or place >= len(self.error_ms):
            return False
        if self.within_ms > 0:
            return self.order[place] in self.tied and self.order[place - 1] in self.tied
        return self.margins_ms[place] <= self.error_ms[place] + self.error_ms[place - 1]


@dataclass(frozen=True, slots=True)
class RoundScore:
    round: int
    out: int
    points: tuple[int, ...]
    moths: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Rank:
    seat: int
    rank: int
    total: int
    moths: int


def _int(v: Any, default: int = 0) -> int:
    return v if isinstance(v, int) and not isinstance(v, bool) else default


def _nums(v: Any) -> tuple[float, ...]:
    """Times, margins and errors: whole or fractional milliseconds."""
    return tuple(x for x in v if isinstance(x, (int, float)) and not isinstance(x, bool)) if isinstance(v, list) else ()


def _int_or_none(v: Any) -> int | None:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _ints(v: Any) -> tuple[int, ...]:
    return tuple(x for x in v if isinstance(x, int) and not isinstance(x, bool)) if isinstance(v, list) else ()


def _enum(cls: type[enum.Enum], v: Any) -> Any:
    return cls._value2member_map_.get(v) if isinstance(v, str) else None


def mapping(view: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """``view[key]`` when it is an object, else an empty one (a view missing a field still draws)."""
    value = view.get(key)
    return value if isinstance(value, Mapping) else {}


def int_at(view: Mapping[str, Any], key: str) -> int | None:
    return _int_or_none(view.get(key))


def kind_of(value: Any) -> Kind | None:
    kind: Kind | None = _enum(Kind, value)
    return kind


def phase(view: Mapping[str, Any] | None) -> Phase | None:
    return _enum(Phase, view.get("phase")) if view else None


def seat_models(snapshot: TableSnapshot, view: Mapping[str, Any] | None = None) -> tuple[Seat, ...]:
    """Seats joined with their public game state (names and looks from the lobby)."""
    view = view if view is not None else (snapshot.public_view or {})
    raw = view.get("seats", [])
    game_seats = {s.get("seat"): s for s in raw if isinstance(s, Mapping)} if isinstance(raw, list) else {}
    n = len(game_seats) or len(snapshot.seats)
    out: list[Seat] = []
    for i in range(n):
        g = game_seats.get(i, {})
        out.append(Seat(**look_of(snapshot, i), hand=_int_or_none(g.get("hand")), guard=bool(g.get("guard", False)),
                        tell=_enum(Tell, g.get("tell")), total=_int(g.get("total"))))
    return tuple(out)


def top_card(view: Mapping[str, Any]) -> TopCard | None:
    top = view.get("top")
    if not isinstance(top, Mapping):
        return None
    kind = _enum(Kind, top.get("kind"))
    return TopCard(kind, _int(top.get("number"))) if kind is not None else None


def accusation_from(data: Any) -> Accusation | None:
    if not isinstance(data, Mapping) or _int_or_none(data.get("guard")) is None or _int_or_none(data.get("target")) is None:
        return None
    return Accusation(int(data["guard"]), int(data["target"]), bool(data.get("caught", False)))


def _outcome_for(race_id: int, outcome: RaceDone | None) -> RaceDone | None:
    """The judge's outcome if it is this race's (the session names races ``race:<id>`` or ``<id>``)."""
    if outcome is None:
        return None
    return outcome if outcome.key in (str(race_id), f"race:{race_id}") else None


def race_from(data: Any, outcome: RaceDone | None = None) -> RaceResult | None:
    """A ``race_decided`` (the view's ``last_race``) joined with the judge's outcome if it matches."""
    if not isinstance(data, Mapping):
        return None
    kind = _enum(Kind, data.get("kind"))
    if kind not in (Kind.MOSQUITO, Kind.BEETLE):
        return None
    race_id = _int(data.get("race"))
    order = _ints(data.get("order"))
    errors = _nums(data.get("error_ms"))
    judged = _outcome_for(race_id, outcome)
    sources: tuple[Source | None, ...] = (None,) * len(order)
    bound = float(max(errors, default=0))
    starts: tuple[tuple[int, float], ...] = ()
    if judged is not None:
        by_seat = dict(zip(judged.order, judged.sources))
        sources = tuple(_enum(Source, by_seat.get(s)) for s in order)
        bound = judged.error_bound_ms
        starts = tuple((f.seat, f.early_by_ms) for f in judged.false_starts)
    return RaceResult(
        race=race_id, kind=kind, player=_int(data.get("player")), number=_int_or_none(data.get("number")), order=order,
        times_ms=_nums(data.get("times_ms")), margins_ms=_nums(data.get("margins_ms")), error_ms=errors,
        no_press=_ints(data.get("no_press")), void=_ints(data.get("void")), winner=_int_or_none(data.get("winner")),
        slowest=_int_or_none(data.get("slowest")), tied=_ints(data.get("tied")),
        by_rng=bool(data.get("tie_broken_by_rng", False)), close=bool(data.get("close", False)),
        sources=sources, error_bound_ms=bound, false_starts=starts,
        within_ms=float(w) if isinstance(w := data.get("within_ms"), (int, float)) and not isinstance(w, bool) else 0.0,
    )


def round_from(view: Mapping[str, Any]) -> RoundScore | None:
    last = view.get("last_round")
    if not isinstance(last, Mapping):
        return None
    scores = view.get("scores")
    totals = _ints(scores.get("totals")) if isinstance(scores, Mapping) else ()
    return RoundScore(_int(last.get("round")), _int(last.get("out")), _ints(last.get("points")),
                      _ints(last.get("moths")), totals)


def ranking_from(view: Mapping[str, Any]) -> tuple[Rank, ...]:
    ranking = view.get("ranking")
    if not isinstance(ranking, list):
        return ()
    return tuple(Rank(_int(r.get("seat")), _int(r.get("rank")), _int(r.get("total")), _int(r.get("moths")))
                 for r in ranking if isinstance(r, Mapping))


def event_types(events: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(e.get("type")) for e in events if isinstance(e, Mapping)]


def events_of(events: Sequence[Mapping[str, Any]], tag: str) -> list[Mapping[str, Any]]:
    return [e for e in events if isinstance(e, Mapping) and e.get("type") == tag]
