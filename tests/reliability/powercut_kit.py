"""Power cuts: a game is journaled, the journal's files are copied as a power cut would leave them
(while the table is still open: nothing closed, nothing checkpointed at exit), then damaged at
random byte offsets (the WAL cut short or garbled, the database cut short or garbled), and the
table is started on them through ``start_table``, as the program starts. Shared by
``tests/reliability/test_power_cut.py`` and ``bench/bench_powercut.py``.

Allowed outcomes: the table resumes exactly as it was after some whole action k (its picture is
the recorded one after action k; never a different game), or it starts fresh with a message and
the damaged journal kept aside, or it refuses to start with a clear message (StartupError). Never
a traceback.
"""
from __future__ import annotations

import asyncio
import enum
import json
import random
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.config import TableConfig
from game.server.runtime import StartupError, start_table, stop_table
from game.session.journal import JOURNAL_NAME, Journal
from game.session.session import Session

PIN = "2468"
SEATS = 4


class Damage(enum.Enum):
    WAL_CUT = "wal_cut"  # the WAL ends early (the last writes never reached the disk)
    WAL_GARBLE = "wal_garble"  # some bytes of the WAL are garbage
    DB_CUT = "db_cut"  # the database file ends early
    DB_GARBLE = "db_garble"  # some bytes of the database are garbage


class Outcome(enum.Enum):
    RESUMED = "resumed"  # at the last whole action k
    MOVED_ASIDE = "moved_aside"  # fresh table, message, the damaged journal kept
    REFUSED = "refused"  # StartupError with a message


def picture(session: Session) -> str:
    """The game as the seats and the screen see it (in the lobby: the seats' names and settings)."""
    run = session.run
    if run is None:
        return json.dumps({"version": session.version, "phase": session.phase.value,
                           "names": [r.name for r in session.table.seats], "settings": session.table.settings},
                          sort_keys=True, default=str)
    views = [run.engine.view(run.state, seat) for seat in (None, *range(session.table.seat_count))]
    return json.dumps({"version": session.version, "views": views}, sort_keys=True)


@dataclass
class Played:
    """A journaled game: the data dir as a power cut left it and the picture after each action."""

    power_cut: Path
    pictures: list[str]  # pictures[k]: after k changes (the table's, then the game's actions)
    checkpointed: int  # changes folded into the database file before the cut
    wal_ends: list[int]  # the WAL's size after each change (while nothing was folded: where its frames end)


async def play(work: Path, *, actions: int, checkpoint_at: int | None, seed: int) -> Played:
    data = work / "live"
    config = TableConfig(data_dir=data, admin_pin=PIN, seed=seed, game="collusion")
    journal, saved, _ = Journal.open(data)
    session = Session.boot(config, journal, saved, bot_delay_scale=0.0)
    wal = data / f"{JOURNAL_NAME}-wal"
    pictures: list[str] = []  # the lobby's changes count too: a cut may fall before the game
    wal_ends: list[int] = []

    def changed() -> None:
        pictures.append(picture(session))
        wal_ends.append(wal.stat().st_size if wal.exists() else 0)

    changed()
    session.host_command({"command": "set_seats", "count": SEATS})
    changed()
    session.host_command({"command": "set_setting", "name": "conspiracy_ms", "value": 3_600_000})
    changed()
    for seat in range(SEATS):
        session.join_seat(session.table.seats[seat].token, f"P{seat}")
        changed()
    session.host_command({"command": "start"})
    changed()
    rng = random.Random(seed)
    checkpointed = 0
    actions += len(pictures) - 1
    while len(pictures) <= actions and session.run is not None:
        movers = [seat for seat in range(SEATS) if session.update.seat(seat).legal]
        if not movers:
            break
        seat = rng.choice(movers)
        session.submit_action(seat, rng.choice(session.update.seat(seat).legal), session.version)
        changed()
        if checkpoint_at is not None and len(pictures) - 1 == checkpoint_at:
            journal.checkpoint()
            checkpointed = checkpoint_at
    cut = work / "cut"
    cut.mkdir()
    for suffix in ("", "-wal"):  # -shm is memory: a power cut loses it
        source = data / f"{JOURNAL_NAME}{suffix}"
        if source.exists():
            shutil.copyfile(source, cut / source.name)
    session.close()
    journal.close()
    return Played(cut, pictures, checkpointed, wal_ends if checkpoint_at is None else [])


