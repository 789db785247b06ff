"""Speakeasy companion: the table plays with its own people (and, if it likes, its own cards).

Settings say what is physical: ``identities`` (dealt to the phones, private, or real identity
cards the program is told about only at a reveal), ``pointing`` (on the phones, simultaneous and
revealed together, or with real fingers: the clue's host taps who pointed at whom, with undo) and
``clue_source`` (the big screen shows a clue from the fa/th/en deck, or says "read the top card of
your deck"). Each clue: the host (seat order, S5) picks the subject on their phone (S6); the screen
counts "3 – 2 – 1 – point!"; the pointing is taken (S7); if someone found the subject, the subject
reveals their identity with one tap (S8; with real cards they tap which card they turned); S8/S9
score onto the score pad; the next host continues (S10). At the end (S11) the unrevealed identities
score (S12; with real cards each taps theirs) and S13 names the winner.

Scoring is the table engine's (:func:`game.games.speakeasy.rules.clue_scores`, ``unrevealed_bonus``,
``final_winners``); the score pad (:mod:`game.rules.scorepad`) holds every point, one row per clue,
and the host may correct it with a visible trace. Formats: ``game/games/speakeasy/companion_views.md``.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from game.games.speakeasy import rules as table
from game.games.speakeasy.rules import ChooseSubject, Continue, Identity, Outcome, Point, ScoreLine, TieBreak, Timeout
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
)
from game.rules.companion import Note, note_of, notes_after, quick_notes
from game.rules.rng import Rng
from game.rules.scorepad import ScorePad

MAX_COUNTDOWN_MS = 10_000
PAD_HIGH = 9  # one pad cell: a clue scores 1 (S8, S9), a bonus 2 (S12); a correction stays small


# ------------------------------------------------------------------------------------------ enums
class Identities(enum.Enum):
    PHONES = "phones"  # dealt by the program, private, tap to peek (S1, S4)
    CARDS = "cards"  # real identity cards: the program asks only at a reveal (S8, S12)


class Pointing(enum.Enum):
    PHONES = "phones"  # secret on the phones, revealed together (S7)
    HANDS = "hands"  # real fingers; the clue's host taps who pointed at whom


class ClueSource(enum.Enum):
    SCREEN = "screen"  # the built-in fa/th/en deck (or the table's own list) on the big screen (S2)
    CARDS = "cards"  # the host reads the top card of the real deck


class Phase(enum.Enum):
    CHOOSING = "choosing"  # S6: the host picks the subject on their phone
    COUNTDOWN = "countdown"  # 3 – 2 – 1 – point!
    POINTING = "pointing"  # S7 on the phones
    RECORDING = "recording"  # S7 with fingers: the host taps who pointed at whom
    IDENTITY = "identity"  # S8: the subject reveals (one tap)
    REVEAL = "reveal"  # S8/S9 scored; the next host continues (S10)
    FINAL_IDENTITIES = "final_identities"  # S12 with real cards: each unrevealed player taps theirs
    GAME_OVER = "game_over"


# --------------------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class Settings(table.Settings):
    identities: Identities = Identities.PHONES
    pointing: Pointing = Pointing.PHONES
    clue_source: ClueSource = ClueSource.SCREEN
    countdown_ms: int = 3_000

    def validate(self) -> None:
        table.Settings.validate(self)
        if not 1_000 <= self.countdown_ms <= MAX_COUNTDOWN_MS:
            raise BadSettings(f"countdown_ms must be between 1000 and {MAX_COUNTDOWN_MS}")


# ---------------------------------------------------------------------------------------- actions
ACTIONS: WireCodec[Any] = WireCodec("action")
for _tag, _cls in zip(table.ACTIONS.tags, table.ACTIONS.classes):
    ACTIONS.register(_tag)(_cls)  # choose_subject, point, continue, timeout


@ACTIONS.register("record_point")
@dataclass(frozen=True, slots=True)
class RecordPoint:
    """Fingers (S7): the clue's host (or the console host) taps whom ``seat`` points at; ``target``
    ``None``: pointed at nobody. Tapping again changes it; every tap can be undone."""

    seat: int
    target: int | None


@ACTIONS.register("undo_point")
@dataclass(frozen=True, slots=True)
class UndoPoint:
    """Take the latest recorded tap back."""


@ACTIONS.register("pointing_done")
@dataclass(frozen=True, slots=True)
class PointingDone:
    """Everyone's finger is recorded: reveal (S7)."""


