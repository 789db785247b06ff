"""Collusion companion: real table talk (and optionally real gold), phones instead of vote cards.

The votes, Ambush, reveals, deaths (C7–C11) and the Final Showdown (C15/C16) are the table-mode
engine's (:mod:`game.games.collusion.rules`): this engine holds a table state and hands it every vote and
showdown action, so both modes resolve them with the same code. What the companion adds:

* **Gold setting** (``gold``). ``digital``: the program deals and keeps the gold exactly as in
  table mode. ``physical``: players split real bars. The program still tells who takes how many
  bars (C13–C15: it knows every count, never a value — its bars are worth 0, "unknown"). After
  each round it asks every player in secret whether their bars reached the target (C17); when
  someone says so, everyone enters their total secretly, the totals are revealed together, the
  host may correct them (every change kept as a visible trace on the score pad), and C18 names
  the winner or starts a tie-break round. When the gold runs out (C20) the same count decides,
  ties by the bar counts the program knows.
* **Score pad** (:mod:`game.rules.scorepad`): the entered totals (physical) or the final totals
  (digital); corrections leave a trace.
* **Quick rules** (``notes``): what the last change did, as rule ids with the seats involved, for
  every phone to say in the table's language.

Rule ids C1–C20 refer to ``docs/rules/collusion.md``; formats in ``game/games/collusion/companion_views.md``.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from game.games.collusion import rules as table
from game.games.collusion.rules import (
    NEWS,
    CollusionSettings,
    EndReason,
    GameEnded,
    RoundStarted,
    Rule,
    TieBreak,
    Timeout,
)
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
from game.rules.companion import Note, note_of, notes_after
from game.rules.scorepad import BadEntry, EntryProblem, ScorePad

TABLE = table.ENGINE
UNKNOWN_BAR = 0  # physical gold: the program moves bars by count and never knows their values


# ------------------------------------------------------------------------------------------ enums
class GoldMode(enum.Enum):
    DIGITAL = "digital"  # the program deals and keeps the gold (C2, C13–C15 as in table mode)
    PHYSICAL = "physical"  # real bars; totals entered on the phones at the end (C17, C18, C20)


class Phase(enum.Enum):
    """The companion's phase; during ``PLAY`` the view shows the table phase (vote, ambush_choice,
    showdown) instead, so one vocabulary covers both."""

    PLAY = "play"
    CHECK = "check"  # physical: has your gold reached the target? (C17)
    COUNT = "count"  # physical: enter your total in secret (C17, C18, C20)
    REVIEW = "review"  # physical: totals revealed; the host may correct, then confirms
    GAME_OVER = "game_over"


# --------------------------------------------------------------------------------------- settings
@dataclass(frozen=True, slots=True)
class Settings(CollusionSettings):
    """The table-mode settings (C2, C6, C7, C10, C12, C16, C17, C20) plus the gold setting."""

    gold: GoldMode = GoldMode.DIGITAL
    review_ms: int = 45_000  # physical: revealed totals stand this long for corrections, then count

    def validate(self) -> None:
        CollusionSettings.validate(self)
        if not 5_000 <= self.review_ms <= 600_000:
            raise BadSettings(f"review_ms must be between 5 s and 10 min (in ms); got {self.review_ms}")

    def bar_range(self) -> tuple[int, int]:
        """The lowest and highest value a bar can have with this deck (C2)."""
        values = [v for v, k in ((3, self.gold_threes), (4, self.gold_fours), (5, self.gold_fives)) if k]
        return min(values), max(values)


def _companion_settings(base: CollusionSettings, **changes: Any) -> Settings:
    return Settings(**{f.name: getattr(base, f.name) for f in fields(CollusionSettings)}, **changes)


PRESETS: dict[str, Settings] = {name: _companion_settings(s) for name, s in table.PRESETS.items()}
DEFAULT_PRESET = table.DEFAULT_PRESET


# ---------------------------------------------------------------------------------------- actions
ACTIONS: WireCodec[Any] = WireCodec("action")
for _tag, _cls in zip(table.ACTIONS.tags, table.ACTIONS.classes):
    ACTIONS.register(_tag)(_cls)  # vote, ambush, lock, unlock, ambush_pick, showdown, timeout


@ACTIONS.register("reached")
@dataclass(frozen=True, slots=True)
class Reached:
    """Physical gold, after a round (C17): "my bars have reached the target" or not, in secret.
    The host (seat ``None``) answers for a player without a phone by naming ``seat``."""

    reached: bool
    seat: int | None = None


@ACTIONS.register("enter_total")
@dataclass(frozen=True, slots=True)
class EnterTotal:
    """Physical gold: the total of one's real bars (C17/C18/C20). Secret until everyone entered;
    after the reveal a change is a correction kept on the pad. The host names ``seat``."""

    points: int
    seat: int | None = None


@ACTIONS.register("undo_entry")
@dataclass(frozen=True, slots=True)
class UndoEntry:
    """The host takes back the latest correction of the revealed totals (the trace keeps both)."""


@ACTIONS.register("confirm_totals")
@dataclass(frozen=True, slots=True)
class ConfirmTotals:
    """The host accepts the revealed totals: C18 (or C20) decides now."""


ENTER_FORM = EnterTotal(0)


# ----------------------------------------------------------------------------------------- events
EVENTS: WireCodec[Any] = WireCodec("event")
for _tag, _cls in zip(table.EVENTS.tags, table.EVENTS.classes):
    EVENTS.register(_tag)(_cls)


@EVENTS.register("check_started")
@dataclass(frozen=True, slots=True)
class CheckStarted:
    round: int
    seats: tuple[int, ...]
    target: int
    cause: Rule = Rule.C17  # every player checks their private total


@EVENTS.register("check_answered")
@dataclass(frozen=True, slots=True)
class CheckAnswered:
    seat: int  # never the answer: it stays secret


@EVENTS.register("check_result")
@dataclass(frozen=True, slots=True)
class CheckResult:
    anyone: bool  # only whether somebody claims the target, never who


@EVENTS.register("count_started")
@dataclass(frozen=True, slots=True)
class CountStarted:
    count: int
    seats: tuple[int, ...]
    reason: EndReason
    cause: Rule


@EVENTS.register("total_entered")
@dataclass(frozen=True, slots=True)
class TotalEntered:
    seat: int
    by: int | None  # the seat itself, or None: the host entered it


@EVENTS.register("totals_revealed")
@dataclass(frozen=True, slots=True)
class TotalsRevealed:
    count: int
    seats: tuple[int, ...]
    totals: tuple[int, ...]
    bars: tuple[int, ...]


@EVENTS.register("total_corrected")
@dataclass(frozen=True, slots=True)
class TotalCorrected:
    seat: int
    old: int | None
    new: int | None
    by: int | None
    undo: bool


@EVENTS.register("nobody_reached")
@dataclass(frozen=True, slots=True)
class NobodyReached:
    """The count found no total at the target: play goes on (C17, C19)."""

    target: int
    cause: Rule = Rule.C17


# ------------------------------------------------------------------------------------------ state
@dataclass(frozen=True, slots=True)
class Count:
    """A physical-gold count: who enters, the secret entries (and who made them), why."""

    number: int
    seats: tuple[int, ...]
    reason: EndReason
    entries: tuple[tuple[int, int, int | None], ...] = ()  # (seat, points, by) before the reveal

    def entry(self, seat: int) -> int | None:
        return next((p for s, p, _ in self.entries if s == seat), None)


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    table: table.State
    pad: ScorePad
    phase: Phase = Phase.PLAY
    held: tuple[Any, ...] = ()  # physical: the table's next-round events, told once the check is done
    answers: tuple[tuple[int, bool], ...] = ()  # CHECK: (seat, reached), secret
    count: Count | None = None
    tie_break: tuple[int, ...] = ()  # physical: the seats of the C18 tie-break round being played
    winners: tuple[int, ...] = ()
    final_totals: tuple[int, ...] = ()
    final_reason: EndReason | None = None
    notes: tuple[Note, ...] = ()

    @property
    def n(self) -> int:
        return self.table.n

    @property
    def physical(self) -> bool:
        return self.settings.gold is GoldMode.PHYSICAL

    def bars(self, seat: int) -> int:
        return len(self.table.gold[seat])


Events = list[Any]


# -------------------------------------------------------------------------------- the table part
def _play(state: State, seat: Seat | None, action: Any) -> tuple[State, Events]:
    """A vote/showdown action: the table engine decides (C7–C16); round ends are the companion's."""
    if state.phase is not Phase.PLAY:
        raise IllegalAction(f"that is not possible now (phase {state.phase.value})")
    was_tie_break = state.table.tie_break
    new_table, events = TABLE.apply(state.table, seat, action)
    state = replace(state, table=new_table)
    if not state.physical:
        if any(isinstance(e, GameEnded) for e in events):
            state = _digital_game_over(state)
        return state, events
    cut = next((i for i, e in enumerate(events) if isinstance(e, (RoundStarted, TieBreak, GameEnded))), None)
    if cut is None:
        return state, events
    told, held = events[:cut], events[cut:]
    if any(isinstance(e, GameEnded) for e in held):  # C20: the table cannot refill the pot
        return _start_count(state, tuple(range(state.n)), EndReason.DECK_EMPTY, told)
    if was_tie_break:  # C18: only the tied players count again
        return _start_count(replace(state, held=tuple(held)), was_tie_break, EndReason.TARGET, told)
    return _start_check(replace(state, held=tuple(held)), told)


