"""A scripted Collusion game on the real engine and bots, turned into ``TableSnapshot``s the way
the session builds them (no server): the screenshots tool, the tests and the benchmark use it.

The first round is scripted so every kind of drama happens: an Ambush by the target (who then
picks a victim), a suicide by Ambush, a missing vote, a vote outside the majority, a targeted
death and a Final Showdown; the bots play the rest of the game to its end.
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from game.render.app import Screen
from game.render.kit.scene import RenderContext
from game.render.settings import SettingsScene
from game.rules import get_engine
from game.seating import look
from game.session.snapshot import (
    Mode,
    SeatInfo,
    SeatStatus,
    TablePhase,
    TableSnapshot,
    TimerInfo,
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


def speakeasy_table(n: int = 6, language: str = "en", seed: int = 11) -> ScriptedTable:
    """A Speakeasy table whose built-in deck is the table's language."""
    return ScriptedTable(n, language, seed=seed, preset=language, game="speakeasy")


def _identity_seats(t: ScriptedTable, identity: str, exclude: set[int]) -> list[int]:
    return [i for i, s in enumerate(t.state.seats) if s.identity.value == identity and i not in exclude]


def speakeasy_moments(language: str = "en", n: int = 6) -> Iterator[Moment]:
    """Every scene of a Speakeasy game, in play order: the first clue catches an Informant (several
    right pointers, a self-point, a wrong one, one who never points), the second finds a Citizen,
    nobody finds the third subject; the bots play the rest, then the last secrets and the winner."""
    t = speakeasy_table(n, language)
    start = t.snapshot()
    yield Moment("s01_choosing", (start,), play_s=1.0)
    host = t.state.host
    subject = _identity_seats(t, "informant", {host})[0]
    others = [s for s in range(n) if s not in (host, subject)]
    t.act(host, {"type": "choose_subject", "subject": subject})
    chosen = t.snapshot()
    for seat, target in ((others[0], subject), (subject, subject), (others[1], others[0])):
        t.act(seat, {"type": "point", "target": target})
    yield Moment("s02_pointing", (chosen, t.snapshot()), play_s=1.0)
    t.act(others[2], {"type": "point", "target": subject})
    timer = t.snapshot().timer
    t.wait(max(0, (timer.deadline_ms if timer else t.clock_ms) - t.clock_ms - 7_500))
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
        if not t.bot_step():
            break
        if t.engine.is_over(t.state):
            yield Moment("s11_final_secrets", (prev, t.snapshot()), play_s=2.8)
            break
    yield Moment("s12_game_over", (t.snapshot(),), play_s=0.5)


def _second_and_third_clue(t: ScriptedTable) -> Iterator[Moment]:
    """Clue 2: a Citizen is found (only they score). Clue 3: nobody finds the subject (the host scores)."""
    t.expire()  # the reveal pause ends: clue 2
    host = t.state.host
    subject = _identity_seats(t, "citizen", {host})[0]
    t.act(host, {"type": "choose_subject", "subject": subject})
    pointers = [s for s in range(t.n) if s != host]
    right = next(s for s in pointers if s != subject)
    before = t.snapshot()
    for seat in pointers:  # one finds the Citizen; everyone else suspects the one who did
        t.act(seat, {"type": "point", "target": subject if seat == right else right})
    yield Moment("s09_citizen_found", (before, t.snapshot()), play_s=4.6)
    t.expire()  # clue 3
    host = t.state.host
    pointers = [s for s in range(t.n) if s != host]
    subject = pointers[-1]
    t.act(host, {"type": "choose_subject", "subject": subject})
    before = t.snapshot()
    for seat in pointers:
        target = pointers[0] if seat != pointers[0] else pointers[1]
        t.act(seat, {"type": "point", "target": target})
    yield Moment("s10_nobody_found", (before, t.snapshot()), play_s=4.6)


def speakeasy_busiest_reveal(n: int = 12, language: str = "en") -> tuple[TableSnapshot, TableSnapshot]:
    """(before, after) of a Speakeasy reveal at a full table: every pointer points (a few at
    themselves), an Informant is caught and several seats score."""
    t = speakeasy_table(n, language)
    host = t.state.host
    subject = _identity_seats(t, "informant", {host})[0]
    t.act(host, {"type": "choose_subject", "subject": subject})
    pointers = [s for s in range(n) if s != host]
    for seat in pointers[:-1]:
        t.act(seat, {"type": "point", "target": subject if seat % 3 else seat})
    before = t.snapshot()
    t.act(pointers[-1], {"type": "point", "target": subject})
    return before, t.snapshot()


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


