"""Toy Guess: a test-only fourth game that proves a game plugs in with its own folder and one
catalog descriptor (:data:`DESCRIPTOR`), nothing edited elsewhere: this engine, its bots
(``bots.py``), its screen (``screen.py``), its scripted moments (``tapes.py``), its phone module
(``toy_guess.js``) and its words (``screen_toy_guess_<lang>.json``, ``web_toy_guess_<lang>.json``).

Rules (ids T1–T4): T1 each round every seat secretly picks 1, 2 or 3; T2 when all have picked (or
the pick timer runs out) the picks are shown and the highest number picked by one seat alone
scores 1; T3 then everyone races to buzz, the fastest scores 1 (a tie is broken by the seeded RNG;
nobody buzzing scores nothing); T4 after ``rounds`` rounds the highest total wins (ties shared).
"""
from __future__ import annotations

import dataclasses
import enum
import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from game.catalog import GameDescriptor, PlayMode, SeatRange
from game.rules.base import (
    JSON,
    BadSettings,
    GameEngine,
    GameOver,
    IllegalAction,
    NotYourTurn,
    RaceMode,
    RacePress,
    RaceRequest,
    Seat,
    StaleState,
    TimerRequest,
    WireCodec,
    check_seat,
)
from game.rules.rng import Rng

DESCRIPTOR = GameDescriptor(
    id="toy_guess", family="toy_guess", mode=PlayMode.TABLE, engine="toygame:ENGINE", bots="toygame.bots:make_bot",
    screen="toygame.screen", phone="games/toy_guess.js", strings=("screen_toy_guess",), title_key="game.toy_guess",
    tapes="toygame.tapes:TAPES", phone_strings=("web_toy_guess",), seats=SeatRange(2, 8),
    races=frozenset({RaceMode.FASTEST_WINS}), rulebook="views.md",
    folder=__path__[0],  # its pages, phone/ (its phone module) and strings/ (its words) are in this folder
)
DESCRIPTORS = (DESCRIPTOR,)  # what its entry point names when it is installed as a distribution

NUMBERS = (1, 2, 3)


class Phase(enum.Enum):
    PICK = "pick"
    BUZZ = "buzz"
    GAME_OVER = "game_over"


@dataclass(frozen=True, slots=True)
class Settings:
    rounds: int = 3
    pick_ms: int = 10_000
    buzz_ms: int = 3_000

    def validate(self) -> None:
        if not 1 <= self.rounds <= 9 or self.pick_ms <= 0 or self.buzz_ms <= 0:
            raise BadSettings("rounds must be 1-9 and the times positive")


ACTIONS: WireCodec[Any] = WireCodec("action")
EVENTS: WireCodec[Any] = WireCodec("event")


@ACTIONS.register("pick")
@dataclass(frozen=True, slots=True)
class Pick:
    number: int


@ACTIONS.register("timeout")
@dataclass(frozen=True, slots=True)
class Timeout:
    round: int


@ACTIONS.register("buzzed")
@dataclass(frozen=True, slots=True)
class Buzzed:
    round: int
    seats: tuple[int, ...] = ()
    times_ms: tuple[float, ...] = ()  # the judge's full precision (RacePress.t_ms)


@EVENTS.register("picked")
@dataclass(frozen=True, slots=True)
class Picked:
    seat: int


@EVENTS.register("revealed")
@dataclass(frozen=True, slots=True)
class Revealed:
    round: int
    picks: tuple[int, ...]  # 0: no pick
    scorer: int | None
    cause: str = "T2"


@EVENTS.register("buzz_won")
@dataclass(frozen=True, slots=True)
class BuzzWon:
    round: int
    seat: int | None
    cause: str = "T3"


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[int, ...]
    cause: str = "T4"


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    n: int
    rng: Rng
    phase: Phase
    round: int
    picks: tuple[int, ...]  # 0: not yet
    scores: tuple[int, ...]
    last_picks: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()


Events = list[Any]


def _reveal(state: State) -> tuple[State, Events]:
    """T2: the picks are shown; the highest number picked by one seat alone scores."""
    alone = [p for p in NUMBERS if state.picks.count(p) == 1]
    scorer = state.picks.index(max(alone)) if alone else None
    scores = state.scores if scorer is None else tuple(s + (i == scorer) for i, s in enumerate(state.scores))
    revealed = Revealed(state.round, state.picks, scorer)
    return dataclasses.replace(state, phase=Phase.BUZZ, scores=scores, last_picks=state.picks), [revealed]


