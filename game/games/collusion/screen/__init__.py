"""Collusion on the big screen: the table during the conspiracy, the animated reveal with arrows
and deaths explained, the Ambush drama, the Final Showdown, the round's end and the winner.

Base scenes follow the view's phase (:func:`choose_base`); timed beats play the events of one
accepted action (:func:`beats_for`). The app finds this module through the game's descriptor."""
from __future__ import annotations

from game.games.collusion.screen.beats import RevealBeat, RoundEndBeat, ShowdownRevealBeat
from game.games.collusion.screen.final import GameOverScene
from game.games.collusion.screen.model import Phase, event_types, phase, reveal_from, round_end_from, seat_models, showdown_from
from game.games.collusion.screen.table import ShowdownScene, TableScene
from game.render.kit.scene import Scene
from game.session.snapshot import TableSnapshot

__all__ = ["beats_for", "choose_base"]


def choose_base(snapshot: TableSnapshot) -> Scene:
    ph = phase(snapshot.public_view)
    if ph is Phase.SHOWDOWN:
        return ShowdownScene()
    if ph is Phase.GAME_OVER:
        return GameOverScene()
    return TableScene(RevealBeat)


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The beats one batch of events calls for, in order."""
    view = snapshot.public_view or {}
    types = event_types(snapshot.events)
    seats_now = seat_models(snapshot)
    prev_seats = seat_models(previous) if previous is not None and previous.public_view else seats_now
    out: list[Scene] = []
    reveal = reveal_from(view.get("last_reveal"))
    if reveal is not None and "reveal" in types:
        out.append(RevealBeat(reveal, prev_seats))
    elif reveal is not None and "ambush_resolved" in types:
        out.append(RevealBeat(reveal, prev_seats, resolution_only=True))
    showdown = showdown_from(view.get("last_showdown"))
    end = round_end_from(view.get("last_round_end"))
    tie: tuple[int, ...] = ()
    for e in snapshot.events:
        if e.get("type") == "tie_break":
            tie = tuple(int(s) for s in e.get("seats", []))
    before = tuple(s.bars for s in prev_seats)
    if showdown is not None and "showdown_reveal" in types:
        out.append(ShowdownRevealBeat(showdown, seats_now, prev_seats))
        if end is not None and end.outcome == "showdown":
            out.append(RoundEndBeat(end, seats_now, before, tie, showdown))
    elif end is not None and "round_ended" in types and end.outcome != "showdown":
        out.append(RoundEndBeat(end, seats_now, before, tie))
    return out
