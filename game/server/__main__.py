"""``python -m game.server``: the table and its server without a window (same as ``tabletop --headless``)."""
from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from game.config import LANGUAGES, TableConfig, default_data_dir
from game.rules import GAMES
from game.session.snapshot import Mode

from .runtime import run_headless


def parse_args(argv: list[str] | None = None) -> TableConfig:
    p = argparse.ArgumentParser(prog="python -m game.server", description=__doc__)
    p.add_argument("--host", help="address to listen on and advertise (default: all interfaces, LAN address shown)")
    p.add_argument("--port", type=int, default=8765, help="TCP port (0: any free port)")
    p.add_argument("--data-dir", type=Path, default=None, help="where the journal lives")
    p.add_argument("--new", action="store_true", help="start a fresh table (the old journal is moved aside)")
    p.add_argument("--mode", choices=[m.value for m in Mode], default=Mode.TABLE.value)
    p.add_argument("--lang", choices=LANGUAGES, default="en")
    p.add_argument("--game", choices=GAMES, default="collusion")
    p.add_argument("--pin", default="", help="admin PIN for the host link (default: generated)")
    p.add_argument("--seed", type=int, default=None, help="fixed seed (reproducible games)")
    p.add_argument("-v", "--verbose", action="store_true")
    a = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO if a.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return TableConfig(host=a.host, port=a.port, mode=Mode(a.mode), language=a.lang, game=a.game,
                       data_dir=a.data_dir or default_data_dir(), new=a.new, headless=True,
                       admin_pin=a.pin, seed=a.seed)


def main(argv: list[str] | None = None) -> int:
    return run_headless(parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