@ACTIONS.register("reveal_identity")
@dataclass(frozen=True, slots=True)
class RevealIdentity:
    """One tap: the subject (S8) — or, at the end, an unrevealed player (S12) — turns their
    identity over. With phone identities the program knows it (``identity`` must be ``None``);
    with real cards it is the card they turned. The host may tap for them (``seat``)."""

    identity: Identity | None = None
    seat: int | None = None


@ACTIONS.register("edit_score")
@dataclass(frozen=True, slots=True)
class EditScore:
    """The host corrects the pad: ``seat``'s points for clue ``clue`` (the last row: S12 bonuses)."""

    seat: int
    clue: int
    points: int


@ACTIONS.register("undo_score")
@dataclass(frozen=True, slots=True)
class UndoScore:
    """The host takes the latest pad correction back (the trace keeps both lines)."""


# ----------------------------------------------------------------------------------------- events
EVENTS: WireCodec[Any] = WireCodec("event")
for _tag, _cls in zip(table.EVENTS.tags, table.EVENTS.classes):
    EVENTS.register(_tag)(_cls)


@EVENTS.register("companion_clue")
@dataclass(frozen=True, slots=True)
class ClueUp:
    """A clue is up (S5, S6): its text, or ``None`` when the host reads the top card of the deck."""

    number: int
    total: int
    text: str | None
    host: int
    cause: str = "S5"


@EVENTS.register("countdown")
@dataclass(frozen=True, slots=True)
class Countdown:
    ms: int


@EVENTS.register("point_now")
@dataclass(frozen=True, slots=True)
class PointNow:
    by_hand: bool
    cause: str = "S7"


@EVENTS.register("point_recorded")
@dataclass(frozen=True, slots=True)
class PointRecorded:
    seat: int
    target: int | None
    undo: bool


@EVENTS.register("identity_asked")
@dataclass(frozen=True, slots=True)
class IdentityAsked:
    seats: tuple[int, ...]
    cause: str


@EVENTS.register("score_corrected")
@dataclass(frozen=True, slots=True)
class ScoreCorrected:
    seat: int
    clue: int
    old: int | None
    new: int | None
    undo: bool


# ------------------------------------------------------------------------------------------ state
@dataclass(frozen=True, slots=True)
class ClueResult:
    number: int
    host: int
    subject: int
    pointing: tuple[int | None, ...]
    correct: tuple[int, ...]
    outcome: Outcome
    identity: Identity | None
    scores: tuple[ScoreLine, ...]


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    rng: Rng
    identities: tuple[Identity | None, ...]  # None: a real card the program has not been told
    revealed: tuple[bool, ...]
    correct: tuple[int, ...]  # S13: times each seat pointed at the subject
    clue_order: tuple[int, ...]  # deck indices in drawing order (screen clues); () with real cards
    clue_total: int
    clue_index: int
    phase: Phase
    host: int
    pad: ScorePad
    subject: int | None = None
    pointing: tuple[int | None, ...] = ()
    taps: tuple[tuple[int, int | None, bool], ...] = ()  # fingers: (seat, target, was_recorded_before)
    last: ClueResult | None = None
    winners: tuple[int, ...] = ()
    tie_break: TieBreak = TieBreak.NONE
    host_changes: tuple[int, ...] = ()  # indices of the pad's edits the host made (what undo may revert)
    notes: tuple[Note, ...] = ()

    @property
    def n(self) -> int:
        return len(self.identities)

    @property
    def number(self) -> int:
        return self.clue_index + 1

    @property
    def next_host(self) -> int:
        return (self.host + 1) % self.n

    @property
    def bonus_row(self) -> int:
        """The pad row of the S12 bonuses: after the last clue."""
        return self.clue_total + 1

    def pointers(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n) if s != self.host)

    def clue_id(self) -> int | None:
        """The clue on the table as an index into the deck (``None`` with real cards)."""
        return self.clue_order[self.clue_index] if self.clue_order else None

    def clue_text(self) -> str | None:
        clue_id = self.clue_id()
        return None if clue_id is None else self.settings.texts[clue_id]


Events = list[Any]


# ------------------------------------------------------------------------------------ clue flow
def _clue_up(state: State, index: int, host: int) -> tuple[State, Events]:
    """S5/S6: the next clue and its host; pointing starts empty."""
    state = replace(state, clue_index=index, host=host, phase=Phase.CHOOSING, subject=None,
                    pointing=(None,) * state.n, taps=())
    return state, [ClueUp(state.number, state.clue_total, state.clue_text(), host)]


