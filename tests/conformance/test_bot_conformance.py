"""Bot conformance, over every catalog game with bots: every bot kind plays every phase of every
settings variant (each preset, each choice of each setting) its game offers bots in, answering
only legal actions or ``None`` (and pressing in races through ``race_press``); on a variant bots
cannot play (:meth:`GameEngine.bots_can_play`: Collusion's real gold) every kind still reads the
views safely — a ``None`` where a real bar's value would be is no crash.
"""
from __future__ import annotations

import collections
import random
from typing import Any

import pytest

from game import catalog, simulate
from game.bots import Bot, BotKind
from game.bots.search import SearchBudget, set_default_budget
from game.rules.base import GameEngine, RulesError
from game.rules.schema import SettingKind

KINDS = tuple(BotKind)
GAMES = tuple(d for d in catalog.games() if d.has_bots)


def variants(engine: GameEngine) -> list[tuple[str, Any]]:
    """Each preset's settings, and each with one choice setting set to each of its other values."""
    out: dict[str, Any] = {}
    for preset in engine.presets():
        base = engine.default_settings(preset)
        out[str(preset)] = base
        wire = engine.settings_to_wire(base)
        for spec in engine.settings_schema():
            if spec.kind is not SettingKind.CHOICE:
                continue
            for value in spec.choices:
                if value != wire.get(spec.key):
                    out[f"{preset}/{spec.key}={value}"] = engine.settings_from_wire({spec.key: value}, preset)
    return list(out.items())


class Checked(Bot):
    """A bot that records the phases it was asked in and fails on an answer not among the legal ones."""

    def __init__(self, inner: Bot, phases: set[str]) -> None:
        self._inner, self._phases = inner, phases
        self.thinks_off_loop = inner.thinks_off_loop

    def choose(self, view: dict[str, Any] | None, legal: list[Any]) -> Any | None:
        assert view is not None
        self._phases.add(str(view.get("phase")))
        action = self._inner.choose(view, legal)
        assert action is None or action in legal, f"{action!r} is not legal: {legal!r}"
        return action

    def think_ms(self) -> int:
        return int(self._inner.think_ms())

    def race_press(self, view: Any) -> Any | None:
        self._phases.add(f"race:{view.get('phase')}")
        return self._inner.race_press(view)


@pytest.fixture(autouse=True)
def _small_search():
    """Search bots think 2 iterations here: the test is about what they answer, not how well."""
    for desc in GAMES:
        set_default_budget(desc.id, SearchBudget(2))
    yield
    for desc in GAMES:
        set_default_budget(desc.id, None)


def _seats(engine: GameEngine, settings: Any) -> int:
    for n in (4, 3, 5):
        try:
            engine.new_game(settings, n, 1)
            return n
        except RulesError:
            continue
    raise AssertionError("no seat count of 3–5 plays these settings")


@pytest.mark.parametrize("desc", GAMES, ids=lambda d: d.id)
def test_every_bot_kind_plays_every_phase_of_every_variant_that_offers_bots(desc: catalog.GameDescriptor) -> None:
    engine = desc.load_engine()
    asked: dict[BotKind, set[str]] = collections.defaultdict(set)
    played = 0
    for index, (name, settings) in enumerate(variants(engine)):
        if not engine.bots_can_play(settings):
            continue
        n = _seats(engine, settings)
        for rotation in range(2):  # every kind at two different seats
            kinds = [KINDS[(seat + index + rotation) % len(KINDS)] for seat in range(n)]
            bots = [Checked(desc.make_bot(kind, seat, 11 * index + seat), asked[kind]) for seat, kind in enumerate(kinds)]
            result = simulate.play_game(engine, settings, n, 100 * index + rotation, bots)
            assert engine.is_over(result.state), f"{desc.id} {name}: not over"
            played += 1
    assert played
    every = set().union(*asked.values())
    for kind in KINDS:
        assert asked[kind] == every, f"{desc.id}: {kind.value} bots never asked in {sorted(every - asked[kind])}"


def _random_states(engine: GameEngine, settings: Any, n: int, seed: int) -> list[Any]:
    """The states of one random game, played by random moves and timers (what a table passes through)."""
    rnd, state, states = random.Random(seed), engine.new_game(settings, n, seed), []
    for _ in range(3_000):
        if engine.is_over(state):
            break
        states.append(state)
        moves = [(s, a) for s in range(n) for a in engine.legal_actions(state, s)]
        moves += [(None, a) for a in engine.table_actions(state)]
        timer = engine.timer(state)
        if not moves and timer is None:
            break
        seat, action = rnd.choice(moves) if moves and (timer is None or rnd.random() < 0.9) else (None, timer.on_expiry)
        try:
            state, _ = engine.apply(state, seat, action)
        except RulesError:
            continue
    return states


@pytest.mark.parametrize("desc", GAMES, ids=lambda d: d.id)
def test_bots_read_the_views_of_variants_they_cannot_play_without_crashing(desc: catalog.GameDescriptor) -> None:
    engine = desc.load_engine()
    for name, settings in variants(engine):
        if engine.bots_can_play(settings):
            continue
        for state in _random_states(engine, settings, _seats(engine, settings), 5)[::3]:
            for seat in range(engine.n_seats(state)):
                legal = engine.legal_actions(state, seat)
                for kind in KINDS:
                    action = desc.make_bot(kind, seat, 3).choose(engine.view(state, seat), legal)
                    assert action is None or action in legal, f"{desc.id} {name}: {kind.value} chose {action!r}"


def test_only_real_gold_keeps_bots_from_a_catalog_game() -> None:
    cannot = [(d.id, name) for d in GAMES for name, s in variants(d.load_engine()) if not d.load_engine().bots_can_play(s)]
    assert cannot and all(d == "collusion_companion" and "gold=physical" in name for d, name in cannot)


@pytest.mark.parametrize("desc", [d for d in catalog.games() if type(d.load_engine()).seats_to_act is not GameEngine.seats_to_act],
                         ids=lambda d: d.id)
def test_a_fast_seats_to_act_names_the_seats_with_legal_actions(desc: catalog.GameDescriptor) -> None:
    """An engine's own ``seats_to_act`` (Cheating Moth's, without building the lists) agrees with
    the contract's: the seats whose legal actions are not empty."""
    engine = desc.load_engine()
    for seed in range(3):
        for state in _random_states(engine, engine.default_settings(), 5, seed):
            assert engine.seats_to_act(state) == GameEngine.seats_to_act(engine, state)
