"""How the table was started: one value passed to the session, the server and the renderer."""
from __future__ import annotations

import enum
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from game import catalog

if TYPE_CHECKING:
    from .kiosk.config import KioskConfig

LANGUAGES: tuple[str, ...] = ("en", "fa", "th")


def default_data_dir() -> Path:
    base = os.environ.get("TABLETOP_DATA") or os.path.join(
        os.environ.get("XDG_STATE_HOME") or os.path.expanduser("~/.local/state"), "tabletop"
    )
    return Path(base)


class RunMode(enum.Enum):
    """How the program runs: a host's table, a companion to real cards, or a café kiosk."""

    TABLE = "table"
    COMPANION = "companion"
    KIOSK = "kiosk"


@dataclass(frozen=True)
class TableConfig:
    host: str | None = None  # None: listen on all interfaces and advertise the LAN address
    port: int = 8765
    mode: RunMode = RunMode.TABLE
    language: str = "en"
    game: str = field(default_factory=catalog.default_game)  # the catalog's first table game
    data_dir: Path = field(default_factory=default_data_dir)
    new: bool = False  # start fresh instead of resuming the journal
    headless: bool = False
    fullscreen: bool = False
    window_size: tuple[int, int] = (1280, 720)
    serial: str | None = None  # arcade board port; None: look for it
    admin_pin: str = ""  # kiosk / host link PIN; empty: generated and printed at start
    seed: int | None = None
    kiosk: KioskConfig | None = None  # the operator's file (``--config``), kiosk mode only
