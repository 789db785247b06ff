"""Speakeasy: the pure rules engine (rule ids S1–S13 of ``docs/rules/speakeasy.md``).

Each clue: the host (seat order, S5) sees the clue and secretly picks a subject (S6); every other
seat secretly points at anyone but the host, themselves included, changeable until the
simultaneous reveal (S7); the subject's identity decides who scores (S8, S9). After the last clue
the unrevealed identities score their bonus (S12) and the winner is found (S13).

The clue texts come in through the settings (``Settings.texts``: a table's own deck, or the
built-in deck that ``default_settings`` / ``settings_from_wire`` resolve through :mod:`game.games.speakeasy.clues`);
``new_game``, ``apply``, ``view`` and the rest never read files. Wire forms: ``game/games/speakeasy/views.md``.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from game.games.speakeasy.clues import BUILTIN_DECKS, MAX_CLUE_CHARS, DeckError, builtin_deck
from game.rules.base import (
    JSON,
    BadSettings,
    GameEngine,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Seat,
    StaleState,
    TimerRequest,
    WireCodec,
    check_seat,
    counted,
    encode_fields,
    english_plural,
    settings_from_wire,
)
from game.rules.rng import Rng

MIN_SEATS = 3
MAX_SEATS = 12
MAX_TIMER_MS = 10 * 60 * 1000
CUSTOM_DECK = "custom"


# ----------------------------------------------------------------------------------------- enums
class Identity(enum.Enum):
    INFORMANT = "informant"
    CITIZEN = "citizen"


class Phase(enum.Enum):
    CHOOSING = "choosing"  # S6: the host picks the subject
    POINTING = "pointing"  # S7: everyone else points
    REVEAL = "reveal"  # S8/S9 shown until the next host continues (or the reveal timer ends)
    GAME_OVER = "game_over"  # S12/S13 done


class HostTimeout(enum.Enum):
    """S6 [gap]: what happens when the host's timer ends before they picked a subject."""

    RANDOM_SUBJECT = "random_subject"
    SKIP_CLUE = "skip_clue"


class MissedPoint(enum.Enum):
    """S7 [gap]: a seat that has not pointed when the pointing timer ends."""

    NOBODY = "nobody"
    RANDOM = "random"


class FinalTie(enum.Enum):
    """S13 [gap]: still tied after comparing correct points."""

    SHARED = "shared"
    LOTS = "lots"


class Outcome(enum.Enum):
    INFORMANT_CAUGHT = "informant_caught"
    CITIZEN_FOUND = "citizen_found"
    NOBODY = "nobody"
    SKIPPED = "skipped"


class ScoreReason(enum.Enum):
    POINTED_AT_INFORMANT = "pointed_at_informant"  # S8
    CITIZEN_FOUND = "citizen_found"  # S8
    NOBODY_FOUND = "nobody_found"  # S9
    UNREVEALED_INFORMANT = "unrevealed_informant"  # S12
    UNREVEALED_CITIZEN = "unrevealed_citizen"  # S12


class TieBreak(enum.Enum):
    NONE = "none"
    CORRECT_POINTS = "correct_points"
    SHARED = "shared"
    LOTS = "lots"


SCORE_RULES: dict[ScoreReason, tuple[str, int]] = {
    ScoreReason.POINTED_AT_INFORMANT: ("S8", 1),
    ScoreReason.CITIZEN_FOUND: ("S8", 1),
    ScoreReason.NOBODY_FOUND: ("S9", 1),
    ScoreReason.UNREVEALED_INFORMANT: ("S12", 2),
    ScoreReason.UNREVEALED_CITIZEN: ("S12", 1),
}
"""Every way to score: the rule that grants it and how much (scores never change otherwise)."""


