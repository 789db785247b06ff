"""Cheating Moth players: ``make_bot(kind, seat, seed)`` with kinds ``"random"``, ``"heuristic"``,
``"belief"`` and ``"search"``.

Bots see only their seat's view and legal actions (``game/games/cheating_moth/views.md``) and produce
untimed actions (``t_ms=0``); the session stamps the time. Besides the common Bot protocol
(``choose`` / ``think_ms``), races are entered through :meth:`race_press`: while the view shows a
``race`` the session asks ``race_press(view)`` once, and if it returns a :class:`RaceEntry`, presses
for the bot ``think_ms()`` after the race started (a human-like reaction time).

Timing contract (:mod:`game.bots.pace`, the same for every kind): ``think_ms()`` answers for the
decision the bot is about to make (or has just made): after choosing ``CheatStart`` it returns the
hold a person's hand needs (``cheat_ms`` plus a little), after ``race_press`` a person's reaction
time, after spotting a tell a spotting time, else a routine move's time. One hand
(:class:`~game.bots.pace.OneHand`): after a cheat ends the bot rests before it starts another. A
bot whose ``CheatFinish`` was refused (held too briefly by the session's clock) lets go
(``CheatCancel``) on the next ask, so it never loops.
"""
from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from typing import Any

from game.bots import Bot
from game.bots.pace import OneHand, Pace, notices
from game.games.cheating_moth.rules import (
    ACTIONS,
    PENALTY,
    Accuse,
    CheatCancel,
    CheatFinish,
    CheatStart,
    Draw,
    Give,
    Kind,
    Play,
)

DEFAULT_CHEAT_MS = 1500
MANY = 4  # what "many" cards (M11) is taken to mean when comparing hand sizes
NOTICE = {"tremble": 0.55, "sleeve": 0.9}  # how often an idle heuristic guard spots a tell (M11)


@dataclass(frozen=True, slots=True)
class RaceEntry:
    """A bot's entry in a race: ``card`` is the Beetle card raced (``None`` for the Mosquito)."""

    card: int | None


class _Mode(enum.Enum):
    PLAY = "play"
    HOLD = "hold"  # a cheat in progress: wait out the gesture
    REACT = "react"  # a race or a tell: a reaction time
    WATCH = "watch"  # nothing to do: the next ask answers a change on the table (a spotting time)


def _decode(legal: list[Any]) -> list[Any]:
    return [ACTIONS.from_wire(a) if isinstance(a, dict) else a for a in legal]


def _required(legal: list[Any]) -> list[Any]:
    return [a for a in legal if isinstance(a, (Play, Draw, Give))]


_REQUIRED, _OPTIONAL, _FINISH = 0, 1, 2
_ROLE: dict[type, int] = {Play: _REQUIRED, Draw: _REQUIRED, Give: _REQUIRED, CheatStart: _OPTIONAL, Accuse: _OPTIONAL,
                          CheatFinish: _FINISH}
_OPTIONAL_ONLY = frozenset(cls for cls, role in _ROLE.items() if role == _OPTIONAL)


def _decoded_role(action: Any) -> tuple[Any, int | None]:
    """A legal action that is not one of :data:`_ROLE`'s classes itself: a wire dict (decoded as
    :func:`_decode` does) or a subclass; its role as the isinstance tests elsewhere here say."""
    if isinstance(action, dict):
        action = ACTIONS.from_wire(action)
    return action, next((r for cls, r in _ROLE.items() if isinstance(action, cls)), None)


def _sort_legal(legal: list[Any]) -> tuple[list[Any], list[Any], bool]:
    """One pass over ``legal``: the required actions, the optional ones (each in the order given)
    and whether a cheat can be finished; a random bot asks all three on every move, mostly of a
    list of cheat starts it passes on."""
    if _OPTIONAL_ONLY.issuperset(map(type, legal)):  # most asks: cheat starts or the guard's accusations
        return [], list(legal), False
    required: list[Any] = []
    optional: list[Any] = []
    finishes: list[Any] = []
    buckets = (required, optional, finishes)  # indexed by role
    for action in legal:
        role = _ROLE.get(type(action))
        if role is None:
            action, role = _decoded_role(action)
            if role is None:
                continue
        buckets[role].append(action)
    return required, optional, bool(finishes)


