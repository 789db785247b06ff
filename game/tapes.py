"""Tapes: scripted games recorded from a REAL session (the kit: each game's own script is in its
screen package, ``game/games/<family>/tapes.py``, reached through the catalog's ``tapes``). The how-to-play's worked examples, the
screen's tests, tools/screenshots.py and the render benchmark all get their snapshots from
:class:`game.session.session.Session` itself on virtual time (``VirtualTime`` is its clock and its
scheduler, no journal), driven by the actions people would take; no snapshot is made by hand.

The people are named (in several scripts, so every language shows mixed text) and their phones
are connected (seat 1's is away). Where a scene needs drama (an Ambush, an Informant caught, a
false start) the script plays those moves; the rest of a game is played by the bots' brains
through the session's public doors (``submit_action``, ``press``), and the session's own bots play
the seats given to them in the lobby.
"""
from __future__ import annotations

import dataclasses
from typing import Any

from game import catalog
from game.bots import Level
from game.config import TableConfig
from game.render.app import Screen
from game.render.kit.scene import RenderContext
from game.render.moments import Moment, PhoneShot, Tapes, tape_people
from game.render.settings import SettingsScene
from game.rules.base import RulesError
from game.session.api import Session, TableUpdate, VirtualTime
from game.session.snapshot import RunMode, TablePhase, TableSnapshot

__all__ = ["Moment", "PhoneShot", "Recorder", "ScriptedTable", "Tapes", "companion_table", "lobby_snapshot", "play_moment"]

JOIN_BASE = "http://192.168.1.50:8765"
NAMES: tuple[str, ...] = ("Ali", "พลอย", "Mina", "سارا", "Tom", "สมชาย", "Reza", "Lena", "نیما", "Kai", "ดาว", "Zoë")
THINK_MS = 2_500
AWAY_SEAT = 1  # this seat's phone is away: its plate shows the mark


