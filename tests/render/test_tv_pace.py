"""The TV is never more than a moment behind the table (``game/render/kit/pace.py``): a table much
faster than the beats (real games, every snapshot 0.3 s after the last) never makes the screen
queue a backlog: each new outcome is on screen within the pacing bound of its arrival; the final
screen comes last, after only the beats of the action that ended the game, and no overlay of an
earlier scene (a flight's caption, a race panel) is ever drawn over it."""
from __future__ import annotations

from collections.abc import Callable

import pytest

from game.catalog import get_engine
from game.games.cheating_moth.tapes import MothTable
from game.render.app import Screen
from game.render.kit import pace
from game.render.kit.scene import Scene
from game.session.news import TELL_WAIT_MS
from game.session.snapshot import TablePhase, TableSnapshot
from game.tapes import ScriptedTable

SIZE = (1280, 720)
STEP = 1 / 60
TABLE_EVERY_S = 0.3  # the table's pace: far faster than any reveal plays
BOUND_S = pace.TAIL_S + pace.BACKLOG_S + 3 * STEP  # a new outcome starts within this of its arrival


def collusion_game() -> list[TableSnapshot]:
    table = ScriptedTable("collusion", 6, "fa", seed=11, people=6)
    table.start()
    table.play_to_the_end()
    return [s for s in table.recorder.snapshots if s.phase is not TablePhase.LOBBY]


def moth_game() -> list[TableSnapshot]:
    return MothTable(4, "th", seed=5).play()


class Watch:
    """Plays snapshots into a screen at the table's pace and keeps what it saw each step."""

    def __init__(self, ctx) -> None:
        self.screen = Screen(ctx=ctx)
        self.waiting: dict[int, float] = {}  # batch -> when it arrived (its beats not on screen yet)
        self.late: list[float] = []  # how long each batch's first beat waited
        self.t = 0.0
        self.final_seq: int | None = None
        self.over_final: list[str] = []  # scenes seen over the final screen that its own batch did not call for

    def feed(self, snap: TableSnapshot, play_s: float) -> None:
        director = self.screen.director
        self.screen.sync(snap)
        if any(s.batch == snap.event_seq for s in [*director.stack, *director.queued()]):
            self.waiting.setdefault(snap.event_seq, self.t)  # this batch called for beats
        for _ in range(round(play_s / STEP)):
            self.screen.sync(snap)
            self.screen.advance(STEP, SIZE)
            self.t += STEP
            self._look()

    def _look(self) -> None:
        stack: list[Scene] = self.screen.director.stack
        base = stack[0]
        if base.announces:
            self.final_seq = self.final_seq if self.final_seq is not None else self.screen.snapshot.event_seq
            self.over_final += [s.name for s in stack[1:] if s.overlay or s.batch != self.final_seq]
        shown = {s.batch for s in stack[1:]}
        for batch in [b for b in self.waiting if b in shown or all(b < (s or 0) for s in shown) and shown]:
            self.late.append(self.t - self.waiting.pop(batch))


@pytest.mark.parametrize("game", [collusion_game, moth_game], ids=["collusion", "cheating_moth"])
def test_a_fast_table_never_builds_a_backlog_and_the_final_screen_comes_last(
        game: Callable[[], list[TableSnapshot]], shared_ctx) -> None:
    snaps = game()
    watch = Watch(shared_ctx)
    for snap in snaps:
        watch.feed(snap, TABLE_EVERY_S)
        assert watch.screen.director.behind_s() <= 30.0  # one batch's beats at most, never a queue of them
    watch.feed(snaps[-1], 30.0)  # the table is over: the TV finishes the last word
    assert watch.late and max(watch.late) <= BOUND_S, max(watch.late)
    assert watch.over_final == []  # nothing but the ending's own beats over the final screen
    director = watch.screen.director
    assert director.showing() is not None and director.showing().announces  # the final screen alone, last