def _on_choose(state: State, seat: Seat | None, action: ChooseSubject) -> tuple[State, Events]:
    if state.phase is not Phase.CHOOSING:
        raise IllegalAction("the subject has already been chosen")
    if seat is not None and seat != state.host:  # None: the console enters it for a clue host who left
        raise NotYourTurn("only the host picks the subject (S6)")
    if not (isinstance(action.subject, int) and 0 <= action.subject < state.n) or action.subject == state.host:
        raise IllegalAction("the subject must be another player at the table (S6)")
    state = replace(state, phase=Phase.COUNTDOWN, subject=action.subject)
    return state, [table.SubjectChosen(state.host), Countdown(state.settings.countdown_ms)]


def _point_now(state: State) -> tuple[State, Events]:
    """"Point!": the phones open for pointing, or the host starts tapping the fingers (S7)."""
    hands = state.settings.pointing is Pointing.HANDS
    return replace(state, phase=Phase.RECORDING if hands else Phase.POINTING), [PointNow(hands)]


def _on_point(state: State, seat: Seat | None, action: Point) -> tuple[State, Events]:
    if seat is None or seat == state.host:
        raise NotYourTurn("the host does not point (S7)")
    if state.phase is not Phase.POINTING:
        raise IllegalAction("pointing on the phones is not open now")
    _check_target(state, action.target)
    before = state.pointing[seat]
    pointing = _set(state.pointing, seat, action.target)
    state = replace(state, pointing=pointing)
    events: Events = [table.Pointed(seat, changed=before is not None and before != action.target)]
    if all(pointing[s] is not None for s in state.pointers()):
        return _pointing_known(state, events)
    return state, events


def _check_target(state: State, target: Any) -> None:
    if not (isinstance(target, int) and not isinstance(target, bool) and 0 <= target < state.n) \
            or target == state.host:
        raise IllegalAction("point at a player other than the host (S7)")


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1 :]


def _need_recorder(state: State, seat: Seat | None) -> None:
    if state.phase is not Phase.RECORDING:
        raise IllegalAction("no fingers are being recorded now")
    if seat is not None and seat != state.host:
        raise NotYourTurn("the clue's host records the pointing")


def _on_record(state: State, seat: Seat | None, action: RecordPoint) -> tuple[State, Events]:
    _need_recorder(state, seat)
    who = action.seat
    if not (isinstance(who, int) and 0 <= who < state.n) or who == state.host:
        raise IllegalAction("the host does not point (S7): record another player")
    if action.target is not None:
        _check_target(state, action.target)
    recorded = any(s == who for s, _, _ in state.taps)
    if recorded and state.pointing[who] == action.target:
        raise IllegalAction("that is already recorded")
    taps = state.taps + ((who, state.pointing[who], recorded),)
    state = replace(state, pointing=_set(state.pointing, who, action.target), taps=taps)
    return state, [PointRecorded(who, action.target, False)]


def _on_undo_point(state: State, seat: Seat | None, action: UndoPoint) -> tuple[State, Events]:
    _need_recorder(state, seat)
    if not state.taps:
        raise IllegalAction("nothing to undo")
    who, previous, _ = state.taps[-1]
    state = replace(state, pointing=_set(state.pointing, who, previous), taps=state.taps[:-1])
    return state, [PointRecorded(who, previous if any(s == who for s, _, _ in state.taps) else None, True)]


def _missing_taps(state: State) -> tuple[int, ...]:
    recorded = {s for s, _, _ in state.taps}
    return tuple(s for s in state.pointers() if s not in recorded)


def _on_done(state: State, seat: Seat | None, action: PointingDone) -> tuple[State, Events]:
    _need_recorder(state, seat)
    missing = _missing_taps(state)
    if missing:
        raise IllegalAction(f"record every finger first (S7): seats {[s + 1 for s in missing]} are missing")
    return _pointing_known(state, [])


def _pointing_known(state: State, events: Events) -> tuple[State, Events]:
    """S7 revealed; S8 needs the subject's identity when someone found them and it is not known."""
    assert state.subject is not None
    subject = state.subject
    events.append(table.PointingRevealed(subject, state.pointing))
    correct = tuple(s for s in state.pointers() if state.pointing[s] == subject)
    if correct and not state.revealed[subject]:
        events.append(IdentityAsked((subject,), "S8"))
        return replace(state, phase=Phase.IDENTITY), events
    return _score_clue(state, events)


