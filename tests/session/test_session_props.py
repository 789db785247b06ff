"""Property: any sequence of host commands and seat actions either changes the table (and the
version grows) or raises a typed error and changes nothing at all."""
from __future__ import annotations

import asyncio
from typing import Any

import tabletop_fakegame as fake
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.config import TableConfig
from game.rules.base import RulesError
from game.session.session import Session

values = st.one_of(st.none(), st.booleans(), st.integers(-2, 14), st.sampled_from(
    ["random", "heuristic", "genius", "fa", "quick", "normal", "collusion", "chess", "", "x" * 30]))
host_ops = st.builds(lambda c, f: ("host", {"command": c, **f}),
                     st.sampled_from(["set_game", "set_preset", "set_language", "set_setting", "set_seats",
                                      "set_bot", "fill_bots", "start", "next", "abort", "kick", "nope"]),
                     st.dictionaries(st.sampled_from(["game", "preset", "language", "name", "value", "count",
                                                      "seat", "kind"]), values, max_size=3))
seat_ops = st.tuples(st.just("act"), st.integers(-1, 6), st.one_of(
    st.builds(lambda v: {"type": "pick", "value": v}, st.integers(0, 4)),
    st.just({"type": "tap", "t_ms": 5}), st.just({"type": "fly"}), st.none()), st.integers(-1, 2))
person_ops = st.tuples(st.just("person"), st.integers(0, 12), st.sampled_from(["name", "lang", "join"]), values)
ops = st.lists(st.one_of(host_ops, seat_ops, person_ops), max_size=25)


def _apply(s: Session, op: tuple[Any, ...]) -> None:
    if op[0] == "host":
        s.host_command(op[1])
    elif op[0] == "act":
        _, seat, wire, lag = op
        s.submit_action(seat, wire, s.version - lag)
    else:
        _, seat, what, value = op
        if what == "join":
            s.join_seat(s.table.seats[seat % 12].token if value else "nope", value if isinstance(value, str) else None)
        elif what == "name":
            s.set_name(seat, value)
        else:
            s.set_lang(seat, value)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops)
def test_every_input_changes_the_table_or_nothing(tmp_path_factory: Any, sequence: list[tuple[Any, ...]]) -> None:
    async def run() -> None:
        config = TableConfig(data_dir=tmp_path_factory.mktemp("t"), admin_pin="1", seed=2)
        s = Session.boot(config, None, None, engines=fake.engines, bot_factory=fake.bot_factory,
                         bot_delay_scale=1000.0)
        for op in sequence:
            before = (s.table, s.run, s.version, s.snapshot)
            try:
                _apply(s, op)
            except RulesError as exc:
                assert exc.code and str(exc)
                assert (s.table, s.run, s.version, s.snapshot) == before, op
                continue
            assert s.version >= before[2]
            assert s.snapshot.version == s.version and len(s.snapshot.seats) == s.table.seat_count
        s.close()

    asyncio.run(run())
