"""Tapes: scripted games recorded from a REAL session. The how-to-play's worked examples, the
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

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from game import catalog
from game.config import TableConfig
from game.render.app import Screen
from game.render.kit.scene import RenderContext
from game.render.settings import SettingsScene
from game.rules.base import RulesError
from game.session.race_floor import PressSource
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import Mode, TablePhase, TableSnapshot

JOIN_BASE = "http://192.168.1.50:8765"
NAMES: tuple[str, ...] = ("Ali", "พลอย", "Mina", "سارا", "Tom", "สมชาย", "Reza", "Lena", "نیما", "Kai", "ดาว", "Zoë")
THINK_MS = 2_500
AWAY_SEAT = 1  # this seat's phone is away: its plate shows the mark


@dataclass(frozen=True, slots=True)
class Moment:
    """A scene worth a picture: the snapshots to feed the screen, then how long to let it play."""

    name: str
    snapshots: tuple[TableSnapshot, ...]
    play_s: float = 1.0
    settings_open: bool = False


class Recorder:
    """Keeps every snapshot the session publishes (a listener, as the server is)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.snapshots: list[TableSnapshot] = []

    def table_changed(self) -> None:
        snap = self.session.snapshot
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
                 mode: Mode = Mode.TABLE) -> None:
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
                self.session.join_seat(record.token, NAMES[record.seat % len(NAMES)], language)
                self.session.set_connected(record.seat, record.seat != AWAY_SEAT)
            elif record.seat < people + bots:  # clever and random bots by turns
                self.host("set_bot", seat=record.seat, kind=("heuristic", "random")[(record.seat - people) % 2])
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
        view = self.session.state_personal(seat)["view"] or {}
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
            if self.session.table.seats[seat].bot is not None or not self.session.legal_wire(seat):
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
        legal = [run.engine.action_from_wire(w) for w in self.session.legal_wire(seat)]
        action = self.brain(seat).choose(self.session.state_personal(seat)["view"], legal) if legal else None
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


def lobby_snapshot(n: int = 8, language: str = "en", joined: int = 3, bots: int = 2, game: str = "collusion",
                   preset: str | None = None) -> TableSnapshot:
    """The lobby: ``joined`` people on the first seats, then ``bots`` bots, the rest free."""
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


# ----------------------------------------------------------------------------------- Collusion
def _vote(t: ScriptedTable, seat: int, target: int | None) -> None:
    t.act(seat, {"type": "vote", "target": target} if target is not None else {"type": "ambush"})


def moments(language: str = "en", n: int = 7) -> Iterator[Moment]:
    """Every scene of a Collusion game, in play order: the first round is scripted so every kind of
    drama happens (an Ambush by the target, who then picks a victim; a suicide by Ambush; a missing
    vote; a vote outside the majority; a targeted death; a Final Showdown), the rest is played out."""
    lobby = lobby_snapshot(max(n, 8), language)
    yield Moment("01_lobby", (lobby,))
    yield Moment("02_settings", (lobby,), settings_open=True)
    t = ScriptedTable("collusion", n, language, preset="tabani")
    t.start()
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
    deadline = mid_vote.timer.deadline_ms if mid_vote.timer else t.vt.now_ms()
    t.wait(max(0, deadline - t.vt.now_ms() - 8_000))
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
    t.play_to_the_end()
    yield Moment("13_game_over", (t.snapshot(),), play_s=0.5)


def busiest_reveal(n: int = 12, language: str = "en") -> tuple[TableSnapshot, TableSnapshot]:
    """(before, after) of a reveal at a full table: every seat votes, several tied targets, an Ambush."""
    t = ScriptedTable("collusion", n, language, preset="tabani")
    t.start()
    for seat in range(n):
        _vote(t, seat, None if seat in (0, 6) else 0 if seat % 2 else 6)
    before = t.snapshot()
    t.expire()
    return before, t.snapshot()


# ----------------------------------------------------------------------------------- Speakeasy
def speakeasy_table(n: int = 6, language: str = "en", seed: int = 11, settings: dict[str, Any] | None = None) -> ScriptedTable:
    """A Speakeasy table whose built-in deck is the table's language, started."""
    t = ScriptedTable("speakeasy", n, language, seed=seed, preset=language, settings=settings)
    t.start()
    return t


def _with_identity(t: ScriptedTable, identity: str, exclude: set[int]) -> list[int]:
    """Seats whose phone shows ``identity`` (each player knows their own)."""
    return [s for s in range(t.n) if s not in exclude and t.me(s).get("identity") == identity]


