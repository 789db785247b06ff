"""Speakeasy on the big screen: the clue and its host, who has pointed, the reveal with arrows and
identities, the finale's secrets and the winner. The app finds this module through the game's
descriptor: :func:`choose_base` for the phase, :func:`beats_for` for the events."""
from __future__ import annotations

from game.games.speakeasy.screen.beats import FinaleBeat, RevealBeat
from game.games.speakeasy.screen.final import OverScene
from game.games.speakeasy.screen.model import Phase, clue_from, event_types, final_from, phase, result_from, seat_models
from game.games.speakeasy.screen.table import TableScene, host_of
from game.render.kit.scene import Scene
from game.session.snapshot import TableSnapshot

__all__ = ["beats_for", "choose_base"]


def choose_base(snapshot: TableSnapshot) -> Scene:
    return OverScene() if phase(snapshot.public_view) is Phase.GAME_OVER else TableScene()


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The beats one batch of events calls for, in order: a clue's reveal, the final secrets."""
    view = snapshot.public_view or {}
    types = event_types(snapshot.events)
    seats = seat_models(snapshot)
    out: list[Scene] = []
    result = result_from(view.get("reveal"))
    if result is not None and ("pointing_revealed" in types or "clue_skipped" in types):
        left = int(view.get("clues_left", 0) or 0)
        out.append(RevealBeat(result, seats, clue_from(view), host_of(view), left))
    final = final_from(view)
    if final is not None and "game_ended" in types:
        out.append(FinaleBeat(final, seats, host_of(view)))
    return out