# -------------------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class Settings:
    """Table settings. The clue texts in play are ``custom_clues`` when a table loaded its own
    deck (S2), else the built-in deck ``deck``, whose texts ``clues`` holds (resolved by the engine's
    settings functions, never sent on the wire: only ``deck`` and ``custom_clues`` are)."""

    informants: int = 0  # S1 [gap]: 0 = max(1, round(n / 3))
    clues_per_game: int = 0  # S4/S11 [gap]: 0 = 2 x players
    host_choice_ms: int = 30_000  # S6 [gap]: 0 = untimed
    pointing_ms: int = 45_000  # S7 [gap]: 0 = untimed
    reveal_ms: int = 8_000  # reveal pause; 0 = the next host continues
    host_timeout: HostTimeout = HostTimeout.RANDOM_SUBJECT  # S6 [gap]
    missed_point: MissedPoint = MissedPoint.NOBODY  # S7 [gap]
    final_tie: FinalTie = FinalTie.SHARED  # S13 [gap]
    deck: str = "en"  # S2: the built-in deck (a UI language)
    custom_clues: tuple[str, ...] = ()  # S2: the table's own deck; non-empty replaces the built-in one
    clues: tuple[str, ...] = ()  # the texts of the built-in ``deck`` (derived, not on the wire)

    @property
    def texts(self) -> tuple[str, ...]:
        """The clue texts in play (a clue id is an index here)."""
        return self.custom_clues or self.clues

    @property
    def deck_label(self) -> str:
        return CUSTOM_DECK if self.custom_clues else self.deck

    def validate(self) -> None:
        if not 0 <= self.informants <= MAX_SEATS:
            raise BadSettings(f"informants must be 0 (automatic) or 1..{MAX_SEATS}")
        if self.clues_per_game < 0:
            raise BadSettings("clues_per_game must be 0 (2 per player) or more")
        for name in ("host_choice_ms", "pointing_ms", "reveal_ms"):
            if not 0 <= getattr(self, name) <= MAX_TIMER_MS:
                raise BadSettings(f"{name} must be between 0 (untimed) and {MAX_TIMER_MS}")
        if self.deck not in BUILTIN_DECKS:
            raise BadSettings(f"deck must be one of {', '.join(BUILTIN_DECKS)}")
        _validate_clues("custom_clues", self.custom_clues)

    def informant_count(self, n_seats: int) -> int:
        return self.informants or max(1, round(n_seats / 3))

    def clue_count(self, n_seats: int) -> int:
        return self.clues_per_game or 2 * n_seats


def _validate_clues(name: str, clues: tuple[str, ...]) -> None:
    if len(set(clues)) != len(clues):
        raise BadSettings(f"{name} repeats a clue")
    for i, clue in enumerate(clues):
        if not clue.strip() or len(clue) > MAX_CLUE_CHARS:
            raise BadSettings(f"{name}[{i}] must have 1..{MAX_CLUE_CHARS} characters")


# ---------------------------------------------------------------------------------------- actions
ACTIONS: WireCodec[Any] = WireCodec("action")


@ACTIONS.register("choose_subject")
@dataclass(frozen=True, slots=True)
class ChooseSubject:
    """S6: the host picks whom the clue describes (never themselves)."""

    subject: int


@ACTIONS.register("point")
@dataclass(frozen=True, slots=True)
class Point:
    """S7: point at a seat other than the host (yourself allowed); again to change your mind."""

    target: int


@ACTIONS.register("continue")
@dataclass(frozen=True, slots=True)
class Continue:
    """The next host moves the table on from the reveal (S10)."""


@ACTIONS.register("timeout")
@dataclass(frozen=True, slots=True)
class Timeout:
    """The table's timer ran out (seat None); ``key`` is the timer it ends."""

    key: str


Action = ChooseSubject | Point | Continue | Timeout

# ----------------------------------------------------------------------------------------- events
EVENTS: WireCodec[Any] = WireCodec("event")


@EVENTS.register("identities_dealt")
@dataclass(frozen=True, slots=True)
class IdentitiesDealt:
    informants: int
    cause: str = "S4"


@EVENTS.register("clue_drawn")
@dataclass(frozen=True, slots=True)
class ClueDrawn:
    number: int
    total: int
    clue_id: int
    text: str
    host: int
    cause: str = "S6"


@EVENTS.register("subject_chosen")
@dataclass(frozen=True, slots=True)
class SubjectChosen:
    host: int
    by_timeout: bool = False


@EVENTS.register("pointed")
@dataclass(frozen=True, slots=True)
class Pointed:
    seat: int
    changed: bool = False


