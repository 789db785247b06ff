"""The secrets matrix for the companion variants without bots (Speakeasy and Cheating Moth
companions: the people and cards are real, so no bot can play them). Seeded scripted people play
whole games through a real :class:`Session` on virtual time: each step one of them (or the host,
as the table) makes a random legal move from their own phone's ``legal`` list (points and pad
corrections with random numbers, which the pad may refuse), a seat slaps in an open race (now, late
or a false start, from a random source), or time passes so timers and races run out.

Everything observed is recorded at every change with ``secrets_kit.Recorder`` (each seat's
``state`` frame, the spectator feed's and the host console's frames, exactly as the hub encodes
them, and the big screen's snapshot) and checked by ``secrets_kit.check``; then, per moment:

* **Nothing but the owner sees a secret** (non-interference): each secret of the moment is changed
  in the engine's state, and every observer but its owner must be given the very view it was sent.
  The secrets (``game/games/speakeasy/companion_views.md``; rule ids of ``docs/rules/speakeasy.md``):
  an identity dealt to a phone, not yet turned over (S1, S4; turned over at S8, S12); the subject
  the host picked (S6) until the pointing is revealed (S7); whom a seat points at on its phone
  until the reveal (S7). Real fingers (``pointing: hands``) and the score pad are public.
* **Every private field is listed**: each field of a seat's ``me`` is a listed secret or follows
  from the public view (and equals it). Cheating Moth companion has no secret at all: the cards are
  real and the program never knows a hand (``game/games/cheating_moth/companion_views.md``); its ``me``
  (turn, guard, Beetle win to undo, the round's penalty points and total, M4, M10, M15, M17) is all
  in the public view, so a new private field fails here until it is listed.
"""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from secrets_kit import SECRET_FIELDS, Matrix, Moment, Recorder, check

from game.config import TableConfig
from game.games.speakeasy import companion as se
from game.rules.base import RulesError
from game.session.race_floor import PressSource
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import RunMode, TablePhase

# corrections and the end of a Cheating Moth round are rare, so that a game has turns and races
WEIGHTS = {"edit_points": 0.1, "undo_points": 0.1, "edit_score": 0.1, "undo_score": 0.1, "undo_point": 0.3,
           "wrong_win": 0.3, "round_over": 0.05}
HOST_WEIGHT = 0.3  # the host taps for someone now and then; people mostly act themselves


def _speakeasy_setup(rng: random.Random, seed: int) -> tuple[int, dict[str, Any]]:
    """Every seed plays another mix of phones and real cards, phones and real fingers."""
    mixes = (("phones", "phones", "screen"), ("cards", "hands", "cards"), ("phones", "hands", "screen"),
             ("cards", "phones", "cards"))
    identities, pointing, clues = mixes[(seed - 1) % len(mixes)]
    return rng.randint(4, 6), {"identities": identities, "pointing": pointing, "clue_source": clues,
                               "clues_per_game": 4}


def _moth_setup(rng: random.Random, seed: int) -> tuple[int, dict[str, Any]]:
    return rng.randint(3, 5), {"rounds": 2, "race_timeout_ms": 2_000}


# the bot-less games the scripted people play (the matrix test fails for a catalog game in neither list)
SETUPS: dict[str, Callable[[random.Random, int], tuple[int, dict[str, Any]]]] = {
    "speakeasy_companion": _speakeasy_setup,
    "cheating_moth_companion": _moth_setup,
}