def _identity_seat(state: State, seat: Seat | None, named: int | None, allowed: tuple[int, ...]) -> int:
    who = named if seat is None else seat
    if seat is not None and named is not None and named != seat:
        raise NotYourTurn("only the host taps for another player")
    if who is None:
        raise MalformedAction("the host must name the seat (seat)")
    if who not in allowed:
        raise NotYourTurn("that player has nothing to reveal now")
    return who


def _told_identity(state: State, who: int, told: Identity | None) -> Identity:
    known = state.identities[who]
    if known is not None:
        if told is not None:
            raise IllegalAction("the program dealt this identity: just tap to reveal it")
        return known
    if not isinstance(told, Identity):
        raise MalformedAction("say which card was turned over: informant or citizen")
    return told


def _on_reveal_identity(state: State, seat: Seat | None, action: RevealIdentity) -> tuple[State, Events]:
    if state.phase is Phase.IDENTITY:
        assert state.subject is not None
        who = _identity_seat(state, seat, action.seat, (state.subject,))
        identity = _told_identity(state, who, action.identity)
        state = _revealed(state, who, identity)
        return _score_clue(state, [table.IdentityRevealed(who, identity, "S8")])
    if state.phase is Phase.FINAL_IDENTITIES:
        who = _identity_seat(state, seat, action.seat, _unrevealed(state))
        identity = _told_identity(state, who, action.identity)
        state = _revealed(state, who, identity)
        events: Events = [table.IdentityRevealed(who, identity, "S12"), *_bonus(state, who)]
        state = replace(state, pad=_pad_bonus(state, who))
        if _unrevealed(state):
            return state, events
        return _game_over(state, events)
    raise IllegalAction("no identity is to be revealed now")


def _revealed(state: State, who: int, identity: Identity) -> State:
    return replace(state, identities=_set(state.identities, who, identity), revealed=_set(state.revealed, who, True))


def _unrevealed(state: State) -> tuple[int, ...]:
    return tuple(s for s in range(state.n) if not state.revealed[s])


def _score_clue(state: State, events: Events) -> tuple[State, Events]:
    """S8/S9 onto the pad (one row per clue); the clue waits for the next host (S10)."""
    assert state.subject is not None
    subject = state.subject
    correct = tuple(s for s in state.pointers() if state.pointing[s] == subject)
    identity = state.identities[subject] if correct else None
    outcome, lines = table.clue_scores(state.host, subject, correct, identity)
    pad = state.pad
    for line in lines:
        pad = pad.enter(line.seat, state.number, line.points, None)
        events.append(table.Scored(line.seat, line.points, pad.total(line.seat), line.reason, line.cause))
    pad = _fill_row(pad, state.number)
    counts = tuple(c + (1 if s in correct else 0) for s, c in enumerate(state.correct))
    result = ClueResult(state.number, state.host, subject, state.pointing, correct, outcome, identity, lines)
    return replace(state, pad=pad, correct=counts, phase=Phase.REVEAL, last=result), events


def _on_continue(state: State, seat: Seat | None, action: Continue) -> tuple[State, Events]:
    if state.phase is not Phase.REVEAL:
        raise IllegalAction("nothing to continue from yet")
    if seat is not None and seat != state.next_host:
        raise NotYourTurn("the next host moves the table on (S10)")
    return _advance(state)


def _advance(state: State) -> tuple[State, Events]:
    """S10: the clue is discarded; the next seat hosts, or the game ends (S11, S12)."""
    last = state.number >= state.clue_total
    events: Events = [table.ClueDiscarded(state.number, state.clue_order[state.clue_index] if state.clue_order else -1,
                                          state.clue_total - state.number, None if last else state.next_host)]
    if not last:
        new, more = _clue_up(state, state.clue_index + 1, state.next_host)
        return new, events + more
    waiting = tuple(s for s in _unrevealed(state) if state.identities[s] is None)
    if waiting:
        events.append(IdentityAsked(waiting, "S12"))
        return _auto_bonuses(replace(state, phase=Phase.FINAL_IDENTITIES), events)
    state, events = _auto_bonuses(state, events)
    return _game_over(state, events)


def _auto_bonuses(state: State, events: Events) -> tuple[State, Events]:
    """S12 for the identities the program dealt; real cards wait for their tap."""
    for seat in _unrevealed(state):
        identity = state.identities[seat]
        if identity is None:
            continue
        state = _revealed(state, seat, identity)
        events.append(table.IdentityRevealed(seat, identity, "S12"))
        events.extend(_bonus(state, seat))
        state = replace(state, pad=_pad_bonus(state, seat))
    return state, events


