"""The Speakeasy companion on the big screen: the clue (or "read the top card of your deck"), the
host, the "3 – 2 – 1 – point!" countdown with sound, who has pointed (never at whom) until the
reveal, the arrows at the reveal, the subject's identity, the scores from the score pad with its
corrections, and the last screen. The app finds this module through the game's descriptor."""
from __future__ import annotations

from game.games.speakeasy.companion_screen.final import CompanionOverScene
from game.games.speakeasy.companion_screen.table import CompanionTableScene
from game.render.kit.scene import Scene
from game.session.snapshot import TableSnapshot

__all__ = ["beats_for", "choose_base"]


def choose_base(snapshot: TableSnapshot) -> Scene:
    if (snapshot.public_view or {}).get("phase") == "game_over":
        return CompanionOverScene()
    return CompanionTableScene()


def beats_for(snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]:
    """No timed beats: the table scene itself animates the countdown and the reveal."""
    return []