@EVENTS.register("pointing_revealed")
@dataclass(frozen=True, slots=True)
class PointingRevealed:
    subject: int
    pointing: tuple[int | None, ...]
    cause: str = "S7"


@EVENTS.register("identity_revealed")
@dataclass(frozen=True, slots=True)
class IdentityRevealed:
    seat: int
    identity: Identity
    cause: str


@EVENTS.register("scored")
@dataclass(frozen=True, slots=True)
class Scored:
    seat: int
    points: int
    total: int
    reason: ScoreReason
    cause: str


@EVENTS.register("clue_skipped")
@dataclass(frozen=True, slots=True)
class ClueSkipped:
    number: int
    host: int
    cause: str = "S6"


@EVENTS.register("clue_discarded")
@dataclass(frozen=True, slots=True)
class ClueDiscarded:
    number: int
    clue_id: int
    clues_left: int
    next_host: int | None
    cause: str = "S10"


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    tie_break: TieBreak
    cause: str = "S13"


Event = (
    IdentitiesDealt | ClueDrawn | SubjectChosen | Pointed | PointingRevealed | IdentityRevealed | Scored
    | ClueSkipped | ClueDiscarded | GameEnded
)
Events = list[Event]


# ------------------------------------------------------------------------------------------ state
@dataclass(frozen=True, slots=True)
class SeatState:
    identity: Identity
    revealed: bool = False
    score: int = 0
    correct: int = 0  # S13: times this seat pointed at the subject


@dataclass(frozen=True, slots=True)
class ScoreLine:
    seat: int
    points: int
    reason: ScoreReason

    @property
    def cause(self) -> str:
        return SCORE_RULES[self.reason][0]


@dataclass(frozen=True, slots=True)
class ClueResult:
    number: int
    clue_id: int
    host: int
    outcome: Outcome
    subject: int | None
    subject_by_timeout: bool
    pointing: tuple[int | None, ...]
    correct: tuple[int, ...]
    identity: Identity | None
    newly_revealed: bool
    scores: tuple[ScoreLine, ...]


@dataclass(frozen=True, slots=True)
class FinalResult:
    bonuses: tuple[ScoreLine, ...]
    winners: tuple[int, ...]
    tie_break: TieBreak


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    seats: tuple[SeatState, ...]
    clue_order: tuple[int, ...]  # deck indices, in drawing order (S10: each used once)
    clue_index: int  # index into clue_order of the clue on the table
    phase: Phase
    host: int
    subject: int | None
    subject_by_timeout: bool
    pointing: tuple[int | None, ...]  # per seat, this clue (the host's entry stays None)
    history: tuple[ClueResult, ...]
    rng: Rng
    final: FinalResult | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    @property
    def number(self) -> int:
        return self.clue_index + 1

    @property
    def clue_id(self) -> int:
        return self.clue_order[self.clue_index]

    @property
    def next_host(self) -> int:
        return (self.host + 1) % self.n

    def pointers(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if s != self.host)


# ---------------------------------------------------------------------------------------- helpers
def _timer_key(state: State) -> str:
    prefix = {Phase.CHOOSING: "choose", Phase.POINTING: "point", Phase.REVEAL: "reveal"}[state.phase]
    return f"{prefix}:{state.number}"


def _add_score(seats: list[SeatState], line: ScoreLine) -> Scored:
    seat = seats[line.seat]
    seats[line.seat] = dataclasses.replace(seat, score=seat.score + line.points)
    return Scored(line.seat, line.points, seats[line.seat].score, line.reason, line.cause)


def _score_line(seat: int, reason: ScoreReason) -> ScoreLine:
    return ScoreLine(seat, SCORE_RULES[reason][1], reason)


def _clue_scores(state: State, subject: int, correct: tuple[int, ...]) -> tuple[Outcome, tuple[ScoreLine, ...]]:
    """S8 / S9: who scores for this clue."""
    return clue_scores(state.host, subject, correct, state.seats[subject].identity)


