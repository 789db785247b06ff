"""Power cut: the journal's files as a power cut leaves them, cut short or garbled at random byte
offsets; the table starts on them and resumes at the last whole action (with a log line), or
starts fresh with a message and the damaged journal kept aside — never a traceback, never a game
that never was. ``python3 bench/bench_powercut.py`` runs many more offsets."""
from __future__ import annotations

import asyncio
import logging
import random
import re
import shutil
from pathlib import Path

import pytest
from powercut_kit import JOURNAL_NAME, Damage, Outcome, play, restart, run_trials, summary


def test_random_cuts_and_garbage_resume_whole_or_refuse_clearly(tmp_path: Path) -> None:
    verdicts = run_trials(tmp_path, trials=4, seed=7, actions=30)
    counts = summary(verdicts)
    assert counts["trials"] == 2 * len(Damage) * 4
    assert counts["resumed"] > 0
    for v in verdicts:
        assert v.outcome is Outcome.RESUMED or v.message, v.what


def test_a_cut_wal_resumes_at_the_last_whole_action_with_a_log_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def main() -> None:
        played = await play(tmp_path / "g", actions=25, checkpoint_at=None, seed=3)
        rng = random.Random(5)
        for n in range(6):
            cut = rng.randrange(played.wal_ends[0] + 1, played.wal_ends[-1])
            data = tmp_path / f"cut{n}"
            shutil.copytree(played.power_cut, data)
            with (data / f"{JOURNAL_NAME}-wal").open("r+b") as f:
                f.truncate(cut)
            whole = max(k for k, end in enumerate(played.wal_ends) if end <= cut)
            caplog.clear()
            with caplog.at_level(logging.INFO, logger="game.session.journal"):
                verdict = await restart(played, data, f"WAL cut at {cut}")
            assert verdict.outcome is Outcome.RESUMED and verdict.resumed_at == whole
            if '"views"' in played.pictures[whole]:  # a game in play: the log says where it resumed
                assert any("resumes after its action" in r.getMessage() for r in caplog.records)

    asyncio.run(main())


def test_a_changed_vote_on_disk_is_caught_not_replayed(tmp_path: Path) -> None:
    """A byte flipped inside a journaled vote (a page sqlite itself finds sound) must not replay as
    another vote: the row's checksum refuses it, and the journal is kept aside."""

    async def main() -> None:
        played = await play(tmp_path / "g", actions=12, checkpoint_at=12, seed=4)
        data = tmp_path / "flipped"
        shutil.copytree(played.power_cut, data)
        (data / f"{JOURNAL_NAME}-wal").unlink()  # everything is in the database file
        db = data / JOURNAL_NAME
        raw = bytearray(db.read_bytes())
        match = re.search(rb'"target":([0-3])', raw)
        assert match, "a journaled vote"
        raw[match.start(1)] = ord("0") + (int(match.group(1)) + 1) % 4
        db.write_bytes(bytes(raw))
        verdict = await restart(played, data, "a vote's target changed on disk")
        assert verdict.outcome is Outcome.MOVED_ASIDE and "checksum" in (verdict.message or "")

    asyncio.run(main())