def _digital_game_over(state: State) -> State:
    t = state.table
    pad = state.pad
    for seat, total in enumerate(t.totals):
        pad = pad.enter(seat, 1, total, None)
    assert t.final is not None
    return replace(state, phase=Phase.GAME_OVER, pad=pad, winners=t.winners, final_totals=t.totals,
                   final_reason=t.final.reason)


# ----------------------------------------------------------------------------- physical: C17 check
def _start_check(state: State, events: Events) -> tuple[State, Events]:
    seats = tuple(range(state.n))
    events.append(CheckStarted(state.table.round - 1, seats, state.settings.target_for(state.n)))  # table dealt the next
    return replace(state, phase=Phase.CHECK, answers=()), events


def _on_reached(state: State, seat: Seat | None, action: Reached) -> tuple[State, Events]:
    if state.phase is not Phase.CHECK:
        raise IllegalAction("nobody is asked about the target now (C17)")
    who = _subject(state, seat, action.seat)
    if not isinstance(action.reached, bool):
        raise MalformedAction("reached must be true or false")
    answers = tuple(a for a in state.answers if a[0] != who) + ((who, action.reached),)
    events: Events = [CheckAnswered(who)]
    state = replace(state, answers=tuple(sorted(answers)))
    if len(answers) < state.n:
        return state, events
    anyone = any(r for _, r in answers)
    events.append(CheckResult(anyone))
    state = replace(state, answers=())
    if anyone:
        return _start_count(state, tuple(range(state.n)), EndReason.TARGET, events)
    return _resume(state, events)


