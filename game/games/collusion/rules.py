"""Collusion (*Tabani* / *Rod Ruang*, published as *Dead Last*): the pure rules engine.

Rule ids C1–C20 refer to ``docs/rules/collusion.md``; the wire formats of views, actions and events are
pinned in ``game/games/collusion/views.md``. The engine is pure: the seeded :class:`Rng` lives in the state,
time only arrives as :class:`Timeout` actions applied by the table (seat ``None``).

Internally a seat's card in the current vote is a small int (``NO_CARD``, ``AMBUSH_CARD``,
``OUT`` or the targeted seat) and the state is split into small frozen parts (:class:`Ballot`,
:class:`Stage`, :class:`Bank`, :class:`History`) so that ``apply`` stays cheap; views and events
use the enums. Players lock their card (``lock``); the votes are revealed when every living player
has locked or when the conspiracy timer runs out.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from operator import attrgetter
from typing import Any, cast

from game.rules.base import (
    JSON,
    BadSettings,
    GameEngine,
    GameOver,
    IllegalAction,
    MalformedAction,
    NotYourTurn,
    Seat,
    StaleState,
    TimerRequest,
    WireCodec,
    check_seat,
    counted,
    english_plural,
)
from game.rules.rng import Rng

POT_SIZE = 4  # C4 / C15 / C19: the centre is (re)filled to 4 bars
TOTAL_BARS = 80  # C2
MIN_SEATS, MAX_SEATS = 3, 12  # C5 (3–5 allowed with a notice), C1
PUBLISHED_MIN_SEATS = 6  # C5

NO_CARD = -1
AMBUSH_CARD = -2
OUT = -3  # not voting: dead or outside the round


# ------------------------------------------------------------------------------------------ enums
class Rule(enum.Enum):
    """Rule ids cited by events (``cause``)."""

    C9 = "C9"
    C10 = "C10"
    C13 = "C13"
    C14 = "C14"
    C15 = "C15"
    C17 = "C17"
    C18 = "C18"
    C20 = "C20"


class Phase(enum.Enum):
    VOTE = "vote"
    AMBUSH_CHOICE = "ambush_choice"
    SHOWDOWN = "showdown"
    GAME_OVER = "game_over"


class CardKind(enum.Enum):
    TARGET = "target"
    AMBUSH = "ambush"
    NONE = "none"
    OUT = "out"


class DeathKind(enum.Enum):
    TARGETED = "targeted"  # C10
    NOT_IN_MAJORITY = "not_in_majority"  # C9
    NO_VOTE = "no_vote"  # C9 (C7)
    AMBUSH_SUICIDE = "ambush_suicide"  # C9
    AMBUSHED = "ambushed"  # C10


DEATH_RULE: dict[DeathKind, Rule] = {
    DeathKind.TARGETED: Rule.C10,
    DeathKind.NOT_IN_MAJORITY: Rule.C9,
    DeathKind.NO_VOTE: Rule.C9,
    DeathKind.AMBUSH_SUICIDE: Rule.C9,
    DeathKind.AMBUSHED: Rule.C10,
}


class ShowdownChoice(enum.Enum):
    SPLIT = "split"
    STEAL = "steal"
    TAKE_ONE = "take_one"


class RoundOutcome(enum.Enum):
    TAKEN = "taken"  # C13
    STAYS = "stays"  # C14
    SHOWDOWN = "showdown"  # C15


class EndReason(enum.Enum):
    TARGET = "target"  # C17/C18
    DECK_EMPTY = "deck_empty"  # C20


class MissedVote(enum.Enum):
    """C7 [gap]: what a living player who put down nothing at the timer has played."""

    NOBODY = "nobody"  # default: voted for nobody, dies by C9
    RANDOM = "random"  # a random target card is played for them


class DryTie(enum.Enum):
    """C20 [gap]: how a tie for the highest total is broken when the gold runs out."""

    MORE_BARS_THEN_SHARED = "more_bars_then_shared"  # default
    SHARED = "shared"


# --------------------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class CollusionSettings:
    target_score: int = 24  # C17
    target_score_large: int = 24  # C17: target with `large_table_seats` or more players
    large_table_seats: int = 10  # C17
    gold_threes: int = 28  # C2 [gap]
    gold_fours: int = 32  # C2 [gap]
    gold_fives: int = 20  # C2 [gap]
    conspiracy_ms: int = 300_000  # C6
    ambush_choice_ms: int = 30_000  # C10: time an ambushing target has to choose
    showdown_ms: int = 60_000  # C15/C16
    reveal_when_all_locked: bool = True  # C7: reveal early once every living player locked
    missed_vote: MissedVote = MissedVote.NOBODY  # C7 [gap]
    ambush_victims_not_dying: bool = True  # C10 [gap]: candidates exclude voters already dying
    ambush_once_per_round: bool = False  # C12 [gap]
    showdown_default: ShowdownChoice = ShowdownChoice.TAKE_ONE  # C16 [gap]
    dry_tie: DryTie = DryTie.MORE_BARS_THEN_SHARED  # C20 [gap]

    def validate(self) -> None:
        counts = (self.gold_threes, self.gold_fours, self.gold_fives)
        if min(counts) < 0 or sum(counts) != TOTAL_BARS:
            raise BadSettings(f"the gold deck must be {TOTAL_BARS} bars of 3, 4 and 5 (C2); got {counts}")
        if not (1 <= self.target_score <= 400 and 1 <= self.target_score_large <= 400):
            raise BadSettings("target scores must be between 1 and 400 (C17)")
        if not MIN_SEATS <= self.large_table_seats <= MAX_SEATS + 1:
            raise BadSettings(f"large_table_seats must be {MIN_SEATS}..{MAX_SEATS + 1}")
        for name in ("conspiracy_ms", "ambush_choice_ms", "showdown_ms"):
            value = getattr(self, name)
            if not 1_000 <= value <= 3_600_000:
                raise BadSettings(f"{name} must be between 1 s and 1 h (in ms); got {value}")

    def target_for(self, n_seats: int) -> int:
        return self.target_score_large if n_seats >= self.large_table_seats else self.target_score


PRESETS: dict[str, CollusionSettings] = {
    "tabani": CollusionSettings(target_score=24, target_score_large=24, conspiracy_ms=300_000),
    "rod_ruang": CollusionSettings(target_score=25, target_score_large=24, conspiracy_ms=90_000),
}
DEFAULT_PRESET = "tabani"
EDITION_OF_LANGUAGE = {"fa": "tabani", "th": "rod_ruang"}  # the boxed edition sold in that language


# ---------------------------------------------------------------------------------------- actions
ACTIONS: WireCodec[Any] = WireCodec("action")


@ACTIONS.register("vote")
@dataclass(frozen=True, slots=True)
class Vote:
    """Put down (or change to) the target card naming ``target`` (C1, C7)."""

    target: int


@ACTIONS.register("ambush")
@dataclass(frozen=True, slots=True)
class Ambush:
    """Put down (or change to) the Ambush card (C7, C10)."""


@ACTIONS.register("lock")
@dataclass(frozen=True, slots=True)
class Lock:
    """Lock the card (or showdown pick) down; everyone locked reveals early."""


@ACTIONS.register("unlock")
@dataclass(frozen=True, slots=True)
class Unlock:
    """Unlock to change the card again before the reveal (C7)."""


@ACTIONS.register("ambush_pick")
@dataclass(frozen=True, slots=True)
class AmbushPick:
    """An ambushing target chooses which of their voters dies (C10)."""

    victim: int


@ACTIONS.register("showdown")
@dataclass(frozen=True, slots=True)
class ShowdownPick:
    """Pick Split, Steal or Take one in the Final Showdown (C15); changeable until the reveal."""

    choice: ShowdownChoice


@ACTIONS.register("timeout")
@dataclass(frozen=True, slots=True)
class Timeout:
    """The table's timer ``key`` ran out (applied by seat ``None``; C7, C10, C16)."""

    key: str


