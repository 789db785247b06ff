"""Cheating Moth: the pure rules engine (rule ids M1–M19 of ``docs/rules/cheating-moth.md``).

Players shed their hands onto a discard pile (one higher or lower than the top, wrapping 5↔1),
cheat cards away while the guard is not looking, and race to slap the pile. Real time never enters
the engine on its own: the session stamps the cheat gesture and accusations with ``t_ms`` (session
clock, ms) and the race judge hands in every race as one :class:`RaceResult` (seat ``None``).

State is immutable (frozen dataclasses and tuples); ``apply`` returns a new state and public events
(no event ever names a hidden card). Wire forms and views: ``game/games/cheating_moth/views.md``.
"""
from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from game.rules import race as race_rule
from game.rules.base import (
    JSON,
    BadSettings,
    GameEngine,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    RaceMode,
    RacePress,
    RaceRequest,
    Seat,
    StaleState,
    TimerRequest,
    WireCodec,
    check_seat,
    encode_fields,
)
from game.rules.rng import Rng

MIN_SEATS = 3
MAX_SEATS_ONE_DECK = 5  # M2
MAX_SEATS = 8  # M2 [gap]: with two decks
NUMBERS = (1, 2, 3, 4, 5)
NUMBER_CARDS = 43  # M1
MOTHS = 8  # M1
MAX_TIMER_MS = 10 * 60 * 1000
MAX_HAND_SIZE = 12


# ----------------------------------------------------------------------------------------- enums
class Kind(enum.Enum):
    NUMBER = "number"
    ANT = "ant"  # M12
    SPIDER = "spider"  # M13
    MOSQUITO = "mosquito"  # M14
    BEETLE = "beetle"  # M15
    MOTH = "moth"  # M7


ACTION_KINDS = (Kind.ANT, Kind.SPIDER, Kind.MOSQUITO, Kind.BEETLE)
PENALTY = {Kind.MOTH: 10, Kind.NUMBER: 1, **dict.fromkeys(ACTION_KINDS, 5)}  # M17


class Phase(enum.Enum):
    PLAY = "play"  # M4–M6
    SPIDER_GIVE = "spider_give"  # M13
    MOSQUITO_RACE = "mosquito_race"  # M14
    MOSQUITO_GIVE = "mosquito_give"  # M14
    BEETLE_RACE = "beetle_race"  # M15
    PENALTY_GIVE = "penalty_give"  # M10 (an interruption of the phase underneath)
    ROUND_OVER = "round_over"  # M17
    GAME_OVER = "game_over"  # M19


class Tell(enum.Enum):
    """M11 [gap]: what the table sees of a cheat in progress."""

    NONE = "none"
    SUBTLE = "subtle"  # the cheater's fan trembles
    OBVIOUS = "obvious"  # the card slides towards the sleeve

    @property
    def wire_flag(self) -> str | None:
        return {Tell.NONE: None, Tell.SUBTLE: "tremble", Tell.OBVIOUS: "sleeve"}[self]


class BeetleNext(enum.Enum):
    """M15 [gap]: who plays after a Beetle race that somebody won."""

    AFTER_WINNER = "after_winner"
    AFTER_PLAYER = "after_player"


class TieBreak(enum.Enum):
    """M19 [gap]: how equal totals are ranked."""

    FEWER_MOTHS = "fewer_moths"
    SHARED = "shared"


class EffectOutcome(enum.Enum):
    FIRED = "fired"
    NO_CARD_TO_GIVE = "no_card_to_give"


RACE_PHASES = (Phase.MOSQUITO_RACE, Phase.BEETLE_RACE)
GIVE_PHASES = (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE, Phase.PENALTY_GIVE)
ACCUSE_PHASES = (Phase.PLAY, Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE)  # M9: not mid-race
ROUND_PHASES = (Phase.PLAY, Phase.SPIDER_GIVE, Phase.MOSQUITO_RACE, Phase.MOSQUITO_GIVE, Phase.BEETLE_RACE)


# -------------------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class Settings:
    cheat_ms: int = 1500  # M8 [gap]
    caught_window_ms: int = 1000  # M8 [gap]
    race_timeout_ms: int = 5000  # M14/M15 [gap]
    tell: Tell = Tell.SUBTLE  # M11 [gap]
    exact_count_max: int = 3  # M11 [gap]
    two_decks: bool = False  # M2 [gap]
    hand_size: int = 8  # M3
    first_guard: int = 0  # M3: the host picks (default seat 1, i.e. index 0)
    number_counts: tuple[int, ...] = (9, 9, 9, 8, 8)  # M1 [gap]: plain cards of value 1..5
    moth_numbers: tuple[int, ...] = (2, 2, 3, 3, 4, 4, 5, 5)  # M1 [gap]
    beetle_next: BeetleNext = BeetleNext.AFTER_WINNER  # M15 [gap]
    tie_break: TieBreak = TieBreak.FEWER_MOTHS  # M19 [gap]
    round_pause_ms: int = 8000  # digital: how long the round's scores stay before the next deal
    turn_ms: int = 0  # digital: 0 = untimed; else a turn not taken in time draws (M6)
    choice_ms: int = 30_000  # digital: 0 = untimed; else a give not chosen in time is picked at random

    def validate(self) -> None:
        for name in ("cheat_ms", "caught_window_ms", "race_timeout_ms", "round_pause_ms"):
            if not 0 < getattr(self, name) <= MAX_TIMER_MS:
                raise BadSettings(f"{name} must be between 1 and {MAX_TIMER_MS} ms")
        for name in ("turn_ms", "choice_ms"):
            if not 0 <= getattr(self, name) <= MAX_TIMER_MS:
                raise BadSettings(f"{name} must be 0 (untimed) or up to {MAX_TIMER_MS} ms")
        if not 0 <= self.exact_count_max <= MAX_HAND_SIZE:
            raise BadSettings(f"exact_count_max must be between 0 and {MAX_HAND_SIZE}")
        if not 1 <= self.hand_size <= MAX_HAND_SIZE:
            raise BadSettings(f"hand_size must be between 1 and {MAX_HAND_SIZE}")
        if not 0 <= self.first_guard < MAX_SEATS:
            raise BadSettings(f"first_guard must be a seat between 0 and {MAX_SEATS - 1}")
        if len(self.number_counts) != len(NUMBERS) or any(c < 0 for c in self.number_counts):
            raise BadSettings("number_counts needs 5 counts (values 1..5), none negative")
        if sum(self.number_counts) != NUMBER_CARDS:
            raise BadSettings(f"number_counts must total {NUMBER_CARDS} (M1)")
        if len(self.moth_numbers) != MOTHS or any(n not in NUMBERS for n in self.moth_numbers):
            raise BadSettings(f"moth_numbers needs {MOTHS} numbers, each 1..5 (M1)")

    @property
    def max_seats(self) -> int:
        return MAX_SEATS if self.two_decks else MAX_SEATS_ONE_DECK


# ----------------------------------------------------------------------------------------- cards
@dataclass(frozen=True, slots=True)
class Card:
    id: int
    kind: Kind
    number: int

    def to_wire(self) -> dict[str, JSON]:
        return {"id": self.id, "kind": self.kind.value, "number": self.number}


@functools.lru_cache(maxsize=16)
def build_deck(settings: Settings) -> tuple[Card, ...]:
    """M1: the 71 cards (142 with two decks), ids 0.. in a fixed order; the Guard Bug is not a card."""
    one: list[tuple[Kind, int]] = []
    for number, count in zip(NUMBERS, settings.number_counts):
        one.extend((Kind.NUMBER, number) for _ in range(count))
    for kind in ACTION_KINDS:
        one.extend((kind, number) for number in NUMBERS)
    one.extend((Kind.MOTH, number) for number in settings.moth_numbers)
    copies = 2 if settings.two_decks else 1
    return tuple(Card(i, kind, number) for i, (kind, number) in enumerate(one * copies))


def adjacent(a: int, b: int) -> bool:
    """M5: exactly one higher or lower, wrapping around (1 goes on 2 or 5, 5 on 4 or 1)."""
    return (a - b) % len(NUMBERS) in (1, len(NUMBERS) - 1)


_NEIGHBOURS = {b: frozenset(a for a in NUMBERS if adjacent(a, b)) for b in NUMBERS}  # what goes on each number