def _resume(state: State, events: Events) -> tuple[State, Events]:
    """Nobody reached the target: the next round the table already dealt is told now (C19)."""
    events.extend(state.held)
    return replace(state, phase=Phase.PLAY, held=(), count=None, tie_break=()), events


def _subject(state: State, seat: Seat | None, named: int | None) -> int:
    """Whose answer or total this is: one's own, or the seat the host names."""
    if seat is None:
        if named is None:
            raise MalformedAction("the host must name the seat (seat)")
        check_seat(named, state.n)
        return named
    if named is not None and named != seat:
        raise NotYourTurn("only the host enters for another player")
    return seat


# ------------------------------------------------------------------------ physical: the count
def _start_count(state: State, seats: tuple[int, ...], reason: EndReason, events: Events) -> tuple[State, Events]:
    number = state.pad.rounds() + 1
    cause = Rule.C20 if reason is EndReason.DECK_EMPTY else Rule.C18
    events.append(CountStarted(number, seats, reason, cause))
    return replace(state, phase=Phase.COUNT, count=Count(number, seats, reason)), events


def total_range(state: State, seat: int) -> tuple[int, int]:
    """The totals ``seat``'s bars can add up to: every bar is worth 3 to 5 (C2)."""
    low, high = state.settings.bar_range()
    return low * state.bars(seat), high * state.bars(seat)


