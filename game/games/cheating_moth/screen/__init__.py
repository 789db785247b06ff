"""Cheating Moth on the big screen: the table with fans, tells and the Guard Bug, accusations and
their outcome, the action cards' effects, the races, the round's penalty points and the final
table. The app finds this module through the game's descriptor: :func:`choose_base` for the phase,
:func:`beats_for` for the events."""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from game import i18n
from game.games.cheating_moth.screen.beats import AccusationBeat, FlightBeat, Move, RaceResultBeat
from game.games.cheating_moth.screen.final import GameOverScene
from game.games.cheating_moth.screen.model import Phase, accusation_from, events_of, int_at, phase, race_from, seat_models
from game.games.cheating_moth.screen.table import DOMAIN, RoundOverScene, TableScene
from game.render.kit.scene import Scene
from game.render.kit.seats import plate_name
from game.session.snapshot import TableSnapshot

__all__ = ["beats_for", "choose_base"]


def choose_base(snapshot: TableSnapshot) -> Scene:
    ph = phase(snapshot.public_view)
    if ph is Phase.ROUND_OVER:
        return RoundOverScene()
    if ph is Phase.GAME_OVER:
        return GameOverScene()
    return TableScene()


def _gives(events: Sequence[Mapping[str, Any]]) -> list[tuple[int, int, str]]:
    return [(int(e["giver"]), int(e["receiver"]), str(e.get("cause", ""))) for e in events_of(events, "card_given")
            if isinstance(e.get("giver"), int) and isinstance(e.get("receiver"), int)]


def race_number(race_id: int, events: Sequence[Mapping[str, Any]], previous: TableSnapshot | None) -> int | None:
    """The raced number: the decided event does not carry it, the race (still in the view before) does."""
    for e in events_of(events, "race_started"):
        if e.get("race") == race_id and isinstance(e.get("number"), int):
            return int(e["number"])
    before = (previous.public_view or {}).get("race") if previous is not None and previous.public_view else None
    if isinstance(before, Mapping) and before.get("id") == race_id and isinstance(before.get("number"), int):
        return int(before["number"])
    return None


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The beats one batch of events calls for, in order."""
    view = snapshot.public_view or {}
    events = snapshot.events
    seats = seat_models(snapshot)
    lang = snapshot.language if snapshot.language in i18n.LANGUAGES else i18n.FALLBACK

    def t(key: str, **values: Any) -> str:
        return i18n.text(lang, DOMAIN, key, **values)

    def nm(seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(seats):
            return "?"
        return plate_name(lang, seats[seat].name) or i18n.text(lang, "screen", "seat.name", n=seat + 1)

    out: list[Scene] = []
    race = race_from(view.get("last_race"), snapshot.race.last)
    if race is not None and events_of(events, "race_decided"):
        out.append(RaceResultBeat(dataclasses.replace(race, number=race_number(race.decided.race, events, previous)), seats))
    if phase(view) in (Phase.ROUND_OVER, Phase.GAME_OVER):
        return out  # the round's summary tells the rest; table beats would play over it
    for e in events_of(events, "accused"):
        acc = accusation_from(e)
        if acc is not None:
            out.append(AccusationBeat(acc, seats))
            if not acc.caught:
                out.append(FlightBeat((Move(None, acc.guard),), t("accuse.wrong_story", guard=nm(acc.guard),
                                                                    target=nm(acc.target)), seats))
    for e in events_of(events, "effect"):
        seat = e.get("seat") if isinstance(e.get("seat"), int) else None
        if e.get("kind") == "ant":
            drew = tuple(Move(None, int(d["seat"])) for d in events_of(events, "drew")
                         if d.get("cause") == "M12" and isinstance(d.get("seat"), int) and d.get("count"))
            out.append(FlightBeat(drew, t("effect.ant", name=nm(seat)), seats))
        elif e.get("kind") == "spider" and e.get("outcome") == "no_card_to_give":
            out.append(FlightBeat((), t("effect.spider_none", name=nm(seat)), seats))
    gives = _gives(events)
    if gives:
        receivers = {r for _, r, _ in gives}
        if len(gives) == 1:
            caption = t("give.one", giver=nm(gives[0][0]), receiver=nm(gives[0][1]))
        elif len(receivers) == 1:
            lang_names = [nm(g) for g, _, _ in gives]
            joined = i18n.text(lang, "screen", "list.sep").join(lang_names[:-1]) + i18n.text(lang, "screen", "list.last") + lang_names[-1]
            caption = t("give.many", names=joined, receiver=nm(gives[0][1]))
        else:
            caption = i18n.text(lang, "screen", "sep").join(t("give.one", giver=nm(g), receiver=nm(r)) for g, r, _ in gives)
        out.append(FlightBeat(tuple(Move(g, r) for g, r, _ in gives), caption, seats))
    for e in events_of(events, "guard_passed"):
        if e.get("cause") == "M18":  # a new round: the bug goes to the next first guard (the table shows it walk)
            out.append(FlightBeat((), t("bug.passed", name=nm(int_at(e, "new"))), seats))
    for e in events_of(events, "give_skipped"):
        out.append(FlightBeat((), t("give.skipped", giver=nm(e.get("giver") if isinstance(e.get("giver"), int) else None)),
                              seats))
    return out
