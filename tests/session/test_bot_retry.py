"""A bot's refused move is tried again (after its thinking time, at least REFUSED_RETRY_MS), not
dropped until another seat moves: a Cheating Moth bot at machine speed lets go of a cheat before
its 1.5 s hold (M8); before, the table then waited for a timer or another seat, and a game of bots
at full speed took minutes."""
from __future__ import annotations

from game.config import TableConfig
from game.session.bot_driver import REFUSED_RETRY_MS
from game.session.scheduler import VirtualTime
from game.session.session import Session
from game.session.snapshot import TablePhase


def test_M8_a_cheat_let_go_too_early_is_let_go_again_later() -> None:
    vt = VirtualTime()
    session = Session.boot(TableConfig(language="en", game="cheating_moth", seed=3), None, None, clock=vt, scheduler=vt,
                           bot_delay_scale=0.05)
    session.host_command({"command": "set_seats", "count": 4})
    session.host_command({"command": "fill_bots", "kind": "heuristic"})
    session.host_command({"command": "start"})
    for _ in range(40_000):
        if session.phase is not TablePhase.PLAYING:
            break
        due = vt.next_due_ms()
        vt.advance(REFUSED_RETRY_MS if due is None else max(1.0, due - vt.now_ms()))
    assert session.phase is TablePhase.FINISHED
    assert vt.now_ms() < 30 * 60_000  # a game of bots at machine speed, not one move per timer
    session.close()