class _BaseBot(Bot):
    uses_view = True

    def __init__(self, seat: int, seed: int) -> None:
        self.seat = seat
        self.rng = random.Random(seed)
        self.pace = Pace(self.rng)
        self.hand = OneHand(self.pace)
        self._mode = _Mode.PLAY
        self._cheat_ms = DEFAULT_CHEAT_MS
        self._finish_tried = False

    # -- timing
    def think_ms(self) -> int:
        if self._mode is _Mode.HOLD:
            return self.pace.gesture(self._cheat_ms)
        mode, self._mode = self._mode, _Mode.PLAY  # a reaction or a spotting time is one act's
        if mode is _Mode.REACT:
            return self.pace.reaction()
        if mode is _Mode.WATCH:  # watching the table: what changed is seen after a spotting time
            return self.hand.wait(self.pace.spot())
        return self.hand.wait(self.pace.routine())

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        action = self._decide(view, legal)
        if action is None and self._mode is _Mode.PLAY:
            self._mode = _Mode.WATCH
        return action

    def _decide(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        raise NotImplementedError

    # -- cheats in progress (shared by every kind)
    def _continue_cheat(self, legal: list[Any]) -> Any | None:
        """Finish the hold once; if the finish was refused, let go. Either way the hand rests after."""
        return self._hold_or_finish(any(isinstance(a, CheatFinish) for a in legal))

    def _hold_or_finish(self, can_finish: bool) -> Any | None:
        """:meth:`_continue_cheat` once it is known whether ``CheatFinish`` is legal."""
        self.hand.waited()
        if not can_finish:
            self._finish_tried = False
            return None
        self._mode = _Mode.PLAY
        self.hand.gesture_done()
        if self._finish_tried:
            self._finish_tried = False
            return CheatCancel(0)
        self._finish_tried = True
        return CheatFinish(0)

    def _start_cheat(self, card: int) -> CheatStart | None:
        """Start a cheat with ``card`` if the hand is free (one hand: rested since the last)."""
        if not self.hand.free:
            return None
        self._mode = _Mode.HOLD
        return CheatStart(card, 0)

    def _note_settings(self, view: dict[str, Any] | None) -> None:
        if view is not None:
            self._cheat_ms = int(view.get("settings", {}).get("cheat_ms", DEFAULT_CHEAT_MS))


class RandomBot(_BaseBot):
    """Random legal play: always does what it must; now and then cheats or accuses at random."""

    uses_view = False  # decides from the legal actions alone (the view only tunes the hold time)

    def _decide(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        self._note_settings(view)
        required, optional, finish = _sort_legal(legal)
        held = self._hold_or_finish(finish)
        if held is not None:
            return held
        self._mode = _Mode.PLAY
        if optional and self.rng.random() < (0.1 if required else 0.03):
            chosen = self._optional(self.rng.choice(optional))
            if chosen is not None:  # else the hand still rests: play on
                return chosen
        return self.rng.choice(required) if required else None

    def _optional(self, action: Any) -> Any | None:
        if isinstance(action, CheatStart):
            return self._start_cheat(action.card)
        return action

    def race_press(self, view: dict[str, Any]) -> RaceEntry | None:
        race = view.get("race")
        if not race or self.seat not in race["eligible"]:
            return None
        self._mode = _Mode.REACT
        if race["kind"] == Kind.MOSQUITO.value:
            return RaceEntry(None)
        cards = view["me"]["race_cards"]
        return RaceEntry(self.rng.choice(cards)) if cards and self.rng.random() < 0.8 else None


class HeuristicBot(_BaseBot):
    """Plays to empty its hand: sheds the costliest cards first, gives away action cards, cheats
    moths away while the guard looks busy, accuses on a tell (or a hand that shrank unseen),
    races every race it can enter."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        self._seen: dict[int, int] = {}  # exact hand counts last seen, for the no-tell guard
        self._tells: dict[int, bool] = {}  # seats showing a tell -> whether this guard noticed it
        self._discard_seen = 0

    def _decide(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        self._note_settings(view)
        legal = _decode(legal)
        held = self._continue_cheat(legal)
        if held is not None:
            return held
        self._mode = _Mode.PLAY
        if view is None:
            required = _required(legal)
            return required[0] if required else None
        try:
            accuse = self._accusation(view, legal)
            if accuse is not None:
                return accuse
            required = _required(legal)
            if required:
                return self._best_required(view, required)
            return self._maybe_cheat(view, legal)
        finally:
            self._remember(view)

    # -- guard
    def _accusation(self, view: dict[str, Any], legal: list[Any]) -> Accuse | None:
        targets = {a.target for a in legal if isinstance(a, Accuse)}
        if not targets:
            self._tells.clear()
            return None
        spotted = [s for s in self._spotted_tells(view) if s in targets]
        suspects = spotted or self._shrunk_unseen(view, targets)
        if not suspects:
            return None
        return Accuse(self.rng.choice(suspects), 0)

    def _spotted_tells(self, view: dict[str, Any]) -> list[int]:
        """Each tell is noticed or missed once (a busy guard misses more, a subtle tell more often)."""
        showing = {s["seat"]: s["tell"] for s in view["seats"] if s["tell"]}
        self._tells = {seat: seen for seat, seen in self._tells.items() if seat in showing}
        busy = view["turn"] == self.seat or bool(view.get("pending")) or bool(view.get("race"))
        for seat, tell in showing.items():
            if seat not in self._tells:
                self._tells[seat] = notices(self.rng, self._notice_chance(view, tell), busy)
        return [seat for seat, seen in self._tells.items() if seen]

    def _notice_chance(self, view: dict[str, Any], tell: str) -> float:
        """How often this guard, watching and idle, notices a ``tell`` (a busy one: half as often)."""
        return NOTICE[tell]

    def _shrunk_unseen(self, view: dict[str, Any], targets: set[int]) -> list[int]:
        """With no tell: a seat whose exact hand count fell while nothing was played or given."""
        if view["discard_size"] != self._discard_seen or view.get("pending"):
            return []
        out = []
        for s in view["seats"]:
            before = self._seen.get(s["seat"])
            if isinstance(s["hand"], int) and before is not None and s["hand"] < before and s["seat"] in targets:
                out.append(s["seat"])
        return out

    def _remember(self, view: dict[str, Any]) -> None:
        self._seen = {s["seat"]: s["hand"] for s in view["seats"] if isinstance(s["hand"], int)}
        self._discard_seen = view["discard_size"]

    # -- own turn and gives
    def _best_required(self, view: dict[str, Any], required: list[Any]) -> Any:
        cards = {c["id"]: c for c in view["me"]["hand"]}
        plays = [a for a in required if isinstance(a, Play)]
        if plays:
            return max(plays, key=lambda a: self._play_value(cards[a.card], cards))
        gives = [a for a in required if isinstance(a, Give)]
        if gives:
            return max(gives, key=lambda a: self._give_value(view, cards[a.card], a.to))
        return required[0]

    def _play_value(self, card: dict[str, Any], hand: dict[int, dict[str, Any]]) -> float:
        """Shed the costliest card; prefer one that leaves a follow-up (a neighbour in hand)."""
        kind = Kind(card["kind"])
        value = float(PENALTY[kind])
        if kind in (Kind.SPIDER, Kind.MOSQUITO):
            value += 2.0  # also sheds a second card
        follow = sum(
            1 for c in hand.values()
            if c["id"] != card["id"] and (c["number"] - card["number"]) % 5 in (1, 4)
        )
        return value + 0.1 * follow + self.rng.random() * 0.01

    def _give_value(self, view: dict[str, Any], card: dict[str, Any], to: int) -> float:
        """Give away the costliest non-moth card, to the player closest to going out."""
        seat = view["seats"][to]
        size = seat["hand"] if isinstance(seat["hand"], int) else MANY
        return PENALTY[Kind(card["kind"])] * 10 - size + self.rng.random() * 0.01

    # -- cheating
    def _maybe_cheat(self, view: dict[str, Any], legal: list[Any]) -> Any | None:
        starts = {a.card for a in legal if isinstance(a, CheatStart)}
        if not starts:
            return None
        hand = [c for c in view["me"]["hand"] if c["id"] in starts]
        moths = [c for c in hand if c["kind"] == Kind.MOTH.value]
        if moths and self._guard_busy(view):
            return self._start_cheat(moths[0]["id"])
        actions = [c for c in hand if c["kind"] != Kind.NUMBER.value and c["kind"] != Kind.MOTH.value]
        if actions and len(view["me"]["hand"]) > 2 and self._guard_busy(view) and self.rng.random() < 0.1:
            return self._start_cheat(actions[0]["id"])
        return None

    def _guard_busy(self, view: dict[str, Any]) -> bool:
        """The guard is playing, giving or racing — or the table shows no tell at all."""
        guard = view["guard"]
        pending = view.get("pending") or {}
        if view["turn"] == guard or pending.get("giver") == guard or guard in pending.get("givers", ()):
            return True
        if view.get("race"):
            return True
        return view["settings"]["tell"] == "none" and self.rng.random() < 0.3

    # -- races
    def race_press(self, view: dict[str, Any]) -> RaceEntry | None:
        race = view.get("race")
        if not race or self.seat not in race["eligible"]:
            return None
        self._mode = _Mode.REACT
        if race["kind"] == Kind.MOSQUITO.value:
            return RaceEntry(None)
        cards = view["me"]["race_cards"]
        return RaceEntry(cards[0]) if cards else None