class ScriptedPeople:
    """A companion table of real people, each move a seeded random pick among the legal ones."""

    def __init__(self, game: str, seed: int) -> None:
        self.rng = random.Random(seed)
        self.vt = VirtualTime()
        n, settings = SETUPS[game](self.rng, seed)
        config = TableConfig(game=game, seed=seed, mode=RunMode.COMPANION)
        self.session = Session.boot(config, None, None, clock=self.vt, scheduler=self.vt)
        self._host("set_seats", count=n)
        for name, value in settings.items():
            self._host("set_setting", name=name, value=value)
        for record in self.session.table.offered:
            self.session.join_seat(record.token, f"P{record.seat + 1}", "en")
        self.recorder = Recorder(self.session)
        self.session.attach(self.recorder)
        self._host("start")
        self.moves: Counter[str] = Counter()  # accepted moves by type ("press" for a race's slaps)
        self.refused = 0

    @property
    def over(self) -> bool:
        return self.session.phase is not TablePhase.PLAYING

    def _host(self, command: str, **fields: Any) -> None:
        self.session.host_command({"command": command, **fields})

    def step(self) -> None:
        choices = self._moves() + self._presses()
        wait = (0.3 if choices else 1.0, self._wait)
        weights, doers = zip(*(choices + [wait]), strict=True)
        self.rng.choices(doers, weights)[0]()

    def _moves(self) -> list[tuple[float, Callable[[], None]]]:
        out: list[tuple[float, Callable[[], None]]] = []
        for seat in range(self.session.table.seat_count):
            out += [(WEIGHTS.get(w["type"], 1.0), self._mover(seat, w)) for w in self.session.legal_wire(seat)]
        table_legal = self.session.state_common(host=True).get("table_legal", [])
        out += [(HOST_WEIGHT * WEIGHTS.get(w["type"], 1.0), self._mover(None, w)) for w in table_legal]
        return out

    def _mover(self, seat: int | None, wire: dict[str, Any]) -> Callable[[], None]:
        def move() -> None:
            self.vt.advance(self.rng.randint(100, 3_000))  # thinking; timers run meanwhile
            action = self._filled(wire)
            try:
                if seat is None:
                    self._host("table_action", action=action)
                else:
                    self.session.submit_action(seat, action, None)
                self.moves[wire["type"]] += 1
            except RulesError:  # too late (a timer ran), or a number the pad refuses
                self.refused += 1
        return move

    def _filled(self, wire: dict[str, Any]) -> dict[str, Any]:
        """The legal list zeroes numbers (``legal_form``): a person types their own."""
        filled = dict(wire)
        if "points" in filled:
            filled["points"] = self.rng.choice((0, 1, 2, 3, 7, 12, 40))
        if filled.get("clue") == 0:
            view = self.session.snapshot.public_view or {}
            filled["clue"] = self.rng.randint(1, max(1, int(view.get("round", 1))))
        return filled

    def _presses(self) -> list[tuple[float, Callable[[], None]]]:
        race = self.session.snapshot.race.current
        if race is None:
            return []
        return [(2.0, self._presser(seat, race.key, race.armed_at_ms)) for seat in race.eligible
                if seat not in race.pressed]

    def _presser(self, seat: int, key: str, armed_at_ms: int) -> Callable[[], None]:
        def press() -> None:
            false_start = self.rng.random() < 0.1
            if not false_start:
                self.vt.advance(self.rng.randint(50, 900))
            at = armed_at_ms - self.rng.randint(20, 200) if false_start else self.vt.now_ms()
            source = self.rng.choice((PressSource.ARCADE, PressSource.PHONE, PressSource.KEYBOARD))
            self.session.press(seat, at, source, error_ms=self.rng.choice((1.0, 9.0, 17.0)), race=key)
            self.moves["false_start" if false_start else "press"] += 1
        return press

    def _wait(self) -> None:
        upcoming = self.vt.next_due_ms()
        self.vt.advance(1_000 if upcoming is None else max(1.0, upcoming - self.vt.now_ms()))


# ---------------------------------------------------------------------------------- the secrets
Secret = tuple[int, str, Any]  # (owner seat, what it is, the engine's state with it changed)


def _speakeasy_secrets(state: se.State) -> list[Secret]:
    out: list[Secret] = []
    other = {se.Identity.INFORMANT: se.Identity.CITIZEN, se.Identity.CITIZEN: se.Identity.INFORMANT}
    for seat, identity in enumerate(state.identities):
        if identity is not None and not state.revealed[seat]:  # dealt to the phone, not turned over
            flipped = _replaced(state.identities, seat, other[identity])
            out.append((seat, "identity", dataclasses.replace(state, identities=flipped)))
    if state.subject is not None and state.phase in (se.Phase.COUNTDOWN, se.Phase.POINTING, se.Phase.RECORDING):
        for subject in state.pointers():
            if subject != state.subject:
                out.append((state.host, "subject", dataclasses.replace(state, subject=subject)))
                break
    if state.phase is se.Phase.POINTING:
        for seat in state.pointers():
            target = state.pointing[seat]
            if target is not None:
                moved = next(t for t in state.pointers() if t != target)
                out.append((seat, "pointing", dataclasses.replace(state, pointing=_replaced(state.pointing, seat, moved))))
    return out