def _check_total(state: State, seat: int, points: Any) -> int:
    low, high = total_range(state, seat)
    if isinstance(points, bool) or not isinstance(points, int):
        raise BadEntry(EntryProblem.NOT_A_NUMBER, f"{points!r} is not a whole number")
    if points < 0:
        raise BadEntry(EntryProblem.NEGATIVE, f"a total cannot be negative ({points})")
    if not low <= points <= high:
        raise BadEntry(EntryProblem.OUT_OF_RANGE,
                       f"seat {seat + 1} holds {state.bars(seat)} bars of 3 to 5: the total is {low}..{high}, "
                       f"not {points} (C2)")
    return points


def _on_enter(state: State, seat: Seat | None, action: EnterTotal) -> tuple[State, Events]:
    count = state.count
    if state.phase not in (Phase.COUNT, Phase.REVIEW) or count is None:
        raise IllegalAction("no totals are being counted now")
    who = _subject(state, seat, action.seat)
    if who not in count.seats:
        raise NotYourTurn("only the tied players count again (C18)")
    points = _check_total(state, who, action.points)
    if state.phase is Phase.REVIEW:
        pad = state.pad.edit(who, count.number, points, seat)
        return replace(state, pad=pad), [TotalCorrected(who, pad.changes[-1].old, points, seat, False)]
    entries = tuple(e for e in count.entries if e[0] != who) + ((who, points, seat),)
    count = replace(count, entries=tuple(sorted(entries)))
    state = replace(state, count=count)
    events: Events = [TotalEntered(who, seat)]
    if len(entries) < len(count.seats):
        return state, events
    pad = state.pad
    for s, p, by in count.entries:
        pad = pad.enter(s, count.number, p, by)
    events.append(TotalsRevealed(count.number, count.seats, tuple(p for _, p, _ in count.entries),
                                 tuple(state.bars(s) for s in count.seats)))
    return replace(state, pad=pad, phase=Phase.REVIEW), events


def _need_host_review(state: State, seat: Seat | None, what: str) -> Count:
    if seat is not None:
        raise NotYourTurn(f"only the host {what}")
    if state.phase is not Phase.REVIEW or state.count is None:
        raise IllegalAction("no revealed totals to check now")
    return state.count


def _undoable(state: State, count: Count) -> bool:
    """Is the pad's next undo a correction of this count (never an entry itself)?"""
    try:
        pad = state.pad.undo(None)
    except BadEntry:
        return False
    last = pad.changes[-1]
    return last.round_no == count.number and all(pad.value(s, count.number) is not None for s in count.seats)


def _on_undo(state: State, seat: Seat | None, action: UndoEntry) -> tuple[State, Events]:
    count = _need_host_review(state, seat, "takes a correction back")
    if not _undoable(state, count):
        raise IllegalAction("there is no correction of these totals to take back; an entry itself stays")
    pad = state.pad.undo(None)
    last = pad.changes[-1]
    return replace(state, pad=pad), [TotalCorrected(last.seat, last.old, last.new, None, True)]


def _on_confirm(state: State, seat: Seat | None, action: ConfirmTotals) -> tuple[State, Events]:
    _need_host_review(state, seat, "confirms the totals")
    return _decide(state, [])


def _decide(state: State, events: Events) -> tuple[State, Events]:
    """C18 (or C20) on the revealed, possibly corrected totals."""
    count = state.count
    assert count is not None
    totals = {s: state.pad.value(s, count.number) or 0 for s in count.seats}
    if count.reason is EndReason.DECK_EMPTY:
        bars = {s: state.bars(s) for s in count.seats}
        return _physical_game_over(state, table.dry_winners(totals, bars, state.settings.dry_tie), Rule.C20, events)
    target = state.settings.target_for(state.n)
    top = table.target_leaders(totals, target)
    if not top:
        events.append(NobodyReached(target))
        return _resume(state, events)
    if len(top) == 1:
        return _physical_game_over(state, top, Rule.C18, events)
    events.append(TieBreak(top))
    restarted = table.start_round(table.evolve(state.table, round=state.table.round - 1), top, events)
    return replace(state, table=restarted, phase=Phase.PLAY, held=(), tie_break=top), events


def _latest_totals(state: State) -> tuple[int, ...]:
    """Each seat's latest entered total (a tie-break count updates only the tied seats)."""
    out = [0] * state.n
    for seat, _, points in state.pad.cells:  # sorted by (seat, round): the latest count wins
        out[seat] = points
    return tuple(out)


