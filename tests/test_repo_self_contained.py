"""Nothing in the repo points outside it: no tracked text file cites a sibling folder's files
(the ``shared`` folder beside the checkout, its rules) or an issue tracker's numbers; rules are cited from
``docs/rules/`` (e.g. ``docs/rules/collusion.md#C7``) and reasons are stated where they apply."""
from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TEXT_SUFFIXES = frozenset({".py", ".md", ".js", ".json", ".toml", ".html", ".css", ".sh"})

# Spelled so that this file does not match itself.
OUTSIDE = re.compile(r"\.\./shared|shared[/]rules|\bissue\s+#?\d+", re.IGNORECASE)
UP, RULES, ISSUE = "..", "shared" + "/rules", "iss" + "ue"  # pieces of the fabricated references below


@dataclass(frozen=True, slots=True)
class Finding:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text}"


def outside_references(path: str, text: str) -> list[Finding]:
    """Every reference to something outside the repo in ``text`` (a file's content), by line."""
    return [
        Finding(path, text.count("\n", 0, m.start()) + 1, " ".join(m.group().split()))
        for m in OUTSIDE.finditer(text)
    ]


def tracked_text_files(root: Path) -> list[Path]:
    """The repo's tracked files with a text suffix that exist in the work tree."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True).stdout
    paths = (root / name for name in listed.decode().split("\0") if name)
    return sorted(p for p in paths if p.suffix in TEXT_SUFFIXES and p.is_file())


def _is_git_checkout(root: Path) -> bool:
    probe = subprocess.run(["git", "rev-parse", "--is-inside-work-tree"], cwd=root, capture_output=True)
    return probe.returncode == 0


# ------------------------------------------------------------------------------ the scanner itself
@pytest.mark.parametrize("text", [
    f"see {UP}/{RULES}/collusion.md",
    f"Rule ids of ``{RULES}/speakeasy.md``",
    f'"""{ISSUE.title()} 11 item 7: one device on the LAN"""',
    f"# header deadline ({ISSUE} 14 item 1)",
    f"a snapshot ({ISSUE}\n10 item 3): no module",
    f"fixed in {ISSUE.upper()} #12",
])
def test_the_scanner_finds_a_reference_outside_the_repo(text: str) -> None:
    assert outside_references("x.py", text), text


@pytest.mark.parametrize("text", [
    "Rule C7 (docs/rules/collusion.md#C7)",
    "an issue with the pot; 14 bars left",
    "shared by the screen and the phones",
    "tissue 12",
])
def test_the_scanner_leaves_the_repos_own_words_alone(text: str) -> None:
    assert outside_references("x.py", text) == []


def test_a_finding_names_its_file_and_line() -> None:
    found = outside_references("game/x.py", f"one\ntwo ({ISSUE} 3 item 1)\n")
    assert [str(f) for f in found] == [f"game/x.py:2: {ISSUE} 3"]


# ---------------------------------------------------------------------------------- the repo itself
def test_no_tracked_text_file_points_outside_the_repo() -> None:
    if not _is_git_checkout(ROOT):
        pytest.skip("not a git checkout: no list of tracked files")
    files = tracked_text_files(ROOT)
    assert any(p.name == "test_repo_self_contained.py" for p in files)  # the scan sees the tracked tree
    found = [
        f for p in files
        for f in outside_references(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, "cite docs/rules/… or state the reason instead:\n" + "\n".join(map(str, found))