# --------------------------------------------------------------------------------------- actions
ACTIONS: WireCodec[Any] = WireCodec("action")


@ACTIONS.register("play")
@dataclass(frozen=True, slots=True)
class Play:
    card: int


@ACTIONS.register("draw")
@dataclass(frozen=True, slots=True)
class Draw:
    pass


@ACTIONS.register("give")
@dataclass(frozen=True, slots=True)
class Give:
    card: int
    to: int


@ACTIONS.register("cheat_start")
@dataclass(frozen=True, slots=True)
class CheatStart:
    card: int
    t_ms: int = 0


@ACTIONS.register("cheat_cancel")
@dataclass(frozen=True, slots=True)
class CheatCancel:
    t_ms: int = 0


@ACTIONS.register("cheat_finish")
@dataclass(frozen=True, slots=True)
class CheatFinish:
    t_ms: int = 0


@ACTIONS.register("accuse")
@dataclass(frozen=True, slots=True)
class Accuse:
    target: int
    t_ms: int = 0


@ACTIONS.register("race_result")
@dataclass(frozen=True, slots=True)
class RaceResult:
    """The judge's presses for race ``race``: parallel lists, one entry per press (M16), at full
    precision, with the clock that stamped each press and its resolution. ``rule``: the version of
    :mod:`game.rules.race` that decides it (0: journaled before it, decided as it was then)."""

    race: int
    start_ms: float = 0
    seats: tuple[int, ...] = ()
    times_ms: tuple[float, ...] = ()
    cards: tuple[int | None, ...] = ()
    error_ms: tuple[float, ...] = ()
    clocks: tuple[str, ...] = ()
    resolution_ms: tuple[float, ...] = ()
    rule: int = race_rule.LEGACY_RULE


@ACTIONS.register("timeout")
@dataclass(frozen=True, slots=True)
class Timeout:
    """The table: the turn or the give numbered ``decision`` ran out of time (``turn_ms`` / ``choice_ms``)."""

    decision: int


@ACTIONS.register("next_round")
@dataclass(frozen=True, slots=True)
class NextRound:
    pass


# ---------------------------------------------------------------------------------------- events
EVENTS: WireCodec[Any] = WireCodec("event")


@EVENTS.register("round_started")
@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    guard: int
    top: int
    top_kind: Kind
    top_number: int
    hand_size: int
    cause: str = "M3"


@EVENTS.register("played")
@dataclass(frozen=True, slots=True)
class Played:
    seat: int
    card: int
    kind: Kind
    number: int
    cause: str = "M5"


@EVENTS.register("drew")
@dataclass(frozen=True, slots=True)
class Drew:
    seat: int
    count: int
    cause: str = "M6"


@EVENTS.register("pile_refilled")
@dataclass(frozen=True, slots=True)
class PileRefilled:
    size: int
    cause: str = "M6"


@EVENTS.register("effect")
@dataclass(frozen=True, slots=True)
class Effect:
    seat: int
    kind: Kind
    outcome: EffectOutcome
    cause: str


@EVENTS.register("card_given")
@dataclass(frozen=True, slots=True)
class CardGiven:
    giver: int
    receiver: int
    cause: str


@EVENTS.register("give_skipped")
@dataclass(frozen=True, slots=True)
class GiveSkipped:
    giver: int
    receiver: int
    cause: str


@EVENTS.register("race_started")
@dataclass(frozen=True, slots=True)
class RaceStarted:
    race: int
    kind: Kind
    player: int
    number: int
    eligible: tuple[int, ...]
    timeout_ms: int
    cause: str


@EVENTS.register("race_decided")
@dataclass(frozen=True, slots=True)
class RaceDecided:
    race: int
    kind: Kind
    player: int
    order: tuple[int, ...]
    times_ms: tuple[float, ...]
    margins_ms: tuple[float, ...]
    error_ms: tuple[float, ...]
    no_press: tuple[int, ...]
    void: tuple[int, ...]
    winner: int | None
    slowest: int | None
    tied: tuple[int, ...]
    tie_broken_by_rng: bool
    close: bool
    cause: str
    within_ms: float = 0.0  # > 0: ``tied`` were within this many ms of each other, too close to call


@EVENTS.register("timed_out")
@dataclass(frozen=True, slots=True)
class TimedOut:
    seats: tuple[int, ...]
    phase: Phase
    cause: str


@EVENTS.register("cheat_tell")
@dataclass(frozen=True, slots=True)
class CheatTell:
    seat: int
    tell: Tell
    active: bool
    cause: str = "M11"


@EVENTS.register("accused")
@dataclass(frozen=True, slots=True)
class Accused:
    guard: int
    target: int
    caught: bool
    cause: str = "M10"


@EVENTS.register("cheat_undone")
@dataclass(frozen=True, slots=True)
class CheatUndone:
    seat: int
    cause: str = "M10"


@EVENTS.register("guard_passed")
@dataclass(frozen=True, slots=True)
class GuardPassed:
    old: int
    new: int
    cause: str


@EVENTS.register("round_ended")
@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    out: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    moths: tuple[int, ...]
    cause: str = "M17"


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded:
    seats: tuple[int, ...]
    ranks: tuple[int, ...]
    totals: tuple[int, ...]
    moths: tuple[int, ...]
    cause: str = "M19"


# ----------------------------------------------------------------------------------------- state
@dataclass(frozen=True, slots=True)
class Cheat:
    """A cheat in progress (M8): the card is still in hand until the hold completes."""

    card: int
    started_ms: int


@dataclass(frozen=True, slots=True)
class DoneCheat:
    """The latest completed cheat of a seat, kept for the M8 caught window."""

    card: int
    started_ms: int
    finished_ms: int


@dataclass(frozen=True, slots=True)
class Race:
    id: int
    kind: Kind
    player: int
    number: int
    eligible: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Giving:
    """A pending give: Spider (one giver, any receiver), Mosquito (givers -> receiver), penalty."""

    cause: str
    player: int  # who played the card (or the old guard for a penalty)
    givers: tuple[int, ...]
    receiver: int | None = None
    given: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    n: int
    rng: Rng
    phase: Phase
    round: int  # 0-based
    first_guard: int  # this round's first guard (M18)
    guard: int
    turn: int | None
    hands: tuple[tuple[int, ...], ...]
    draw_pile: tuple[int, ...]  # index 0 is the top
    discard: tuple[int, ...]  # the last is the top
    cheated: tuple[int, ...]  # cards cheated away this round
    cheats: tuple[Cheat | None, ...]
    done_cheats: tuple[DoneCheat | None, ...]
    let_go: tuple[DoneCheat | None, ...]  # the latest hold let go early (``finished_ms``: when)
    cheated_count: tuple[int, ...]  # per seat, this round
    giving: Giving | None = None
    penalty: Giving | None = None  # M10: interrupts the phase underneath
    race: Race | None = None
    race_seq: int = 0
    decision: int = 0  # numbers each turn and each give, for their timers
    totals: tuple[int, ...] = ()
    moths: tuple[int, ...] = ()
    round_points: tuple[tuple[int, ...], ...] = ()
    last_race: RaceDecided | None = None
    last_accusation: Accused | None = None
    last_round: RoundEnded | None = None
    final: GameEnded | None = None
    deck: tuple[Card, ...] = dataclasses.field(default=(), compare=False, repr=False)
    """The settings' deck, built with the state (whatever is passed) and carried by the engine's
    :func:`_evolve`: a card lookup is an index, not a rebuild that hashes the settings."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "deck", build_deck(self.settings))

    @property
    def current_phase(self) -> Phase:
        return Phase.PENALTY_GIVE if self.penalty is not None else self.phase

    def card(self, card_id: int) -> Card:
        return self.deck[card_id]


Events = list[Any]

_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(State))
_KEEP: Any = object()  # an argument of _evolve_state not passed: the field keeps its value


def _state_copier() -> Callable[..., State]:
    """``_evolve_state(state, **changes)``, generated like a dataclass's ``__init__``: one keyword per
    field (an unknown one is a TypeError) and one slot store each, no loop over the names and no
    dict lookups: the engine copies a state three or four times per action. ``deck`` is carried
    as it is (``__post_init__`` would only rebuild it) and ``settings`` is not a keyword (new
    settings need a new deck: :func:`_evolve` hands those to ``dataclasses.replace``)."""
    names = [n for n in _STATE_FIELDS if n not in ("settings", "deck")]
    lines = [f"def _evolve_state(obj, *, {', '.join(f'{n}=_KEEP' for n in names)}):",
             "    new = _new(State)",
             "    _set_settings(new, obj.settings)",
             "    _set_deck(new, obj.deck)"]
    lines += [f"    _set_{n}(new, obj.{n} if {n} is _KEEP else {n})" for n in names]
    lines.append("    return new")
    scope: dict[str, Any] = {"_new": object.__new__, "State": State, "_KEEP": _KEEP}
    # each field's slot is stored through its own descriptor, as object.__setattr__ does after
    # looking the name up on the class, a lookup per field per copy (3.2 -> 2.3 us a copy without it)
    scope |= {f"_set_{n}": State.__dict__[n].__set__ for n in _STATE_FIELDS}
    exec("\n".join(lines), scope)  # the source is built above from State's field names only
    copier: Callable[..., State] = scope["_evolve_state"]
    return copier


_evolve_state = _state_copier()


def _evolve(obj: Any, **changes: Any) -> Any:
    """``dataclasses.replace`` with a fast path for :class:`State`, the engine's hot spot (see
    :func:`_state_copier`): several times quicker than ``replace``'s generic walk."""
    if type(obj) is not State or "settings" in changes:  # new settings: a new deck (__post_init__)
        return dataclasses.replace(obj, **changes)
    return _evolve_state(obj, **changes)


