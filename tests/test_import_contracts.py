"""The layers of docs/architecture.md, checked by tools: import-linter's contracts (pyproject's
``[tool.importlinter]``: layers only point down, shared code never names a game, games are
independent, engines pure) and no import circle anywhere in the program."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_the_import_contracts_hold() -> None:
    lint = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    run = subprocess.run([sys.executable, "-c", lint, str(ROOT / "pyproject.toml")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert "0 broken" in run.stdout


def import_circles(package: str) -> list[list[str]]:
    """Every set of modules that import each other round a circle (strongly connected components of
    the import graph, TYPE_CHECKING imports left out: they never run)."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=True)
    modules = sorted(graph.modules)
    edges = {m: sorted(x for x in graph.find_modules_directly_imported_by(m) if x in graph.modules) for m in modules}
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in edges[v]:
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            part = stack[stack.index(v):]
            del stack[stack.index(v):]
            if len(part) > 1:
                circles.append(sorted(part))

    for m in modules:
        if m not in order:
            visit(m)
    return circles


def test_no_module_imports_itself_round_a_circle() -> None:
    assert import_circles("game") == []


def test_the_circle_finder_finds_a_circle(tmp_path: Path, monkeypatch) -> None:
    pkg = tmp_path / "circle_probe"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from circle_probe import b\n")
    (pkg / "b.py").write_text("def f():\n    from circle_probe import a  # a lazy import is a circle too\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_circles("circle_probe") == [["circle_probe.a", "circle_probe.b"]]
