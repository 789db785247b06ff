from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tabletop_fakegame as fake

from game.config import TableConfig
from game.session.journal import Journal
from game.session.scheduler import VirtualTime
from game.session.session import Session


@pytest.fixture
def config(tmp_path: Path) -> TableConfig:
    return TableConfig(data_dir=tmp_path / "data", admin_pin="2468", seed=11)


@pytest.fixture
def vt() -> VirtualTime:
    """The session's time in these tests: it moves only when a test advances it."""
    return VirtualTime()


@pytest.fixture
def make_fake(config: TableConfig, vt: VirtualTime) -> Callable[..., Session]:
    """A session on the fake game (journal in tmp_path unless journal=None is passed), on virtual
    time (``vt``; a test may give its own ``clock`` for the session's "now")."""
    opened: list[Journal] = []

    def make(*, journal: bool = True, clock: Any = None, cfg: TableConfig | None = None, **kw: Any) -> Session:
        cfg = cfg or config
        j, saved = None, None
        if journal:
            j, saved, _ = Journal.open(cfg.data_dir, new=cfg.new)
            opened.append(j)
        kw.setdefault("engines", fake.engines)
        kw.setdefault("bot_factory", fake.bot_factory)
        kw["clock"] = clock if clock is not None else vt
        kw.setdefault("scheduler", vt)
        return Session.boot(cfg, j, saved, **kw)

    yield make
    for j in opened:
        j.close()
