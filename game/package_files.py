"""Where the program finds the files it reads at run time: inside the package, through
``importlib.resources``, never beside the source tree (an installed wheel has no checkout around it).

The phone's web files, the strings and each game's own files (a game's decks, its phone module and
strings) are package data (``pyproject.toml`` ships them); sounds are synthesised and the
fonts come from the ``fontpkg-*`` packages, so nothing else is read."""
from __future__ import annotations

from importlib import resources
from pathlib import Path

PACKAGE = "game"


def package_path(*parts: str, package: str = PACKAGE) -> Path:
    """A file or folder shipped in ``package`` (the program's, or a game's own), as a path on disk.
    aiohttp serves the phone's files from disk, so the package must be installed as files (pip
    installs a wheel that way); one run from inside an archive is told so at once rather than
    failing on the first request."""
    ref = resources.files(package).joinpath(*parts)
    if not isinstance(ref, Path):
        raise RuntimeError(f"tabletop must be installed as files, not inside an archive ({ref})")
    return ref
