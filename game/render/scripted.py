"""The companion screens' scripted games: the engine stepped by hand (Collusion and Speakeasy
companion, ``game/render/games/*_companion/scripted.py``). The table games' screens are drawn from
tapes of a real session instead (``game/render/tapes.py``); the companion fixtures still build their
snapshots here until they are recorded from a companion-mode session too."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from game.render.tapes import JOIN_BASE, NAMES, Moment, play_moment
from game.rules import get_engine
from game.seating import look
from game.session.snapshot import Mode, SeatInfo, SeatStatus, TablePhase, TableSnapshot, TimerInfo

__all__ = ["Moment", "ScriptedTable", "play_moment", "seat_infos"]


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
    game: str = "collusion"

    def __post_init__(self) -> None:
        self.engine = get_engine(self.game)
        self.settings = self.engine.default_settings(self.preset)
        self.state = self.engine.new_game(self.settings, self.n, self.seed)
        from game import catalog
        from game.bots import make_bot

        playable = catalog.get(self.game).has_bots  # a companion game may have none: scripts act by hand
        self.bots = [make_bot(self.game, "heuristic", s, self.seed * 100 + s) for s in range(self.n)] if playable else []
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
            version=self.version, mode=Mode.TABLE, language=self.language, game=self.game, preset=self.preset,
            settings=self.engine.settings_to_wire(self.settings), seats=self.seats,
            phase=TablePhase.FINISHED if over else TablePhase.PLAYING,
            public_view=self.engine.view(self.state, None), events=self.events, event_seq=self.event_seq,
            timer=info, clock_ms=self.clock_ms, join_url=f"{JOIN_BASE}/join", spectator_url=f"{JOIN_BASE}/watch",
        )