def clue_scores(host: int, subject: int, correct: tuple[int, ...],
                identity: Identity | None) -> tuple[Outcome, tuple[ScoreLine, ...]]:
    """S8 / S9: who scores for a clue, given the seats that pointed at the subject (``correct``)
    and the subject's identity (needed only when someone pointed at them)."""
    if not correct:
        return Outcome.NOBODY, (_score_line(host, ScoreReason.NOBODY_FOUND),)
    if identity is None:
        raise ValueError("S8 needs the subject's identity once someone pointed at them")
    if identity is Identity.INFORMANT:
        return Outcome.INFORMANT_CAUGHT, tuple(_score_line(s, ScoreReason.POINTED_AT_INFORMANT) for s in correct)
    return Outcome.CITIZEN_FOUND, (_score_line(subject, ScoreReason.CITIZEN_FOUND),)


def unrevealed_bonus(seat: int, identity: Identity) -> ScoreLine:
    """S12: an identity never revealed scores at the end (informant 2, citizen 1)."""
    informant = identity is Identity.INFORMANT
    return _score_line(seat, ScoreReason.UNREVEALED_INFORMANT if informant else ScoreReason.UNREVEALED_CITIZEN)


def _fill_missed(state: State) -> tuple[tuple[int | None, ...], Rng]:
    """S7 [gap]: seats that have not pointed point at nobody, or at random (seeded)."""
    pointing = list(state.pointing)
    rng = state.rng
    if state.settings.missed_point is MissedPoint.RANDOM:
        targets = state.pointers()
        for seat in targets:
            if pointing[seat] is None:
                pointing[seat], rng = rng.choice(targets)
    return tuple(pointing), rng


def _reveal(state: State) -> tuple[State, Events]:
    """S7 simultaneous reveal, then S8 / S9."""
    assert state.subject is not None
    subject = state.subject
    pointing, rng = _fill_missed(state)
    correct = tuple(s for s in state.pointers() if pointing[s] == subject)
    outcome, lines = _clue_scores(state, subject, correct)
    seats = list(state.seats)
    events: Events = [PointingRevealed(subject, pointing)]
    newly = bool(correct) and not seats[subject].revealed
    if newly:
        seats[subject] = dataclasses.replace(seats[subject], revealed=True)
        events.append(IdentityRevealed(subject, seats[subject].identity, "S8"))
    for s in correct:
        seats[s] = dataclasses.replace(seats[s], correct=seats[s].correct + 1)
    events.extend(_add_score(seats, line) for line in lines)
    result = ClueResult(
        state.number, state.clue_id, state.host, outcome, subject, state.subject_by_timeout, pointing, correct,
        seats[subject].identity if correct else None, newly, lines,
    )
    new = dataclasses.replace(
        state, seats=tuple(seats), pointing=pointing, phase=Phase.REVEAL, history=state.history + (result,), rng=rng
    )
    return new, events


def _skip(state: State) -> tuple[State, Events]:
    """S6 [gap] host_timeout = skip_clue: the clue is discarded unscored."""
    result = ClueResult(
        state.number, state.clue_id, state.host, Outcome.SKIPPED, None, False, state.pointing, (), None, False, ()
    )
    new = dataclasses.replace(state, phase=Phase.REVEAL, history=state.history + (result,))
    return new, [ClueSkipped(state.number, state.host)]


def _draw(state: State, index: int, host: int) -> tuple[State, Events]:
    """S5/S6: the next clue and its host."""
    new = dataclasses.replace(
        state, clue_index=index, host=host, phase=Phase.CHOOSING, subject=None, subject_by_timeout=False,
        pointing=(None,) * state.n,
    )
    clue_id = new.clue_id
    return new, [ClueDrawn(new.number, len(new.clue_order), clue_id, new.settings.texts[clue_id], host)]


def _winners(state: State, seats: tuple[SeatState, ...]) -> tuple[tuple[int, ...], TieBreak, Rng]:
    """S13: highest score; then more correct points; then shared or by lots ([gap])."""
    return final_winners(tuple(s.score for s in seats), tuple(s.correct for s in seats), state.settings.final_tie,
                         state.rng)