def test_superseded_beats_shrink_to_their_outcome() -> None:
    class Beat(Scene):
        overlay = False

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.duration_s = seconds

    running, old, older = Beat(8.0), Beat(6.5), Beat(7.0)
    running.t = 1.0
    kept = pace.superseded([running], [older, old])
    assert running.duration_s - running.t == pytest.approx(pace.TAIL_S)  # the running one: its outcome only
    assert kept == [old]  # of those waiting, the newest fits; the older one is told by what follows
    assert pace.tail_s(old) == pytest.approx(pace.TAIL_S)
    assert pace.behind_s([running], kept) == pytest.approx(2 * pace.TAIL_S)


def speakeasy_game() -> list[TableSnapshot]:
    table = ScriptedTable("speakeasy", 5, "th", seed=4, people=5)
    table.start()
    table.play_to_the_end()
    return [s for s in table.recorder.snapshots if s.phase is not TablePhase.LOBBY]


@pytest.mark.parametrize("game", [collusion_game, speakeasy_game, moth_game], ids=["collusion", "speakeasy", "cheating_moth"])
def test_the_tv_reports_a_batch_told_once_its_outcome_is_on_screen(
        game: Callable[[], list[TableSnapshot]], shared_ctx) -> None:
    """The phones wait for ``Director.told`` (``session/news.py``): every batch holding the game's news
    calls for a beat (else the phones would blink "Look at the screen" for nothing); the batch is not
    told while that beat builds up, and is told once it reaches its outcome (``Scene.told_s``)."""
    snaps = game()
    news = get_engine(snaps[0].game).news_events
    screen = Screen(ctx=shared_ctx)
    director = screen.director
    screen.sync(snaps[0])
    held = 0
    for snap in snaps[1:]:
        fresh = snap.event_seq != director.seen
        screen.sync(snap)
        if not fresh or not any(e.get("type") in news for e in snap.events):
            assert director.told() is not None
            continue
        held += 1
        beats = [s for s in [*director.stack[1:], *director.queued()] if s.batch == snap.event_seq]
        assert beats, [e.get("type") for e in snap.events]
        assert director.told() == snap.event_seq - 1 or director.told() < snap.event_seq
        waited = 0.0
        while (director.told() or 0) < snap.event_seq:
            screen.advance(STEP, SIZE)
            waited += STEP
            assert waited < 30.0
        assert all(s.t >= min(s.told_s, (s.duration_s or 0) - pace.TAIL_S) - 1e-6 or s.done for s in beats)
        # older beats still playing were cut to their tails when this batch came (pace.py); the
        # game's last batch is told by the final screen, once its beats are done
        before = pace.TAIL_S + pace.BACKLOG_S
        last = (beats[-1].duration_s or 0) if snap is snaps[-1] else beats[-1].told_s
        assert waited <= before + sum((s.duration_s or 0) for s in beats[:-1]) + last + 3 * STEP
    assert held >= 2


@pytest.mark.parametrize("game", [collusion_game, speakeasy_game, moth_game], ids=["collusion", "speakeasy", "cheating_moth"])
def test_the_batch_that_ends_the_game_is_told_by_the_final_screen(
        game: Callable[[], list[TableSnapshot]], shared_ctx) -> None:
    """The phones name the winner when the TV does: the last batch is told only once the final
    screen shows alone, not when the last round's summary is up (the phones said "Vermilion won!"
    for 5 s while the TV still showed round 5's bars), and within the table's patience for a
    telling TV (``news.TELL_WAIT_MS``), so it never gives up on a TV that is just slow to finish."""
    snaps = game()
    screen = Screen(ctx=shared_ctx)
    director = screen.director
    screen.sync(snaps[0])
    for before, snap in zip(snaps, snaps[1:]):
        if snap is snaps[-1]:  # the TV kept up until here: each batch told before the next came
            while (director.told() or 0) < before.event_seq:
                screen.advance(STEP, SIZE)
        screen.sync(snap)
    last = snaps[-1].event_seq
    waited = 0.0
    while (director.told() or 0) < last:
        assert director.showing() is None, "the final screen shows alone, and the batch is still not told"
        screen.advance(STEP, SIZE)
        waited += STEP
        assert waited < 60.0
    assert director.showing() is not None and director.showing().announces
    assert waited * 1000 < TELL_WAIT_MS - 2000, waited