def speakeasy_moments(language: str = "en", n: int = 6) -> Iterator[Moment]:
    """Every scene of a Speakeasy game, in play order: the first clue catches an Informant (several
    right pointers, a self-point, a wrong one, one who never points), the second finds a Citizen,
    nobody finds the third subject; the rest is played out, then the last secrets and the winner."""
    t = speakeasy_table(n, language)
    start = t.snapshot()
    yield Moment("s01_choosing", (start,), play_s=1.0)
    host = t.view["host"]
    subject = _with_identity(t, "informant", {host})[0]
    others = [s for s in range(n) if s not in (host, subject)]
    t.act(host, {"type": "choose_subject", "subject": subject})
    chosen = t.snapshot()
    for seat, target in ((others[0], subject), (subject, subject), (others[1], others[0])):
        t.act(seat, {"type": "point", "target": target})
    yield Moment("s02_pointing", (chosen, t.snapshot()), play_s=1.0)
    t.act(others[2], {"type": "point", "target": subject})
    timer = t.snapshot().timer
    t.wait(max(0, (timer.deadline_ms if timer else t.vt.now_ms()) - t.vt.now_ms() - 7_500))
    before = t.snapshot()
    yield Moment("s03_last_seconds", (chosen, before), play_s=0.6)
    t.expire()
    reveal = t.snapshot()
    for name, play in (("s04_reveal_arrows", 1.0), ("s05_reveal_subject", 1.9), ("s06_reveal_identity", 3.0),
                       ("s07_reveal_points", 3.8)):
        yield Moment(name, (before, reveal), play_s=play)
    yield Moment("s08_revealed", (before, reveal), play_s=6.0)
    yield from _second_and_third_clue(t)
    while True:
        prev = t.snapshot()
        if not t.play_turn():
            break
        if t.over:
            yield Moment("s11_final_secrets", (prev, t.snapshot()), play_s=2.8)
            break
    yield Moment("s12_game_over", (t.snapshot(),), play_s=0.5)


def _second_and_third_clue(t: ScriptedTable) -> Iterator[Moment]:
    """Clue 2: a Citizen is found (only they score). Clue 3: nobody finds the subject (the host scores)."""
    t.expire()  # the reveal pause ends: clue 2
    host = t.view["host"]
    subject = _with_identity(t, "citizen", {host})[0]
    t.act(host, {"type": "choose_subject", "subject": subject})
    pointers = [s for s in range(t.n) if s != host]
    right = next(s for s in pointers if s != subject)
    before = t.snapshot()
    for seat in pointers:  # one finds the Citizen; everyone else suspects the one who did
        t.act(seat, {"type": "point", "target": subject if seat == right else right})
    yield Moment("s09_citizen_found", (before, t.snapshot()), play_s=4.6)
    t.expire()  # clue 3
    host = t.view["host"]
    pointers = [s for s in range(t.n) if s != host]
    subject = pointers[-1]
    t.act(host, {"type": "choose_subject", "subject": subject})
    before = t.snapshot()
    for seat in pointers:
        t.act(seat, {"type": "point", "target": pointers[0] if seat != pointers[0] else pointers[1]})
    yield Moment("s10_nobody_found", (before, t.snapshot()), play_s=4.6)


def speakeasy_busiest_reveal(n: int = 12, language: str = "en") -> tuple[TableSnapshot, TableSnapshot]:
    """(before, after) of a Speakeasy reveal at a full table: every pointer points (a few at
    themselves), an Informant is caught and several seats score."""
    t = speakeasy_table(n, language)
    host = t.view["host"]
    subject = _with_identity(t, "informant", {host})[0]
    t.act(host, {"type": "choose_subject", "subject": subject})
    pointers = [s for s in range(n) if s != host]
    for seat in pointers[:-1]:
        t.act(seat, {"type": "point", "target": subject if seat % 3 else seat})
    before = t.snapshot()
    t.act(pointers[-1], {"type": "point", "target": subject})
    return before, t.snapshot()


# ------------------------------------------------------------------------------ Cheating Moth
MOTH_PRESS_SOURCES: dict[int, tuple[PressSource, float]] = {
    0: (PressSource.ARCADE, 0.4), 1: (PressSource.PHONE, 6.0), 2: (PressSource.KEYBOARD, 17.0)}