# ------------------------------------------------------------------------------- small state ops
def _replace_at(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _next(state: State, seat: int) -> int:
    return (seat + 1) % state.n


def _without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _move_to_hand(state: State, seat: int, card: int) -> State:
    return _evolve(state, hands=_replace_at(state.hands, seat, state.hands[seat] + (card,)))


def _take_from_hand(state: State, seat: int, card: int) -> State:
    return _evolve(state, hands=_replace_at(state.hands, seat, _without(state.hands[seat], card)))


def _non_moths(state: State, seat: int) -> tuple[int, ...]:
    return tuple(c for c in state.hands[seat] if state.card(c).kind is not Kind.MOTH)


def _top(state: State) -> Card:
    return state.card(state.discard[-1])




def _draw_one(state: State, seat: int) -> tuple[State, bool, Events]:
    """M6: take the top of the draw pile, refilling it from the discard pile (all but its top)."""
    events: Events = []
    if not state.draw_pile and len(state.discard) > 1:
        pile, rng = state.rng.shuffled(state.discard[:-1])
        state = _evolve(state, draw_pile=pile, discard=state.discard[-1:], rng=rng)
        events.append(PileRefilled(len(pile)))
    if not state.draw_pile:
        return state, False, events
    card, rest = state.draw_pile[0], state.draw_pile[1:]
    hands = _replace_at(state.hands, seat, state.hands[seat] + (card,))  # _move_to_hand, in the same copy
    return _evolve(state, hands=hands, draw_pile=rest), True, events


def _draw(state: State, seat: int, cause: str) -> tuple[State, Events]:
    state, drew, events = _draw_one(state, seat)
    return state, events + [Drew(seat, 1 if drew else 0, cause)]


def _to_play(state: State, seat: int) -> State:
    return _evolve(
        state, phase=Phase.PLAY, turn=seat, giving=None, race=None, decision=state.decision + 1
    )


def _tell_event(state: State, seat: int, active: bool) -> Events:
    if state.settings.tell is Tell.NONE:
        return []
    return [CheatTell(seat, state.settings.tell, active)]


def _cancel_cheat(state: State, seat: int) -> tuple[State, Events]:
    if state.cheats[seat] is None:
        return state, []
    state = _evolve(state, cheats=_replace_at(state.cheats, seat, None))
    return state, _tell_event(state, seat, False)


# -------------------------------------------------------------------------------------- new game
def _deal(settings: Settings, n: int, rng: Rng, first_guard: int) -> tuple[State, Events]:
    """M3: shuffle, deal ``hand_size`` each, turn up the first discard; M4: the guard starts."""
    ids = tuple(c.id for c in build_deck(settings))
    shuffled, rng = rng.shuffled(ids)
    k = settings.hand_size
    hands = tuple(shuffled[s * k : (s + 1) * k] for s in range(n))
    rest = shuffled[n * k :]
    top, draw_pile = rest[0], rest[1:]
    state = State(
        settings=settings, n=n, rng=rng, phase=Phase.PLAY, round=0, first_guard=first_guard,
        guard=first_guard, turn=first_guard, hands=hands, draw_pile=draw_pile, discard=(top,),
        cheated=(), cheats=(None,) * n, done_cheats=(None,) * n, let_go=(None,) * n, cheated_count=(0,) * n,
        totals=(0,) * n, moths=(0,) * n,
    )
    card = state.card(top)
    return state, [RoundStarted(1, first_guard, top, card.kind, card.number, k)]


def new_game(settings: Settings, n_seats: int, seed: int) -> State:
    settings.validate()
    if not MIN_SEATS <= n_seats <= settings.max_seats:
        hint = "" if settings.two_decks else " (up to 8 with two_decks)"
        raise BadSettings(f"Cheating Moth needs {MIN_SEATS}..{settings.max_seats} players{hint} (M2)")
    if settings.first_guard >= n_seats:
        raise BadSettings(f"first_guard {settings.first_guard} is not a seat of this table")
    state, _ = _deal(settings, n_seats, Rng.from_seed(seed), settings.first_guard)
    return state


def _next_round(state: State) -> tuple[State, Events]:
    """M18: the next round's guard sits left of the previous round's first guard."""
    first = _next(state, state.first_guard)
    fresh, events = _deal(state.settings, state.n, state.rng, first)
    fresh = _evolve(
        fresh, round=state.round + 1, totals=state.totals, moths=state.moths,
        round_points=state.round_points, race_seq=state.race_seq, last_round=state.last_round,
        last_race=state.last_race, decision=state.decision + 1,
    )
    started = _evolve(events[0], round=state.round + 2)
    return fresh, [GuardPassed(state.guard, first, "M18"), started]


# ------------------------------------------------------------------------------------ the settle
def _end_round(state: State, out: int) -> tuple[State, Events]:
    """M17: everyone else scores 10 per moth, 5 per action card, 1 per number card."""
    points = tuple(
        0 if s == out else sum(PENALTY[state.card(c).kind] for c in state.hands[s]) for s in range(state.n)
    )
    moths = tuple(
        0 if s == out else sum(state.card(c).kind is Kind.MOTH for c in state.hands[s]) for s in range(state.n)
    )
    totals = tuple(a + b for a, b in zip(state.totals, points))
    moth_totals = tuple(a + b for a, b in zip(state.moths, moths))
    ended = RoundEnded(state.round + 1, out, points, totals, moths)
    state = _evolve(
        state, phase=Phase.ROUND_OVER, turn=None, giving=None, penalty=None, race=None,
        cheats=(None,) * state.n, totals=totals, moths=moth_totals,
        round_points=state.round_points + (points,), last_round=ended,
    )
    if state.round + 1 < state.n:  # M18: as many rounds as players
        return state, [ended]
    final = _ranking(state)
    return _evolve(state, phase=Phase.GAME_OVER, final=final), [ended, final]


def _ranking(state: State) -> GameEnded:
    """M19: lowest total wins; tie: fewer moths taken in total (setting), then shared."""
    def key(s: int) -> tuple[int, ...]:
        if state.settings.tie_break is TieBreak.FEWER_MOTHS:
            return (state.totals[s], state.moths[s])
        return (state.totals[s],)

    order = tuple(sorted(range(state.n), key=lambda s: (key(s), s)))
    ranks: list[int] = []
    for i, s in enumerate(order):
        ranks.append(ranks[-1] if i and key(order[i - 1]) == key(s) else i + 1)
    return GameEnded(
        order, tuple(ranks), tuple(state.totals[s] for s in order), tuple(state.moths[s] for s in order)
    )


def _settle_cheats(state: State) -> tuple[State, Events]:
    """M8: a cheat in progress ends when its card left the hand, the hand is down to one card, or
    the cheater is the guard."""
    events: Events = []
    for seat, cheat in enumerate(state.cheats):
        if cheat is None:
            continue
        hand = state.hands[seat]
        if cheat.card not in hand or len(hand) < 2 or seat == state.guard:
            state, more = _cancel_cheat(state, seat)
            events += more
    return state, events


def _settle_penalty(state: State) -> tuple[State, Events]:
    pen = state.penalty
    if pen is None or _non_moths(state, pen.player):
        return state, []
    assert pen.receiver is not None
    state = _evolve(state, penalty=None, guard=pen.receiver)
    return state, [GiveSkipped(pen.player, pen.receiver, "M10"), GuardPassed(pen.player, pen.receiver, "M10")]


def _settle_giving(state: State) -> tuple[State, Events]:
    """Drop givers who hold only moths (M7); finish the phase when nobody is left to give."""
    giving = state.giving
    if giving is None or state.phase not in (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE):
        return state, []
    events: Events = []
    if state.phase is Phase.SPIDER_GIVE:
        if _non_moths(state, giving.player):
            return state, []
        events.append(Effect(giving.player, Kind.SPIDER, EffectOutcome.NO_CARD_TO_GIVE, "M13"))
        return _to_play(state, _next(state, giving.player)), events
    keep = tuple(g for g in giving.givers if _non_moths(state, g))
    assert giving.receiver is not None
    events += [GiveSkipped(g, giving.receiver, "M14") for g in giving.givers if g not in keep]
    if keep:
        return _evolve(state, giving=_evolve(giving, givers=keep)), events
    return _to_play(state, _next(state, giving.player)), events


def _settle(state: State, events: Events) -> tuple[State, Events]:
    """Bring the state back to one that needs a decision: M17 first, then cheats and give phases."""
    if state.phase in ROUND_PHASES and not all(state.hands):
        state, more = _end_round(state, state.hands.index(()))  # the first empty hand
        return state, events + more
    for step in (_settle_cheats, _settle_penalty, _settle_giving):
        state, more = step(state)
        events = events + more
    return state, events


# ------------------------------------------------------------------------------------- handlers
def _require(condition: bool, message: str, error: type[IllegalAction] = IllegalAction) -> None:
    if not condition:
        raise error(message)


# the checks below raise as _require does, their messages formatted only when they fail: every
# play, draw and give passes them


def _require_card_in_hand(state: State, seat: int, card: int) -> None:
    if card not in state.hands[seat]:
        raise IllegalAction(f"card {card} is not in seat {seat}'s hand")


def _require_turn(state: State, seat: int) -> None:
    if seat != state.turn:
        raise NotYourTurn(f"it is seat {state.turn}'s turn")


def _require_fits(card: Card, top: Card) -> None:
    if not adjacent(card.number, top.number):
        raise IllegalAction(f"a {card.number} does not go on a {top.number} (M5: one higher or lower)")


def _on_play(state: State, seat: int, action: Play) -> tuple[State, Events]:
    _require(state.current_phase is Phase.PLAY, "cards are played only in the play phase")
    _require_turn(state, seat)
    _require_card_in_hand(state, seat, action.card)
    card = state.card(action.card)
    _require(card.kind is not Kind.MOTH or seat == state.guard, "only the guard may play a moth (M7)")
    _require_fits(card, _top(state))
    hands = _replace_at(state.hands, seat, _without(state.hands[seat], card.id))  # _take_from_hand, in the same copy
    state = _evolve(state, hands=hands, discard=state.discard + (card.id,))
    events: Events = [Played(seat, card.id, card.kind, card.number, "M7" if card.kind is Kind.MOTH else "M5")]
    if not state.hands[seat]:
        return state, events  # M17: the round ends before the card fires (settled by the caller)
    return _fire(state, seat, card, events)


def _fire(state: State, seat: int, card: Card, events: Events) -> tuple[State, Events]:
    if card.kind is Kind.ANT:
        return _fire_ant(state, seat, events)
    if card.kind is Kind.SPIDER:
        giving = Giving("M13", seat, (seat,))
        state = _evolve(state, phase=Phase.SPIDER_GIVE, giving=giving, decision=state.decision + 1)
        return state, events + [Effect(seat, Kind.SPIDER, EffectOutcome.FIRED, "M13")]
    if card.kind in (Kind.MOSQUITO, Kind.BEETLE):
        return _start_race(state, seat, card, events)
    return _to_play(state, _next(state, seat)), events


def _fire_ant(state: State, seat: int, events: Events) -> tuple[State, Events]:
    """M12: every other player draws one card, in seat order after the Ant's player."""
    events = events + [Effect(seat, Kind.ANT, EffectOutcome.FIRED, "M12")]
    for k in range(1, state.n):
        state, more = _draw(state, (seat + k) % state.n, "M12")
        events += more
    return _to_play(state, _next(state, seat)), events


def _start_race(state: State, seat: int, card: Card, events: Events) -> tuple[State, Events]:
    """M14: everyone but the player slaps; M15: anyone may race (hands are secret, entries checked)."""
    mosquito = card.kind is Kind.MOSQUITO
    eligible = tuple(s for s in range(state.n) if s != seat) if mosquito else tuple(range(state.n))
    race = Race(state.race_seq + 1, card.kind, seat, card.number, eligible)
    cause = "M14" if mosquito else "M15"
    state = _evolve(
        state, phase=Phase.MOSQUITO_RACE if mosquito else Phase.BEETLE_RACE, turn=None, race=race,
        race_seq=race.id,
    )
    started = RaceStarted(race.id, card.kind, seat, card.number, eligible, state.settings.race_timeout_ms, cause)
    return state, events + [Effect(seat, card.kind, EffectOutcome.FIRED, cause), started]


def _on_draw(state: State, seat: int, action: Draw) -> tuple[State, Events]:
    _require(state.current_phase is Phase.PLAY, "you draw only in the play phase")
    _require_turn(state, seat)
    state, events = _draw(state, seat, "M6")
    return _to_play(state, _next(state, seat)), events


def _on_give(state: State, seat: int, action: Give) -> tuple[State, Events]:
    phase = state.current_phase
    _require(phase in (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE, Phase.PENALTY_GIVE), "nothing to give now")
    giving = state.penalty if phase is Phase.PENALTY_GIVE else state.giving
    assert giving is not None
    if seat not in giving.givers:
        raise IllegalAction(f"seat {seat} has nothing to give now")
    _require_card_in_hand(state, seat, action.card)
    _require(state.card(action.card).kind is not Kind.MOTH, "moths can never be given away (M7)")
    check_seat(action.to, state.n)
    if giving.receiver is None:
        _require(action.to != seat, "give the card to another player (M13)")
    else:
        if action.to != giving.receiver:
            raise IllegalAction(f"this card goes to seat {giving.receiver}")
    state = _move_to_hand(_take_from_hand(state, seat, action.card), action.to, action.card)
    events: Events = [CardGiven(seat, action.to, giving.cause)]
    if phase is Phase.PENALTY_GIVE:
        state = _evolve(state, penalty=None, guard=action.to)
        return state, events + [GuardPassed(seat, action.to, "M10")]
    if phase is Phase.SPIDER_GIVE:
        return _to_play(state, _next(state, seat)), events
    rest = tuple(g for g in giving.givers if g != seat)
    if not rest:
        return _to_play(state, _next(state, giving.player)), events
    state = _evolve(state, giving=_evolve(giving, givers=rest, given=giving.given + (seat,)))
    return state, events


def _check_time(t_ms: int) -> None:
    if t_ms < 0:
        raise MalformedAction("t_ms must not be negative")


def _on_cheat_start(state: State, seat: int, action: CheatStart) -> tuple[State, Events]:
    _check_time(action.t_ms)
    _require(state.current_phase in ROUND_PHASES, "nobody may cheat now (M9: an accusation is resolving)")
    _require(seat != state.guard, "the guard never cheats (M8)")
    _require(state.cheats[seat] is None, "one card at a time (M8)")
    _require_card_in_hand(state, seat, action.card)
    _require(len(state.hands[seat]) >= 2, "your last card cannot be cheated away (M8)")
    state = _evolve(state, cheats=_replace_at(state.cheats, seat, Cheat(action.card, action.t_ms)))
    return state, _tell_event(state, seat, True)


def _on_cheat_cancel(state: State, seat: int, action: CheatCancel) -> tuple[State, Events]:
    _check_time(action.t_ms)
    cheat = state.cheats[seat]
    _require(cheat is not None, "no cheat in progress")
    assert cheat is not None
    hold = DoneCheat(cheat.card, cheat.started_ms, max(action.t_ms, cheat.started_ms))
    state = _evolve(state, let_go=_replace_at(state.let_go, seat, hold))
    return _cancel_cheat(state, seat)


def _on_cheat_finish(state: State, seat: int, action: CheatFinish) -> tuple[State, Events]:
    _check_time(action.t_ms)
    cheat = state.cheats[seat]
    _require(cheat is not None, "no cheat in progress")
    assert cheat is not None
    held = action.t_ms - cheat.started_ms
    _require(held >= state.settings.cheat_ms,
             f"the card was held {held} ms; the cheat needs {state.settings.cheat_ms} ms (M8)")
    done = DoneCheat(cheat.card, cheat.started_ms, action.t_ms)
    state = _evolve(
        _take_from_hand(state, seat, cheat.card),
        cheated=state.cheated + (cheat.card,),
        cheats=_replace_at(state.cheats, seat, None),
        done_cheats=_replace_at(state.done_cheats, seat, done),
        cheated_count=_replace_at(state.cheated_count, seat, state.cheated_count[seat] + 1),
    )
    return state, _tell_event(state, seat, False)


def caught_in_the_act(state: State, target: int, t_ms: int) -> bool:
    """M8/M10: cheating at ``t_ms`` = a cheat in progress started by then (or a hold let go only
    after ``t_ms``: the accusation was stamped first), or one completed less than
    ``caught_window_ms`` before."""
    cheat = state.cheats[target]
    if cheat is not None and cheat.started_ms <= t_ms:
        return True
    hold = state.let_go[target]
    if hold is not None and hold.started_ms <= t_ms < hold.finished_ms:
        return True
    done = state.done_cheats[target]
    window = state.settings.caught_window_ms
    return done is not None and done.started_ms <= t_ms < done.finished_ms + window


def _on_accuse(state: State, seat: int, action: Accuse) -> tuple[State, Events]:
    _check_time(action.t_ms)
    _require(seat == state.guard, "only the guard may accuse (M9)")
    _require(state.current_phase in ACCUSE_PHASES, "no accusation now (M9)")
    check_seat(action.target, state.n)
    _require(action.target != seat, "the guard cannot accuse themself")
    caught = caught_in_the_act(state, action.target, action.t_ms)
    accused = Accused(seat, action.target, caught)
    state = _evolve(state, last_accusation=accused)
    if not caught:
        state, events = _draw(state, seat, "M10")
        return state, [accused] + events
    return _catch(state, seat, action.target, action.t_ms, accused)


def _catch(state: State, guard: int, target: int, t_ms: int, accused: Accused) -> tuple[State, Events]:
    """M10: the card goes back (a cheat in progress simply stops; a completed one returns from the
    sleeve), every other cheat stops (M9), then the guard owes a non-moth card and hands over the bug."""
    done = state.done_cheats[target]
    if done is not None and done.started_ms <= t_ms < done.finished_ms + state.settings.caught_window_ms:
        state = _evolve(
            _move_to_hand(state, target, done.card),
            cheated=_without(state.cheated, done.card),
            done_cheats=_replace_at(state.done_cheats, target, None),
            cheated_count=_replace_at(state.cheated_count, target, state.cheated_count[target] - 1),
        )
    state = _evolve(state, let_go=_replace_at(state.let_go, target, None))
    events: Events = [accused, CheatUndone(target)]
    for s in range(state.n):
        state, more = _cancel_cheat(state, s)
        events += more
    penalty = Giving("M10", guard, (guard,), receiver=target)
    return _evolve(state, penalty=penalty, decision=state.decision + 1), events


def _on_timeout(state: State, action: Timeout) -> tuple[State, Events]:
    """``turn_ms``: the turn's player draws (M6). ``choice_ms``: every giver still to choose gives
    a non-moth card picked by the seeded RNG (to a random other player for the Spider)."""
    if action.decision != state.decision:
        raise StaleState(f"decision {action.decision} is over; the current one is {state.decision}")
    phase, turn = state.current_phase, state.turn
    if phase is Phase.PLAY and turn is not None and state.settings.turn_ms:
        state, drew = _draw(state, turn, "M6")
        return _to_play(state, _next(state, turn)), [TimedOut((turn,), phase, "M6")] + drew
    giving = state.penalty if phase is Phase.PENALTY_GIVE else state.giving
    _require(giving is not None and phase in GIVE_PHASES and state.settings.choice_ms > 0, "nothing is timed now")
    assert giving is not None
    events: Events = [TimedOut(giving.givers, phase, giving.cause)]
    for giver in giving.givers:
        if not all(state.hands):
            break  # a give emptied a hand: the round ends (M17)
        options = sorted(_non_moths(state, giver))
        if not options:
            continue  # only moths: skipped when the state settles (M7)
        card, rng = state.rng.choice(options)
        to, rng = (giving.receiver, rng) if giving.receiver is not None else rng.choice(
            [s for s in range(state.n) if s != giver])
        state, more = _on_give(_evolve(state, rng=rng), giver, Give(card, to))
        events += more
    return state, events


def _on_next_round(state: State, action: NextRound) -> tuple[State, Events]:
    _require(state.phase is Phase.ROUND_OVER, "the round is not over")
    return _next_round(state)


# --------------------------------------------------------------------------------------- races
@dataclass(frozen=True, slots=True)
class _Entry:
    """One press, read as :class:`game.rules.race.Timed` (ms after the race start)."""

    seat: int
    t_ms: float
    error_ms: float
    card: int | None
    clock: str = ""
    resolution_ms: float = 0.0


def _parse_presses(state: State, race: Race, result: RaceResult) -> list[_Entry]:
    n = len(result.seats)
    parallel = (result.cards, result.error_ms, result.clocks, result.resolution_ms)
    if len(result.times_ms) != n or any(len(column) not in (0, n) for column in parallel):
        raise MalformedAction("race_result: seats, times_ms, cards, error_ms, clocks and resolution_ms "
                              "must be the same length")
    if len(set(result.seats)) != n:
        raise MalformedAction("race_result: a seat pressed twice")
    if result.rule not in (race_rule.LEGACY_RULE, race_rule.RULE):
        raise MalformedAction(f"race_result: unknown race rule {result.rule}")
    entries: list[_Entry] = []
    for i, seat in enumerate(result.seats):
        check_seat(seat, state.n)
        _require(seat in race.eligible, f"seat {seat} may not take part in this race")
        error = result.error_ms[i] if result.error_ms else 0
        resolution = result.resolution_ms[i] if result.resolution_ms else 0.0
        if error < 0 or resolution < 0:
            raise MalformedAction("race_result: error_ms and resolution_ms must not be negative")
        t = max(0, result.times_ms[i] - result.start_ms)
        if t <= state.settings.race_timeout_ms:  # later counts as no press (M14)
            entries.append(_Entry(seat, t, error, result.cards[i] if result.cards else None,
                                  result.clocks[i] if result.clocks else "", resolution))
    if result.rule == race_rule.LEGACY_RULE:
        return sorted(entries, key=lambda e: (e.t_ms, e.seat))
    return list(race_rule.ranked(entries))


def _margins(entries: list[_Entry]) -> tuple[float, ...]:
    return tuple(0 if i == 0 else e.t_ms - entries[i - 1].t_ms for i, e in enumerate(entries))


def _pick(state: State, tied: tuple[int, ...]) -> tuple[State, int]:
    if len(tied) == 1:
        return state, tied[0]
    chosen, rng = state.rng.choice(tied)
    return _evolve(state, rng=rng), chosen


def _legacy_is_close(a: _Entry, b: _Entry) -> bool:
    """Races journaled before :mod:`game.rules.race` (rule 0) replay with the rule they were decided by."""
    return abs(b.t_ms - a.t_ms) < a.error_ms + b.error_ms


def _legacy_verdict(state: State, entries: list[_Entry], end: race_rule.End) -> tuple[State, dict[str, Any]]:
    """Rule 0: only equal whole milliseconds were drawn; ``close`` flagged a gap within the errors."""
    if end is race_rule.End.FIRST:
        edge = entries[0]
        untied = entries[1:2] if len(entries) > 1 and entries[1].t_ms != edge.t_ms else []
    else:
        edge = entries[-1]
        untied = [e for e in entries if e.t_ms < edge.t_ms][-1:]
    tied = tuple(e.seat for e in entries if e.t_ms == edge.t_ms)
    close = bool(untied) and _legacy_is_close(untied[0], edge)
    state, seat = _pick(state, tied)
    return state, {"seat": seat, "tied": tied, "tie_broken_by_rng": len(tied) > 1, "close": close}


def _verdict(state: State, entries: list[_Entry], end: race_rule.End, rule: int) -> tuple[State, dict[str, Any]]:
    """The seat at ``end`` (M14 slowest, M15 fastest) and how it was decided (M16)."""
    if rule == race_rule.LEGACY_RULE:
        return _legacy_verdict(state, entries, end)
    verdict, rng = race_rule.decide(entries, end, state.rng)
    state = _evolve(state, rng=rng)
    tied = verdict.drawn or (verdict.seat,)
    return state, {"seat": verdict.seat, "tied": tied, "tie_broken_by_rng": verdict.by_draw,
                   "close": verdict.by_draw, "within_ms": verdict.within_ms}


def _decided(race: Race, entries: list[_Entry], **kw: Any) -> RaceDecided:
    return RaceDecided(
        race=race.id, kind=race.kind, player=race.player, order=tuple(e.seat for e in entries),
        times_ms=tuple(e.t_ms for e in entries), margins_ms=_margins(entries),
        error_ms=tuple(e.error_ms for e in entries), **kw,
    )


def _on_race_result(state: State, result: RaceResult) -> tuple[State, Events]:
    race = state.race
    _require(state.current_phase in RACE_PHASES and race is not None, "no race is running")
    assert race is not None
    if result.race != race.id:
        raise StaleState(f"race {result.race} is over; the current race is {race.id}")
    entries = _parse_presses(state, race, result)
    if race.kind is Kind.MOSQUITO:
        return _decide_mosquito(state, race, entries, result.rule)
    return _decide_beetle(state, race, entries, result.rule)


def _decide_mosquito(state: State, race: Race, entries: list[_Entry], rule: int) -> tuple[State, Events]:
    """M14: the slowest (no press counts as slowest; too close to call: a draw from the seeded
    RNG, M16) receives a card from every other player, the Mosquito's player included."""
    pressed = {e.seat for e in entries}
    no_press = tuple(s for s in race.eligible if s not in pressed)
    if no_press:
        state, slowest = _pick(state, no_press)
        how: dict[str, Any] = {"seat": slowest, "tied": no_press, "tie_broken_by_rng": len(no_press) > 1,
                               "close": False}
    else:
        state, how = _verdict(state, entries, race_rule.End.LAST, rule)
        slowest = how["seat"]
    decided = _decided(race, entries, no_press=no_press, void=(), winner=None, slowest=slowest, cause="M14",
                       **{k: v for k, v in how.items() if k != "seat"})
    givers = tuple(s for s in range(state.n) if s != slowest)
    state = _evolve(
        state, phase=Phase.MOSQUITO_GIVE, race=None, last_race=decided,
        giving=Giving("M14", race.player, givers, receiver=slowest), decision=state.decision + 1,
    )
    return state, [decided]


def _beetle_card(state: State, race: Race, entry: _Entry) -> int | None:
    """M15: the raced card must be a plain number card of the Beetle's number from that hand."""
    def fits(c: int) -> bool:
        card = state.card(c)
        return card.kind is Kind.NUMBER and card.number == race.number

    if entry.card is not None:
        return entry.card if entry.card in state.hands[entry.seat] and fits(entry.card) else None
    matching = sorted(c for c in state.hands[entry.seat] if fits(c))
    return matching[0] if matching else None


def _decide_beetle(state: State, race: Race, entries: list[_Entry], rule: int) -> tuple[State, Events]:
    """M15: only the fastest valid card stays; nobody entering adds nothing."""
    cards = {e.seat: _beetle_card(state, race, e) for e in entries}
    void = tuple(e.seat for e in entries if cards[e.seat] is None)
    valid = [e for e in entries if cards[e.seat] is not None]
    pressed = {e.seat for e in entries}
    no_press = tuple(s for s in race.eligible if s not in pressed)
    if not valid:
        decided = _decided(race, valid, no_press=no_press, void=void, winner=None, slowest=None, tied=(),
                           tie_broken_by_rng=False, close=False, cause="M15")
        state = _evolve(state, last_race=decided)
        return _to_play(state, _next(state, race.player)), [decided]
    state, how = _verdict(state, valid, race_rule.End.FIRST, rule)
    winner = how.pop("seat")
    decided = _decided(race, valid, no_press=no_press, void=void, winner=winner, slowest=None, cause="M15", **how)
    won = cards[winner]
    assert won is not None  # the winner is among the valid entries
    card = state.card(won)
    state = _take_from_hand(state, winner, card.id)
    state = _evolve(state, discard=state.discard + (card.id,), last_race=decided)
    after = winner if state.settings.beetle_next is BeetleNext.AFTER_WINNER else race.player
    events: Events = [decided, Played(winner, card.id, card.kind, card.number, "M15")]
    return _to_play(state, _next(state, after)), events


def race_request(state: State) -> RaceRequest | None:
    """The race the session judges now (M14/M15): a Mosquito's slowest loses, a Beetle's fastest
    holder wins. A Beetle's eligible seats are the holders of its number, a secret."""
    race = state.race
    if race is None or state.current_phase not in RACE_PHASES:
        return None
    if race.kind is Kind.MOSQUITO:
        mode, eligible = RaceMode.SLOWEST_LOSES, frozenset(race.eligible)
    else:
        mode, eligible = RaceMode.FASTEST_WINS, frozenset(s for s in race.eligible if _race_cards(state, s))
    return RaceRequest(key=str(race.id), mode=mode, eligible=eligible, timeout_ms=state.settings.race_timeout_ms,
                       on_result=functools.partial(race_result, state), label="race",
                       secret=race.kind is Kind.BEETLE)


def race_result(state: State, presses: tuple[RacePress, ...]) -> RaceResult:
    """The table's :class:`RaceResult` for the running race from the judge's presses (fastest
    first); a Beetle entry races the holder's lowest card of the number (any of them plays alike)."""
    race = state.race
    if race is None:
        raise IllegalAction("no race is running")
    seats = tuple(p.seat for p in presses)
    cards: tuple[int | None, ...] = ()
    if race.kind is Kind.BEETLE:
        cards = tuple(next(iter(_race_cards(state, s)), None) for s in seats)
    return RaceResult(race.id, 0, seats, tuple(p.t_ms for p in presses), cards, tuple(p.error_ms for p in presses),
                      tuple(p.clock for p in presses), tuple(p.resolution_ms for p in presses), race_rule.RULE)


# ---------------------------------------------------------------------------------- legal moves
# Every action a legal list can hold, built once: the lists are rebuilt for every bot's every ask,
# and a new action pays its typed fields' check (game.rules.base.typed_fields) each time. Actions
# are frozen values, so sharing one instance is the same as building an equal one. Card ids run
# below the two-deck size (M1, M2: Settings.validate fixes the deck's make-up).
_DECK_CARDS = 2 * (NUMBER_CARDS + len(ACTION_KINDS) * len(NUMBERS) + MOTHS)
_PLAYS = tuple(Play(c) for c in range(_DECK_CARDS))
_CHEAT_STARTS = tuple(CheatStart(c, 0) for c in range(_DECK_CARDS))
_GIVES = tuple(tuple(Give(c, to) for to in range(MAX_SEATS)) for c in range(_DECK_CARDS))
_ACCUSES = tuple(Accuse(t, 0) for t in range(MAX_SEATS))
_DRAW = Draw()
_CHEAT_HELD = (CheatCancel(0), CheatFinish(0))


def _give_actions(state: State, seat: int, giving: Giving) -> list[Any]:
    if seat not in giving.givers:
        return []
    targets = [giving.receiver] if giving.receiver is not None else [s for s in range(state.n) if s != seat]
    return [_GIVES[c][to] for c in _non_moths(state, seat) for to in targets]


def _can_give(state: State, seat: int, giving: Giving) -> bool:
    """Whether ``_give_actions`` is not empty: a giver holding a non-moth (with another seat to take it)."""
    if seat not in giving.givers or (giving.receiver is None and state.n < 2):
        return False
    deck = state.deck
    return any(deck[c].kind is not Kind.MOTH for c in state.hands[seat])


def can_cheat(state: State, seat: int) -> bool:
    """M8: a non-guard with at least two cards, no cheat in progress, outside accusations."""
    return state.current_phase in ROUND_PHASES and state.cheats[seat] is None and _may_hide_a_card(state, seat)


def _may_hide_a_card(state: State, seat: int) -> bool:
    """M8's seat and hand test: not the guard, and at least two cards in hand."""
    return seat != state.guard and len(state.hands[seat]) >= 2


def _cheat_actions(state: State, seat: int) -> list[Any]:
    """M8 in a round phase (``legal_actions`` asks only there): the held cheat's finish and
    cancel, or a start per card when :func:`can_cheat` (its phase test known to pass)."""
    if state.cheats[seat] is not None:
        return list(_CHEAT_HELD)
    if _may_hide_a_card(state, seat):
        return [_CHEAT_STARTS[c] for c in state.hands[seat]]
    return []


def playable(state: State, seat: int) -> list[int]:
    if state.current_phase is not Phase.PLAY or seat != state.turn:
        return []
    deck, guard = state.deck, seat == state.guard
    fits = _NEIGHBOURS[_top(state).number]  # M5: one higher or lower
    return [c for c in state.hands[seat] if deck[c].number in fits and (guard or deck[c].kind is not Kind.MOTH)]  # M7


def legal_actions(state: State, seat: int) -> list[Any]:
    phase = state.current_phase
    if phase is Phase.PENALTY_GIVE:
        assert state.penalty is not None
        return _give_actions(state, seat, state.penalty)
    if phase not in ROUND_PHASES:  # the round or the game is over
        return []
    out: list[Any] = []
    if phase is Phase.PLAY and seat == state.turn:
        out += [_PLAYS[c] for c in playable(state, seat)] + [_DRAW]
    elif phase in (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE) and state.giving is not None:
        out += _give_actions(state, seat, state.giving)
    out += _cheat_actions(state, seat)
    if seat == state.guard and phase in ACCUSE_PHASES:
        out += [_ACCUSES[t] for t in range(state.n) if t != seat]
    return out


def seats_to_act(state: State) -> tuple[int, ...]:
    """The seats whose ``legal_actions`` is not empty, without building them (the simulator and
    the session ask after every action): what the phase decides is read once for the table."""
    phase = state.current_phase
    if phase is Phase.PENALTY_GIVE:
        assert state.penalty is not None
        return tuple(s for s in range(state.n) if _can_give(state, s, state.penalty))
    if phase not in ROUND_PHASES:
        return ()
    turn = state.turn if phase is Phase.PLAY else None  # a Draw at least
    giving = state.giving if phase in (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE) else None
    guard, cheats, hands = state.guard, state.cheats, state.hands
    accuses = phase in ACCUSE_PHASES and state.n > 1
    return tuple(  # M8: a cheat to finish or one to start (never the guard's); M9: the guard accuses
        s for s in range(state.n)
        if s == turn or cheats[s] is not None or (accuses if s == guard else len(hands[s]) >= 2)
        or (giving is not None and _can_give(state, s, giving))
    )


# ----------------------------------------------------------------------------------------- views
def _hand_count(state: State, seat: int) -> int | str:
    size = len(state.hands[seat])
    return size if size <= state.settings.exact_count_max else "many"


def _public_seat(state: State, seat: int) -> dict[str, JSON]:
    tell = state.settings.tell.wire_flag if state.cheats[seat] is not None else None
    return {
        "seat": seat, "hand": _hand_count(state, seat), "guard": seat == state.guard,
        "tell": tell, "total": state.totals[seat],
    }


def _pending_view(state: State) -> dict[str, JSON] | None:
    if state.penalty is not None:
        return {"giver": state.penalty.player, "receiver": state.penalty.receiver}
    giving = state.giving
    if giving is None:
        return None
    if state.phase is Phase.SPIDER_GIVE:
        return {"giver": giving.player}
    return {"receiver": giving.receiver, "givers": list(giving.givers), "given": list(giving.given)}


def _race_view(state: State) -> dict[str, JSON] | None:
    race = state.race
    if race is None:
        return None
    return {
        "id": race.id, "kind": race.kind.value, "player": race.player, "number": race.number,
        "eligible": list(race.eligible), "timeout_ms": state.settings.race_timeout_ms,
    }


def _event_view(event: Any) -> dict[str, JSON] | None:
    return None if event is None else encode_fields(event)


def public_view(state: State) -> dict[str, JSON]:
    in_turn = state.current_phase in (Phase.PLAY, Phase.SPIDER_GIVE)
    last_round = state.last_round
    return {
        "game": ENGINE_NAME,
        "phase": state.current_phase.value,
        "round": state.round + 1,
        "rounds": state.n,
        "turn": state.turn if in_turn else None,
        "guard": state.guard,
        "first_guard": state.first_guard,
        "top": _top(state).to_wire(),
        "discard_size": len(state.discard),
        "draw_size": len(state.draw_pile),
        "seats": [_public_seat(state, s) for s in range(state.n)],
        "pending": _pending_view(state),
        "race": _race_view(state),
        "last_race": _event_view(state.last_race),
        "last_accusation": None if state.last_accusation is None else {
            "guard": state.last_accusation.guard, "target": state.last_accusation.target,
            "caught": state.last_accusation.caught},
        "last_round": None if last_round is None else {
            "round": last_round.round, "out": last_round.out, "points": list(last_round.points),
            "moths": list(last_round.moths)},
        "scores": {"totals": list(state.totals), "moths": list(state.moths),
                   "rounds": [list(p) for p in state.round_points]},
        "ranking": _ranking_view(state.final),
        "winners": [] if state.final is None else [
            s for s, r in zip(state.final.seats, state.final.ranks) if r == 1],
        "settings": encode_fields(state.settings),
    }


def _ranking_view(final: GameEnded | None) -> list[dict[str, JSON]] | None:
    if final is None:
        return None
    return [
        {"seat": s, "rank": r, "total": t, "moths": m}
        for s, r, t, m in zip(final.seats, final.ranks, final.totals, final.moths)
    ]


_KIND_ORDER = {kind: i for i, kind in enumerate(Kind)}  # a hand sorts by number, then kind as declared


def _sort_key(state: State) -> Callable[[int], tuple[int, int, int]]:
    deck = state.deck
    return lambda c: (deck[c].number, _KIND_ORDER[deck[c].kind], c)


def _race_cards(state: State, seat: int) -> list[int]:
    race = state.race
    if race is None or race.kind is not Kind.BEETLE:
        return []
    return sorted(
        c for c in state.hands[seat]
        if state.card(c).kind is Kind.NUMBER and state.card(c).number == race.number
    )


def _give_to(state: State, seat: int) -> list[int]:
    phase = state.current_phase
    giving = state.penalty if phase is Phase.PENALTY_GIVE else state.giving
    if giving is None or phase not in (Phase.SPIDER_GIVE, Phase.MOSQUITO_GIVE, Phase.PENALTY_GIVE):
        return []
    if seat not in giving.givers:
        return []
    return [giving.receiver] if giving.receiver is not None else [s for s in range(state.n) if s != seat]


def seat_view(state: State, seat: int) -> dict[str, JSON]:
    return {**public_view(state), **own_view(state, seat)}


def own_view(state: State, seat: int) -> dict[str, JSON]:
    """What a seat's view adds to the public one: ``me``, its hand and its own moves."""
    cheat = state.cheats[seat]
    hand = sorted(state.hands[seat], key=_sort_key(state))
    return {"me": {
        "seat": seat,
        "hand": [state.card(c).to_wire() for c in hand],
        "playable": sorted(playable(state, seat)),
        "cheat": None if cheat is None else {
            "card": cheat.card, "started_ms": cheat.started_ms,
            "finish_at_ms": cheat.started_ms + state.settings.cheat_ms},
        "cheated_this_round": state.cheated_count[seat],
        "can_cheat": can_cheat(state, seat),
        "race_cards": _race_cards(state, seat),
        "give_to": _give_to(state, seat),
        "is_guard": seat == state.guard,
    }}


# ---------------------------------------------------------------------------------------- engine
ENGINE_NAME = "cheating_moth"
TABLE_ACTIONS = (RaceResult, NextRound, Timeout)

_HANDLERS: dict[type, Callable[[State, int, Any], tuple[State, Events]]] = {
    Play: _on_play,
    Draw: _on_draw,
    Give: _on_give,
    CheatStart: _on_cheat_start,
    CheatCancel: _on_cheat_cancel,
    CheatFinish: _on_cheat_finish,
    Accuse: _on_accuse,
}


class CheatingMothEngine(GameEngine[State]):
    news_events = frozenset({"race_decided", "accused"})  # a race's verdict, the guard's accusation (M10, M14)
    name = ENGINE_NAME
    seat_settings = frozenset({"first_guard"})  # M3: the host picks the first guard's seat
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    actions = ACTIONS
    events = EVENTS

    settings_presets = {"classic": Settings()}

    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        return new_game(settings, n_seats, seed)

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        check_seat(seat, state.n)
        return [] if seat is None else legal_actions(state, seat)

    def seats_to_act(self, state: State) -> tuple[Seat, ...]:
        return seats_to_act(state)

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, list[Any]]:
        self._check_apply(state, seat)
        if seat is None:
            new, events = self._apply_table(state, action)
        else:
            handler = _HANDLERS.get(type(action))
            if handler is None:
                if isinstance(action, TABLE_ACTIONS):
                    raise IllegalAction(f"{type(action).__name__} is the table's action, not a seat's")
                raise MalformedAction(f"{type(action).__name__} is not a Cheating Moth action")
            new, events = handler(state, seat, action)
        return _settle(new, events)

    @staticmethod
    def _apply_table(state: State, action: Any) -> tuple[State, Events]:
        if isinstance(action, RaceResult):
            return _on_race_result(state, action)
        if isinstance(action, NextRound):
            return _on_next_round(state, action)
        if isinstance(action, Timeout):
            return _on_timeout(state, action)
        if type(action) in _HANDLERS:
            raise IllegalAction(f"{type(action).__name__} is a seat's action, not the table's")
        raise MalformedAction(f"{type(action).__name__} is not a Cheating Moth action")

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return public_view(state) if seat is None else seat_view(state, seat)

    def own_view(self, state: State, seat: Seat) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return own_view(state, seat)

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        """One plain-English sentence for a wire event (used by ``tabletop replay``)."""
        return describe_event(event, name)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def race(self, state: State) -> RaceRequest | None:
        return race_request(state)

    def timer(self, state: State) -> TimerRequest | None:
        """The round pause and the optional decision timers; a running race is timed by its
        :meth:`race` request (its timeout), not here."""
        if state.phase is Phase.ROUND_OVER:
            return TimerRequest(f"round:{state.round + 1}", state.settings.round_pause_ms, NextRound(), "next_round")
        return _decision_timer(state)