def final_winners(scores: tuple[int, ...], correct: tuple[int, ...], final_tie: FinalTie,
                  rng: Rng) -> tuple[tuple[int, ...], TieBreak, Rng]:
    """S13: highest score; then more correct points; then shared or by lots ([gap])."""
    best = max(scores)
    tied = [i for i, score in enumerate(scores) if score == best]
    if len(tied) == 1:
        return tuple(tied), TieBreak.NONE, rng
    most = max(correct[i] for i in tied)
    tied = [i for i in tied if correct[i] == most]
    if len(tied) == 1:
        return tuple(tied), TieBreak.CORRECT_POINTS, rng
    if final_tie is FinalTie.SHARED:
        return tuple(tied), TieBreak.SHARED, rng
    winner, rng = rng.choice(tied)
    return (winner,), TieBreak.LOTS, rng


def _finish(state: State) -> tuple[State, Events]:
    """S12 bonuses for unrevealed identities, then S13."""
    seats = list(state.seats)
    events: Events = []
    bonuses: list[ScoreLine] = []
    for i, seat in enumerate(state.seats):
        if seat.revealed:
            continue
        seats[i] = dataclasses.replace(seat, revealed=True)
        events.append(IdentityRevealed(i, seat.identity, "S12"))
        bonuses.append(unrevealed_bonus(i, seat.identity))
        events.append(_add_score(seats, bonuses[-1]))
    final_seats = tuple(seats)
    winners, tie_break, rng = _winners(state, final_seats)
    events.append(GameEnded(winners, tuple(s.score for s in final_seats), tie_break))
    final = FinalResult(tuple(bonuses), winners, tie_break)
    return dataclasses.replace(state, seats=final_seats, phase=Phase.GAME_OVER, final=final, rng=rng), events


def _advance(state: State) -> tuple[State, Events]:
    """S10: discard the clue; the next seat hosts the next clue, or the game ends (S11)."""
    last = state.clue_index + 1 >= len(state.clue_order)
    left = len(state.clue_order) - state.number
    discarded = ClueDiscarded(state.number, state.clue_id, left, None if last else state.next_host)
    if last:
        new, events = _finish(state)
    else:
        new, events = _draw(state, state.clue_index + 1, state.next_host)
    return new, [discarded, *events]


# ------------------------------------------------------------------------------------------- views
def _score_wire(line: ScoreLine) -> dict[str, JSON]:
    return {"seat": line.seat, "points": line.points, "cause": line.cause, "reason": line.reason.value}


def _result_wire(result: ClueResult) -> dict[str, JSON]:
    return {
        "clue_id": result.clue_id,
        "number": result.number,
        "host": result.host,
        "outcome": result.outcome.value,
        "subject": result.subject,
        "subject_by_timeout": result.subject_by_timeout,
        "pointing": list(result.pointing),
        "correct": list(result.correct),
        "identity": result.identity.value if result.identity else None,
        "newly_revealed": result.newly_revealed,
        "scores": [_score_wire(line) for line in result.scores],
    }


def _seat_wire(index: int, seat: SeatState) -> dict[str, JSON]:
    return {
        "seat": index,
        "score": seat.score,
        "correct_points": seat.correct,
        "revealed": seat.revealed,
        "identity": seat.identity.value if seat.revealed else None,
    }


def _final_wire(state: State) -> dict[str, JSON] | None:
    if state.final is None:
        return None
    bonuses = [{**_score_wire(b), "identity": state.seats[b.seat].identity.value} for b in state.final.bonuses]
    return {
        "bonuses": bonuses,
        "identities": [s.identity.value for s in state.seats],
        "scores": [s.score for s in state.seats],
        "winners": list(state.final.winners),
        "tie_break": state.final.tie_break.value,
    }


def _public_view(state: State) -> dict[str, JSON]:
    clue_id = state.clue_id
    revealing = state.phase in (Phase.REVEAL, Phase.GAME_OVER)
    return {
        "game": "speakeasy",
        "phase": state.phase.value,
        "round": state.number,
        "n_seats": state.n,
        "deck": state.settings.deck_label,
        "host": state.host,
        "next_host": state.next_host,
        "clue": {
            "id": clue_id, "text": state.settings.texts[clue_id], "number": state.number, "total": len(state.clue_order),
        },
        "clues_left": len(state.clue_order) - state.number,
        "informants": sum(1 for s in state.seats if s.identity is Identity.INFORMANT),
        "timers": {
            "host_choice_ms": state.settings.host_choice_ms,
            "pointing_ms": state.settings.pointing_ms,
            "reveal_ms": state.settings.reveal_ms,
        },
        "subject_chosen": state.subject is not None,
        "pointers": list(state.pointers()),
        "pointed": [s for s in state.pointers() if state.pointing[s] is not None],
        "reveal": _result_wire(state.history[-1]) if revealing and state.history else None,
        "seats": [_seat_wire(i, s) for i, s in enumerate(state.seats)],
        "history": [_result_wire(r) for r in state.history],
        "final": _final_wire(state),
        "winners": list(state.final.winners) if state.final else [],
    }


