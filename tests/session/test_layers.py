"""Who imports whom (docs/architecture.md, "Layers"): the session names no game, an engine names no
other layer."""
from __future__ import annotations

import ast
from pathlib import Path

from game import catalog

GAME = Path(__file__).resolve().parents[2] / "game"
GAME_WORDS = {*catalog.ids(), "moth", "mosquito", "beetle", "ambush", "informant"}


def _imports(tree: ast.Module) -> list[str]:
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            out += [f"{'.' * node.level}{node.module or ''}.{a.name}" for a in node.names]
    return out


def test_no_session_module_names_a_game() -> None:
    for path in sorted((GAME / "session").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        for name in _imports(tree):
            assert not any(part in catalog.ids() for part in name.split(".")), f"{path.name} imports {name}"
        words = {w.lower() for w in source.replace("_", " ").split()} | set(source.lower().split())
        named = {w for w in GAME_WORDS if any(w in token for token in words)}
        assert named == set(), f"{path.name} names {sorted(named)}"


def test_engines_import_no_other_layer() -> None:
    for path in sorted((GAME / "rules").glob("*.py")):
        if path.name == "__init__.py":
            continue  # the lookup by id, which reads the catalog
        for name in _imports(ast.parse(path.read_text(encoding="utf-8"))):
            layer = name.lstrip(".").split(".")
            assert not (layer[0] == "game" and layer[1] in {"session", "server", "render", "bots", "web", "kiosk"}), \
                f"rules/{path.name} imports {name}"