def _bonus_line(state: State, seat: int) -> ScoreLine:
    identity = state.identities[seat]
    assert identity is not None
    return table.unrevealed_bonus(seat, identity)


def _pad_bonus(state: State, seat: int) -> ScorePad:
    line = _bonus_line(state, seat)
    return state.pad.enter(seat, state.bonus_row, line.points, None)


def _bonus(state: State, seat: int) -> Events:
    line = _bonus_line(state, seat)
    return [table.Scored(seat, line.points, state.pad.total(seat) + line.points, line.reason, line.cause)]


def _fill_row(pad: ScorePad, row: int) -> ScorePad:
    """Every seat gets a cell in a scored row (0 when it scored nothing), so that any later change
    of it is an edit the pad's trace shows, never a silent first entry."""
    for seat in range(pad.n_seats):
        if pad.value(seat, row) is None:
            pad = pad.enter(seat, row, 0, None)
    return pad


def _game_over(state: State, events: Events) -> tuple[State, Events]:
    """S13 on the pad's totals (corrections included); ties by correct points."""
    state = replace(state, pad=_fill_row(state.pad, state.bonus_row))
    scores = state.pad.totals()
    winners, tie_break, rng = table.final_winners(scores, state.correct, state.settings.final_tie, state.rng)
    events.append(table.GameEnded(winners, scores, tie_break))
    return replace(state, phase=Phase.GAME_OVER, winners=winners, tie_break=tie_break, rng=rng), events


# ---------------------------------------------------------------------------------- score pad
def _on_edit(state: State, seat: Seat | None, action: EditScore) -> tuple[State, Events]:
    if seat is not None:
        raise NotYourTurn("only the host corrects the score pad")
    old = state.pad.value(action.seat, action.clue) if isinstance(action.seat, int) else None
    if not _correctable(state, action.clue, old):
        raise IllegalAction(f"clue {action.clue!r} has not been scored yet: nothing to correct")
    pad = state.pad.edit(action.seat, action.clue, action.points, None)  # a visible trace line, always
    state = replace(state, pad=pad, host_changes=state.host_changes + (len(pad.changes) - 1,))
    return state, [ScoreCorrected(action.seat, action.clue, old, action.points, False)]


def _correctable(state: State, row: Any, old: int | None) -> bool:
    """Rows already scored (every seat has a cell there): the clues played so far (the current one
    once revealed); an S12 bonus once entered. A row still to be scored stays untouched."""
    if not isinstance(row, int) or isinstance(row, bool):
        return False
    if row == state.bonus_row:
        return old is not None
    scored = state.number if state.phase in (Phase.REVEAL, Phase.FINAL_IDENTITIES) else state.number - 1
    return 1 <= row <= scored


def _on_undo_score(state: State, seat: Seat | None, action: UndoScore) -> tuple[State, Events]:
    if seat is not None:
        raise NotYourTurn("only the host corrects the score pad")
    if not _correction_to_undo(state):
        raise IllegalAction("there is no correction to take back")
    pad = state.pad.undo(None)
    last = pad.changes[-1]
    return replace(state, pad=pad), [ScoreCorrected(last.seat, last.round_no, last.old, last.new, True)]


def _correction_to_undo(state: State) -> bool:
    """Only the host's own corrections are taken back: a scored entry stays (correct it instead)."""
    undone = {c.undoes for c in state.pad.changes if c.undoes is not None}
    for index in range(len(state.pad.changes) - 1, -1, -1):
        if state.pad.changes[index].undoes is None and index not in undone:
            return index in state.host_changes
    return False


# ----------------------------------------------------------------------------------------- timers
def _timer_parts(state: State) -> tuple[int, str] | None:
    s = state.settings
    return {
        Phase.CHOOSING: (s.host_choice_ms, "speakeasy_host_choice"),
        Phase.COUNTDOWN: (s.countdown_ms, "countdown"),
        Phase.POINTING: (s.pointing_ms, "speakeasy_pointing"),
        Phase.REVEAL: (s.reveal_ms, "speakeasy_reveal"),
    }.get(state.phase)


def _timer_key(state: State) -> str | None:
    parts = _timer_parts(state)
    if parts is None or parts[0] <= 0:
        return None
    return f"{state.phase.value}:{state.number}"