def _me_view(state: State, seat: int) -> dict[str, JSON]:
    is_host = seat == state.host
    return {
        "seat": seat,
        "identity": state.seats[seat].identity.value,
        "is_host": is_host,
        "subject": state.subject if is_host else None,
        "pointed_at": None if is_host else state.pointing[seat],
    }


# ------------------------------------------------------------------------------------------ engine
AnySettings = TypeVar("AnySettings", bound=Settings)


def _builtin_clues(deck: str) -> tuple[str, ...]:
    try:
        return builtin_deck(deck)
    except DeckError as exc:
        raise BadSettings(str(exc)) from None


def deck_settings_to_wire(settings: Settings) -> dict[str, JSON]:
    """Settings on the wire without ``clues``: they follow ``deck`` (the companion's too)."""
    wire = encode_fields(settings)
    del wire["clues"]
    return wire


def deck_settings_from_wire(defaults: AnySettings, data: Mapping[str, Any]) -> AnySettings:
    """Type-checked settings over ``defaults``; the built-in deck's texts follow ``deck`` (S2)."""
    if isinstance(data, Mapping) and "clues" in data:
        raise BadSettings("settings: unknown field 'clues' (send a table's own deck as 'custom_clues')")
    settings = settings_from_wire(defaults, data)
    return dataclasses.replace(settings, clues=_builtin_clues(settings.deck))


