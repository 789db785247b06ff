"""A scripted Collusion game on the real engine and bots, turned into ``TableSnapshot``s the way
the session builds them (no server): the screenshots tool, the tests and the benchmark use it.

The first round is scripted so every kind of drama happens: an Ambush by the target (who then
picks a victim), a suicide by Ambush, a missing vote, a vote outside the majority, a targeted
death and a Final Showdown; the bots play the rest of the game to its end.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any, Iterator

from game.rules import get_engine
from game.render.app import Screen
from game.render.scene import RenderContext
from game.render.settings import SettingsScene
from game.seating import look
from game.session.snapshot import (
    Mode, SeatInfo, SeatStatus, TablePhase, TableSnapshot, TimerInfo,
)

JOIN_BASE = "http://192.168.1.50:8765"
# names in several scripts, so every language shows mixed text
NAMES: tuple[str, ...] = ("Ali", "พลอย", "Mina", "سارا", "Tom", "สมชาย", "Reza", "Lena", "نیما", "Kai", "ดาว", "Zoë")


def seat_token(seat: int) -> str:
    return hashlib.sha256(f"seat-{seat}".encode()).hexdigest()[:22]


def seat_code(seat: int) -> str:
    alphabet = "ACDEFHJKMNPRTWXY"
    digest = hashlib.sha256(f"code-{seat}".encode()).digest()
    return "".join(alphabet[b % len(alphabet)] for b in digest[:4])


def seat_infos(n: int, joined: int, bots: int = 0, language: str = "en") -> tuple[SeatInfo, ...]:
    """``joined`` people on the first seats, then ``bots`` bots, the rest free."""
    out = []
    for i in range(n):
        status = SeatStatus.JOINED if i < joined else SeatStatus.BOT if i < joined + bots else SeatStatus.FREE
        out.append(SeatInfo(
            seat=i, status=status, name=NAMES[i % len(NAMES)] if status is SeatStatus.JOINED else "",
            colour=look(i).colour, symbol=look(i).symbol, code=seat_code(i),
            url=f"{JOIN_BASE}/j/{seat_token(i)}", connected=status is SeatStatus.JOINED and i != 1,
            language=language,
        ))
    return tuple(out)


def lobby_snapshot(n: int = 8, language: str = "en", joined: int = 3, bots: int = 2, game: str = "collusion",
                   preset: str | None = "tabani") -> TableSnapshot:
    engine = get_engine(game)
    settings = engine.settings_to_wire(engine.default_settings(preset))
    return TableSnapshot(
        version=1, mode=Mode.TABLE, language=language, game=game, preset=preset, settings=settings,
        seats=seat_infos(n, joined, bots, language), phase=TablePhase.LOBBY, public_view=None,
        join_url=f"{JOIN_BASE}/join", spectator_url=f"{JOIN_BASE}/watch",
        extras={"presets": list(engine.presets()), "min_seats": 3, "max_seats": 12, "can_start": True,
                "bots": [None] * joined + ["heuristic", "random"][:bots] + [None] * n},
    )


@dataclass
class ScriptedTable:
    """The real engine, stepped by hand or by bots, producing session-like snapshots."""

    n: int
    language: str = "en"
    seed: int = 7
    preset: str = "tabani"
    clock_ms: int = 1_000_000
    version: int = 1
    event_seq: int = 0
    events: tuple[dict[str, Any], ...] = ()
    timer_started: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.engine = get_engine("collusion")
        self.settings = self.engine.default_settings(self.preset)
        self.state = self.engine.new_game(self.settings, self.n, self.seed)
        from game.bots.collusion import make_bot

        self.bots = [make_bot("heuristic", s, self.seed * 100 + s) for s in range(self.n)]
        self.seats = seat_infos(self.n, self.n, 0, self.language)

    def act(self, seat: int | None, wire: dict[str, Any], think_ms: int = 2_500) -> None:
        action = self.engine.action_from_wire(wire)
        self.clock_ms += think_ms
        self.state, events = self.engine.apply(self.state, seat, action)
        self.events = tuple(self.engine.events_to_wire(events))
        self.event_seq += 1
        self.version += 1

    def expire(self) -> None:
        timer = self.engine.timer(self.state)
        if timer is None:
            raise RuntimeError("no timer is running")
        self.act(None, self.engine.action_to_wire(timer.on_expiry), think_ms=0)

    def bot_step(self) -> bool:
        """One bot action (or a timer expiry when no bot wants to act); False when the game is over."""
        if self.engine.is_over(self.state):
            return False
        for seat in self.engine.seats_to_act(self.state):
            action = self.bots[seat].choose(self.engine.view(self.state, seat), self.engine.legal_actions(self.state, seat))
            if action is not None:
                self.act(seat, self.engine.action_to_wire(action))
                return True
        self.expire()
        return True

    def wait(self, ms: int) -> None:
        self.clock_ms += ms
        self.version += 1

    def snapshot(self) -> TableSnapshot:
        timer = self.engine.timer(self.state)
        info = None
        if timer is not None:
            started = self.timer_started.setdefault(timer.key, self.clock_ms)
            info = TimerInfo(timer.key, timer.label, timer.duration_ms, started + timer.duration_ms)
        over = self.engine.is_over(self.state)
        return TableSnapshot(
            version=self.version, mode=Mode.TABLE, language=self.language, game="collusion", preset=self.preset,
            settings=self.engine.settings_to_wire(self.settings), seats=self.seats,
            phase=TablePhase.FINISHED if over else TablePhase.PLAYING,
            public_view=self.engine.view(self.state, None), events=self.events, event_seq=self.event_seq,
            timer=info, clock_ms=self.clock_ms, join_url=f"{JOIN_BASE}/join", spectator_url=f"{JOIN_BASE}/watch",
        )


@dataclass(frozen=True, slots=True)
class Moment:
    """A scene worth a picture: the snapshots to feed the screen, then how long to let it play."""

    name: str
    snapshots: tuple[TableSnapshot, ...]
    play_s: float = 1.0
    settings_open: bool = False


def _vote(t: ScriptedTable, seat: int, target: int | None) -> None:
    t.act(seat, {"type": "vote", "target": target} if target is not None else {"type": "ambush"})


def moments(language: str = "en", n: int = 7) -> Iterator[Moment]:
    """Every scene of a Collusion game, in play order."""
    lobby = lobby_snapshot(max(n, 8), language)
    yield Moment("01_lobby", (lobby,))
    yield Moment("02_settings", (lobby,), settings_open=True)
    t = ScriptedTable(n, language)
    start = t.snapshot()
    # vote 1: 1, 2, 3 name 0 who ambushes; 4 names 5; 5 ambushes (not a target); 6 puts nothing down
    for seat, target in ((1, 0), (2, 0), (0, None), (4, 5), (5, None)):
        _vote(t, seat, target)
    t.act(1, {"type": "lock"})
    t.act(2, {"type": "lock"})
    t.wait(220_000)
    mid_vote = t.snapshot()
    yield Moment("03_table", (start, mid_vote), play_s=1.0)
    _vote(t, 3, 0)
    deadline = mid_vote.timer.deadline_ms if mid_vote.timer else t.clock_ms
    t.wait(max(0, deadline - t.clock_ms - 8_000))
    yield Moment("04_last_seconds", (mid_vote, t.snapshot()), play_s=1.0)
    before = t.snapshot()
    t.expire()
    reveal = t.snapshot()
    yield Moment("05_reveal", (before, reveal), play_s=2.6)
    yield Moment("06_ambush", (before, reveal), play_s=3.3)
    yield Moment("07_ambush_choice", (before, reveal), play_s=12.0)
    t.act(0, {"type": "ambush_pick", "victim": 2})
    resolved = t.snapshot()
    yield Moment("08_deaths", (reveal, resolved), play_s=2.4)
    # vote 2: 0 and 1 name 3, 3 names 0 -> 3 dies, 0 and 1 go to the Final Showdown
    for seat, target in ((0, 3), (1, 3), (3, 0)):
        _vote(t, seat, target)
    pre = t.snapshot()
    for seat in (0, 1, 3):
        t.act(seat, {"type": "lock"})
    showdown_start = t.snapshot()
    yield Moment("09_vote_deaths", (pre, showdown_start), play_s=5.0)
    t.act(0, {"type": "showdown", "choice": "split"})
    picked = t.snapshot()
    yield Moment("10_showdown", (showdown_start, picked), play_s=14.0)
    t.act(1, {"type": "showdown", "choice": "steal"})
    t.act(0, {"type": "lock"})
    pre = t.snapshot()
    t.act(1, {"type": "lock"})
    done = t.snapshot()
    yield Moment("11_showdown_reveal", (pre, done), play_s=3.6)
    yield Moment("12_round_end", (pre, done), play_s=7.0 + 3.0)
    while t.bot_step():
        pass
    yield Moment("13_game_over", (t.snapshot(),), play_s=0.5)


def busiest_reveal(n: int = 12, language: str = "en") -> tuple[TableSnapshot, TableSnapshot]:
    """(before, after) of a reveal at a full table: every seat votes, several tied targets, an Ambush."""
    t = ScriptedTable(n, language)
    for seat in range(n):
        if seat in (0, 6):
            _vote(t, seat, None)
        else:
            _vote(t, seat, 0 if seat % 2 else 6)
    before = t.snapshot()
    t.expire()
    return before, t.snapshot()


def play_moment(moment: Moment, size: tuple[int, int], ctx: RenderContext | None = None) -> Screen:
    """A fresh screen (sharing ``ctx``'s caches if given) brought to the moment, ready to draw."""
    screen = Screen(ctx=ctx)
    for snap in moment.snapshots:
        screen.sync(snap)
        screen.advance(1 / 60, size)
    if moment.settings_open:
        screen.director.stack.append(SettingsScene())
    remaining = moment.play_s
    while remaining > 1e-6:  # keep syncing: beats queue up the way the live loop would
        step = min(0.25, remaining)
        screen.advance(step, size)
        screen.sync(moment.snapshots[-1])
        remaining -= step
    return screen