def _on_timeout(state: State, seat: Seat | None, action: Timeout) -> tuple[State, Events]:
    if seat is not None:
        raise NotYourTurn("only the table's timer times out")
    key = _timer_key(state)
    if key is None or action.key != key:
        raise StaleState(f"timer {action.key!r} is not running (running: {key!r})")
    if state.phase is Phase.CHOOSING:  # S6 [gap]: a random subject (the companion never skips)
        subject, rng = state.rng.choice(state.pointers())
        state = replace(state, phase=Phase.COUNTDOWN, subject=subject, rng=rng)
        return state, [table.SubjectChosen(state.host, by_timeout=True), Countdown(state.settings.countdown_ms)]
    if state.phase is Phase.COUNTDOWN:
        return _point_now(state)
    if state.phase is Phase.POINTING:  # S7 [gap]: not pointed = pointed at nobody
        return _pointing_known(state, [])
    return _advance(state)


_HANDLERS: dict[type, Callable[[State, Seat | None, Any], tuple[State, Events]]] = {
    ChooseSubject: _on_choose,
    Point: _on_point,
    RecordPoint: _on_record,
    UndoPoint: _on_undo_point,
    PointingDone: _on_done,
    RevealIdentity: _on_reveal_identity,
    Continue: _on_continue,
    EditScore: _on_edit,
    UndoScore: _on_undo_score,
    Timeout: _on_timeout,
}


# ------------------------------------------------------------------------------------ quick rules
_SCORE_KEYS = {"pointed_at_informant": "scored_informant", "citizen_found": "scored_citizen",
               "nobody_found": "scored_host", "unrevealed_informant": "bonus_informant",
               "unrevealed_citizen": "bonus_citizen"}


def _note(event: Any) -> Note | None:
    e = EVENTS.to_wire(event)
    makers: dict[str, Callable[[], Note]] = {
        "companion_clue": lambda: Note("S5", "clue_screen" if e["text"] else "clue_cards", (e["host"],)),
        "subject_chosen": lambda: Note("S6", "subject_chosen_timeout" if e["by_timeout"] else "subject_chosen",
                                       (e["host"],)),
        "point_now": lambda: Note("S7", "point_hands" if e["by_hand"] else "point_phones"),
        "pointing_revealed": lambda: Note("S7", "pointing_revealed", (e["subject"],)),
        "identity_asked": lambda: Note(e["cause"], "identity_asked", tuple(e["seats"])),
        "identity_revealed": lambda: Note(e["cause"], f"revealed_{e['identity']}", (e["seat"],)),
        "scored": lambda: Note(e["cause"], _SCORE_KEYS[e["reason"]], (e["seat"],), e["points"]),
        "score_corrected": lambda: Note("S3", "score_corrected", (e["seat"],), e["new"]),
        "game_ended": lambda: Note("S13", "winner" if len(e["winners"]) == 1 else "winners", tuple(e["winners"])),
    }
    return note_of(e["type"], makers)


# ------------------------------------------------------------------------------------------ views
def _result_wire(r: ClueResult | None) -> dict[str, JSON] | None:
    if r is None:
        return None
    return {"number": r.number, "host": r.host, "subject": r.subject, "pointing": list(r.pointing),
            "correct": list(r.correct), "outcome": r.outcome.value,
            "identity": r.identity.value if r.identity else None,
            "scores": [{"seat": x.seat, "points": x.points, "cause": x.cause, "reason": x.reason.value}
                       for x in r.scores]}


def _public(state: State) -> dict[str, JSON]:
    s = state.settings
    revealing = state.phase in (Phase.IDENTITY, Phase.REVEAL)
    over = state.phase is Phase.GAME_OVER
    return {
        "game": "speakeasy_companion",
        "phase": state.phase.value,
        "round": state.number,
        "n_seats": state.n,
        "host": state.host,
        "next_host": state.next_host,
        "settings": {"identities": s.identities.value, "pointing": s.pointing.value,
                     "clue_source": s.clue_source.value, "deck": s.deck_label, "countdown_ms": s.countdown_ms},
        "clue": {"number": state.number, "total": state.clue_total, "text": state.clue_text(), "id": state.clue_id()},
        "subject_chosen": state.subject is not None,
        "subject": state.subject if revealing or over else None,
        "pointers": list(state.pointers()),
        "pointed": [p for p in state.pointers() if state.pointing[p] is not None]
        if state.phase is Phase.POINTING else [],
        "recorded": _recorded(state) if state.phase is Phase.RECORDING else None,
        "pointing": list(state.pointing) if revealing else None,
        "identity_asked": _asked(state),
        "last": _result_wire(state.last) if state.phase is not Phase.CHOOSING else None,
        "seats": [{"seat": i, "revealed": state.revealed[i],
                   "identity": v.value if state.revealed[i] and v is not None else None,
                   "score": state.pad.total(i), "correct_points": state.correct[i]}
                  for i, v in enumerate(state.identities)],
        "pad": state.pad.to_wire(upto=state.number if not over else state.bonus_row),
        "notes": [n.to_wire() for n in state.notes],
        "winners": list(state.winners),
        "tie_break": state.tie_break.value if over else None,
    }