# ------------------------------------------------------------------------------ Cheating Moth
MOTH_PRESS_SOURCES: dict[int, tuple[str, float]] = {0: ("arcade", 0.4), 1: ("phone", 6.0), 2: ("keyboard", 17.0)}
MOTH_SETTLE_MS = 30  # after the last press, the judge hands in the result


@dataclass
class MothTable:
    """A Cheating Moth game between bots on a virtual clock, the way the session runs it: bots act
    ``think_ms()`` after they could, timed actions are stamped, timers fire at their deadline, and
    every race goes through the real race judge (seat 0 presses an arcade button, seat 1 a phone,
    seat 2 the keyboard, the rest are bots; seat 0 jumps the gun once). ``play()`` gives one
    snapshot per accepted action, the judge's outcome in ``extras["race_outcome"]``."""

    n: int = 4
    language: str = "en"
    seed: int = 5
    overrides: dict[str, Any] = field(default_factory=dict)  # settings, e.g. {"tell": "obvious"}
    now: int = 1_000_000
    snapshots: list[TableSnapshot] = field(default_factory=list)

    def __post_init__(self) -> None:
        from game.bots import make_bot

        self.engine = get_engine("cheating_moth")
        self.settings = self.engine.settings_from_wire(self.overrides)
        self.state = self.engine.new_game(self.settings, self.n, self.seed)
        self.bots: list[Any] = [make_bot("cheating_moth", "heuristic", s, self.seed * 100 + s) for s in range(self.n)]
        self.seats = seat_infos(self.n, 3, self.n - 3, self.language)
        self.extras: dict[str, Any] = {}
        self.timer_started: dict[str, int] = {}
        self.jumped = False
        self._record(())

    def play(self, max_steps: int = 5_000) -> list[TableSnapshot]:
        due: dict[int, int] = {}
        idle: set[int] = set()
        timer: tuple[str, int, Any] | None = None  # key, due, action
        for _ in range(max_steps):
            if self.engine.is_over(self.state):
                return self.snapshots
            timer = self._sync_timer(timer)
            acting = self.engine.seats_to_act(self.state)
            due = {s: t for s, t in due.items() if s in acting}
            for waiting in acting:
                if waiting not in due and waiting not in idle:
                    due[waiting] = self.now + max(0, int(self.bots[waiting].think_ms()))
            seat = min(due, key=lambda s: (due[s], s)) if due else None
            if seat is not None and (timer is None or due[seat] < timer[1]):
                self.now = due.pop(seat)
                legal = self.engine.legal_actions(self.state, seat)
                action = self.bots[seat].choose(self.engine.view(self.state, seat), legal) if legal else None
                if action is None:
                    idle.add(seat)
                    continue
                if any(f.name == "t_ms" for f in dataclasses.fields(action)):
                    action = dataclasses.replace(action, t_ms=self.now)
                self._apply(seat, action)
            elif timer is not None:
                self.now = max(self.now, timer[1])
                self._apply(None, timer[2])
                timer = None
            else:
                raise RuntimeError("the scripted Cheating Moth game is stuck")
            idle.clear()
        raise RuntimeError("the scripted Cheating Moth game did not end")

    def _apply(self, seat: int | None, action: Any) -> None:
        self.state, events = self.engine.apply(self.state, seat, action)
        self._record(tuple(self.engine.events_to_wire(events)))

    def _sync_timer(self, timer: tuple[str, int, Any] | None) -> tuple[str, int, Any] | None:
        request = self.engine.timer(self.state)
        if request is None:
            return None
        if timer is not None and timer[0] == request.key:
            return timer
        self.timer_started.setdefault(request.key, self.now)
        view = self.engine.view(self.state, None)
        if view.get("race") is not None and request.key.startswith("race:"):
            return self._race(request, view["race"])
        return request.key, self.now + request.duration_ms, request.on_expiry

    def _race(self, request: Any, race: dict[str, Any]) -> tuple[str, int, Any]:
        """Collect the bots' presses through the race judge; the result comes once all have pressed."""
        from game.session.race_floor import Press, PressSource, RaceJudge, RaceMode

        judge = RaceJudge()
        presses: list[tuple[int, int, Any]] = []
        for seat, bot in enumerate(self.bots):
            press = bot.race_press(self.engine.view(self.state, seat))
            if press is not None:
                presses.append((self.now + max(0, int(bot.think_ms())), seat, press.card))
        mosquito = race["kind"] == "mosquito"
        eligible = set(race["eligible"]) if mosquito else {s for _, s, _ in presses}
        if mosquito and not self.jumped and race["eligible"]:
            self.jumped = True  # one player slaps the pile before it is time
            jumper = race["eligible"][0]
            source = PressSource[MOTH_PRESS_SOURCES.get(jumper, ("bot", 0.0))[0].upper()]
            judge.press(Press(jumper, self.now - 140.0, source))
        if not eligible:
            return request.key, self.now + request.duration_ms, request.on_expiry
        judge.arm(request.key, eligible, self.now, request.duration_ms,
                  mode=RaceMode.SLOWEST_LOSES if mosquito else RaceMode.FASTEST_WINS, settle_ms=MOTH_SETTLE_MS)
        cards: dict[int, Any] = {}
        errors: dict[int, float] = {}
        for t, seat, card in sorted(presses):
            name, error = MOTH_PRESS_SOURCES.get(seat, ("bot", 0.0))
            judge.press(Press(seat, float(t), PressSource[name.upper()], error))
            cards[seat], errors[seat] = card, error
        outcome = judge.result()
        self.extras = {"race_outcome": outcome.to_wire()}
        wire = {"type": "race_result", "race": race["id"], "start_ms": self.now, "seats": list(outcome.order),
                "times_ms": [round(outcome.times_ms[s]) for s in outcome.order],
                "cards": [cards[s] for s in outcome.order], "error_ms": [math.ceil(errors[s]) for s in outcome.order]}
        last = max((t for t, _, _ in presses), default=self.now)
        return request.key, min(self.now + request.duration_ms, last + MOTH_SETTLE_MS), self.engine.action_from_wire(wire)

    def _record(self, events: tuple[dict[str, Any], ...]) -> None:
        request = self.engine.timer(self.state)
        info = None
        if request is not None:
            started = self.timer_started.setdefault(request.key, self.now)
            info = TimerInfo(request.key, request.label, request.duration_ms, started + request.duration_ms)
        over = self.engine.is_over(self.state)
        self.snapshots.append(TableSnapshot(
            version=len(self.snapshots) + 1, mode=Mode.TABLE, language=self.language, game="cheating_moth",
            preset=None, settings=self.engine.settings_to_wire(self.settings), seats=self.seats,
            phase=TablePhase.FINISHED if over else TablePhase.PLAYING, public_view=self.engine.view(self.state, None),
            events=events, event_seq=len(self.snapshots), timer=info, clock_ms=self.now, extras=dict(self.extras),
            join_url=f"{JOIN_BASE}/join", spectator_url=f"{JOIN_BASE}/watch",
        ))


def _first(snaps: list[TableSnapshot], test: Any, start: int = 1) -> int:
    """Index of the first snapshot (from ``start``) whose events or view pass ``test``."""
    for i in range(max(1, start), len(snaps)):
        if test(snaps[i]):
            return i
    raise LookupError("the scripted game has no such moment")


def _has(tag: str, **fields: Any) -> Any:
    return lambda snap: any(e.get("type") == tag and all(e.get(k) == v for k, v in fields.items()) for e in snap.events)


def _phase(name: str) -> Any:
    return lambda snap: (snap.public_view or {}).get("phase") == name


def _telling(flag: str) -> Any:
    return lambda snap: (snap.public_view or {}).get("phase") == "play" and any(
        s.get("tell") == flag for s in (snap.public_view or {}).get("seats", []))


def moth_moments(language: str = "en", n: int = 4, seed: int = 5) -> Iterator[Moment]:
    """Every scene of a Cheating Moth game (bots on a virtual clock, races through the judge), in play order."""
    snaps = MothTable(n, language, seed).play()

    def at(name: str, test: Any, play_s: float, start: int = 1) -> Moment:
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