def _replaced(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return items[:index] + (value,) + items[index + 1:]


def _speakeasy_public_me(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return {"seat": seat, "is_host": view["host"] == seat, "must_reveal": seat in view["identity_asked"]}


def _moth_public_me(view: dict[str, Any], seat: int) -> dict[str, Any]:
    rows, last = view["pad"]["rows"][seat], view["last_race"]
    return {"seat": seat, "my_turn": view["phase"] == "play" and view["turn"] == seat,
            "guard": view["guard"] == seat,
            "may_undo_win": bool(last and last["undo_open"] and last["winner"] == seat),
            "points": rows[view["round"] - 1] if len(rows) >= view["round"] else None,
            "total": view["pad"]["totals"][seat],
            "must_enter": view["phase"] == "scoring" and seat in view["waiting_for"]}


SECRETS: dict[str, Callable[[Any], list[Secret]]] = {
    "speakeasy_companion": _speakeasy_secrets,
    "cheating_moth_companion": lambda state: [],  # real cards: nothing hidden in the program
}
PUBLIC_ME: dict[str, Callable[[dict[str, Any], int], dict[str, Any]]] = {
    "speakeasy_companion": _speakeasy_public_me,
    "cheating_moth_companion": _moth_public_me,
}


def check_secrets(game: str, engine: Any, recorder: Recorder, matrix: Matrix) -> Counter[str]:
    """Non-interference of every secret, and every private field listed (see the module's doc);
    returns how many moments held a secret of each kind."""
    kinds: Counter[str] = Counter()
    for m in recorder.moments:
        for owner, what, changed in SECRETS[game](m.state):
            kinds[what] += 1
            for observer, label, sent, given in _observers(engine, m):
                if observer == owner:
                    continue
                matrix.checks += 1
                if _wire(given(changed)) != sent:
                    matrix.breaches.append(f"v{m.version}: {label} depends on seat {owner}'s {what}")
        _check_private_fields(game, m.version, m.seat_frames, m.public["view"], matrix)
    return kinds


Observer = tuple[int | None, str, Any, Callable[[Any], Any]]


def _observers(engine: Any, m: Moment) -> list[Observer]:
    """Who was sent what the engine makes of its state (view and legal lists), and how to make it again."""
    def seat_part(seat: int) -> Callable[[Any], Any]:
        return lambda state: {"view": engine.view(state, seat), "legal": _wires(engine, engine.legal_actions(state, seat))}

    out: list[Observer] = [(seat, f"seat {seat}", {"view": f["view"], "legal": f["legal"]}, seat_part(seat))
                           for seat, f in enumerate(m.seat_frames)]
    out.append((None, "the spectator feed", m.public["view"], lambda state: engine.view(state, None)))
    out.append((None, "the host console", {"view": m.host["view"], "table_legal": m.host["table_legal"]},
                lambda state: {"view": engine.view(state, None),
                               "table_legal": _wires(engine, engine.table_actions(state))}))
    return out


def _wires(engine: Any, actions: list[Any]) -> list[Any]:
    return [engine.action_to_wire(a) for a in actions]


def _check_private_fields(game: str, version: int, frames: list[dict[str, Any]], public: dict[str, Any],
                          matrix: Matrix) -> None:
    for seat, frame in enumerate(frames):
        me = frame["view"]["me"]
        derived = PUBLIC_ME[game](public, seat)
        for name, value in me.items():
            if name in SECRET_FIELDS[game]:
                continue
            if name not in derived:
                matrix.breaches.append(f"v{version}: seat {seat}'s private {name!r} is neither public nor a listed secret")
            elif derived[name] != value:
                matrix.breaches.append(f"v{version}: seat {seat}'s private {name}={value!r} is not what the public view says")


def _wire(view: Any) -> Any:
    return json.loads(json.dumps(view))


@dataclass
class Played:
    matrix: Matrix
    moves: Counter[str]  # accepted moves by type, race presses and false starts included
    refused: int  # moves the session refused (too late, a number the pad would not take)
    secrets: Counter[str]  # moments that held a secret, by kind


def play_and_check(game: str, seed: int, *, max_steps: int = 3_000) -> Played:
    """Scripted people play ``game`` to its end (or ``max_steps``), recorded from every side; checked."""
    people = ScriptedPeople(game, seed)
    for _ in range(max_steps):
        if people.over:
            break
        people.step()
    run = people.session.run
    assert run is not None
    people.session.detach(people.recorder)
    people.session.close()
    matrix = Matrix(game, moments=len(people.recorder.moments), finished=people.over)
    matrix.spectator_states = matrix.host_states = matrix.moments  # frames made per change, not read off sockets
    check(game, people.recorder, [], [], matrix)
    secrets = check_secrets(game, run.engine, people.recorder, matrix)
    return Played(matrix, people.moves, people.refused, secrets)