def _recorded(state: State) -> dict[str, JSON]:
    """Fingers tapped so far: real fingers are in plain sight, so whom they point at is public too."""
    done = sorted({s for s, _, _ in state.taps})
    fingers = [state.pointing[s] if s in done else None for s in range(state.n)]
    return {"done": done, "missing": list(_missing_taps(state)), "can_undo": bool(state.taps), "fingers": fingers}


def _asked(state: State) -> list[int]:
    if state.phase is Phase.IDENTITY and state.subject is not None:
        return [state.subject]
    if state.phase is Phase.FINAL_IDENTITIES:
        return list(_unrevealed(state))
    return []


def _private(state: State, seat: int) -> dict[str, JSON]:
    view = _public(state)
    is_host = seat == state.host
    identity = state.identities[seat]
    phones = state.settings.identities is Identities.PHONES
    recording = state.phase is Phase.RECORDING and is_host
    view["me"] = {
        "seat": seat,
        "identity": identity.value if phones and identity is not None else None,
        "is_host": is_host,
        "subject": state.subject if is_host else None,
        "pointed_at": None if is_host or state.phase is not Phase.POINTING else state.pointing[seat],
        "fingers": list(state.pointing) if recording else None,
        "must_reveal": seat in _asked(state),
    }
    return view


