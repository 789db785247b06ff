"""Engines refuse wrong types with typed errors, over every catalog entry and the toy game.

Plug-in authors, tools and bots call engines from Python, where nothing decoded the values first:
a seat is an ``int`` (``True`` is not seat 1), a count a whole ``int`` (not ``'4'``, ``4.0`` or
``None``), an action's fields fit their annotations when it is built (``Accuse('1')``). Whatever
comes in, only a :class:`~game.rules.base.RulesError` comes out (MalformedAction, BadSettings,
UnknownSeat, IllegalAction…), never TypeError / ValueError / AttributeError, and the state a
caller holds is unchanged.
"""
from __future__ import annotations

import contextlib
import copy
import dataclasses
import enum
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
import toygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import catalog
from game.catalog import GameDescriptor
from game.rules.base import BadSettings, GameEngine, MalformedAction, RulesError, UnknownSeat, field_check

ENTRIES = (*catalog.games(), toygame.DESCRIPTOR)
EXAMPLES = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

SCALARS = (st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8)
           | st.sampled_from([0, 1, 2, -1, 3, 4.0, "0", "1", "", "vote", "play", True]))
JSON_LIKE = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                         | st.dictionaries(st.text(max_size=6) | st.sampled_from(["type", "seat", "card"]),
                                           inner, max_size=4),
                         max_leaves=12)


def ids(desc: GameDescriptor) -> str:
    return desc.id


@cache
def engine_of(desc: GameDescriptor) -> GameEngine[Any]:
    return desc.load_engine()


@cache
def a_state(desc: GameDescriptor) -> Any:
    engine = engine_of(desc)
    return engine.new_game(engine.default_settings(), min(max(4, desc.seats.low), desc.seats.high), 7)


def wire_like(engine: GameEngine[Any]) -> st.SearchStrategy[Any]:
    """JSON-like values, and objects shaped like the engine's actions with junk in their fields."""
    tags = st.sampled_from(engine.actions.tags)
    shaped = st.builds(lambda tag, fields: {"type": tag, **fields}, tags,
                       st.dictionaries(st.sampled_from(["card", "target", "seat", "to", "points", "t_ms", "race",
                                                        "kind", "seats", "times_ms", "choice", "decision"]),
                                       JSON_LIKE, max_size=3))
    return JSON_LIKE | shaped


def only_typed_errors(entry: Callable[..., Any], *args: Any) -> None:
    """Call ``entry(*args)``: it may answer or raise a RulesError, nothing else."""
    with contextlib.suppress(RulesError):
        entry(*args)


# -------------------------------------------------------------------------- the cases
@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_a_bool_is_never_a_seat(desc: GameDescriptor) -> None:
    engine, state = engine_of(desc), a_state(desc)
    for call in (engine.view, engine.legal_actions):
        with pytest.raises(UnknownSeat):
            call(state, True)
        with pytest.raises(UnknownSeat):
            call(state, False)


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_a_seat_outside_the_table_is_unknown_never_counted_from_the_end(desc: GameDescriptor) -> None:
    engine, state = engine_of(desc), a_state(desc)
    action = (engine.legal_actions(state, 0) or engine.table_actions(state) or [None])[0]
    for seat in (-1, engine.n_seats(state), 2**70):
        for call in (lambda: engine.view(state, seat), lambda: engine.legal_actions(state, seat),  # noqa: B023
                     lambda: engine.apply(state, seat, action)):  # noqa: B023
            with pytest.raises(UnknownSeat):
                call()


@pytest.mark.parametrize("count", ["4", 4.0, None, True, [4]])
@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_new_game_refuses_a_count_that_is_not_a_whole_int(desc: GameDescriptor, count: Any) -> None:
    engine = engine_of(desc)
    with pytest.raises(BadSettings):
        engine.new_game(engine.default_settings(), count, 1)


@pytest.mark.parametrize("seed", ["1", 1.5, None, False])
@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_new_game_refuses_a_seed_or_settings_of_the_wrong_type(desc: GameDescriptor, seed: Any) -> None:
    engine = engine_of(desc)
    n = min(max(4, desc.seats.low), desc.seats.high)
    with pytest.raises(BadSettings):
        engine.new_game(engine.default_settings(), n, seed)
    with pytest.raises(BadSettings):
        engine.new_game(seed, n, 1)
    first_int = next((f for f in dataclasses.fields(engine.default_settings())
                      if field_check(typing.get_type_hints(type(engine.default_settings()))[f.name])(0)), None)
    if first_int is not None:  # a settings value built in Python with text where a number goes
        bad = copy.copy(engine.default_settings())
        object.__setattr__(bad, first_int.name, "3")
        with pytest.raises(BadSettings):
            engine.new_game(bad, n, 1)


