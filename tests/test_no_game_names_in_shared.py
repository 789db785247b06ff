"""No shared module names a game (docs/architecture.md, "Layers"): the session, the server, the
screen's shared modules and kit, the kiosk, the tools and the phone app's shell reach every game
through the catalog (game/catalog.py), so a new game is its package and one entry point. The ids
come from ``catalog.ids()`` (every installed game), matched as whole words in any case ("Collusion's" names it too)."""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from game import catalog

ROOT = Path(__file__).resolve().parents[1]
SHARED = ("game/*.py", "game/rules/*.py", "game/bots/*.py", "game/howto/*.py", "game/i18n/*.py",
          "game/session/*.py", "game/server/*.py", "game/render/*.py", "game/render/kit/**/*.py", "game/kiosk/*.py",
          "tools/**/*.py", "tools/**/*.sh", "tools/test", "game/web/js/*.js", "game/web/js/screens/*.js")
EXEMPT = {
    # An example configuration a venue copies and edits: it names the games to choose from as
    # documentation, and a real kiosk.toml names the one it plays. The code's default is the
    # catalog's first game (catalog.default_game).
    "tools/systemd/kiosk.toml": "an example configuration, not code",
}


def shared_files() -> list[Path]:
    files = {p for pattern in SHARED for p in ROOT.glob(pattern) if p.is_file()}
    return sorted(p for p in files if str(p.relative_to(ROOT)) not in EXEMPT)


def naming(ids: Iterable[str]) -> re.Pattern[str]:
    words = sorted(ids, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, words)) + r")(?![A-Za-z0-9_])", re.IGNORECASE)


def game_names(text: str, ids: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(line number, id) of every whole-word mention of a game id in ``text``."""
    pattern = naming(ids)
    for n, line in enumerate(text.splitlines(), 1):
        for match in pattern.finditer(line):
            yield n, match.group(0)


def test_no_shared_module_names_a_catalog_game() -> None:
    files = shared_files()
    assert len(files) > 60 and any(p.suffix == ".js" for p in files) and any(p.parts[-2] == "kit" for p in files)
    found = [f"{p.relative_to(ROOT)}:{n}: {name}" for p in files for n, name in game_names(p.read_text(encoding="utf-8"), catalog.ids())]
    assert found == []


@pytest.mark.parametrize(("source", "expected"), [
    ('if game == "collusion":\n    pass', [(1, "collusion")]),
    ("// Collusion's small table\nconst x = 1;", [(1, "Collusion")]),
    ("x = 1\ny = games['speakeasy_companion']", [(2, "speakeasy_companion")]),
    ("a cheating moth, collusions, my_collusion, collusion_x", []),  # other words are not ids
])
def test_the_scanner_finds_a_game_id_in_a_fabricated_source(source: str, expected: list[tuple[int, str]]) -> None:
    assert list(game_names(source, catalog.ids())) == expected


def test_the_scanner_looks_for_whatever_ids_it_is_given(tmp_path: Path) -> None:
    fake = tmp_path / "shared.py"
    fake.write_text('DEFAULT = "toy_guess"\n', encoding="utf-8")
    assert list(game_names(fake.read_text(encoding="utf-8"), catalog.ids())) == []
    assert list(game_names(fake.read_text(encoding="utf-8"), (*catalog.ids(), "toy_guess"))) == [(1, "toy_guess")]


def test_exempt_files_exist_and_say_why() -> None:
    for name, reason in EXEMPT.items():
        assert (ROOT / name).is_file() and reason, name