# ----------------------------------------------------------------------------------------- engine
class SpeakeasyCompanionEngine(GameEngine[State]):
    name = "speakeasy_companion"
    min_seats = table.MIN_SEATS
    max_seats = table.MAX_SEATS
    actions = ACTIONS
    events = EVENTS
    setting_words = {"deck": table.BUILTIN_DECKS}

    def presets(self) -> tuple[str, ...]:
        return table.ENGINE.presets()

    def default_settings(self, preset: str | None = None) -> Settings:
        deck = preset or "en"
        base = table.ENGINE.default_settings(deck)
        fields = {f.name: getattr(base, f.name) for f in dataclasses.fields(table.Settings)}
        # real people at a real table: the host is not hurried and the next host continues
        return Settings(**{**fields, "host_choice_ms": 0, "pointing_ms": 60_000, "reveal_ms": 0})

    def settings_to_wire(self, settings: Settings) -> dict[str, JSON]:
        return table.deck_settings_to_wire(settings)

    def settings_from_wire(self, data: Mapping[str, Any], preset: str | None = None) -> Settings:
        return table.deck_settings_from_wire(self.default_settings(preset), data)

    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        """S1/S4: deal identities to the phones (or leave them to the real cards); the clue order
        (S2, screen clues only); a random first host (S5)."""
        if not isinstance(settings, Settings):
            raise BadSettings("the Speakeasy companion needs its Settings")
        settings.validate()
        if not isinstance(n_seats, int) or not table.MIN_SEATS <= n_seats <= table.MAX_SEATS:
            raise BadSettings(f"Speakeasy needs {table.MIN_SEATS}..{table.MAX_SEATS} players, not {n_seats}")
        informants, clues = settings.informant_count(n_seats), settings.clue_count(n_seats)
        if informants > n_seats:
            raise BadSettings(f"{informants} informants do not fit {n_seats} players")
        rng = Rng.from_seed(seed)
        identities: tuple[Identity | None, ...] = (None,) * n_seats
        if settings.identities is Identities.PHONES:
            cards = (Identity.INFORMANT,) * informants + (Identity.CITIZEN,) * (n_seats - informants)
            identities, rng = rng.shuffled(cards)
        order: tuple[int, ...] = ()
        if settings.clue_source is ClueSource.SCREEN:
            if clues > len(settings.texts):
                raise BadSettings(f"the deck has {len(settings.texts)} clues; this game needs {clues}")
            shuffled, rng = rng.shuffled(range(len(settings.texts)))
            order = tuple(shuffled[:clues])
        host, rng = rng.below(n_seats)
        state = State(settings, rng, identities, (False,) * n_seats, (0,) * n_seats, order, clues, 0,
                      Phase.CHOOSING, host, ScorePad.empty(n_seats, high=PAD_HIGH),
                      pointing=(None,) * n_seats)
        return replace(state, notes=quick_notes(self.start_events(state), _note))

    def start_events(self, state: State) -> list[Any]:
        dealt = [table.IdentitiesDealt(self._informants(state))] \
            if state.settings.identities is Identities.PHONES else []
        return dealt + [ClueUp(1, state.clue_total, state.clue_text(), state.host)]

    @staticmethod
    def _informants(state: State) -> int:
        return sum(1 for i in state.identities if i is Identity.INFORMANT)

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        check_seat(seat, state.n)
        return _legal(state, seat)

    def table_actions(self, state: State) -> list[Any]:
        """What the host may do as the table (seat ``None``): pick the subject for a clue host whose
        seat was freed (S6; the console offers it only then), record fingers, tap an identity for a
        player, correct the pad (any number: ``legal_form``), take a correction back."""
        if state.phase is Phase.GAME_OVER:
            return []
        out = _legal(state, None)
        out += [EditScore(s, 0, 0) for s in range(state.n)]
        if _correction_to_undo(state):
            out.append(UndoScore())
        return out

    def legal_form(self, action: Any) -> Any:
        """Pad corrections in the legal lists carry clue 0 and points 0: apply checks the numbers."""
        return replace(action, clue=0, points=0) if isinstance(action, EditScore) else action

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, list[Any]]:
        self._check_apply(state, seat)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise MalformedAction(f"not a Speakeasy companion action: {action!r}")
        new, events = handler(state, seat, action)
        return replace(new, notes=notes_after(events, _note, state.notes)), events

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return _public(state) if seat is None else _private(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def timer(self, state: State) -> TimerRequest | None:
        key = _timer_key(state)
        parts = _timer_parts(state)
        if key is None or parts is None:
            return None
        return TimerRequest(key, parts[0], Timeout(key), parts[1])

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        return describe_event(event, name)


def _legal(state: State, seat: Seat | None) -> list[Any]:
    """A seat's legal actions; ``seat`` None: the host's taps as the table (no timers)."""
    phase = state.phase
    host_or_table = seat is None or seat == state.host
    if phase is Phase.CHOOSING and host_or_table:
        return [ChooseSubject(s) for s in state.pointers()]
    if phase is Phase.POINTING and seat is not None and seat != state.host:
        return [Point(t) for t in state.pointers() if t != state.pointing[seat]]
    if phase is Phase.RECORDING and host_or_table:
        out: list[Any] = [RecordPoint(s, t) for s in state.pointers() for t in (*state.pointers(), None)
                          if not (state.pointing[s] == t and any(x == s for x, _, _ in state.taps))]
        if state.taps:
            out.append(UndoPoint())
        if not _missing_taps(state):
            out.append(PointingDone())
        return out
    asked = _asked(state)
    if phase in (Phase.IDENTITY, Phase.FINAL_IDENTITIES) and (seat is None or seat in asked):
        named = [None] if seat is not None else asked
        out = []
        for who in named:
            target = seat if who is None else who
            assert target is not None
            told = [None] if state.identities[target] is not None else list(Identity)
            out += [RevealIdentity(i, who) for i in told]
        return out
    if phase is Phase.REVEAL and (seat is None or seat == state.next_host):
        return [Continue()]
    return []


def describe_event(e: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    """One plain-English sentence per wire event (``tabletop replay``)."""
    kind = e.get("type")
    words: dict[str, Callable[[], str]] = {
        "companion_clue": lambda: (f"Clue {e['number']} of {e['total']}, hosted by {name(e['host'])}: "
                                   + (f"\u201c{e['text']}\u201d" if e["text"] else "the top card of the deck")
                                   + " (S5, S6)."),
        "countdown": lambda: "3 – 2 – 1 …",
        "point_now": lambda: "Point! " + ("Fingers, recorded by the host (S7)." if e["by_hand"] else "On the phones (S7)."),
        "point_recorded": lambda: (f"Undone: {name(e['seat'])}'s finger." if e["undo"] else
                                   f"{name(e['seat'])} points at " + (name(e["target"]) if e["target"] is not None
                                                                      else "nobody") + "."),
        "identity_asked": lambda: f"{table._names(e['seats'], name)} turn their identity over ({e['cause']}).",
        "score_corrected": lambda: (f"{name(e['seat'])}'s clue {e['clue']}: {e['old']} → {e['new']}, "
                                    + ("correction taken back by the host." if e["undo"] else "corrected by the host.")),
    }
    maker = words.get(kind) if isinstance(kind, str) else None
    return maker() if maker else table.describe_event(e, name)


ENGINE = SpeakeasyCompanionEngine()