def wrong_value(hint: Any) -> Any:
    """A value that does not fit ``hint`` but looks close (the wire's or a careless caller's)."""
    if hint is bool:
        return 1
    if hint in (int, float):
        return "1"
    if hint is str:
        return 1
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return next(iter(hint)).value if not isinstance(next(iter(hint)).value, hint) else object()
    if typing.get_origin(hint) is tuple:
        return ["1"]
    return object()


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_every_action_class_refuses_each_wrong_field_when_built(desc: GameDescriptor) -> None:
    engine = engine_of(desc)
    for cls in engine.actions.classes:
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        for f in fields:
            args = {g.name: wrong_value(hints[g.name]) if g is f else _fitting(hints[g.name]) for g in fields}
            with pytest.raises(MalformedAction):
                cls(**args)
        with pytest.raises(MalformedAction):
            cls(*range(len(fields) + 1))  # one argument too many


@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_every_event_refuses_each_wrong_field_on_the_wire(desc: GameDescriptor) -> None:
    """Events are the engine's own output, so they are checked where they come in: a screen or a
    tool decoding one with ``engine.events.from_wire``."""
    engine = engine_of(desc)
    for tag, cls in zip(engine.events.tags, engine.events.classes):
        hints = typing.get_type_hints(cls)
        fields = dataclasses.fields(cls)
        good = {g.name: engine.events.to_wire(cls(**{h.name: _fitting(hints[h.name]) for h in fields}))[g.name]
                for g in fields}
        for f in fields:
            with pytest.raises(MalformedAction):
                engine.events.from_wire({**good, "type": tag, f.name: _wire_wrong(hints[f.name])})


def _wire_wrong(hint: Any) -> Any:
    """A JSON value that does not fit ``hint`` on the wire (where an enum arrives as its value)."""
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "not one of them"
    return {bool: 1, int: "1", float: "1", str: 1}.get(hint, {"an": "object"})


def _fitting(hint: Any) -> Any:
    """A value that fits ``hint`` (so the one wrong field is what the class refuses)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return _fitting(typing.get_args(hint)[0])
    if origin is typing.Literal:
        return typing.get_args(hint)[0]
    if origin is tuple:
        return ()
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return next(iter(hint))
    return {bool: False, int: 0, float: 0.0, str: ""}.get(hint)


# --------------------------------------------------------------------- arbitrary values, fuzzed
@pytest.mark.parametrize("desc", ENTRIES, ids=ids)
def test_arbitrary_values_into_every_entry_point_raise_only_typed_errors(desc: GameDescriptor) -> None:
    engine, state = engine_of(desc), a_state(desc)
    before = copy.deepcopy(state)
    real_actions = engine.legal_actions(state, 0) or engine.table_actions(state) or [None]

    @EXAMPLES
    @given(junk=wire_like(engine), other=JSON_LIKE, seat=JSON_LIKE | st.integers(-2, 12),
           action=st.sampled_from(real_actions))
    def fuzz(junk: Any, other: Any, seat: Any, action: Any) -> None:
        only_typed_errors(engine.new_game, engine.default_settings(), junk, other)
        only_typed_errors(engine.new_game, junk, 4, 1)
        only_typed_errors(engine.settings_from_wire, junk)
        only_typed_errors(engine.settings_from_wire, {}, junk)
        only_typed_errors(engine.default_settings, junk)
        only_typed_errors(engine.actions.from_wire, junk)
        for entry in (engine.is_over, engine.timer, engine.race, engine.table_actions, engine.seats_to_act):
            only_typed_errors(entry, junk)
        for entry in (engine.legal_actions, engine.view):
            only_typed_errors(entry, state, seat)
            only_typed_errors(entry, junk, 0)
        only_typed_errors(engine.apply, state, seat, action)
        for acting in (0, None):
            only_typed_errors(engine.apply, state, acting, junk)
            only_typed_errors(engine.apply, state, acting, _decoded(engine, junk))
        only_typed_errors(engine.apply, junk, 0, action)
        only_typed_errors(engine.button_action, state, seat, other)
        only_typed_errors(engine.legal_form, junk)
        assert state == before, "a refused call changed the state it was given"

    fuzz()


def _decoded(engine: GameEngine[Any], junk: Any) -> Any:
    """``junk`` as the engine's action when it decodes (its fields typed, its values arbitrary)."""
    try:
        return engine.actions.from_wire(junk)
    except RulesError:
        return junk