class SpeakeasyEngine(GameEngine[State]):
    news_events = frozenset({"pointing_revealed", "game_ended"})  # a clue's reveal, the last secrets (S12)
    name = "speakeasy"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    actions = ACTIONS
    events = EVENTS
    setting_words = {"deck": BUILTIN_DECKS}

    # settings -------------------------------------------------------------------------------
    def presets(self) -> tuple[str, ...]:
        return BUILTIN_DECKS

    def default_settings(self, preset: str | None = None) -> Settings:
        """Defaults with the built-in deck of ``preset`` (a language: en, fa, th; None = en)."""
        deck = preset or "en"
        return Settings(deck=deck, clues=_builtin_clues(deck))

    def settings_to_wire(self, settings: Settings) -> dict[str, JSON]:
        return deck_settings_to_wire(settings)

    def settings_from_wire(self, data: Mapping[str, Any], preset: str | None = None) -> Settings:
        return deck_settings_from_wire(self.default_settings(preset), data)

    # play -----------------------------------------------------------------------------------
    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        """S1/S4: deal identities and the clues for this game (seeded); a random first host (S5)."""
        settings.validate()
        if not MIN_SEATS <= n_seats <= MAX_SEATS:
            raise BadSettings(f"Speakeasy needs {MIN_SEATS}..{MAX_SEATS} players, not {n_seats}")
        informants, clues = settings.informant_count(n_seats), settings.clue_count(n_seats)
        if informants > n_seats:
            raise BadSettings(f"{informants} informants do not fit {n_seats} players")
        if clues > len(settings.texts):
            raise BadSettings(f"the deck has {len(settings.texts)} clues; this game needs {clues}")
        rng = Rng.from_seed(seed)
        cards = (Identity.INFORMANT,) * informants + (Identity.CITIZEN,) * (n_seats - informants)
        identities, rng = rng.shuffled(cards)
        order, rng = rng.shuffled(range(len(settings.texts)))
        host, rng = rng.below(n_seats)
        state = State(
            settings, tuple(SeatState(i) for i in identities), order[:clues], 0, Phase.CHOOSING, host, None, False,
            (None,) * n_seats, (), rng,
        )
        return state

    def start_events(self, state: State) -> Events:
        """The events that tell the story of ``new_game`` (deal and the first clue)."""
        informants = sum(1 for s in state.seats if s.identity is Identity.INFORMANT)
        first = ClueDrawn(1, len(state.clue_order), state.clue_id, state.settings.texts[state.clue_id], state.host)
        return [IdentitiesDealt(informants), first]

    def legal_actions(self, state: State, seat: Seat | None) -> list[Action]:
        check_seat(seat, state.n)
        if state.phase is Phase.GAME_OVER:
            return []
        if seat is None:
            timer = self.timer(state)
            return [timer.on_expiry] if timer else []
        others = [s for s in range(state.n) if s != state.host]
        if state.phase is Phase.CHOOSING and seat == state.host:
            return [ChooseSubject(s) for s in others]
        if state.phase is Phase.POINTING and seat != state.host:
            return [Point(t) for t in others]
        if state.phase is Phase.REVEAL and seat == state.next_host:
            return [Continue()]
        return []

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, Events]:
        self._check_apply(state, seat)
        if isinstance(action, ChooseSubject):
            return self._choose(state, seat, action)
        if isinstance(action, Point):
            return self._point(state, seat, action)
        if isinstance(action, Continue):
            return self._continue(state, seat)
        if isinstance(action, Timeout):
            return self._timeout(state, seat, action)
        raise MalformedAction(f"not a Speakeasy action: {action!r}")

    def _choose(self, state: State, seat: Seat | None, action: ChooseSubject) -> tuple[State, Events]:
        """S6: the host picks the subject, never themselves."""
        if state.phase is not Phase.CHOOSING:
            raise IllegalAction("the subject has already been chosen")
        if seat != state.host:
            raise NotYourTurn("only the host picks the subject")
        if not 0 <= action.subject < state.n or action.subject == state.host:
            raise IllegalAction("the subject must be another player at the table")
        new = dataclasses.replace(state, phase=Phase.POINTING, subject=action.subject)
        return new, [SubjectChosen(state.host)]

    def _point(self, state: State, seat: Seat | None, action: Point) -> tuple[State, Events]:
        """S7: point at anyone but the host (yourself included); changeable until the reveal."""
        if seat is None or seat == state.host:
            raise NotYourTurn("the host does not point")
        if state.phase is not Phase.POINTING:
            raise IllegalAction("pointing is not open now")
        if not 0 <= action.target < state.n or action.target == state.host:
            raise IllegalAction("point at a player other than the host")
        before = state.pointing[seat]
        pointing = state.pointing[:seat] + (action.target,) + state.pointing[seat + 1 :]
        new = dataclasses.replace(state, pointing=pointing)
        events: Events = [Pointed(seat, changed=before is not None and before != action.target)]
        if all(pointing[s] is not None for s in state.pointers()):
            new, more = _reveal(new)
            events.extend(more)
        return new, events

    def _continue(self, state: State, seat: Seat | None) -> tuple[State, Events]:
        if state.phase is not Phase.REVEAL:
            raise IllegalAction("nothing to continue from yet")
        if seat != state.next_host:
            raise NotYourTurn("the next host moves the table on")
        return _advance(state)

    def _timeout(self, state: State, seat: Seat | None, action: Timeout) -> tuple[State, Events]:
        if seat is not None:
            raise NotYourTurn("only the table's timer times out")
        timer = self.timer(state)
        if timer is None or action.key != timer.key:
            running = timer.key if timer else None
            raise StaleState(f"timer {action.key!r} is not running (running: {running!r})")
        if state.phase is Phase.CHOOSING:
            return self._host_timed_out(state)
        if state.phase is Phase.POINTING:
            return _reveal(state)
        return _advance(state)

    @staticmethod
    def _host_timed_out(state: State) -> tuple[State, Events]:
        """S6 [gap]: a random subject (seeded), or the clue is skipped."""
        if state.settings.host_timeout is HostTimeout.SKIP_CLUE:
            return _skip(state)
        subject, rng = state.rng.choice(state.pointers())
        new = dataclasses.replace(state, phase=Phase.POINTING, subject=subject, subject_by_timeout=True, rng=rng)
        return new, [SubjectChosen(state.host, by_timeout=True)]

    # out ------------------------------------------------------------------------------------
    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        out = _public_view(state)
        out["me"] = None if seat is None else _me_view(state, seat)
        return out

    def own_view(self, state: State, seat: Seat) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return {"me": _me_view(state, seat)}

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def timer(self, state: State) -> TimerRequest | None:
        if state.phase is Phase.GAME_OVER:
            return None
        duration, label = {
            Phase.CHOOSING: (state.settings.host_choice_ms, "speakeasy_host_choice"),
            Phase.POINTING: (state.settings.pointing_ms, "speakeasy_pointing"),
            Phase.REVEAL: (state.settings.reveal_ms, "speakeasy_reveal"),
        }[state.phase]
        if duration <= 0:
            return None
        key = _timer_key(state)
        return TimerRequest(key, duration, Timeout(key), label)

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        """One plain-English sentence for a wire event (used by ``tabletop replay``)."""
        return describe_event(event, name)