class MothTable(ScriptedTable):
    """Cheating Moth between three people (their moves and race presses made by bot brains; seat
    0 presses an arcade button, seat 1 a phone, seat 2 the keyboard, and seat 0 jumps the gun
    once) and the session's bots on the other seats."""

    def __init__(self, n: int = 4, language: str = "en", seed: int = 5, settings: dict[str, Any] | None = None) -> None:
        super().__init__("cheating_moth", n, language, seed=seed, people=3, bots=n - 3, settings=settings)
        self.jumped = False
        self._pressed_for: set[str] = set()

    def play(self, limit: int = 20_000) -> list[TableSnapshot]:
        """Every snapshot the session published from the deal to the final table."""
        self.start()
        for _ in range(limit):
            if self.over:
                return [s for s in self.recorder.snapshots if s.phase is not TablePhase.LOBBY]
            self._race_presses()
            self.play_turn()
        raise RuntimeError("the scripted Cheating Moth game did not end")

    def _race_presses(self) -> None:
        race = self.session.snapshot.race.current
        if race is None or race.key in self._pressed_for:
            return
        self._pressed_for.add(race.key)
        now = self.vt.now_ms()
        if race.mode == "slowest_loses" and not self.jumped and race.eligible:
            self.jumped = True  # one player slaps the pile just before it is time: a false start
            jumper = race.eligible[0]
            source, error = MOTH_PRESS_SOURCES.get(jumper, (PressSource.BOT, 0.0))
            self.session.press(jumper, now - 140.0, source, error_ms=error)
        for seat in range(3):
            press = self.brain(seat).race_press(self.session.state_personal(seat)["view"])
            if press is None:
                continue
            source, error = MOTH_PRESS_SOURCES[seat]
            at = now + max(1, int(self.brain(seat).think_ms()))
            self.vt.call_later(at - now, _pressing(self.session, seat, at, source, error, race.key))


def _pressing(session: Session, seat: int, at: float, source: PressSource, error: float, key: str) -> Callable[[], None]:
    def press() -> None:
        with contextlib.suppress(RulesError):  # the race was over before this hand came down
            session.press(seat, at, source, error_ms=error, race=key)

    return press


def _first(snaps: list[TableSnapshot], test: Callable[[TableSnapshot], bool], start: int = 1) -> int:
    """Index of the first snapshot (from ``start``) whose events or view pass ``test``."""
    for i in range(max(1, start), len(snaps)):
        if test(snaps[i]):
            return i
    raise LookupError("the scripted game has no such moment")


def _has(tag: str, **fields: Any) -> Callable[[TableSnapshot], bool]:
    return lambda snap: any(e.get("type") == tag and all(e.get(k) == v for k, v in fields.items()) for e in snap.events)


def _phase(name: str) -> Callable[[TableSnapshot], bool]:
    return lambda snap: (snap.public_view or {}).get("phase") == name


def _telling(flag: str) -> Callable[[TableSnapshot], bool]:
    return lambda snap: (snap.public_view or {}).get("phase") == "play" and any(
        s.get("tell") == flag for s in (snap.public_view or {}).get("seats", []))


def moth_moments(language: str = "en", n: int = 4, seed: int = 5) -> Iterator[Moment]:
    """Every scene of a Cheating Moth game (people and bots on virtual time, races through the
    session's race floor), in play order."""
    snaps = MothTable(n, language, seed).play()

    def at(name: str, test: Callable[[TableSnapshot], bool], play_s: float, start: int = 1) -> Moment:
        i = _first(snaps, test, start)
        return Moment(name, (snaps[i - 1], snaps[i]), play_s=play_s)

    yield Moment("m01_deal", (snaps[0],), play_s=0.5)
    yield at("m02_tell_trembles", _telling("tremble"), 0.6)
    yield at("m03_card_played", _has("played", kind="number", cause="M5"), 0.2)
    yield at("m04_caught", _has("accused", caught=True), 1.6)
    caught = _first(snaps, _has("accused", caught=True))
    yield at("m05_penalty_give", _phase("penalty_give"), 3.8, caught)  # after the accusation beat
    yield at("m06_bug_walks", _has("guard_passed", cause="M10"), 0.8, caught)
    yield at("m07_wrong_guess", _has("accused", caught=False), 1.6)
    yield at("m08_ant", _has("effect", kind="ant"), 0.9)
    yield at("m09_spider_give", _phase("spider_give"), 0.5)
    yield at("m10_spider_card", _has("card_given", cause="M13"), 0.6)
    yield at("m11_mosquito_race", _phase("mosquito_race"), 0.5)
    yield at("m12_mosquito_result", _has("race_decided", kind="mosquito"), 3.6)
    yield at("m13_mosquito_gives", _has("card_given", cause="M14"), 0.6)
    yield at("m14_beetle_race", _phase("beetle_race"), 0.5)
    yield at("m15_beetle_result", lambda s: _has("race_decided", kind="beetle")(s) and bool(
        (s.public_view or {}).get("last_race", {}).get("order")), 3.6)
    yield at("m16_round_over", _phase("round_over"), 2.0)
    yield at("m17_new_round", _has("guard_passed", cause="M18"), 1.2)
    yield Moment("m18_game_over", (snaps[-1],), play_s=0.5)
    yield _sleeve_moment(MothTable(n, language, seed, {"tell": "obvious"}))


def _sleeve_moment(table: MothTable) -> Moment:
    """The obvious tell (M11): a card sliding toward the cheater's sleeve."""
    snaps = table.play()
    i = _first(snaps, _telling("sleeve"))
    return Moment("m19_tell_sleeve", (snaps[i - 1], snaps[i]), play_s=0.4)
