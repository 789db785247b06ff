"""Every picture the screen tests and tools/screenshots.py draw is a real session's snapshot:
no module of the screen builds a snapshot by hand, and the companion tapes come from a
companion-mode session whose races were judged by the session's race floor."""
from __future__ import annotations

import ast
from pathlib import Path

from game.games.cheating_moth import companion_tapes as moth_companion
from game.games.collusion import companion_tapes as collusion_companion
from game.games.speakeasy import companion_tapes as speakeasy_companion
from game.session.snapshot import RunMode

RENDER = Path(__file__).resolve().parents[2] / "game" / "render"
HAND_MADE = {"TableSnapshot", "SeatInfo", "RaceInfo", "TimerInfo"}


def _constructs(path: Path) -> set[str]:
    """Snapshot classes a module calls (``TableSnapshot(...)``, ``RaceInfo.from_json(...)``)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func.value if isinstance(node.func, ast.Attribute) else node.func
        if isinstance(func, ast.Name) and func.id in HAND_MADE:
            found.add(func.id)
    return found


def test_no_screen_module_builds_a_snapshot_by_hand() -> None:
    assert not list(RENDER.rglob("scripted.py"))
    offenders = {str(p.relative_to(RENDER)): names for p in RENDER.rglob("*.py") if (names := _constructs(p))}
    assert offenders == {}


def test_the_check_sees_a_hand_made_snapshot(tmp_path: Path) -> None:
    fake = tmp_path / "fixture.py"
    fake.write_text("snap = TableSnapshot(version=1)\nrace = RaceInfo.from_json({})\n", encoding="utf-8")
    assert _constructs(fake) == {"TableSnapshot", "RaceInfo"}


def test_companion_tapes_are_companion_mode_sessions() -> None:
    for family, moments in (("collusion", collusion_companion.collusion_moments),
                            ("speakeasy", speakeasy_companion.speakeasy_moments),
                            ("cheating_moth", moth_companion.moth_moments)):
        tape = list(moments("en"))
        snaps = [s for m in tape for s in m.snapshots]
        assert {s.mode for s in snaps} == {RunMode.COMPANION}, family
        assert {s.game for s in snaps} == {f"{family}_companion"}, family
        for m in tape:  # each moment: the session's snapshots in the order it published them
            assert [s.version for s in m.snapshots] == sorted(s.version for s in m.snapshots), (family, m.name)


def test_M14_companion_tape_race_was_judged_by_the_race_floor() -> None:
    slowest = next(m for m in moth_companion.moth_moments("en") if m.name == "mosquito_slowest").snapshots[-1]
    done, view = slowest.race.last, slowest.public_view
    assert done is not None and view is not None
    assert done.order == (2, 1, 3) and done.sources == ("arcade", "phone", "keyboard")
    assert [f.seat for f in done.false_starts] == [3]  # shown by the floor, not counted by the engine
    assert view["last_race"]["loser"] == 3 and view["last_race"]["times_ms"] == [212, 268, 431]
