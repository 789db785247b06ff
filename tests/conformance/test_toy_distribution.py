"""A game shipped as a Python distribution of its own appears once installed: the toy game is
built into a wheel (one package + one entry point in the ``tabletop.games`` group), installed into
a fresh virtual environment beside the project, and found there by the catalog, served to phones,
and played to the end in a real Session, with nothing registered by hand."""
from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest
import toygame

pytestmark = pytest.mark.slow

PYPROJECT = """\
[build-system]
requires = ["setuptools>=68", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "tabletop-toy-guess"
version = "1.0.0"
description = "Toy Guess: a fourth game for tabletop, in its own distribution"
requires-python = ">=3.11"

[project.entry-points."tabletop.games"]
toy_guess = "toygame:DESCRIPTORS"

[tool.setuptools]
packages = ["toygame"]

[tool.setuptools.package-data]
toygame = ["*.md", "phone/*.js", "strings/*.json"]
"""

PLAY = textwrap.dedent("""\
    import json, sys, tempfile
    from pathlib import Path
    import toygame
    from game import catalog
    from game.config import TableConfig
    from game.session.api import Journal, Session, VirtualTime
    from game.session.snapshot import TablePhase

    desc = catalog.get("toy_guess")  # found through its entry point: nothing registered by hand
    assert "site-packages" in toygame.__file__, toygame.__file__
    vt = VirtualTime()
    data = Path(tempfile.mkdtemp()) / "data"
    config = TableConfig(data_dir=data, admin_pin="246813", seed=9)
    journal, saved, _ = Journal.open(config.data_dir)
    session = Session.boot(config, journal, saved, clock=vt, scheduler=vt)
    session.host_command({"command": "set_game", "game": "toy_guess"})
    session.host_command({"command": "set_seats", "count": 3})
    session.host_command({"command": "fill_bots", "kind": "random"})
    session.host_command({"command": "start"})
    vt.run_until(lambda: session.phase is TablePhase.FINISHED, limit_ms=10 * 60_000)
    view = session.snapshot.public_view
    session.close()
    journal.close()
    print(json.dumps({"games": catalog.ids(), "phone": str(catalog.phone_file(desc.phone)),
                      "strings": str(desc.strings_folder), "phase": view["phase"], "winners": view["winners"]}))
""")


def test_the_toy_game_installed_as_its_own_distribution_plays_in_a_real_session(tmp_path: Path) -> None:
    source = tmp_path / "src"
    shutil.copytree(Path(toygame.__file__).parent, source / "toygame", ignore=shutil.ignore_patterns("__pycache__"))
    (source / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    subprocess.run([*pip, "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(source)],
                   check=True, timeout=300)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=False)  # the project and its dependencies beside it
    python = env_dir / "bin" / "python"
    wheel = next(wheels.glob("tabletop_toy_guess-1.0.0-*.whl"))
    subprocess.run([*pip, "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)], check=True, timeout=300)
    run = subprocess.run([str(python), "-c", PLAY], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"})
    assert run.returncode == 0, run.stderr[-3000:]
    import json

    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert "toy_guess" in out["games"] and {"collusion", "speakeasy", "cheating_moth"} <= set(out["games"])
    assert out["phone"].endswith("site-packages/toygame/phone/toy_guess.js")
    assert out["strings"].endswith("site-packages/toygame/strings")
    assert out["phase"] == "game_over" and out["winners"]