def _decision_timer(state: State) -> TimerRequest | None:
    phase, s = state.current_phase, state.settings
    if phase is Phase.PLAY and s.turn_ms:
        return TimerRequest(f"turn:{state.decision}", s.turn_ms, Timeout(state.decision), "turn")
    if phase in GIVE_PHASES and s.choice_ms:
        return TimerRequest(f"give:{state.decision}", s.choice_ms, Timeout(state.decision), "give")
    return None


ENGINE = CheatingMothEngine()


def card_count(state: State) -> int:
    """Every card somewhere: hands + draw pile + discard pile + cheated away (property tests)."""
    return sum(len(h) for h in state.hands) + len(state.draw_pile) + len(state.discard) + len(state.cheated)


# ------------------------------------------------------------------------------ plain-English log
_KIND_WORDS = {"number": "number card", "ant": "Ant", "spider": "Spider", "mosquito": "Mosquito",
               "beetle": "Beetle", "moth": "Cheating Moth"}


def _seat_list(seats: Any, name: Callable[[int], str]) -> str:
    items = [name(s) for s in seats]
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _card(e: Mapping[str, Any]) -> str:
    return f"a {e['number']} ({_KIND_WORDS.get(e['kind'], e['kind'])})"


def _describe_race(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    placed = "; ".join(f"{name(s)} {race_rule.shown_ms(t)} ms" for s, t in zip(e["order"], e["times_ms"])) \
        or "nobody pressed"
    what = "slap race" if e["kind"] == "mosquito" else "Beetle race"
    verdict = (f"slowest: {name(e['slowest'])}" if e.get("slowest") is not None
               else f"winner: {name(e['winner'])}" if e.get("winner") is not None else "no winner")
    notes = [f"no press: {_seat_list(e['no_press'], name)}"] if e["no_press"] else []
    if e.get("within_ms"):
        notes.append(f"{_seat_list(e['tied'], name)} within {race_rule.shown_ms(e['within_ms'])} ms, closer than "
                     "the sources can tell: decided by a draw")
    else:
        if e["tie_broken_by_rng"]:
            notes.append(f"tie between {_seat_list(e['tied'], name)} broken by the shuffle")
        if e["close"]:
            notes.append("closer than the measuring error")
    extra = f" ({'; '.join(notes)})" if notes else ""
    return f"The {what} ({e['cause']}): {placed} — {verdict}{extra}."


def _describe_round_end(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    points = ", ".join(f"{name(s)} +{p}" for s, p in enumerate(e["points"]))
    return f"Round {e['round']} ends: {name(e['out'])} has no cards left (M17). Penalty points: {points}."


def _describe_game_end(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    table = ", ".join(f"{r}. {name(s)} {t}" for s, r, t in sorted(zip(e["seats"], e["ranks"], e["totals"]),
                                                                 key=lambda x: x[1]))
    return f"Game over (M19), lowest total wins: {table}."


def describe_event(e: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    """One sentence of plain English for a Cheating Moth wire event; ``name`` names a seat."""
    say: dict[str, Callable[[], str]] = {
        "round_started": lambda: f"Round {e['round']}: {e['hand_size']} cards each, {name(e['guard'])} guards; "
                                 f"the pile starts on {e['top_number']} (M3).",
        "played": lambda: f"{name(e['seat'])} plays {_card(e)} ({e['cause']}).",
        "drew": lambda: f"{name(e['seat'])} draws {e['count']} card{'s' if e['count'] != 1 else ''} ({e['cause']}).",
        "pile_refilled": lambda: f"The draw pile is refilled from the discard pile: {e['size']} cards (M6).",
        "effect": lambda: (f"{name(e['seat'])}'s {_KIND_WORDS.get(e['kind'], e['kind'])} fires ({e['cause']})."
                           if e["outcome"] == "fired" else
                           f"{name(e['seat'])}'s {_KIND_WORDS.get(e['kind'], e['kind'])} has no card to give "
                           f"({e['cause']})."),
        "card_given": lambda: f"{name(e['giver'])} gives a card to {name(e['receiver'])} ({e['cause']}).",
        "give_skipped": lambda: f"{name(e['giver'])} has only moths: nothing to give {name(e['receiver'])} "
                                f"({e['cause']}).",
        "race_started": lambda: f"{name(e['player'])}'s {_KIND_WORDS.get(e['kind'], e['kind'])} starts a race "
                                f"({e['cause']}).",
        "race_decided": lambda: _describe_race(e, name),
        "timed_out": lambda: f"Time ran out for {_seat_list(e['seats'], name)} ({e['cause']}).",
        "cheat_tell": lambda: (f"{name(e['seat'])}'s cards tremble… (M11)" if e["active"]
                               else f"{name(e['seat'])}'s cards are still again (M11)."),
        "accused": lambda: (f"{name(e['guard'])} accuses {name(e['target'])}: caught cheating! (M10)" if e["caught"]
                            else f"{name(e['guard'])} accuses {name(e['target'])} wrongly and draws a card (M10)."),
        "cheat_undone": lambda: f"{name(e['seat'])} takes the cheated card back (M10).",
        "guard_passed": lambda: f"The Guard Bug passes from {name(e['old'])} to {name(e['new'])} ({e['cause']}).",
        "round_ended": lambda: _describe_round_end(e, name),
        "game_ended": lambda: _describe_game_end(e, name),
    }
    sentence = say.get(str(e.get("type")))
    return sentence() if sentence is not None else GameEngine.describe_event(ENGINE, e, name)  # a newer event

