"""Shared helpers (no tests here) for the Speakeasy engine tests: tables with chosen identities, scripted clues."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from game.games.speakeasy.rules import ENGINE, ChooseSubject, Identity, Point, SeatState, Settings, State

I, C = Identity.INFORMANT, Identity.CITIZEN


def settings(**changes: Any) -> Settings:
    return dataclasses.replace(ENGINE.default_settings("en"), **changes)


def table(identities: str = "ICCIC", host: int = 0, seed: int = 1, **changes: Any) -> State:
    """A fresh game whose identities are ``identities`` ("I"/"C" per seat) and whose first host is ``host``."""
    state = ENGINE.new_game(settings(**changes), len(identities), seed)
    seats = tuple(SeatState(I if c == "I" else C) for c in identities)
    return dataclasses.replace(state, seats=seats, host=host)


def play_clue(state: State, subject: int, pointing: Mapping[int, int]) -> tuple[State, list[Any]]:
    """The host picks ``subject``; the seats in ``pointing`` point; returns the state and all events."""
    state, events = ENGINE.apply(state, state.host, ChooseSubject(subject))
    for seat, target in pointing.items():
        state, more = ENGINE.apply(state, seat, Point(target))
        events += more
    return state, events


def scores(state: State) -> list[int]:
    return [s.score for s in state.seats]