def _physical_game_over(state: State, winners: tuple[int, ...], cause: Rule, events: Events) -> tuple[State, Events]:
    assert state.count is not None
    totals = _latest_totals(state)
    reason = state.count.reason
    events.append(GameEnded(winners, totals, tuple(state.bars(s) for s in range(state.n)), reason, cause))
    return replace(state, phase=Phase.GAME_OVER, winners=winners, final_totals=totals, final_reason=reason,
                   held=()), events


def _on_timeout(state: State, seat: Seat | None, action: Timeout) -> tuple[State, Events]:
    if state.phase is Phase.PLAY:
        return _play(state, seat, action)
    if seat is not None:
        raise NotYourTurn("only the table sends timeouts")
    key = _review_key(state)
    if key is None or action.key != key:
        raise StaleState(f"timer {action.key!r} is not running (current: {key!r})")
    return _decide(state, [])


def _review_key(state: State) -> str | None:
    if state.phase is not Phase.REVIEW or state.count is None:
        return None
    return f"review:{state.count.number}:{len(state.pad.changes)}"  # a correction restarts it


_HANDLERS: dict[type, Callable[[State, Seat | None, Any], tuple[State, Events]]] = {
    Reached: _on_reached,
    EnterTotal: _on_enter,
    UndoEntry: _on_undo,
    ConfirmTotals: _on_confirm,
    Timeout: _on_timeout,
}


# ------------------------------------------------------------------------------------ quick rules
_DEATH_KEYS = {"targeted": "died_targeted", "not_in_majority": "died_not_in_majority", "no_vote": "died_no_vote",
               "ambush_suicide": "died_ambush_suicide", "ambushed": "died_ambushed"}


def _note(event: Any, physical: bool) -> Note | None:
    """What one event means for the table, as a rule id and a translatable key (None: nothing)."""
    e = EVENTS.to_wire(event)
    kind = e["type"]
    gold = "physical" if physical else "digital"
    simple: dict[str, Callable[[], Note]] = {
        "reveal": lambda: Note("C8", "targets" if e["targets"] else "no_target", tuple(e["targets"])),
        "ambush_needed": lambda: Note("C10", "ambush_choose", tuple(e["seats"])),
        "died": lambda: Note(e["cause"], _DEATH_KEYS[e["kind"]], (e["seat"],)),
        "pot_taken": lambda: Note("C13", f"pot_taken_{gold}", (e["seat"],), e["bars"]),
        "pot_stays": lambda: Note("C14", "pot_stays", (), e["bars"]),
        "bar_drawn": lambda: Note(e["cause"], f"bar_drawn_{gold}", (e["seat"],)),
        "showdown_started": lambda: Note("C15", "showdown", tuple(e["seats"])),
        "showdown_reveal": lambda: Note("C16" if any(e["timed_out"]) else "C15", f"showdown_paid_{gold}",
                                        tuple(e["seats"]), e["pot_left"]),
        "tie_break": lambda: Note("C18", "tie_break", tuple(e["seats"])),
        "round_started": lambda: Note("C19", "round_started", (), e["refilled"]),
        "check_started": lambda: Note("C17", "check", (), e["target"]),
        "check_result": lambda: Note("C17", "check_someone" if e["anyone"] else "check_nobody"),
        "count_started": lambda: Note(e["cause"], "count", tuple(e["seats"])),
        "totals_revealed": lambda: Note("C18", "totals_revealed", tuple(e["seats"])),
        "total_corrected": lambda: Note("C18", "total_corrected", (e["seat"],), e["new"]),
        "nobody_reached": lambda: Note("C17", "nobody_reached", (), e["target"]),
        "game_over": lambda: Note(e["cause"], "winner" if len(e["winners"]) == 1 else "winners", tuple(e["winners"])),
    }
    return note_of(kind, simple)


# ------------------------------------------------------------------------------------------ views
def _phase_name(state: State) -> str:
    return state.table.phase.value if state.phase is Phase.PLAY else state.phase.value


