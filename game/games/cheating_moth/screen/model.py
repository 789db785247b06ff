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
from game.games.cheating_moth.rules import EVENTS, Accused, Kind, Phase, RaceDecided
from game.render.kit.seats import SeatModel, look_of
from game.rules.base import RulesError
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
class RaceResult:
    """A decided race: the engine's own ``race_decided`` (decoded with its wire codec, never
    re-typed here) joined with the judge's outcome when known."""

    decided: RaceDecided
    number: int | None  # the raced number (the decided event leaves it to the race before it)
    sources: tuple[Source | None, ...]  # per entry of ``decided.order`` (None: unknown)
    error_bound_ms: float
    false_starts: tuple[tuple[int, float], ...]  # (seat, early by ms)
    clamped: tuple[int, ...] = ()  # seats whose phone claimed an earlier press than the table could believe (M16)

    def too_close(self, place: int) -> bool:
        """Is the gap between ``place`` and the one before it too close to call? (A race decided by
        the one rule: both are in the drawn group; an older one: within their two error bounds.)"""
        d = self.decided
        if not 0 < place < len(d.margins_ms) or place >= len(d.error_ms):
            return False
        if d.within_ms > 0:
            return d.order[place] in d.tied and d.order[place - 1] in d.tied
        return d.margins_ms[place] <= d.error_ms[place] + d.error_ms[place - 1]


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


def accusation_from(data: Any) -> Accused | None:
    """An ``accused`` event (or the view's ``last_accusation``) as the engine's own :class:`Accused`."""
    return _decoded("accused", data)


def _decoded(tag: str, data: Any) -> Any:
    """``data`` (a wire event, or a view's copy of one without its tag) decoded by the engine's own
    codec; ``None`` when it does not decode (a view from another version of the game draws without it)."""
    if not isinstance(data, Mapping):
        return None
    try:
        return EVENTS.from_wire({**data, "type": tag})
    except RulesError:
        return None


def _outcome_for(race_id: int, outcome: RaceDone | None) -> RaceDone | None:
    """The judge's outcome if it is this race's (the session names races ``race:<id>`` or ``<id>``)."""
    if outcome is None:
        return None
    return outcome if outcome.key in (str(race_id), f"race:{race_id}") else None


def race_from(data: Any, outcome: RaceDone | None = None) -> RaceResult | None:
    """A ``race_decided`` (the view's ``last_race``) joined with the judge's outcome if it matches."""
    decided: RaceDecided | None = _decoded("race_decided", data)
    if decided is None or decided.kind not in (Kind.MOSQUITO, Kind.BEETLE):
        return None
    judged = _outcome_for(decided.race, outcome)
    sources: tuple[Source | None, ...] = (None,) * len(decided.order)
    bound = float(max(decided.error_ms, default=0))
    starts: tuple[tuple[int, float], ...] = ()
    clamped: tuple[int, ...] = ()
    if judged is not None:
        by_seat = dict(zip(judged.order, judged.sources))
        sources = tuple(_enum(Source, by_seat.get(s)) for s in decided.order)
        bound = judged.error_bound_ms
        starts = tuple((f.seat, f.early_by_ms) for f in judged.false_starts)
        clamped = judged.clamped
    return RaceResult(decided, _int_or_none(data.get("number")), sources, bound, starts, clamped)


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
