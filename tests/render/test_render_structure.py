"""The render package's shape: one kit every game builds on, one package per game's
screen, no game's scenes importing another's, the kit importing no game."""
from __future__ import annotations

import ast
import dataclasses
import importlib
from pathlib import Path

import pytest
from scene_checks import assert_paints_the_whole_window

from game import catalog
from game.render.app import Screen, game_screen
from game.render.kit.final import FinalScene
from game.render.kit.scene import Scene
from game.render.kit.table import background
from game.session.snapshot import TablePhase
from game.tapes import lobby_snapshot

RENDER = Path(__file__).resolve().parents[2] / "game" / "render"
GAME_PACKAGES = RENDER.parent / "games"
GAMES = sorted(p.name for p in GAME_PACKAGES.iterdir() if (p / "__init__.py").exists())


def imported_modules(path: Path) -> set[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved)."""
    package = ".".join(path.relative_to(RENDER.parents[1]).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package if node.level else ""
            module = ".".join(x for x in (base, node.module or "") if x)
            out.add(module)
            out.update(f"{module}.{a.name}" for a in node.names)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_no_game_imports_another_game(game):
    others = [g for g in GAMES if g != game]
    for path in (GAME_PACKAGES / game).rglob("*.py"):
        bad = {m for m in imported_modules(path) for o in others
               if m == f"game.games.{o}" or m.startswith(f"game.games.{o}.")}
        assert not bad, f"{path.name} imports {bad}"


def test_the_kit_imports_no_game_and_no_table_scene():
    for path in (RENDER / "kit").rglob("*.py"):
        bad = {m for m in imported_modules(path)
               if m.startswith(("game.games", "game.render.lobby", "game.render.app", "game.rules"))}
        assert not bad, f"kit/{path.name} imports {bad}"


def test_seat_model_and_final_scene_are_defined_once():
    defined: dict[str, list[str]] = {"SeatModel": [], "FinalScene": []}
    for path in (*RENDER.rglob("*.py"), *GAME_PACKAGES.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name in defined:
                defined[node.name].append(str(path.relative_to(RENDER.parent)))
    assert defined == {"SeatModel": ["render/kit/seats.py"], "FinalScene": ["render/kit/final.py"]}


@pytest.mark.parametrize("game", catalog.ids())
def test_every_game_screen_is_reachable_through_its_descriptor_and_ends_on_the_kit_final(game):
    screen, desc = game_screen(game), catalog.get(game)
    assert screen is not None and desc.screen.startswith(f"game.games.{desc.family}.")  # in the game's own package
    finals = [c for c in vars(importlib.import_module(f"{desc.screen}.final")).values()
              if isinstance(c, type) and issubclass(c, FinalScene) and c is not FinalScene]
    assert len(finals) == 1


def test_every_game_and_preset_the_lobby_offers_has_its_name_on_the_screen():
    from game import i18n

    for desc in catalog.games(catalog.PlayMode.TABLE):
        for lang in i18n.LANGUAGES:
            assert i18n.has(lang, "screen", desc.title_key), (desc.id, lang)
            for preset in desc.load_engine().presets():
                assert i18n.has(lang, "screen", f"preset.{preset}"), (desc.id, preset, lang)


def test_a_game_without_a_screen_falls_back_to_the_lobby():
    assert game_screen("no_such_game") is None


class _FeltOnly(Scene):
    """A table scene that forgot everything but the felt: the shared draw check must catch it."""

    name = "collusion_table"

    def draw(self, surface, frame, ctx) -> None:
        surface.blit(background(frame, len(frame.snapshot.seats)), (0, 0))


def test_the_shared_draw_check_fails_a_table_scene_that_draws_no_plates(shared_ctx):
    snap = dataclasses.replace(lobby_snapshot(), phase=TablePhase.PLAYING, public_view={"game": "collusion"})
    screen = Screen(ctx=shared_ctx)
    screen.sync(snap)
    screen.director.stack = [_FeltOnly()]
    with pytest.raises(AssertionError):
        assert_paints_the_whole_window(screen, "felt only")
