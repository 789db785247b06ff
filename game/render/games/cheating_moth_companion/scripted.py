"""A scripted Cheating Moth companion evening (the real engine, stepped by hand) for screenshots,
scene tests and benchmarks: a turn, a Mosquito race with a false start, its verdict, a Beetle win
undone, the round's scoring, a corrected pad and the final standings."""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from game.render.tapes import JOIN_BASE, NAMES, Moment
from game.rules.base import RacePress
from game.rules.cheating_moth_companion import ENGINE, Settings, State
from game.seating import look
from game.session.snapshot import Mode, RaceInfo, SeatInfo, SeatStatus, TablePhase, TableSnapshot

GAME = "cheating_moth_companion"
SOURCES = {0: ("arcade", 1), 1: ("phone", 9), 2: ("arcade", 1), 3: ("keyboard", 17)}


@dataclass
class CompanionTable:
    """The companion engine driven by hand, producing session-like snapshots (with the race floor's extras)."""

    language: str = "en"
    n: int = 4
    rounds: int = 2
    state: State = field(init=False)
    seats: tuple[SeatInfo, ...] = field(init=False)
    now: int = 100_000
    extras: dict[str, Any] = field(default_factory=dict)
    snapshots: list[TableSnapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = ENGINE.new_game(Settings(rounds=self.rounds), self.n, 7)
        self.seats = tuple(SeatInfo(i, SeatStatus.JOINED, NAMES[i % len(NAMES)], look(i).colour, look(i).symbol, "", "",
                                    connected=True, language=self.language) for i in range(self.n))
        self.snap([])

    def act(self, seat: int | None, wire: dict[str, Any]) -> None:
        self.state, events = ENGINE.apply(self.state, seat, ENGINE.action_from_wire(wire))
        self.now += 900
        self.snap(ENGINE.events_to_wire(events))

    def open_race(self, kind: str, pressed: tuple[int, ...] = (), false_start: int | None = None) -> None:
        self.act(self.state.turn, {"type": "call", "kind": kind})
        starts = [] if false_start is None else [{"seat": false_start, "early_by_ms": 140.0, "source": "arcade"}]
        self.extras["race"] = {"current": {"race": self.state.race_no, "kind": kind, "armed_at_ms": self.now,
                                           "timeout_ms": 5000, "pressed": list(pressed), "false_starts": starts},
                               "last": None}
        self.now += 1200
        self.snap([])

    def finish_race(self, presses: list[tuple[int, int]], false_start: int | None = None) -> None:
        request = ENGINE.race(self.state)
        assert request is not None
        order = [seat for seat, _ in sorted(presses, key=lambda p: p[1])]
        starts = [] if false_start is None else [{"seat": false_start, "early_by_ms": 140.0, "source": "arcade"}]
        self.extras["race"] = {"current": None, "last": {"order": order, "sources": [SOURCES[s][0] for s in order],
                                                         "false_starts": starts}}
        action = request.on_result(tuple(RacePress(s, t, SOURCES[s][1]) for s, t in sorted(presses, key=lambda p: p[1])))
        self.act(None, ENGINE.action_to_wire(action))

    def snap(self, events: list[dict[str, Any]]) -> None:
        over = ENGINE.is_over(self.state)
        self.snapshots.append(TableSnapshot(
            version=len(self.snapshots) + 1, mode=Mode.COMPANION, language=self.language, game=GAME, preset="classic",
            settings=ENGINE.settings_to_wire(self.state.settings), seats=self.seats,
            phase=TablePhase.FINISHED if over else TablePhase.PLAYING, public_view=ENGINE.view(self.state, None),
            events=tuple(events), event_seq=len(self.snapshots), clock_ms=self.now,
            race=RaceInfo.from_json(self.extras.get("race") or {}),
            join_url=f"{JOIN_BASE}/join", spectator_url=f"{JOIN_BASE}/watch",
        ))

    def moment(self, name: str, play_s: float = 1.0) -> Moment:
        return Moment(name, tuple(self.snapshots[-2:]), play_s)


def companion_moments(language: str = "en") -> Iterator[Moment]:
    t = CompanionTable(language)
    yield t.moment("turn")
    t.open_race("mosquito", pressed=(2,), false_start=3)
    yield t.moment("mosquito_race", play_s=1.2)
    t.finish_race([(2, 212), (1, 268), (3, 431)], false_start=3)
    yield t.moment("mosquito_slowest")
    t.act(1, {"type": "end_turn"})
    t.open_race("beetle")
    t.finish_race([(0, 188), (3, 204), (1, 330)])
    yield t.moment("beetle_fastest")
    t.act(0, {"type": "wrong_win"})
    yield t.moment("beetle_undone")
    t.act(None, {"type": "round_over", "out": 2})
    t.act(0, {"type": "enter_points", "seat": 0, "points": 14})
    yield t.moment("scoring")
    t.act(1, {"type": "enter_points", "seat": 1, "points": 6})
    t.act(3, {"type": "enter_points", "seat": 3, "points": 23})
    t.act(None, {"type": "edit_points", "seat": 0, "round": 1, "points": 12})
    t.act(1, {"type": "next_round"})
    yield t.moment("round_two_corrected")
    t.act(None, {"type": "round_over", "out": 0})
    for seat, points in ((1, 11), (2, 9), (3, 2)):
        t.act(seat, {"type": "enter_points", "seat": seat, "points": points})
    t.act(None, {"type": "next_round"})
    yield t.moment("final")
