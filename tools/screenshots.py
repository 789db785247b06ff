#!/usr/bin/env python3
"""Play scripted games headless (real sessions on virtual time, no server: each catalog game's
tapes, ``game/games/<family>/tapes.py``) and write a PNG of every scene in Persian, Thai and
English at 1280×720 and 1920×1080 (every game of the catalog by default; ``--size 3840x2160`` for 4K).

    python3 tools/screenshots.py [--out out/screenshots] [--game GAME ...] [--lang fa th en] [--size 1280x720 ...]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pygame

from game import catalog
from game.render.kit.scene import RenderContext
from game.tapes import Moment, play_moment

DEFAULT_SIZES = ((1280, 720), (1920, 1080))
LANGS = ("fa", "th", "en")


def render_moment(moment: Moment, size: tuple[int, int], ctx: RenderContext | None = None) -> pygame.Surface:
    """A fresh screen fed the moment's snapshots, played for ``moment.play_s``, then drawn."""
    screen = play_moment(moment, size, ctx)
    surface = pygame.Surface(size)
    screen.draw(surface)
    return surface


def parse_size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="out/screenshots", type=Path)
    parser.add_argument("--game", nargs="*", default=list(catalog.ids()), choices=list(catalog.ids()))
    parser.add_argument("--lang", nargs="+", default=list(LANGS), choices=LANGS)
    parser.add_argument("--size", nargs="+", default=[f"{w}x{h}" for w, h in DEFAULT_SIZES])
    parser.add_argument("--kiosk", action="store_true", help="also the kiosk's attract loop and PIN prompt")
    parser.add_argument("--readme", action="store_true", help="also the README's pictures in docs/images/")
    args = parser.parse_args(argv)
    pygame.init()
    pygame.display.set_mode((1, 1))
    args.out.mkdir(parents=True, exist_ok=True)
    count = 0
    if args.kiosk:
        from game.kiosk.shots import write_kiosk_screens

        count += write_kiosk_screens(args.out, tuple(args.lang), tuple(map(parse_size, args.size)))
    if args.readme:
        from readme_pictures import write_readme_pictures

        count += write_readme_pictures(render_moment)
    for game in args.game:
        for lang in args.lang:
            for moment in catalog.get(game).load_tapes().moments(lang):
                for size in map(parse_size, args.size):
                    path = args.out / f"{game}_{lang}_{size[0]}x{size[1]}_{moment.name}.png"
                    pygame.image.save(render_moment(moment, size), str(path))
                    count += 1
    print(f"wrote {count} screenshots to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
