"""Extended timers: a table setting that gives every timed step of any game ×1.5 or ×2 its time
(the session stretches the engine's TimerRequest; the rules never see it, a race keeps its window
and its judging), changeable in the lobby or mid-game, shown to the TV and the host page; with it
a whole game plays to its end on virtual time."""
from __future__ import annotations

import pytest

from game import catalog
from game.rules.base import BadSettings
from game.session.snapshot import ExtendedTimers, TablePhase
from game.session.table import TableSettings
from game.tapes import ScriptedTable

TABLE_GAMES = [d.id for d in catalog.games(catalog.PlayMode.TABLE)]


def _check_stretched(t: ScriptedTable, factor: float) -> bool:
    """The running timer is the engine's, ``factor`` times as long (True: a step timer was seen)."""
    run, running = t.session.run, t.session.timer
    if run is None or running is None or run.engine.race(run.state) is not None:
        return False
    asked = run.engine.timer(run.state)
    if asked is None or asked.key != running.request.key:
        return False
    assert running.request.duration_ms == round(asked.duration_ms * factor), asked
    return True


@pytest.mark.parametrize("choice", [ExtendedTimers.HALF_AGAIN, ExtendedTimers.DOUBLE])
@pytest.mark.parametrize("game", TABLE_GAMES)
def test_a_whole_game_plays_with_every_step_timer_stretched(game: str, choice: ExtendedTimers) -> None:
    t = ScriptedTable(game, 4, "en", people=0, bots=4, settings={"extended_timers": choice.value})
    assert t.session.snapshot.lobby.table_settings["extended_timers"] == choice.value  # the TV and host page see it
    t.start()
    stretched = 0
    for _ in range(20_000):
        if t.over:
            break
        stretched += _check_stretched(t, choice.factor)
        t.wait(250)
    assert t.session.phase is TablePhase.FINISHED
    assert stretched > 0


@pytest.mark.parametrize("game", ["collusion", "speakeasy"])  # their first step is timed (a moth turn is not)
def test_an_idle_step_runs_out_at_twice_its_time(game: str) -> None:
    t = ScriptedTable(game, 4, "en", people=4, settings={"extended_timers": "x2"})
    t.start()
    for _ in range(400):  # past any untimed opening, to the first step timer
        if _check_stretched(t, 2.0):
            break
        t.wait(250)
    run, running = t.session.run, t.session.timer
    assert run is not None and running is not None
    asked = run.engine.timer(run.state)
    assert asked is not None
    assert running.info.deadline_ms - t.vt.now_ms() > 2 * asked.duration_ms - 250  # it appeared in the last 250 ms
    t.wait(running.info.deadline_ms - t.vt.now_ms() - 1)
    assert t.session.timer is not None and t.session.timer.request.key == running.request.key  # still running
    t.wait(2)
    assert t.session.timer is None or t.session.timer.request.key != running.request.key  # then it ran out


def test_the_setting_changes_mid_game_from_the_next_step() -> None:
    t = ScriptedTable(TABLE_GAMES[0], 4, "en", people=4)
    t.start()
    t.host("set_setting", name="extended_timers", value="x1_5")
    assert t.session.table.table_settings.extended_timers is ExtendedTimers.HALF_AGAIN


@pytest.mark.parametrize("bad", ["x3", 2, True, None, ""])
def test_an_unknown_extension_is_refused_and_changes_nothing(bad: object) -> None:
    with pytest.raises(BadSettings):
        TableSettings().with_setting("extended_timers", bad)
    assert TableSettings.from_json(TableSettings(extended_timers=ExtendedTimers.DOUBLE).to_json()).extended_timers \
        is ExtendedTimers.DOUBLE
