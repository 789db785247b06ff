"""The rulebooks (each game's ``rulebook.md``, published in ``docs/rules/``) and the engines agree: every rule id has its anchor once, in
order; every rule id the engines cite exists; every setting a rulebook states (`name` = value) is a
real setting with that value (the table game's or the companion's default); every setting the
engines mark [gap] is named in its rulebook; Collusion's preset table matches ``PRESETS``."""
from __future__ import annotations

import enum
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from game import catalog
from game.games.collusion import rules as collusion

RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
ANCHOR = re.compile(r'<a id="([A-Z]\d+)"></a>')
STATED = re.compile(r"`(\w+)`\s*=\s*(`[^`]+`|[\w.]+)")
GAP_FIELD = re.compile(r"^\s+(\w+): [^=]+=.*#.*\[gap\]", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Book:
    file: Path
    letter: str
    last: int
    modules: tuple[ModuleType, ...]  # the family's engines: the table game's, the companion's

    @property
    def text(self) -> str:
        return self.file.read_text(encoding="utf-8")

    @property
    def ids(self) -> list[str]:
        return [f"{self.letter}{i}" for i in range(1, self.last + 1)]

    def settings(self) -> list[Any]:
        return [m.ENGINE.default_settings() for m in self.modules]


def book_of(desc: catalog.GameDescriptor, path: Path) -> Book:
    """A family's rulebook: its rule ids are one letter and a number (C1..C20), read off its anchors."""
    ids = ANCHOR.findall(path.read_text(encoding="utf-8"))
    letter = ids[0][0] if ids else "?"
    engines = [d.engine.partition(":")[0] for d in catalog.games() if d.family == desc.family]
    return Book(path, letter, len(ids), tuple(importlib.import_module(m) for m in engines))


BOOKS = [book_of(desc, path) for desc, path in catalog.rulebooks() if desc.id != "toy_guess"]


def test_every_family_has_its_rulebook_published_in_docs() -> None:
    families = {d.family for d in catalog.installed()}
    assert {b.file.parent.name for b in BOOKS} == families
    published = {p.resolve() for p in RULES.glob("*.md") if p.is_symlink()}
    assert {b.file.resolve() for b in BOOKS} <= published  # docs/rules/<game>.md links to the one source


def shown(value: Any) -> str:
    """A setting's value as a rulebook writes it."""
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "(" + ", ".join(map(str, value)) + ")"
    return str(value)


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.file.parent.name)
def test_every_rule_id_is_an_anchor_once_and_in_order(book: Book) -> None:
    assert ANCHOR.findall(book.text) == book.ids


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.file.parent.name)
def test_every_rule_id_the_engines_cite_is_in_the_rulebook(book: Book) -> None:
    cited = {rid for m in book.modules for rid in re.findall(rf"\b{book.letter}\d+\b", Path(str(m.__file__)).read_text())}
    assert cited, "the engines cite their rule ids"
    assert cited <= set(book.ids), sorted(cited - set(book.ids))


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.file.parent.name)
def test_every_stated_setting_exists_with_that_value(book: Book) -> None:
    stated = STATED.findall(book.text)
    assert len(stated) >= 10, "each rulebook states its settings as `name` = value"
    settings = book.settings()
    for name, raw in stated:
        value = raw.strip("`")
        have = [shown(getattr(s, name)) for s in settings if hasattr(s, name)]
        assert have, f"{book.file}: `{name}` is not a setting of {[type(s).__qualname__ for s in settings]}"
        assert value in have, f"{book.file}: `{name}` = {value}, but the engines' defaults are {have}"


@pytest.mark.parametrize("book", BOOKS, ids=lambda b: b.file.parent.name)
def test_every_gap_setting_of_the_engines_is_named_in_the_rulebook(book: Book) -> None:
    gaps = {name for m in book.modules for name in GAP_FIELD.findall(Path(str(m.__file__)).read_text())}
    assert gaps, "the engines mark their [gap] settings"
    missing = sorted(name for name in gaps if f"`{name}`" not in book.text)
    assert not missing, f"{book.file} does not name these [gap] settings: {missing}"


def test_C6_C17_the_collusion_preset_table_matches_the_presets() -> None:
    book = catalog.get("collusion").rulebook_doc
    assert book is not None
    rows = [line for line in book.read_text().splitlines() if line.startswith("| `")]
    assert len(rows) == 4
    columns = (collusion.CollusionSettings(), collusion.PRESETS["tabani"], collusion.PRESETS["rod_ruang"])
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        name = re.match(r"`(\w+)`", cells[0])
        assert name is not None, row
        written = [cell.split()[0] for cell in cells[1:]]
        assert written == [shown(getattr(s, name.group(1))) for s in columns], row


def test_the_stated_setting_pattern_catches_a_wrong_default() -> None:
    """The check above can fail: a rulebook line with a wrong default does not match the engine."""
    ((name, raw),) = STATED.findall("Setting: `missed_vote` =\n`random` (default).")
    assert shown(getattr(collusion.CollusionSettings(), name)) != raw.strip("`")