# ------------------------------------------------------------------------------ plain-English log
_REASON_WORDS = {
    ScoreReason.POINTED_AT_INFORMANT.value: "pointed at the informant",
    ScoreReason.CITIZEN_FOUND.value: "was found as the citizen the clue described",
    ScoreReason.NOBODY_FOUND.value: "fooled everyone as host",
    ScoreReason.UNREVEALED_INFORMANT.value: "was never revealed as an informant",
    ScoreReason.UNREVEALED_CITIZEN.value: "was never revealed as a citizen",
}


def _names(seats: Any, name: Callable[[int], str]) -> str:
    items = [name(s) for s in seats]
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _describe_pointing(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    arrows = [f"{name(seat)} → {name(t)}" for seat, t in enumerate(e["pointing"]) if t is not None]
    return f"Pointing revealed (S7): {'; '.join(arrows) or 'nobody pointed'}. The subject was {name(e['subject'])}."


def _describe_end(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    how = {"none": "", "correct_points": " on correct points", "shared": ", a shared win", "lots": " by drawing lots"}
    totals = ", ".join(f"{name(s)} {t}" for s, t in enumerate(e["scores"]))
    verb = english_plural(len(e["winners"]), "wins", "win")
    return f"Game over (S13): {_names(e['winners'], name)} {verb}{how.get(e['tie_break'], '')}. Scores: {totals}."


def describe_event(e: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    """One sentence of plain English for a Speakeasy wire event; ``name`` names a seat."""
    kind = e.get("type")
    simple: dict[str, Callable[[], str]] = {
        "identities_dealt": lambda: f"Identities are dealt: {counted(e['informants'], 'informant', 'informants')} at the table (S4).",
        "clue_drawn": lambda: f"Clue {e['number']} of {e['total']}, hosted by {name(e['host'])}: "
                              f"\u201c{e['text']}\u201d (S6).",
        "subject_chosen": lambda: f"{name(e['host'])} has picked a subject"
                                  + (" (the timer picked one at random)." if e["by_timeout"] else "."),
        "pointed": lambda: f"{name(e['seat'])} " + ("changes where they point." if e["changed"] else "points."),
        "pointing_revealed": lambda: _describe_pointing(e, name),
        "identity_revealed": lambda: f"{name(e['seat'])} is revealed as {e['identity']} ({e['cause']}).",
        "scored": lambda: f"{name(e['seat'])} {_REASON_WORDS.get(e['reason'], e['reason'])}: +{e['points']}, "
                          f"now {e['total']} ({e['cause']}).",
        "clue_skipped": lambda: f"{name(e['host'])} picked no subject in time: clue {e['number']} is skipped (S6).",
        "clue_discarded": lambda: f"Clue {e['number']} is discarded; {e['clues_left']} left (S10).",
        "game_ended": lambda: _describe_end(e, name),
    }
    maker = simple.get(kind) if isinstance(kind, str) else None
    return maker() if maker else f"{kind}: { {k: v for k, v in e.items() if k != 'type'} }"


ENGINE = SpeakeasyEngine()

__all__ = [
    "ENGINE", "ACTIONS", "EVENTS", "Settings", "State", "Identity", "Phase", "HostTimeout", "MissedPoint", "FinalTie",
    "Outcome", "ScoreReason", "TieBreak", "SCORE_RULES", "ChooseSubject", "Point", "Continue", "Timeout", "Action",
    "Event", "describe_event",
]