def damage(played: Played, kind: Damage, rng: random.Random, into: Path) -> str:
    """A damaged copy of the power-cut data in ``into``; says what was done."""
    shutil.copytree(played.power_cut, into)
    target = into / (JOURNAL_NAME + ("-wal" if kind in (Damage.WAL_CUT, Damage.WAL_GARBLE) else ""))
    size = target.stat().st_size if target.exists() else 0
    if size == 0:
        return f"{target.name} is empty: nothing to damage"
    offset = rng.randrange(size)
    if kind in (Damage.WAL_CUT, Damage.DB_CUT):
        with target.open("r+b") as f:
            f.truncate(offset)
        return f"{target.name} cut at byte {offset} of {size}"
    length = rng.randint(1, 64)
    with target.open("r+b") as f:
        f.seek(offset)
        f.write(rng.randbytes(min(length, size - offset)))
    return f"{target.name}: {length} garbage bytes at {offset} of {size}"


@dataclass
class Verdict:
    outcome: Outcome
    resumed_at: int | None  # the whole action the table resumed after
    message: str | None
    what: str


def _journal_files(data: Path, pattern: str) -> list[Path]:
    return sorted(data.glob(f"{JOURNAL_NAME}{pattern}"))


async def restart(played: Played, data: Path, what: str) -> Verdict:
    """Start the table on damaged data as the program does, and judge what came back."""
    config = TableConfig(host="127.0.0.1", port=0, data_dir=data, admin_pin=PIN, game="collusion")
    try:
        started = await start_table(config, arcade=False, bot_delay_scale=0.0)
    except StartupError as exc:
        assert str(exc), what
        assert _journal_files(data, "*"), f"{what}: the journal is gone"
        return Verdict(Outcome.REFUSED, None, str(exc), what)
    try:
        if started.message is not None:
            kept = _journal_files(data, ".corrupt-*")
            assert kept, f"{what}: moved aside, but no file was kept: {started.message}"
            assert kept[0].name in started.message, f"{what}: the message does not name the kept file"
            assert started.session.run is None, f"{what}: a fresh table, not a game"
            return Verdict(Outcome.MOVED_ASIDE, None, started.message, what)
        now = picture(started.session)
        if now not in played.pictures:
            raise AssertionError(f"{what}: the table resumed as a game that never was (version {started.session.version})")
        return Verdict(Outcome.RESUMED, played.pictures.index(now), None, what)
    finally:
        await stop_table(started)


async def trial(played: Played, kind: Damage, rng: random.Random, work: Path) -> Verdict:
    data = work / f"trial-{rng.getrandbits(40):x}"
    what = damage(played, kind, rng, data)
    return await restart(played, data, what)


def run_trials(work: Path, *, trials: int, seed: int, actions: int = 40) -> list[Verdict]:
    """``trials`` damaged restarts of each kind, on a game with and one without a checkpoint."""

    async def main() -> list[Verdict]:
        verdicts = []
        for n, checkpoint_at in enumerate((None, actions // 2)):
            played = await play(work / f"game{n}", actions=actions, checkpoint_at=checkpoint_at, seed=seed + n)
            rng = random.Random(seed * 31 + n)
            for kind in Damage:
                for _ in range(trials):
                    verdicts.append(await trial(played, kind, rng, work / f"game{n}"))
        return verdicts

    return asyncio.run(main())


def summary(verdicts: list[Verdict]) -> dict[str, Any]:
    out: dict[str, Any] = {o.value: sum(v.outcome is o for v in verdicts) for o in Outcome}
    out["trials"] = len(verdicts)
    return out
