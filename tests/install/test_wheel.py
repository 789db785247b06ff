"""Installed like real software: the sdist and the wheel are built from the checkout, the wheel (built
from the sdist, as a package index would) is installed into a fresh venv OUTSIDE the checkout, and
the installed program serves a phone and plays every game by bots. Everything is run from a folder
outside the checkout with no PYTHONPATH, so only the installed package can answer."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tarfile
import time
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from game import catalog

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
ENV_DROP = ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")


@dataclass(frozen=True, slots=True)
class Installed:
    dist: Path  # the sdist and the wheel
    venv: Path
    work: Path  # the folder every command runs in (outside the checkout)

    def bin(self, name: str) -> str:
        return str(self.venv / "bin" / name)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ENV_DROP}
    env.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    return env


def _run(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(args)} -> {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    """`python -m build` makes the sdist, then the wheel from the sdist; the wheel goes into a venv
    that sees the system's site-packages (pygame-ce, aiohttp, ... are not downloaded again) but not
    the checkout."""
    base = tmp_path_factory.mktemp("installed")
    dist, venv, work = base / "dist", base / "venv", base / "work"
    work.mkdir()
    source = _clean_copy(base / "source")  # the build writes its egg-info beside the sources: not in the checkout
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], cwd=work, timeout=600)
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], cwd=work)
    wheel = next(dist.glob("tabletop-*.whl"))
    _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], cwd=work)
    return Installed(dist, venv, work)


def _clean_copy(to: Path) -> Path:
    """The checkout's tracked files (its working copies), as a release would build them."""
    if not (ROOT / ".git").exists():
        shutil.copytree(ROOT, to, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build", "out", ".git"))
        return to
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        if (ROOT / name).is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, to / name)
    return to


def _runtime_files() -> set[str]:
    """Every tracked file under game/ that is not Python source: the program reads them at run time."""
    listed = subprocess.run(["git", "ls-files", "-z", "game"], cwd=ROOT, capture_output=True, check=True).stdout
    names = (name for name in listed.decode().split("\0") if name)
    return {name for name in names if not name.endswith(".py") and (ROOT / name).is_file()}


def test_the_wheel_and_the_sdist_ship_every_runtime_file(installed: Installed) -> None:
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the tracked files are unknown")
    wanted = _runtime_files()
    assert "game/games/speakeasy/decks/en.txt" in wanted and "game/web/index.html" in wanted
    wheel = set(zipfile.ZipFile(next(installed.dist.glob("tabletop-*.whl"))).namelist())
    assert wanted - wheel == set()
    with tarfile.open(next(installed.dist.glob("tabletop-*.tar.gz"))) as sdist:
        shipped = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert wanted - shipped == set()


def test_the_installed_package_is_the_one_that_runs(installed: Installed) -> None:
    done = _run([installed.bin("python"), "-c", "import game, sys; print(game.__file__); print(sys.path)"],
                cwd=installed.work)
    where = Path(done.stdout.splitlines()[0]).resolve()
    assert where.is_relative_to(installed.venv.resolve()), where
    assert str(ROOT) not in done.stdout.splitlines()[1]


def _join_url(table: subprocess.Popen[str]) -> str:
    assert table.stdout is not None
    seen: list[str] = []
    for line in table.stdout:
        seen.append(line)
        if line.startswith("Join by code:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"the table never printed its join link:\n{''.join(seen)}")


def test_the_installed_program_serves_the_join_page_headless(installed: Installed) -> None:
    table = subprocess.Popen(
        [installed.bin("tabletop"), "--headless", "--host", "127.0.0.1", "--port", "0",
         "--data", str(installed.work / "data")],
        cwd=installed.work, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        url = _join_url(table)
        with urllib.request.urlopen(url, timeout=10) as page:
            body = page.read().decode()
        assert page.status == 200 and "<html" in body.lower()
        for path in ("/i18n/fa.json", "/games/speakeasy/clues_th.json", "/static/js/main.js", "/static/fonts.css",
                     "/fonts/NotoSansArabic.ttf"):
            with urllib.request.urlopen(url.replace("/join", path), timeout=10) as shipped:
                assert shipped.status == 200 and shipped.read(), path  # package data, read from the venv
    finally:
        os.killpg(table.pid, signal.SIGTERM)
        started = time.monotonic()
        status = table.wait(timeout=30)
    assert status == 0, status
    assert time.monotonic() - started < 30


@pytest.mark.parametrize("game", [d.id for d in catalog.games() if d.has_bots])
def test_the_installed_program_plays_every_game_by_bots(installed: Installed, game: str) -> None:
    done = _run([installed.bin("tabletop"), "simulate", "--game", game, "--games", "2", "--players", "4"],
                cwd=installed.work)
    assert "seat" in done.stdout