def _buzzed(state: State, action: Buzzed) -> tuple[State, Events]:
    """T3 then T4: the fastest buzz scores; the next round or the end."""
    if action.round != state.round:
        raise StaleState(f"round {action.round} is over")
    if len(action.seats) != len(action.times_ms) or len(set(action.seats)) != len(action.seats):
        raise IllegalAction("seats and times_ms must pair up, one press per seat")
    for seat in action.seats:
        check_seat(seat, state.n)
    winner: int | None = None
    if action.seats:
        best = min(action.times_ms)
        tied = tuple(s for s, t in zip(action.seats, action.times_ms) if t == best)
        winner, rng = state.rng.choice(tied)
        state = dataclasses.replace(state, rng=rng)
    scores = state.scores if winner is None else tuple(s + (i == winner) for i, s in enumerate(state.scores))
    events: Events = [BuzzWon(state.round, winner)]
    state = dataclasses.replace(state, scores=scores)
    if state.round >= state.settings.rounds:
        top = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == top)
        events.append(GameEnded(winners))
        return dataclasses.replace(state, phase=Phase.GAME_OVER, winners=winners), events
    return dataclasses.replace(state, phase=Phase.PICK, round=state.round + 1, picks=(0,) * state.n), events


class ToyEngine(GameEngine[State]):
    name = "toy_guess"
    min_seats = 2
    max_seats = 8
    actions = ACTIONS
    events = EVENTS

    def default_settings(self, preset: str | None = None) -> Settings:
        if preset not in (None, "", "classic"):
            raise BadSettings(f"unknown preset {preset!r}")
        return Settings()

    def presets(self) -> tuple[str, ...]:
        return ("classic",)

    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        if not self.min_seats <= n_seats <= self.max_seats:
            raise BadSettings("2 to 8 seats")
        return State(settings, n_seats, Rng.from_seed(seed), Phase.PICK, 1, (0,) * n_seats, (0,) * n_seats)

    def n_seats(self, state: State) -> int:
        return state.n

    def legal_actions(self, state: State, seat: Seat) -> list[Any]:
        check_seat(seat, state.n)
        if seat is None or state.phase is not Phase.PICK or state.picks[seat]:
            return []
        return [Pick(n) for n in NUMBERS]

    def apply(self, state: State, seat: Seat | None, action: Any) -> tuple[State, list[Any]]:
        check_seat(seat, state.n)
        if state.phase is Phase.GAME_OVER:
            raise GameOver("the game is over")
        if seat is None:
            if isinstance(action, Timeout) and state.phase is Phase.PICK:
                if action.round != state.round:
                    raise StaleState(f"round {action.round} is over")
                return _reveal(state)
            if isinstance(action, Buzzed) and state.phase is Phase.BUZZ:
                return _buzzed(state, action)
            raise IllegalAction(f"the table cannot {type(action).__name__} now")
        if not isinstance(action, Pick):
            raise IllegalAction(f"{type(action).__name__} is the table's action")
        if state.phase is not Phase.PICK or state.picks[seat]:
            raise NotYourTurn("nothing to pick now")
        if action.number not in NUMBERS:
            raise IllegalAction("pick 1, 2 or 3")
        picks = tuple(action.number if i == seat else p for i, p in enumerate(state.picks))
        state, events = dataclasses.replace(state, picks=picks), [Picked(seat)]
        if all(picks):
            state, more = _reveal(state)
            events += more
        return state, events

    def view(self, state: State, seat: Seat | None) -> dict[str, JSON]:
        check_seat(seat, state.n)
        out: dict[str, JSON] = {
            "phase": state.phase.value, "round": state.round, "rounds": state.settings.rounds,
            "scores": list(state.scores), "picked": [bool(p) for p in state.picks],
            "last_picks": list(state.last_picks), "winners": list(state.winners),
        }
        if state.phase is Phase.BUZZ:
            out["race"] = {"id": _buzz_key(state)}  # a text key: phones press with it as it is
        if seat is not None:
            out["me"] = {"seat": seat, "pick": state.picks[seat] or None}
        return out

    def is_over(self, state: State) -> bool:
        return state.phase is Phase.GAME_OVER

    def timer(self, state: State) -> TimerRequest | None:
        if state.phase is Phase.PICK:
            return TimerRequest(f"pick:{state.round}", state.settings.pick_ms, Timeout(state.round), "pick")
        return None

    def race(self, state: State) -> RaceRequest | None:
        if state.phase is not Phase.BUZZ:
            return None
        return RaceRequest(_buzz_key(state), RaceMode.FASTEST_WINS, frozenset(range(state.n)),
                           state.settings.buzz_ms, functools.partial(buzzed, state.round), "buzz")

    def settings_from_wire(self, data: Mapping[str, Any], preset: str | None = None) -> Settings:
        return super().settings_from_wire(data, preset)  # type: ignore[no-any-return]


def buzzed(round_no: int, presses: tuple[RacePress, ...]) -> Buzzed:
    return Buzzed(round_no, tuple(p.seat for p in presses), tuple(p.t_ms for p in presses))


def _buzz_key(state: State) -> str:
    return f"buzz:{state.round}"


ENGINE = ToyEngine()