VOTES: tuple[Vote, ...] = tuple(Vote(s) for s in range(MAX_SEATS))


@lru_cache(maxsize=4096)
def _living_votes(alive: tuple[bool, ...]) -> tuple[tuple[int, Vote], ...]:
    """(seat, its target card) for every living seat; cached: few distinct alive patterns occur."""
    return tuple((t, VOTES[t]) for t, a in enumerate(alive) if a)
AMBUSH, LOCK, UNLOCK = Ambush(), Lock(), Unlock()
PICKS: tuple[AmbushPick, ...] = tuple(AmbushPick(s) for s in range(MAX_SEATS))
SHOWDOWN_PICKS: dict[ShowdownChoice, ShowdownPick] = {c: ShowdownPick(c) for c in ShowdownChoice}


# ----------------------------------------------------------------------------------------- events
EVENTS: WireCodec[Any] = WireCodec("event")
# the public news the TV tells with a beat (GameEngine.news_events): a reveal and its deaths, an
# Ambush's resolution, the Showdown's cards, a round's end
NEWS = frozenset({"reveal", "ambush_resolved", "showdown_reveal", "round_ended"})


@EVENTS.register("round_started")
@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    seats: tuple[int, ...]
    tie_break: bool
    pot: int
    deck: int
    refilled: int


@EVENTS.register("vote_started")
@dataclass(frozen=True, slots=True)
class VoteStarted:
    round: int
    vote: int
    alive: tuple[int, ...]


@EVENTS.register("vote_cast")
@dataclass(frozen=True, slots=True)
class VoteCast:
    seat: int


@EVENTS.register("locked")
@dataclass(frozen=True, slots=True)
class Locked:
    seat: int


@EVENTS.register("unlocked")
@dataclass(frozen=True, slots=True)
class Unlocked:
    seat: int


@EVENTS.register("reveal")
@dataclass(frozen=True, slots=True)
class Revealed:
    round: int
    vote: int
    cards: tuple[CardKind, ...]
    voted_for: tuple[int | None, ...]
    tally: tuple[int, ...]
    targets: tuple[int, ...]
    ambushers: tuple[int, ...]
    timed_out: bool


@EVENTS.register("ambush_needed")
@dataclass(frozen=True, slots=True)
class AmbushNeeded:
    seats: tuple[int, ...]
    candidates: tuple[tuple[int, ...], ...]


@EVENTS.register("ambush_chosen")
@dataclass(frozen=True, slots=True)
class AmbushChosen:
    seat: int


@EVENTS.register("ambush_resolved")
@dataclass(frozen=True, slots=True)
class AmbushResolved:
    by: int
    victim: int | None
    random: bool


@EVENTS.register("died")
@dataclass(frozen=True, slots=True)
class Died:
    seat: int
    cause: Rule
    kind: DeathKind
    by: int | None


@EVENTS.register("round_ended")
@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    outcome: RoundOutcome
    survivors: tuple[int, ...]


@EVENTS.register("pot_taken")
@dataclass(frozen=True, slots=True)
class PotTaken:
    seat: int
    bars: int
    cause: Rule = Rule.C13


@EVENTS.register("pot_stays")
@dataclass(frozen=True, slots=True)
class PotStays:
    bars: int
    cause: Rule = Rule.C14


@EVENTS.register("bar_drawn")
@dataclass(frozen=True, slots=True)
class BarDrawn:
    seat: int
    cause: Rule


@EVENTS.register("showdown_started")
@dataclass(frozen=True, slots=True)
class ShowdownStarted:
    round: int
    seats: tuple[int, ...]
    pot: int


@EVENTS.register("showdown_picked")
@dataclass(frozen=True, slots=True)
class ShowdownPicked:
    seat: int


@EVENTS.register("showdown_reveal")
@dataclass(frozen=True, slots=True)
class ShowdownRevealed:
    round: int
    seats: tuple[int, ...]
    choices: tuple[ShowdownChoice, ...]
    payout: tuple[int, ...]
    pot_left: int
    timed_out: tuple[bool, ...]


@EVENTS.register("tie_break")
@dataclass(frozen=True, slots=True)
class TieBreak:
    seats: tuple[int, ...]
    cause: Rule = Rule.C18


@EVENTS.register("game_over")
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    totals: tuple[int, ...]
    bars: tuple[int, ...]
    reason: EndReason
    cause: Rule


# events are immutable values: the hot path shares one instance per seat
VOTE_CAST: tuple[VoteCast, ...] = tuple(VoteCast(s) for s in range(MAX_SEATS))
LOCKED: tuple[Locked, ...] = tuple(Locked(s) for s in range(MAX_SEATS))
UNLOCKED: tuple[Unlocked, ...] = tuple(Unlocked(s) for s in range(MAX_SEATS))


# ------------------------------------------------------------------------------------------ state
@dataclass(frozen=True, slots=True)
class Reveal:
    """One vote's reveal and (once ``resolved``) its resolution; kept until the next reveal."""

    round: int
    vote: int
    cards: tuple[int, ...]  # per seat: OUT, NO_CARD, AMBUSH_CARD or the targeted seat
    tally: tuple[int, ...]
    targets: tuple[int, ...]
    ambushers: tuple[int, ...]
    timed_out: bool
    dying: tuple[tuple[int, DeathKind], ...]  # C9/C10 deaths before ambush picks
    pending: tuple[tuple[int, tuple[int, ...]], ...]  # (ambushing target, candidates) still to choose
    picks: tuple[tuple[int, int | None, bool], ...] = ()  # (by, victim, random), in seat order of `by`
    deaths: tuple[tuple[int, DeathKind, int | None], ...] = ()  # (seat, kind, by)
    resolved: bool = False


@dataclass(frozen=True, slots=True)
class Showdown:
    seats: tuple[int, int]
    choices: tuple[ShowdownChoice | None, ShowdownChoice | None] = (None, None)
    locked: tuple[bool, bool] = (False, False)


