"""A tiny game for session tests: every seat picks 1..3 (secretly), a round reveals when all have
picked or the timer runs out; ``tap`` carries a time (``t_ms``) the session must stamp. Two rounds.
Each seat has a secret number only its own view shows."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from game.bots import Bot
from game.rules.base import (
    GameEngine,
    GameOver,
    IllegalAction,
    NotYourTurn,
    StaleState,
    TimerRequest,
    WireCodec,
    check_seat,
)
from game.rules.rng import Rng

ACTIONS: WireCodec[Any] = WireCodec("action")
EVENTS: WireCodec[Any] = WireCodec("event")


@ACTIONS.register("pick")
@dataclass(frozen=True, slots=True)
class Pick:
    value: int


@ACTIONS.register("tap")
@dataclass(frozen=True, slots=True)
class Tap:
    t_ms: int


@ACTIONS.register("timeout")
@dataclass(frozen=True, slots=True)
class Timeout:
    key: str


@EVENTS.register("picked")
@dataclass(frozen=True, slots=True)
class Picked:
    seat: int


@EVENTS.register("revealed")
@dataclass(frozen=True, slots=True)
class Revealed:
    round: int
    picks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Settings:
    rounds: int = 2
    round_ms: int = 60_000


@dataclass(frozen=True, slots=True)
class State:
    settings: Settings
    seats: tuple[int, ...]  # secret numbers
    round: int
    picks: tuple[int | None, ...]
    scores: tuple[int, ...]
    taps: tuple[int, ...]  # last tap time per seat
    rng: Rng


class FakeEngine(GameEngine[State]):
    name = "fake"
    min_seats = 3
    max_seats = 12
    actions = ACTIONS
    events = EVENTS

    def default_settings(self, preset: str | None = None) -> Settings:
        return Settings(round_ms=1_000) if preset == "quick" else Settings()

    def presets(self) -> tuple[str, ...]:
        return ("normal", "quick")

    def new_game(self, settings: Settings, n_seats: int, seed: int) -> State:
        rng = Rng.from_seed(seed)
        secrets_ = []
        for _ in range(n_seats):
            value, rng = rng.below(1000)
            secrets_.append(value)
        return State(settings, tuple(secrets_), 1, (None,) * n_seats, (0,) * n_seats, (0,) * n_seats, rng)

    def is_over(self, state: State) -> bool:
        return state.round > state.settings.rounds

    def legal_actions(self, state: State, seat: int) -> list[Any]:
        if self.is_over(state):
            return []
        if state.picks[seat] is not None:
            return []  # picked: nothing to do until the reveal
        return [Pick(v) for v in (1, 2, 3)] + [Tap(0)]

    def apply(self, state: State, seat: int | None, action: Any) -> tuple[State, list[Any]]:
        if self.is_over(state):
            raise GameOver("over")
        check_seat(seat, len(state.seats))
        if isinstance(action, Timeout):
            if seat is not None:
                raise IllegalAction("timeouts are the table's")
            if action.key != self._key(state):
                raise StaleState("old timer")
            return self._reveal(state)
        if seat is None:
            raise NotYourTurn("the table does not play")
        if action not in self.legal_actions(state, seat) and not isinstance(action, Tap):
            raise IllegalAction("not now")
        if isinstance(action, Tap):
            taps = list(state.taps)
            taps[seat] = action.t_ms
            return replace(state, taps=tuple(taps)), []
        if not isinstance(action, Pick) or action not in self.legal_actions(state, seat):
            raise IllegalAction("not now")
        picks = list(state.picks)
        picks[seat] = action.value
        state = replace(state, picks=tuple(picks))
        if all(p is not None for p in picks):
            new, events = self._reveal(state)
            return new, [Picked(seat), *events]
        return state, [Picked(seat)]

    def _reveal(self, state: State) -> tuple[State, list[Any]]:
        picks = tuple(p or 0 for p in state.picks)
        scores = tuple(s + p for s, p in zip(state.scores, picks))
        new = replace(state, round=state.round + 1, picks=(None,) * len(picks), scores=scores)
        return new, [Revealed(state.round, picks)]

    @staticmethod
    def _key(state: State) -> str:
        return f"round:{state.round}"

    def timer(self, state: State) -> TimerRequest | None:
        if self.is_over(state):
            return None
        key = self._key(state)
        return TimerRequest(key, state.settings.round_ms, Timeout(key), "round")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out: dict[str, Any] = {"round": state.round, "picked": [p is not None for p in state.picks],
                               "scores": list(state.scores)}
        if seat is not None:
            out["me"] = {"seat": seat, "secret": state.seats[seat], "pick": state.picks[seat],
                         "tap": state.taps[seat]}
        return out


ENGINE = FakeEngine()


class FakeBot(Bot):
    def __init__(self, seat: int, think: int = 5) -> None:
        self.seat = seat
        self.think = think

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any | None:
        picks = [a for a in legal if isinstance(a, Pick)]
        return picks[-1] if picks else None

    def think_ms(self) -> int:
        return self.think


def engines(name: str) -> GameEngine:
    if name in ("fake", "collusion"):
        return ENGINE
    raise KeyError(name)


def bot_factory(game: str, kind: Any, seat: int, seed: int) -> FakeBot:
    return FakeBot(seat)