class Recorder:
    """Keeps every snapshot the session publishes (a listener, as the server is)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.snapshots: list[TableSnapshot] = []

    def updated(self, update: TableUpdate) -> None:
        snap = update.snapshot
        if not self.snapshots or self.snapshots[-1] is not snap:
            self.snapshots.append(snap)

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        pass

    def notice(self, code: Any) -> None:
        pass


class ScriptedTable:
    """A table of ``people`` named players (the first seats) and ``bots`` session bots."""

    def __init__(self, game: str, n: int, language: str = "en", *, seed: int = 7, preset: str | None = None,
                 people: int | None = None, bots: int = 0, settings: dict[str, Any] | None = None,
                 mode: RunMode = RunMode.TABLE) -> None:
        self.vt = VirtualTime()
        self.session = Session.boot(TableConfig(language=language, game=game, seed=seed, mode=mode), None, None,
                                    clock=self.vt, scheduler=self.vt)
        self.session.set_base_url(JOIN_BASE)
        self.recorder = Recorder(self.session)
        self.session.attach(self.recorder)
        self.n = n
        self.host("set_seats", count=n)
        if preset is not None:
            self.host("set_preset", preset=preset)
        for name, value in (settings or {}).items():
            self.host("set_setting", name=name, value=value)
        people = n - bots if people is None else people
        for record in self.session.table.offered:
            if record.seat < people:
                names = tape_people() or NAMES
                self.session.join_seat(record.token, names[record.seat % len(names)], language)
                self.session.set_connected(record.seat, record.seat != AWAY_SEAT)
            elif record.seat < people + bots:  # the easy, normal and hard levels by turns
                levels = list(Level)
                self.host("set_bot", seat=record.seat, kind=levels[(record.seat - people) % len(levels)].kind.value)
        self.brains: dict[int, Any] = {}

    # the host and the players ---------------------------------------------------------------
    def host(self, command: str, **fields: Any) -> None:
        self.session.host_command({"command": command, **fields})

    def start(self) -> None:
        self.host("start")

    def act(self, seat: int | None, wire: dict[str, Any], think_ms: int = THINK_MS) -> None:
        """A seat's move from its phone; seat ``None``: the host acting as the table (a referee's tap)."""
        self.vt.advance(think_ms)
        if seat is None:
            self.host("table_action", action=wire)
        else:
            self.session.submit_action(seat, wire, None)

    def wait(self, ms: int) -> None:
        self.vt.advance(ms)

    def expire(self) -> None:
        """Let the running timer run out."""
        running = self.session.timer
        if running is None:
            raise RuntimeError("no timer is running")
        self.vt.advance(max(0, running.info.deadline_ms - self.vt.now_ms()) + 1)

    def snapshot(self) -> TableSnapshot:
        """The session's latest snapshot as the screen has it now: read at the current time (the
        screen counts the time since it arrived on its own clock; a picture taken later is the same
        snapshot read later)."""
        return dataclasses.replace(self.session.snapshot, clock_ms=self.vt.now_ms())

    def me(self, seat: int) -> dict[str, Any]:
        """What the seat's own phone shows of its secrets."""
        view = self.session.update.seat(seat).view or {}
        return view.get("me") or view.get("you") or {}

    @property
    def state(self) -> Any:
        """The engine's state (what the people at a companion table see on their real cards)."""
        run = self.session.run
        assert run is not None
        return run.state

    @property
    def view(self) -> dict[str, Any]:
        return self.session.snapshot.public_view or {}

    @property
    def over(self) -> bool:
        return self.session.phase is not TablePhase.PLAYING

    # the people's turns played by the bots' brains ----------------------------------------------
    def brain(self, seat: int) -> Any:
        if seat not in self.brains:
            run = self.session.run
            assert run is not None
            self.brains[seat] = catalog.get(self.session.table.game).make_bot("heuristic", seat, run.seed * 100 + seat)
        return self.brains[seat]

    def play_turn(self) -> bool:
        """One person's move as their bot brain would make it, after thinking (the session's bots
        and timers go on meanwhile), or time passing; False when the game is over."""
        if self.over:
            return False
        for seat in range(self.n):
            if self.session.table.seats[seat].bot is not None or not self.session.update.seat(seat).legal:
                continue
            self.vt.advance(max(1, int(self.brain(seat).think_ms())))
            if self._move(seat):
                return True
        upcoming = self.vt.next_due_ms()  # nobody moved: the next timer or bot, or a second passes
        self.vt.advance(1_000 if upcoming is None else max(1.0, upcoming - self.vt.now_ms()))
        return True

    def _move(self, seat: int) -> bool:
        run = self.session.run
        if self.over or run is None:
            return False
        legal = [run.engine.action_from_wire(w) for w in self.session.update.seat(seat).legal]
        action = self.brain(seat).choose(self.session.update.seat(seat).view, legal) if legal else None
        if action is None:
            return False
        try:
            self.session.submit_action(seat, run.engine.action_to_wire(action), None)
        except RulesError:
            return False  # too early or too late (a cheat not held long enough): they try again later
        return True

    def play_to_the_end(self, limit: int = 5_000) -> None:
        for _ in range(limit):
            if not self.play_turn():
                return
        raise RuntimeError("the scripted game did not end")


def lobby_snapshot(n: int = 8, language: str = "en", joined: int = 3, bots: int = 2, game: str | None = None,
                   preset: str | None = None) -> TableSnapshot:
    """The lobby of ``game`` (None: the catalog's first table game): ``joined`` people on the first
    seats, then ``bots`` bots, the rest free."""
    game = game or catalog.games(catalog.PlayMode.TABLE)[0].id
    return ScriptedTable(game, n, language, preset=preset, people=joined, bots=bots).snapshot()


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



def companion_table(family: str, language: str, n: int, *, seed: int, preset: str | None,
                    settings: dict[str, Any]) -> ScriptedTable:
    """A companion-mode table of ``n`` named people (the family's companion variant), started."""
    t = ScriptedTable(family, n, language, seed=seed, preset=preset, settings=settings, mode=RunMode.COMPANION)
    assert catalog.get(t.session.table.game).mode is catalog.PlayMode.COMPANION, t.session.table.game
    t.start()
    return t