@dataclass(frozen=True, slots=True)
class ShowdownResult:
    round: int
    seats: tuple[int, int]
    choices: tuple[ShowdownChoice, ShowdownChoice]
    payout: tuple[int, int]
    pot_left: int
    timed_out: tuple[bool, bool]
    draws: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundEnd:
    round: int
    outcome: RoundOutcome
    survivors: tuple[int, ...]
    bars_taken: int
    draws: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Final:
    reason: EndReason
    cause: Rule


@dataclass(frozen=True, slots=True)
class Ballot:
    """The current vote's secret cards (the hot part of the state: every vote action changes it)."""

    cards: tuple[int, ...]  # per seat: OUT, NO_CARD, AMBUSH_CARD or the targeted seat
    locked: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Stage:
    """Where the game stands: phase, round, vote, who plays and lives, the pending reveal/showdown."""

    phase: Phase
    round: int
    vote: int
    in_round: tuple[bool, ...]
    alive: tuple[bool, ...]
    ambush_used: tuple[bool, ...]
    tie_break: tuple[int, ...] = ()
    reveal: Reveal | None = None
    showdown: Showdown | None = None


@dataclass(frozen=True, slots=True)
class Bank:
    """The gold: the seeded RNG, the face-down deck (drawn from the end), the pot, each seat's bars."""

    rng: Rng
    deck: tuple[int, ...]
    pot: tuple[int, ...]
    gold: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class History:
    last_showdown: ShowdownResult | None = None
    last_round_end: RoundEnd | None = None
    winners: tuple[int, ...] = ()
    final: Final | None = None


@dataclass(frozen=True, slots=True)
class State:
    """The whole game, immutable. Split into small parts so that ``apply`` rebuilds only what an
    action changes; read any field directly (``state.alive``, ``state.gold`` …) through the
    properties, and derive a changed state with :func:`evolve`."""

    settings: CollusionSettings
    n: int
    ballot: Ballot
    stage: Stage
    bank: Bank
    history: History

    cards = property(attrgetter("ballot.cards"))
    locked = property(attrgetter("ballot.locked"))
    phase = property(attrgetter("stage.phase"))
    round = property(attrgetter("stage.round"))
    vote = property(attrgetter("stage.vote"))
    in_round = property(attrgetter("stage.in_round"))
    alive = property(attrgetter("stage.alive"))
    ambush_used = property(attrgetter("stage.ambush_used"))
    tie_break = property(attrgetter("stage.tie_break"))
    reveal = property(attrgetter("stage.reveal"))
    showdown = property(attrgetter("stage.showdown"))
    rng = property(attrgetter("bank.rng"))
    deck = property(attrgetter("bank.deck"))
    pot = property(attrgetter("bank.pot"))
    gold = property(attrgetter("bank.gold"))
    last_showdown = property(attrgetter("history.last_showdown"))
    last_round_end = property(attrgetter("history.last_round_end"))
    winners = property(attrgetter("history.winners"))
    final = property(attrgetter("history.final"))

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(g) for g in self.bank.gold)


_PARTS: dict[str, type] = {"ballot": Ballot, "stage": Stage, "bank": Bank, "history": History}
_PART_OF: dict[str, str] = {f.name: part for part, cls in _PARTS.items() for f in fields(cls)}
_PART_FIELDS: dict[str, tuple[str, ...]] = {part: tuple(f.name for f in fields(cls)) for part, cls in _PARTS.items()}


def _rebuild(obj: Any, names: tuple[str, ...], changes: Mapping[str, Any]) -> Any:
    """``dataclasses.replace`` without its per-call introspection (the reveal path is hot)."""
    return type(obj)(*[changes[n] if n in changes else getattr(obj, n) for n in names])


def evolve(state: State, **changes: Any) -> State:
    """A copy of ``state`` with the named fields (of any part) changed."""
    grouped: dict[str, dict[str, Any]] = {}
    for name, value in changes.items():
        part = _PART_OF.get(name)
        if part is None:
            if name not in ("settings", "n"):
                raise TypeError(f"State has no field {name!r}")
            part = ""
        grouped.setdefault(part, {})[name] = value
    top = grouped.get("", {})
    return State(
        top.get("settings", state.settings), top.get("n", state.n),
        *[_rebuild(getattr(state, part), _PART_FIELDS[part], grouped[part]) if part in grouped
          else getattr(state, part) for part in _PARTS],
    )


def _with_ballot(state: State, cards: tuple[int, ...], locked: tuple[bool, ...]) -> State:
    """The hot path: only the ballot changes."""
    return State(state.settings, state.n, Ballot(cards, locked), state.stage, state.bank, state.history)


Events = list[Any]


