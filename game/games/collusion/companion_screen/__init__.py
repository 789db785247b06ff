"""The Collusion companion on the big screen. While the table plays (votes, Ambush, the Final
Showdown) it is drawn exactly as in table mode: the scenes come from the family's table-mode screen,
found through the catalog (the companion's view has the table view's shape then), with a band that
says who keeps the gold. Its own scenes: the C17 check, the secret count, the revealed totals with
the score pad and its corrections, and the last screen.

The app finds this module through the game's descriptor."""
from __future__ import annotations

from game.games.collusion.companion_screen.final import CompanionOverScene
from game.games.collusion.companion_screen.table import PLAY_PHASES, CheckScene, CountScene, PlayScene, ReviewScene, family_screen
from game.render.kit.scene import Scene
from game.session.snapshot import TableSnapshot

__all__ = ["beats_for", "choose_base"]


def choose_base(snapshot: TableSnapshot) -> Scene:
    phase = (snapshot.public_view or {}).get("phase")
    if phase in PLAY_PHASES:
        return PlayScene(family_screen().choose_base(snapshot))
    if phase == "check":
        return CheckScene()
    if phase == "count":
        return CountScene()
    if phase == "review":
        return ReviewScene()
    return CompanionOverScene()


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """The table-mode beats (reveal, ambush, showdown, round end) for the events they know."""
    if previous is not None and (previous.public_view or {}).get("phase") not in PLAY_PHASES:
        previous = None  # the table scenes read a table view; a check or count view is not one
    return list(family_screen().beats_for(snapshot, previous))
