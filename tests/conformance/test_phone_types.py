"""The phone's JavaScript is type-checked: ``tsc`` (typescript pinned in package.json) reads the JSDoc
types of every phone module (jsconfig.json) and finds no error; the game-module contract
(``GameModule`` in games/common.js) really binds a game's module; every game's module is among the
files checked; and every relative import is a URL the table serves (jsconfig's ``rootDirs`` is coarser
than the browser's URL tree, so this closes the gap)."""
from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import toygame

from game import catalog
from game.server import app

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "jsconfig.json"
WEB_DIR = app.WEB_DIR
JS_DIR = WEB_DIR / "js"
# `import … from "x"` / `export … from "x"` (over several lines too) and `import "x"`, at a line's start
# so the JSDoc type imports (`@typedef {import("./common.js").GameContext}`) are not taken for URLs.
IMPORT = re.compile(r'^(?:import|export)\b[^;"]*?\bfrom\s*"([^"]+)"|^import\s*"([^"]+)"', re.MULTILINE)

Tsc = Callable[..., subprocess.CompletedProcess[str]]

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="node and npm are not installed: tsc (typescript from npm) cannot run")


@pytest.fixture(scope="module")
def tsc() -> Tsc:
    """``tsc`` from the pinned typescript, installed from package-lock.json first if it is missing."""
    if not (ROOT / "node_modules" / "typescript" / "package.json").is_file():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True, capture_output=True, timeout=600)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["npx", "--no-install", "tsc", *args], cwd=ROOT, capture_output=True, text=True, timeout=600)
    return run


@pytest.fixture
def toy() -> Iterator[catalog.GameDescriptor]:
    desc = catalog.register(toygame.DESCRIPTOR)
    yield desc
    catalog.unregister(desc.id)


def served_file(path: str) -> Path | None:
    """The file the table answers ``GET /<path>`` with, or None."""
    return app.served_file(WEB_DIR, path)


def relative_imports(url: str, source: str) -> list[str]:
    """The URL paths a module served at ``url`` imports relatively (absolute and bare ones left out)."""
    specs = [a or b for a, b in IMPORT.findall(source)]
    return [posixpath.normpath(posixpath.join(posixpath.dirname(url), s)) for s in specs if s.startswith((".", ".."))]


def served_modules() -> dict[str, Path]:
    """Every phone module by its URL path: the app's own files and each registered game's module."""
    modules = {f"js/{p.relative_to(JS_DIR).as_posix()}": p for p in JS_DIR.rglob("*.js")}
    for desc in catalog.games():
        path = served_file(f"js/{desc.phone}")
        assert path is not None, f"{desc.id}: the table does not serve its phone module js/{desc.phone}"
        modules[f"js/{desc.phone}"] = path
    return modules


def test_the_phone_modules_have_no_type_errors(tsc: Tsc) -> None:
    done = tsc("-p", str(CONFIG), "--noEmit")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_game_module_that_breaks_the_game_module_contract_is_refused(tsc: Tsc, tmp_path: Path) -> None:
    """The contract is a real type, not an ``any`` from a typedef tsc cannot parse: a module without
    ``renderPublic``, or one passing the seat (a number or null) as a button's label, is an error."""
    games = tmp_path / "games"
    games.mkdir()
    (games / "broken.js").write_text(
        'import { bigButton } from "./common.js";\n'
        '/** @type {import("./common.js").GameModule} */\n'
        "export default { renderSeat: (ctx) => bigButton(ctx.seat, () => ctx.rerender()) };\n", encoding="utf-8")
    config = tmp_path / "jsconfig.json"
    config.write_text(json.dumps({
        "extends": str(CONFIG), "include": [str(games / "broken.js")],
        "compilerOptions": {"rootDirs": [str(JS_DIR), str(JS_DIR / "games"), str(tmp_path), str(games)]},
    }), encoding="utf-8")
    done = tsc("-p", str(config), "--noEmit")
    errors = [line for line in done.stdout.splitlines() if "error TS" in line]
    assert done.returncode != 0
    assert any("broken.js" in e and "'renderPublic' is missing" in e for e in errors), done.stdout
    assert any("broken.js" in e and "'number | null' is not assignable to parameter of type 'string'" in e
               for e in errors), done.stdout
    assert not any("Cannot find module" in e for e in errors), done.stdout  # rootDirs found ./common.js


def test_every_games_phone_module_is_among_the_files_tsc_checks(tsc: Tsc, toy: catalog.GameDescriptor) -> None:
    done = tsc("-p", str(CONFIG), "--listFilesOnly")
    assert done.returncode == 0, done.stdout + done.stderr
    checked = {Path(line).resolve() for line in done.stdout.splitlines() if line.endswith(".js")}
    # The repo's games (an installed distribution's game checks its own modules).
    ours = [desc for desc in catalog.games() if Path(desc.folder).resolve().is_relative_to(ROOT)]
    modules = {desc.id: served_file(f"js/{desc.phone}") for desc in ours}
    assert toy.id in modules and len(modules) > 1
    assert {game: path for game, path in modules.items() if path is None or path.resolve() not in checked} == {}


def test_every_relative_import_of_a_phone_module_is_a_url_the_table_serves(toy: catalog.GameDescriptor) -> None:
    modules = served_modules()
    assert f"js/{toy.phone}" in modules
    imports = {(url, target) for url, path in modules.items()
               for target in relative_imports(url, path.read_text(encoding="utf-8"))}
    assert ("js/games/toy_guess.js", "js/dom.js") in imports  # multi-line and plug-in imports are read
    assert ("js/games/collusion_companion.js", "js/games/collusion.js") in imports
    assert sorted((url, target) for url, target in imports if served_file(target) is None) == []


def test_an_import_the_browser_would_not_find_is_caught_though_rootdirs_resolves_it() -> None:
    """rootDirs merges game/web/js with game/web/js/games, so tsc takes a game's "./dom.js"; the URL
    check does not."""
    (target,) = relative_imports("js/games/collusion.js", 'import { h } from "./dom.js";\n')
    assert target == "js/games/dom.js" and served_file(target) is None
    assert relative_imports("js/games/x.js", '/** @typedef {import("./common.js").GameContext} C */\n') == []