def _count_view(state: State) -> dict[str, JSON] | None:
    count = state.count
    if count is None or state.phase not in (Phase.COUNT, Phase.REVIEW):
        return None
    revealed = state.phase is Phase.REVIEW
    return {
        "number": count.number, "seats": list(count.seats), "reason": count.reason.value,
        "cause": (Rule.C20 if count.reason is EndReason.DECK_EMPTY else Rule.C18).value,
        "entered": [s for s, _, _ in count.entries],
        "totals": [state.pad.value(s, count.number) for s in count.seats] if revealed else None,
    }


def _companion_view(state: State) -> dict[str, JSON]:
    return {
        "gold": state.settings.gold.value,
        "check": {"answered": [s for s, _ in state.answers]} if state.phase is Phase.CHECK else None,
        "count": _count_view(state),
        "pad": state.pad.to_wire(),
        "notes": [n.to_wire() for n in state.notes],
        "tie_break": list(state.tie_break),
        "review_ms": state.settings.review_ms,
    }


def _public(state: State) -> dict[str, JSON]:
    view = table.public_view(state.table)
    view["game"] = "collusion_companion"
    view["phase"] = _phase_name(state)
    view["companion"] = _companion_view(state)
    over = state.phase is Phase.GAME_OVER
    view["winners"] = list(state.winners)
    view["final"] = None if not over or state.final_reason is None else {
        "reason": state.final_reason.value,
        "cause": (Rule.C20 if state.final_reason is EndReason.DECK_EMPTY else Rule.C18).value,
        "totals": list(state.final_totals), "bars": [state.bars(s) for s in range(state.n)],
    }
    if state.phase is not Phase.PLAY:
        view["showdown"] = None
        view["ambush_pending"] = []
    return view


def _private(state: State, seat: int) -> dict[str, JSON]:
    view = _public(state)
    me = table.private_view(state.table, seat)["me"]
    if state.physical:  # the program never knows a real bar's value
        me["gold"], me["total"] = None, None
    if state.phase is not Phase.PLAY:
        me.update(card=None, locked=False, vote_options=[], showdown_choice=None, ambush_prompt=None)
    me["bars"] = state.bars(seat)
    me["reached"] = dict(state.answers).get(seat) if state.phase is Phase.CHECK else None
    count = state.count
    counted = count is not None and state.phase in (Phase.COUNT, Phase.REVIEW) and seat in count.seats
    me["entry"] = count.entry(seat) if counted and count is not None and state.phase is Phase.COUNT else None
    me["total_range"] = list(total_range(state, seat)) if counted else None
    view["me"] = me
    return view