def _set(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def _draw(deck: tuple[int, ...], gold: tuple[tuple[int, ...], ...], seats: list[int], cause: Rule,
          events: Events) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Each seat in order draws one bar from the deck while it lasts (C14, C15 ★)."""
    drawn: list[int] = []
    for seat in seats:
        if not deck:
            break
        gold = _set(gold, seat, gold[seat] + (deck[-1],))
        deck = deck[:-1]
        drawn.append(seat)
        events.append(BarDrawn(seat, cause))
    return deck, gold, tuple(drawn)


# ------------------------------------------------------------------------------- rounds and votes
def start_round(state: State, participants: tuple[int, ...], events: Events) -> State:
    """C19: every ID stands up, the pot is refilled to 4 (C4; C20 when the deck runs short); only
    ``participants`` play (all seats, or the tied ones of a C18 tie-break round)."""
    need = max(0, POT_SIZE - len(state.pot))
    refill = state.deck[max(0, len(state.deck) - need) :] if need else ()  # C20: a short deck gives all it has
    deck = state.deck[: len(state.deck) - len(refill)]
    pot = state.pot + refill
    if not pot:
        return _end_game_dry(evolve(state, deck=deck, pot=pot), events)
    n = state.n
    member = tuple(s in participants for s in range(n))
    tie_break = participants if len(participants) < n else ()
    state = evolve(
        state, deck=deck, pot=pot, phase=Phase.VOTE, round=state.round + 1, vote=1, in_round=member,
        alive=member, cards=tuple(NO_CARD if m else OUT for m in member), locked=(False,) * n,
        ambush_used=(False,) * n, tie_break=tie_break, showdown=None,
    )
    events.append(RoundStarted(state.round, participants, bool(tie_break), len(pot), len(deck), len(refill)))
    if len(participants) <= 2:  # a tie-break between two: straight to the Final Showdown
        return _start_showdown(state, participants, events)
    events.append(VoteStarted(state.round, 1, participants))
    return state


def _reveal(state: State, timed_out: bool, events: Events) -> State:
    """C7 reveal, C8 targets, C9/C10 who dies; ambushing targets may have to choose first."""
    n, stage, settings = state.n, state.stage, state.settings
    alive = stage.alive
    cards = list(state.ballot.cards)
    rng = state.bank.rng
    if settings.missed_vote is MissedVote.RANDOM:
        for s in range(n):
            if alive[s] and cards[s] == NO_CARD:
                cards[s], rng = rng.choice([t for t in range(n) if alive[t] and t != s])
    tally = [0] * n
    for c in cards:
        if c >= 0:
            tally[c] += 1
    top = max(tally)
    targets = tuple(s for s in range(n) if tally[s] == top) if top else ()
    ambushers = tuple(s for s in range(n) if cards[s] == AMBUSH_CARD)
    dying = _dying(cards, alive, targets)
    pending, picks = _ambush_candidates(cards, targets, dying, settings.ambush_victims_not_dying)
    card_tuple = tuple(cards)
    reveal = Reveal(stage.round, stage.vote, card_tuple, tuple(tally), targets, ambushers, timed_out,
                    dying, pending, picks)
    events.append(_reveal_event(reveal))
    changes: dict[str, Any] = {}
    if rng is not state.bank.rng:
        changes["rng"] = rng
    if settings.ambush_once_per_round and ambushers:
        changes["ambush_used"] = tuple(u or s in ambushers for s, u in enumerate(stage.ambush_used))
    if pending:
        events.append(AmbushNeeded(tuple(t for t, _ in pending), tuple(c for _, c in pending)))
        return evolve(state, phase=Phase.AMBUSH_CHOICE, reveal=reveal, cards=card_tuple, **changes)
    return _resolve(evolve(state, **changes) if changes else state, reveal, events)


def _dying(cards: list[int], alive: tuple[bool, ...], targets: tuple[int, ...]) -> tuple[tuple[int, DeathKind], ...]:
    """C9 and C10 deaths of one reveal, before any ambush choice."""
    out = []
    for seat, card in enumerate(cards):
        if not alive[seat]:
            continue
        if card == AMBUSH_CARD:
            if seat not in targets:
                out.append((seat, DeathKind.AMBUSH_SUICIDE))  # C9
        elif seat in targets:
            out.append((seat, DeathKind.TARGETED))  # C10, whatever it voted
        elif card == NO_CARD:
            out.append((seat, DeathKind.NO_VOTE))  # C9 / C7
        elif card not in targets:
            out.append((seat, DeathKind.NOT_IN_MAJORITY))  # C9
    return tuple(out)


def _ambush_candidates(cards: list[int], targets: tuple[int, ...], dying: tuple[tuple[int, DeathKind], ...],
                       exclude_dying: bool) -> tuple[tuple[tuple[int, tuple[int, ...]], ...],
                                                     tuple[tuple[int, int | None, bool], ...]]:
    """C10: for each ambushing target, the voters it may choose (or an empty pick when none)."""
    pending: list[tuple[int, tuple[int, ...]]] = []
    picks: list[tuple[int, int | None, bool]] = []
    dying_seats = {s for s, _ in dying} if exclude_dying else set()
    for t in targets:
        if cards[t] != AMBUSH_CARD:
            continue
        candidates = tuple(v for v, c in enumerate(cards) if c == t and v not in dying_seats)
        if candidates:
            pending.append((t, candidates))
        else:
            picks.append((t, None, False))
    return tuple(pending), tuple(picks)


_CARD_KINDS = {NO_CARD: CardKind.NONE, AMBUSH_CARD: CardKind.AMBUSH, OUT: CardKind.OUT}


def _reveal_event(r: Reveal) -> Revealed:
    kinds, voted_for = _CARD_KINDS, [None if c < 0 else c for c in r.cards]
    return Revealed(
        r.round, r.vote, tuple([CardKind.TARGET if c >= 0 else kinds[c] for c in r.cards]),
        tuple(voted_for), r.tally, r.targets, r.ambushers, r.timed_out,
    )


def _card_kind(card: int) -> CardKind:
    return CardKind.TARGET if card >= 0 else _CARD_KINDS[card]


def _resolve(state: State, r: Reveal, events: Events) -> State:
    """C10/C11: ambush picks take effect, then every death of this vote happens at once; the
    round goes on with the next vote (C6) or ends (C13–C15)."""
    picks = tuple(sorted(r.picks))
    deaths: dict[int, tuple[DeathKind, int | None]] = {s: (k, None) for s, k in r.dying}
    for ambusher, victim, randomly in picks:
        events.append(AmbushResolved(ambusher, victim, randomly))
        if victim is not None and victim not in deaths:
            deaths[victim] = (DeathKind.AMBUSHED, ambusher)
    ordered = tuple((s, k, by) for s, (k, by) in sorted(deaths.items()))
    alive = list(state.stage.alive)
    targeted, ambushed, c9, c10 = DeathKind.TARGETED, DeathKind.AMBUSHED, Rule.C9, Rule.C10
    for dead, kind, by in ordered:
        alive[dead] = False
        # DEATH_RULE by identity: enum hashing is slow and this runs for every death
        events.append(Died(dead, c10 if kind is targeted or kind is ambushed else c9, kind, by))
    reveal = Reveal(r.round, r.vote, r.cards, r.tally, r.targets, r.ambushers, r.timed_out, r.dying,
                    (), picks, ordered, True)
    alive_t = tuple(alive)
    survivors = tuple(s for s in range(state.n) if alive[s])
    if len(survivors) <= 2:
        return _end_round(evolve(state, alive=alive_t, reveal=reveal), survivors, events)
    st = state.stage
    vote = st.vote + 1
    events.append(VoteStarted(st.round, vote, survivors))
    stage = Stage(Phase.VOTE, st.round, vote, st.in_round, alive_t, st.ambush_used, st.tie_break, reveal, None)
    ballot = Ballot(tuple(NO_CARD if a else OUT for a in alive), (False,) * state.n)
    return State(state.settings, state.n, ballot, stage, state.bank, state.history)


def _end_round(state: State, survivors: tuple[int, ...], events: Events) -> State:
    """C13 (one survivor), C14 (none), C15 (two: the Final Showdown)."""
    events.append(RoundEnded(state.round, _OUTCOMES[len(survivors)], survivors))
    if len(survivors) == 2:
        end = RoundEnd(state.round, RoundOutcome.SHOWDOWN, survivors, 0, ())
        return _start_showdown(evolve(state, last_round_end=end), survivors, events)
    if len(survivors) == 1:
        (winner,) = survivors
        events.append(PotTaken(winner, len(state.pot)))
        gold = _set(state.gold, winner, state.gold[winner] + state.pot)
        end = RoundEnd(state.round, RoundOutcome.TAKEN, survivors, len(state.pot), ())
        return _after_round(evolve(state, gold=gold, pot=(), last_round_end=end), events)
    events.append(PotStays(len(state.pot)))
    reveal = state.reveal
    before = [s for s in range(state.n) if state.in_round[s] and (reveal is None or reveal.cards[s] == OUT)]
    deck, gold, drawn = _draw(state.deck, state.gold, before, Rule.C14, events)
    end = RoundEnd(state.round, RoundOutcome.STAYS, (), 0, drawn)
    return _after_round(evolve(state, deck=deck, gold=gold, last_round_end=end), events)


_OUTCOMES = {0: RoundOutcome.STAYS, 1: RoundOutcome.TAKEN, 2: RoundOutcome.SHOWDOWN}


# -------------------------------------------------------------------------------------- showdown
def _start_showdown(state: State, seats: tuple[int, ...], events: Events) -> State:
    a, b = seats
    events.append(ShowdownStarted(state.round, (a, b), len(state.pot)))
    return evolve(state, phase=Phase.SHOWDOWN, showdown=Showdown((a, b)),
                   cards=(OUT,) * state.n, locked=(False,) * state.n)


def showdown_payout(a: ShowdownChoice, b: ShowdownChoice, pot: int) -> tuple[int, int]:
    """C15: bars to A and B. The table is for a pot of 4; with a smaller pot (only possible once
    the deck runs dry, C20) the same shares are capped by what is there: Split halves (the odd bar
    stays), Steal takes all, Take one takes 1 and the other non-Take side gets the rest, Take + Take
    takes 1 each only if there are 2."""
    split, steal, take = ShowdownChoice.SPLIT, ShowdownChoice.STEAL, ShowdownChoice.TAKE_ONE
    if a is take and b is take:
        return (1, 1) if pot >= 2 else (0, 0)
    if a is take or b is take:
        one = min(1, pot)
        return (one, pot - one) if a is take else (pot - one, one)
    if a is split and b is split:
        return pot // 2, pot // 2
    if a is steal and b is steal:
        return 0, 0
    return (pot, 0) if a is steal else (0, pot)


def _reveal_showdown(state: State, events: Events) -> State:
    sd = state.showdown
    assert sd is not None
    default = state.settings.showdown_default
    timed_out = (sd.choices[0] is None, sd.choices[1] is None)
    choices = (sd.choices[0] or default, sd.choices[1] or default)  # C16
    payout = showdown_payout(choices[0], choices[1], len(state.pot))
    pot, gold = state.pot, state.gold
    for seat, bars in zip(sd.seats, payout):
        gold = _set(gold, seat, gold[seat] + pot[:bars])
        pot = pot[bars:]
    events.append(ShowdownRevealed(state.round, sd.seats, choices, payout, len(pot), timed_out))
    deck, drawn = state.deck, cast(tuple[int, ...], ())
    if choices == (ShowdownChoice.STEAL, ShowdownChoice.STEAL):  # C15 ★
        others = [s for s in range(state.n) if state.in_round[s] and s not in sd.seats]
        deck, gold, drawn = _draw(deck, gold, others, Rule.C15, events)
    result = ShowdownResult(state.round, sd.seats, choices, payout, len(pot), timed_out, drawn)
    state = evolve(state, pot=pot, gold=gold, deck=deck, showdown=None, last_showdown=result)
    return _after_round(state, events)


# ------------------------------------------------------------------------------------ end of game
def _after_round(state: State, events: Events) -> State:
    """C17: totals are checked; C18: one winner or a tie-break round; C19: else the next round."""
    top = target_leaders(dict(enumerate(state.totals)), state.settings.target_for(state.n))
    if not top:
        return start_round(state, tuple(range(state.n)), events)
    if len(top) == 1:
        return _game_over(state, top, EndReason.TARGET, Rule.C18, events)
    events.append(TieBreak(top))
    return start_round(state, top, events)


def target_leaders(totals: Mapping[int, int], target: int) -> tuple[int, ...]:
    """C17/C18: the seats with the highest total among those that reached ``target`` (seat order);
    empty when nobody did. One seat wins; several play a tie-break round. ``totals`` maps the
    seats being checked to their totals (the companion's physical gold checks only some)."""
    reached = [t for t in totals.values() if t >= target]
    if not reached:
        return ()
    best = max(reached)
    return tuple(sorted(s for s, t in totals.items() if t == best))


def dry_winners(totals: Mapping[int, int], bars: Mapping[int, int], dry_tie: DryTie) -> tuple[int, ...]:
    """C20: deck and pot both empty: the highest total wins (ties: more bars, then shared)."""
    best = max(totals.values())
    top = [s for s, t in totals.items() if t == best]
    if dry_tie is DryTie.MORE_BARS_THEN_SHARED:
        most = max(bars[s] for s in top)
        top = [s for s in top if bars[s] == most]
    return tuple(sorted(top))


def _end_game_dry(state: State, events: Events) -> State:
    """C20: deck and pot both empty: the highest total wins (ties: more bars, then shared)."""
    winners = dry_winners(dict(enumerate(state.totals)), {s: len(g) for s, g in enumerate(state.gold)},
                          state.settings.dry_tie)
    return _game_over(state, winners, EndReason.DECK_EMPTY, Rule.C20, events)


def _game_over(state: State, winners: tuple[int, ...], reason: EndReason, cause: Rule,
               events: Events) -> State:
    events.append(GameEnded(winners, state.totals, tuple(len(g) for g in state.gold), reason, cause))
    return evolve(state, phase=Phase.GAME_OVER, winners=winners, final=Final(reason, cause),
                   showdown=None, locked=(False,) * state.n)


# -------------------------------------------------------------------------------------- handlers
def _need_phase(state: State, phase: Phase, what: str) -> None:
    if state.phase is not phase:
        raise IllegalAction(f"{what} is not possible now (phase {state.phase.value})")


def _need_player(seat: Seat | None) -> int:
    if seat is None:
        raise NotYourTurn("the table itself only sends timeouts")
    return seat


def _put_card(state: State, seat: int, card: int) -> tuple[State, Events]:
    ballot = state.ballot
    if ballot.cards[seat] == card:
        raise IllegalAction("that card is already down")
    events: Events = [VOTE_CAST[seat]]
    locked = ballot.locked
    if locked[seat]:
        events.append(UNLOCKED[seat])
        locked = _set(locked, seat, False)
    return _with_ballot(state, _set(ballot.cards, seat, card), locked), events


def _need_voter(state: State, seat: Seat | None, what: str) -> int:
    if seat is None:
        raise NotYourTurn("the table itself only sends timeouts")
    stage = state.stage
    if stage.phase is not Phase.VOTE:
        raise IllegalAction(f"{what} is not possible now (phase {stage.phase.value})")
    if not stage.alive[seat]:
        raise NotYourTurn("only living players of this round vote (C11)")
    return seat


def _on_vote(state: State, seat: Seat | None, action: Vote) -> tuple[State, Events]:
    s = _need_voter(state, seat, "voting")
    t = action.target
    if type(t) is not int or not 0 <= t < state.n:
        raise IllegalAction(f"there is no seat {t!r} to vote for")
    if t == s:
        raise IllegalAction("nobody holds a card of their own colour (C1)")
    if not state.stage.alive[t]:
        raise IllegalAction("a target card must name a living player of this round (C7)")
    return _put_card(state, s, t)


def _on_ambush(state: State, seat: Seat | None, action: Ambush) -> tuple[State, Events]:
    s = _need_voter(state, seat, "the Ambush card")
    if state.ambush_used[s]:
        raise IllegalAction("the Ambush card was already used this round (C12 option)")
    return _put_card(state, s, AMBUSH_CARD)


def _on_lock(state: State, seat: Seat | None, action: Lock) -> tuple[State, Events]:
    s = _need_player(seat)
    if state.phase is Phase.SHOWDOWN:
        return _lock_showdown(state, s, True)
    _need_voter(state, s, "locking")
    ballot = state.ballot
    if ballot.cards[s] == NO_CARD:
        raise IllegalAction("put a card down before locking it")
    if ballot.locked[s]:
        raise IllegalAction("already locked")
    locked = _set(ballot.locked, s, True)
    state = _with_ballot(state, ballot.cards, locked)
    events: Events = [LOCKED[s]]
    # only living players can lock, so everyone is locked when the counts match
    if state.settings.reveal_when_all_locked and locked.count(True) == state.stage.alive.count(True):
        state = _reveal(state, False, events)
    return state, events


def _on_unlock(state: State, seat: Seat | None, action: Unlock) -> tuple[State, Events]:
    s = _need_player(seat)
    if state.phase is Phase.SHOWDOWN:
        return _lock_showdown(state, s, False)
    _need_voter(state, s, "unlocking")
    if not state.locked[s]:
        raise IllegalAction("not locked")
    return _with_ballot(state, state.cards, _set(state.locked, s, False)), [UNLOCKED[s]]


def _showdown_index(state: State, seat: int) -> int:
    sd = state.showdown
    if sd is None or seat not in sd.seats:
        raise NotYourTurn("only the two survivors play the Final Showdown (C15)")
    return sd.seats.index(seat)


def _lock_showdown(state: State, seat: int, lock: bool) -> tuple[State, Events]:
    i = _showdown_index(state, seat)
    sd = state.showdown
    assert sd is not None
    if lock and sd.choices[i] is None:
        raise IllegalAction("pick a card before locking it")
    if sd.locked[i] == lock:
        raise IllegalAction("already locked" if lock else "not locked")
    sd = replace(sd, locked=_set(sd.locked, i, lock))
    state = evolve(state, showdown=sd)
    events: Events = [Locked(seat) if lock else Unlocked(seat)]
    if lock and all(sd.locked) and state.settings.reveal_when_all_locked:
        state = _reveal_showdown(state, events)
    return state, events


def _on_showdown(state: State, seat: Seat | None, action: ShowdownPick) -> tuple[State, Events]:
    s = _need_player(seat)
    _need_phase(state, Phase.SHOWDOWN, "a showdown pick")
    if not isinstance(action.choice, ShowdownChoice):
        raise MalformedAction("choice must be split, steal or take_one")
    i = _showdown_index(state, s)
    sd = state.showdown
    assert sd is not None
    if sd.choices[i] is action.choice:
        raise IllegalAction("that card is already picked")
    events: Events = [ShowdownPicked(s)]
    if sd.locked[i]:
        events.append(Unlocked(s))
    sd = replace(sd, choices=_set(sd.choices, i, action.choice), locked=_set(sd.locked, i, False))
    return evolve(state, showdown=sd), events


def _on_pick(state: State, seat: Seat | None, action: AmbushPick) -> tuple[State, Events]:
    s = _need_player(seat)
    _need_phase(state, Phase.AMBUSH_CHOICE, "an ambush pick")
    reveal = state.reveal
    assert reveal is not None
    pending = dict(reveal.pending)
    if s not in pending:
        raise NotYourTurn("only an ambushing target with voters to choose from picks (C10)")
    if type(action.victim) is not int or action.victim not in pending[s]:
        raise IllegalAction(f"choose one of the players who voted for you: {list(pending[s])} (C10)")
    return _record_picks(state, {s: (action.victim, False)}, [AmbushChosen(s)])


def _record_picks(state: State, chosen: Mapping[int, tuple[int, bool]],
                  events: Events) -> tuple[State, Events]:
    reveal = state.reveal
    assert reveal is not None
    picks = reveal.picks + tuple((by, v, r) for by, (v, r) in chosen.items())
    pending = tuple(p for p in reveal.pending if p[0] not in chosen)
    reveal = replace(reveal, picks=picks, pending=pending)
    if pending:
        return evolve(state, reveal=reveal), events
    return _resolve(state, reveal, events), events


def _on_timeout(state: State, seat: Seat | None, action: Timeout) -> tuple[State, Events]:
    if seat is not None:
        raise NotYourTurn("only the table sends timeouts")
    current = _timer_key(state)
    if current is None or action.key != current:
        raise StaleState(f"timer {action.key!r} is not running (current: {current!r})")
    events: Events = []
    if state.phase is Phase.VOTE:
        return _reveal(state, True, events), events
    if state.phase is Phase.SHOWDOWN:
        return _reveal_showdown(state, events), events
    reveal = state.reveal
    assert reveal is not None
    rng, chosen = state.rng, {}
    for by, candidates in reveal.pending:  # C10: a timed-out phone chooses at random
        victim, rng = rng.choice(candidates)
        chosen[by] = (victim, True)
    return _record_picks(evolve(state, rng=rng), chosen, events)


_HANDLERS: dict[type, Callable[[State, Seat | None, Any], tuple[State, Events]]] = {
    Vote: _on_vote,
    Ambush: _on_ambush,
    Lock: _on_lock,
    Unlock: _on_unlock,
    AmbushPick: _on_pick,
    ShowdownPick: _on_showdown,
    Timeout: _on_timeout,
}


def _timer_key(state: State) -> str | None:
    if state.phase is Phase.VOTE:
        return f"vote:{state.round}:{state.vote}"
    if state.phase is Phase.AMBUSH_CHOICE:
        return f"ambush:{state.round}:{state.vote}"
    if state.phase is Phase.SHOWDOWN:
        return f"showdown:{state.round}"
    return None


# ------------------------------------------------------------------------------------------ views
def _reveal_view(r: Reveal | None) -> dict[str, JSON] | None:
    if r is None:
        return None
    return {
        "round": r.round, "vote": r.vote,
        "cards": [_card_kind(c).value for c in r.cards],
        "voted_for": [c if c >= 0 else None for c in r.cards],
        "tally": list(r.tally), "targets": list(r.targets), "ambushers": list(r.ambushers),
        "ambush_picks": [{"by": b, "victim": v, "random": rnd} for b, v, rnd in r.picks] if r.resolved else [],
        "deaths": [{"seat": s, "cause": DEATH_RULE[k].value, "kind": k.value, "by": by} for s, k, by in r.deaths],
        "resolved": r.resolved,
    }


def _showdown_view(state: State) -> dict[str, JSON] | None:
    sd = state.showdown
    if sd is None:
        return None
    return {"seats": list(sd.seats), "picked": [c is not None for c in sd.choices],
            "locked": list(sd.locked), "pot": len(state.pot)}


def _last_showdown_view(r: ShowdownResult | None) -> dict[str, JSON] | None:
    if r is None:
        return None
    return {"round": r.round, "seats": list(r.seats), "choices": [c.value for c in r.choices],
            "payout": list(r.payout), "pot_left": r.pot_left, "timed_out": list(r.timed_out),
            "draws": list(r.draws)}


def _round_end_view(r: RoundEnd | None) -> dict[str, JSON] | None:
    if r is None:
        return None
    return {"round": r.round, "outcome": r.outcome.value, "survivors": list(r.survivors),
            "bars_taken": r.bars_taken, "draws": list(r.draws)}


def _seat_views(state: State) -> list[dict[str, JSON]]:
    voting = state.phase is Phase.VOTE
    sd = state.showdown
    out = []
    for s in range(state.n):
        down, locked = False, False
        if voting:
            down, locked = state.cards[s] not in (NO_CARD, OUT), state.locked[s]
        elif sd is not None and s in sd.seats:
            i = sd.seats.index(s)
            down, locked = sd.choices[i] is not None, sd.locked[i]
        out.append({"seat": s, "in_round": state.in_round[s], "alive": state.alive[s],
                    "bars": len(state.gold[s]), "card_down": down, "locked": locked,
                    "ambush_used": state.ambush_used[s]})
    return out


def public_view(state: State) -> dict[str, JSON]:
    over = state.phase is Phase.GAME_OVER
    reveal = state.reveal
    pending = [t for t, _ in reveal.pending] if reveal is not None and state.phase is Phase.AMBUSH_CHOICE else []
    final = state.final
    return {
        "game": "collusion",
        "phase": state.phase.value,
        "round": state.round,
        "vote": state.vote,
        "target_score": state.settings.target_for(state.n),
        "small_table": state.n < PUBLISHED_MIN_SEATS,
        "pot": len(state.pot),
        "deck": len(state.deck),
        "seats": _seat_views(state),
        "tie_break": list(state.tie_break),
        "ambush_pending": pending,
        "showdown": _showdown_view(state),
        "last_reveal": _reveal_view(reveal),
        "last_showdown": _last_showdown_view(state.last_showdown),
        "last_round_end": _round_end_view(state.last_round_end),
        "winners": list(state.winners),
        "final": None if not over or final is None else {
            "reason": final.reason.value, "cause": final.cause.value,
            "totals": list(state.totals), "bars": [len(g) for g in state.gold],
        },
    }


def _own_card(state: State, seat: int) -> dict[str, JSON] | None:
    card = state.cards[seat] if state.phase is Phase.VOTE else NO_CARD
    if card == AMBUSH_CARD:
        return {"card": CardKind.AMBUSH.value, "target": None}
    return {"card": CardKind.TARGET.value, "target": card} if card >= 0 else None


def _own_showdown(state: State, seat: int) -> tuple[str | None, bool]:
    """(own showdown pick, own lock) — (None, False) outside the showdown."""
    sd = state.showdown
    if sd is None or seat not in sd.seats:
        return None, False
    i = sd.seats.index(seat)
    picked = sd.choices[i]
    return (picked.value if picked is not None else None), sd.locked[i]


def _ambush_prompt(state: State, seat: int) -> dict[str, JSON] | None:
    if state.phase is not Phase.AMBUSH_CHOICE or state.reveal is None:
        return None
    candidates = dict(state.reveal.pending).get(seat)
    return {"candidates": list(candidates)} if candidates else None


def private_view(state: State, seat: int) -> dict[str, JSON]:
    """The public view plus ``me``: only this seat's own secrets (game/games/collusion/views.md)."""
    return {**public_view(state), **own_view(state, seat)}


def own_view(state: State, seat: int) -> dict[str, JSON]:
    """What a seat's view adds to the public one: ``me``."""
    choice, showdown_locked = _own_showdown(state, seat)
    voting = state.phase is Phase.VOTE and state.alive[seat]
    return {"me": {
        "seat": seat,
        "gold": sorted(state.gold[seat]),
        "total": sum(state.gold[seat]),
        "card": _own_card(state, seat),
        "locked": state.locked[seat] if state.phase is Phase.VOTE else showdown_locked,
        "can_ambush": not state.ambush_used[seat],
        "vote_options": [t for t in range(state.n) if voting and state.alive[t] and t != seat],
        "showdown_choice": choice,
        "ambush_prompt": _ambush_prompt(state, seat),
    }}


def new_game_with_bars(settings: CollusionSettings, n_seats: int, seed: int, bars: tuple[int, ...]) -> State:
    """C4 with the given bar values: shuffled by the seed, 4 to the centre; round 1 starts. The
    companion's physical gold passes bars of unknown value (0): it moves bars by count only."""
    deck, rng = Rng.from_seed(seed).shuffled(bars)
    n = n_seats
    everyone = (True,) * n
    state = State(
        settings, n, Ballot((NO_CARD,) * n, (False,) * n),
        Stage(Phase.VOTE, 0, 0, everyone, everyone, (False,) * n), Bank(rng, deck, (), ((),) * n), History(),
    )
    return start_round(state, tuple(range(n)), [])


# ----------------------------------------------------------------------------------------- engine
class CollusionEngine(GameEngine[State]):
    news_events = NEWS
    name = "collusion"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    actions = ACTIONS
    events = EVENTS

    settings_presets = PRESETS
    fallback_preset = DEFAULT_PRESET

    def default_preset(self, language: str) -> str | None:
        return EDITION_OF_LANGUAGE.get(language, DEFAULT_PRESET)

    def new_game(self, settings: CollusionSettings, n_seats: int, seed: int) -> State:
        """C4: shuffle the 80 bars with the seeded RNG, deal 4 to the centre; round 1 starts."""
        if not isinstance(settings, CollusionSettings):
            raise BadSettings("collusion needs CollusionSettings")
        settings.validate()
        if not isinstance(n_seats, int) or not MIN_SEATS <= n_seats <= MAX_SEATS:
            raise BadSettings(f"collusion is played by {MIN_SEATS}–{MAX_SEATS} players (C1, C5)")
        bars = (3,) * settings.gold_threes + (4,) * settings.gold_fours + (5,) * settings.gold_fives
        return new_game_with_bars(settings, n_seats, seed, bars)

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        """Cards first (targets in seat order, Ambush / showdown picks / ambush victims), then
        ``Lock`` or ``Unlock`` last when one applies. The table (``None``) acts only by timers."""
        if not (type(seat) is int and 0 <= seat < state.n):
            check_seat(seat, state.n)
            return []  # seat None: check_seat passed it
        phase = state.stage.phase
        if phase is Phase.VOTE:
            return self._legal_vote(state, seat)
        if phase is Phase.SHOWDOWN:
            return self._legal_showdown(state, seat)
        if phase is Phase.AMBUSH_CHOICE and state.reveal is not None:
            for by, candidates in state.reveal.pending:
                if by == seat:
                    return [PICKS[v] for v in candidates]
        return []

    @staticmethod
    def _legal_vote(state: State, seat: int) -> list[Any]:
        stage, ballot = state.stage, state.ballot
        alive = stage.alive
        if not alive[seat]:
            return []
        card = ballot.cards[seat]
        out: list[Any] = [v for t, v in _living_votes(alive) if t != seat and t != card]
        if card != AMBUSH_CARD and not stage.ambush_used[seat]:
            out.append(AMBUSH)
        if ballot.locked[seat]:
            out.append(UNLOCK)
        elif card != NO_CARD:
            out.append(LOCK)
        return out

    @staticmethod
    def _legal_showdown(state: State, seat: int) -> list[Any]:
        sd = state.showdown
        if sd is None or seat not in sd.seats:
            return []
        i = sd.seats.index(seat)
        out: list[Any] = [p for c, p in SHOWDOWN_PICKS.items() if c is not sd.choices[i]]
        if sd.locked[i]:
            out.append(UNLOCK)
        elif sd.choices[i] is not None:
            out.append(LOCK)
        return out

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, list[Any]]:
        if not (type(seat) is int and 0 <= seat < state.n):  # the common case, checked cheaply
            check_seat(seat, state.n)
        if state.stage.phase is Phase.GAME_OVER:
            raise GameOver("the game is over")
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise MalformedAction(f"not a collusion action: {action!r}")
        return handler(state, seat, action)

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return public_view(state) if seat is None else private_view(state, seat)

    def own_view(self, state: State, seat: Seat) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return own_view(state, seat)

    def is_over(self, state: State) -> bool:
        return state.stage.phase is Phase.GAME_OVER

    def timer(self, state: State) -> TimerRequest | None:
        key = _timer_key(state)
        if key is None:
            return None
        s = state.settings
        duration, label = {
            Phase.VOTE: (s.conspiracy_ms, "conspiracy"),
            Phase.AMBUSH_CHOICE: (s.ambush_choice_ms, "ambush_choice"),
            Phase.SHOWDOWN: (s.showdown_ms, "showdown"),
        }[state.phase]
        return TimerRequest(key, duration, Timeout(key), label)

    def seats_to_act(self, state: State) -> tuple[Seat, ...]:
        if state.phase is Phase.VOTE:
            return tuple(s for s in range(state.n) if state.alive[s])
        if state.phase is Phase.SHOWDOWN and state.showdown is not None:
            return state.showdown.seats
        if state.phase is Phase.AMBUSH_CHOICE and state.reveal is not None:
            return tuple(by for by, _ in state.reveal.pending)
        return ()

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        """One plain-English sentence for a wire event (used by ``tabletop replay``)."""
        return describe_event(event, name)


# ------------------------------------------------------------------------------ plain-English log
_KIND_WORDS = {
    "targeted": "was a target and did not ambush",
    "not_in_majority": "voted for someone who was not a target",
    "no_vote": "put no card down",
    "ambush_suicide": "played Ambush without being a target",
    "ambushed": "was chosen by the ambushing target",
}


def _names(seats: Any, name: Callable[[int], str]) -> str:
    items = [name(s) for s in seats]
    if not items:
        return "nobody"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _describe_reveal(e: Mapping[str, Any], name: Callable[[int], str]) -> str:
    parts = []
    for seat, (card, target) in enumerate(zip(e["cards"], e["voted_for"])):
        if card == "target":
            parts.append(f"{name(seat)} → {name(target)}")
        elif card in ("ambush", "none"):
            parts.append(f"{name(seat)}: {'Ambush' if card == 'ambush' else 'no card'}")
    late = " (timer ran out)" if e["timed_out"] else ""
    return (f"Reveal of vote {e['vote']}{late}: " + "; ".join(parts)
            + f". Targets: {_names(e['targets'], name)} (C8).")


def describe_event(e: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    """One sentence of plain English for a Collusion wire event; ``name`` names a seat."""
    kind = e.get("type")
    simple: dict[str, Callable[[], str]] = {
        "round_started": lambda: (f"Round {e['round']} starts" + (" — a tie-break round" if e["tie_break"] else "")
                                  + f" with {_names(e['seats'], name)}; the pot holds {e['pot']} bars,"
                                  f" {e['deck']} left in the deck."),
        "vote_started": lambda: f"Vote {e['vote']} of round {e['round']}: {_names(e['alive'], name)} are alive.",
        "vote_cast": lambda: f"{name(e['seat'])} puts a card down.",
        "locked": lambda: f"{name(e['seat'])} locks in.",
        "unlocked": lambda: f"{name(e['seat'])} unlocks.",
        "reveal": lambda: _describe_reveal(e, name),
        "ambush_needed": lambda: f"{_names(e['seats'], name)} ambushed and must choose a voter to die (C10).",
        "ambush_chosen": lambda: f"{name(e['seat'])} has chosen.",
        "ambush_resolved": lambda: (f"{name(e['by'])}'s ambush hits nobody: no voter was left to choose (C10)."
                                    if e["victim"] is None else
                                    f"{name(e['by'])} ambushes {name(e['victim'])}"
                                    + (" (chosen at random)." if e["random"] else ".")),
        "died": lambda: f"{name(e['seat'])} dies: {_KIND_WORDS.get(e['kind'], e['kind'])} ({e['cause']}).",
        "round_ended": lambda: f"Round {e['round']} ends with {counted(len(e['survivors']), 'survivor', 'survivors')}: "
                               f"{_names(e['survivors'], name)}.",
        "pot_taken": lambda: f"{name(e['seat'])} takes the pot of {counted(e['bars'], 'bar', 'bars')} ({e['cause']}).",
        "pot_stays": lambda: f"Nobody survived: the {counted(e['bars'], 'bar stays', 'bars stay')} in the pot ({e['cause']}).",
        "bar_drawn": lambda: f"{name(e['seat'])} draws a bar from the deck ({e['cause']}).",
        "showdown_started": lambda: f"Final Showdown between {_names(e['seats'], name)} for {counted(e['pot'], 'bar', 'bars')} (C15).",
        "showdown_picked": lambda: f"{name(e['seat'])} picks a card.",
        "showdown_reveal": lambda: "Showdown: " + "; ".join(
            f"{name(s)} plays {c.replace('_', ' ')} and gets {counted(p, 'bar', 'bars')}"
            + (" (timer ran out)" if t else "")
            for s, c, p, t in zip(e["seats"], e["choices"], e["payout"], e["timed_out"]))
            + f"; {counted(e['pot_left'], 'bar stays', 'bars stay')} in the pot.",
        "tie_break": lambda: f"{_names(e['seats'], name)} share the highest total: they play a tie-break round (C18).",
        "game_over": lambda: f"Game over ({e['reason'].replace('_', ' ')}, {e['cause']}): "
                             f"{_names(e['winners'], name)} {english_plural(len(e['winners']), 'wins', 'win')}. Totals: "
                             + ", ".join(f"{name(s)} {t}" for s, t in enumerate(e["totals"])) + ".",
    }
    maker = simple.get(kind) if isinstance(kind, str) else None
    return maker() if maker else f"{kind}: { {k: v for k, v in e.items() if k != 'type'} }"


ENGINE = CollusionEngine()
