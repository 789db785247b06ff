"""``python -m game.server``: the table and its server without a window (same as ``tabletop --headless``)."""
from __future__ import annotations

import sys

from game.__main__ import main as tabletop_main


def main(argv: list[str] | None = None) -> int:
    return tabletop_main(["--headless", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