# ----------------------------------------------------------------------------------------- engine
class CollusionCompanionEngine(GameEngine[State]):
    news_events = NEWS  # the family's beats tell them on the TV (companion_screen)
    name = "collusion_companion"
    min_seats = table.MIN_SEATS
    max_seats = table.MAX_SEATS
    actions = ACTIONS
    events = EVENTS

    settings_presets = PRESETS
    fallback_preset = DEFAULT_PRESET

    def bots_can_play(self, settings: Settings) -> bool:
        """Digital gold only: with real bars a bot would have to split, hold and count gold it
        cannot touch (C17's check and count are the player's own)."""
        return settings.gold is not GoldMode.PHYSICAL

    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        if not isinstance(settings, Settings):
            raise BadSettings("the collusion companion needs its Settings")
        settings.validate()
        if not isinstance(n_seats, int) or not table.MIN_SEATS <= n_seats <= table.MAX_SEATS:
            raise BadSettings(f"collusion is played by {table.MIN_SEATS}–{table.MAX_SEATS} players (C1, C5)")
        if settings.gold is GoldMode.PHYSICAL:
            tbl = table.new_game_with_bars(settings, n_seats, seed, (UNKNOWN_BAR,) * table.TOTAL_BARS)
        else:
            tbl = TABLE.new_game(settings, n_seats, seed)
        return State(settings, tbl, ScorePad.empty(n_seats, high=5 * table.TOTAL_BARS))

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        check_seat(seat, state.n)
        if seat is None:
            return self.table_actions(state)
        if state.phase is Phase.PLAY:
            return TABLE.legal_actions(state.table, seat)
        if state.phase is Phase.CHECK:
            mine = dict(state.answers).get(seat)
            return [Reached(r) for r in (True, False) if r is not mine]
        count = state.count
        if state.phase in (Phase.COUNT, Phase.REVIEW) and count is not None and seat in count.seats:
            # every total the bars allow (C2), and the legal form a session that asks legal_form
            # compares: then any number reaches apply, which says what is wrong with a bad one
            low, high = total_range(state, seat)
            return [ENTER_FORM, *(EnterTotal(p) for p in range(max(low, 1), high + 1))]
        return []

    def table_actions(self, state: State) -> list[Any]:
        """What the host may do as the table (seat ``None``): answer or enter for a player without
        a phone, correct a revealed total, take a correction back, confirm the totals."""
        count = state.count
        if state.phase is Phase.CHECK:
            return [Reached(r, seat=s) for s in range(state.n) for r in (True, False)]
        if state.phase not in (Phase.COUNT, Phase.REVIEW) or count is None:
            return []
        out: list[Any] = [EnterTotal(0, seat=s) for s in count.seats]
        if state.phase is Phase.REVIEW:
            if _undoable(state, count):
                out.append(UndoEntry())
            out.append(ConfirmTotals())
        return out

    def legal_form(self, action: Any) -> Any:
        """The form an action has in the legal lists: a total's points zeroed (the session compares
        this form; :meth:`apply` checks the number and says what is wrong with it)."""
        return replace(action, points=0) if isinstance(action, EnterTotal) else action

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, list[Any]]:
        self._check_apply(state, seat)
        handler = _HANDLERS.get(type(action))
        if handler is None:
            if type(action) not in table.ACTIONS.classes:
                raise MalformedAction(f"not a collusion companion action: {action!r}")
            handler = _play
        new, events = handler(state, seat, action)
        return replace(new, notes=notes_after(events, lambda e: _note(e, new.physical), state.notes)), events

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        return _public(state) if seat is None else _private(state, seat)

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def timer(self, state: State) -> TimerRequest | None:
        if state.phase is Phase.PLAY:
            return TABLE.timer(state.table)
        key = _review_key(state)
        return None if key is None else TimerRequest(key, state.settings.review_ms, Timeout(key), "review")

    def seats_to_act(self, state: State) -> tuple[Seat, ...]:
        if state.phase is Phase.PLAY:
            return TABLE.seats_to_act(state.table)
        if state.phase is Phase.CHECK:
            answered = {s for s, _ in state.answers}
            return tuple(s for s in range(state.n) if s not in answered)
        if state.phase is Phase.COUNT and state.count is not None:
            entered = {s for s, _, _ in state.count.entries}
            return tuple(s for s in state.count.seats if s not in entered)
        return ()

    def describe_event(self, event: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
        return describe_event(event, name)


def describe_event(e: Mapping[str, Any], name: Callable[[int], str] = str) -> str:
    """One plain-English sentence per wire event (``tabletop replay``); table events as in table mode."""
    kind = e.get("type")
    words: dict[str, Callable[[], str]] = {
        "check_started": lambda: f"Round over: each player says in secret whether their bars reached {e['target']} (C17).",
        "check_answered": lambda: f"{name(e['seat'])} has answered.",
        "check_result": lambda: ("Someone has reached the target: everyone counts their gold (C17)." if e["anyone"]
                                 else "Nobody has reached the target: the next round starts (C19)."),
        "count_started": lambda: (f"Count {e['count']}: {table._names(e['seats'], name)} enter their totals in secret"
                                  f" ({e['cause']})."),
        "total_entered": lambda: f"{name(e['seat'])}'s total is in" + (" (entered by the host)." if e["by"] is None else "."),
        "totals_revealed": lambda: "Totals: " + ", ".join(
            f"{name(s)} {t} ({b} bars)" for s, t, b in zip(e["seats"], e["totals"], e["bars"])) + ".",
        "total_corrected": lambda: (f"{name(e['seat'])}'s total: {e['old']} → {e['new']}, "
                                    + ("correction taken back by the host." if e["undo"] else
                                       "corrected by the host." if e["by"] is None else "corrected by themselves.")),
        "nobody_reached": lambda: f"No total reaches {e['target']}: play goes on (C17).",
    }
    maker = words.get(kind) if isinstance(kind, str) else None
    return maker() if maker else table.describe_event(e, name)


ENGINE = CollusionCompanionEngine()
