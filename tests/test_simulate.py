"""``tabletop simulate``: bot games headless, with statistics."""
from __future__ import annotations

import json

import pytest

from game import catalog
from game.bots import Bot, UnknownBot, make_bot
from game.catalog import get_engine
from game.games.collusion.rules import ENGINE, Ambush, Phase, Showdown, ShowdownChoice, ShowdownPick, Vote, evolve
from game.records import load, replay
from game.rules.base import IllegalAction
from game.simulate import SimulationError, main, play_game, run, seat_kinds

GAMES = catalog.ids(catalog.PlayMode.TABLE)


def test_simulate_prints_the_summary(capsys):
    assert main(["--game", "collusion", "--players", "6", "--games", "20", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "20 games of collusion, 6 players, random bots" in out and "games/s" in out
    assert "rounds per game:" in out and "C9" in out and "C10" in out
    assert out.count("  seat ") == 6


def test_simulate_json_counts_rules_and_shares_wins(capsys):
    assert main(["--players", "12", "--games", "30", "--seed", "2", "--bots", "heuristic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 30 and len(data["win_share"]) == 12
    assert sum(data["win_share"]) == pytest.approx(1.0)
    assert {"C9", "C10", "C18"} <= set(data["rule_counts"])
    assert data["rounds_per_game"] >= 1


def test_simulation_is_deterministic_for_a_seed():
    a = run("collusion", 7, 15, 11, "heuristic").to_json()
    b = run("collusion", 7, 15, 11, "heuristic").to_json()
    for key in ("rounds_per_game", "actions_per_game", "rule_counts", "win_share"):
        assert a[key] == b[key]


def test_twelve_player_games_complete_with_both_bot_kinds():
    for kind in ("random", "heuristic"):
        summary = run("collusion", 12, 40, 5, kind)
        assert summary.games == 40 and sum(summary.wins) == pytest.approx(40)


def test_bad_arguments_are_refused(capsys):
    with pytest.raises(SystemExit):
        main(["--players", "2"])
    with pytest.raises(SystemExit):
        main(["--games", "0"])
    assert main(["--bots", "genius"]) == 2


def test_make_bot_dispatches_and_refuses_unknown_names():
    bot = make_bot("collusion", "heuristic", 3, 42)
    assert isinstance(bot, Bot) and bot.seat == 3 and bot.uses_view
    assert not make_bot("collusion", "random", 0, 1).uses_view
    with pytest.raises(UnknownBot):
        make_bot("collusion", "genius", 0, 1)
    with pytest.raises(UnknownBot):
        make_bot("chess", "random", 0, 1)


def test_bots_are_deterministic_for_a_seed():
    state = ENGINE.new_game(ENGINE.default_settings(), 6, 1)
    for kind in ("random", "heuristic"):
        picks = {make_bot("collusion", kind, 2, 77).choose(ENGINE.view(state, 2), ENGINE.legal_actions(state, 2))
                 for _ in range(5)}
        assert len(picks) == 1


def test_heuristic_bot_ambushes_when_it_leads_by_far():
    state = ENGINE.new_game(ENGINE.default_settings(), 6, 1)

    state = evolve(state, gold=((5,) * 6,) + ((),) * 5)
    ambushes = sum(
        isinstance(make_bot("collusion", "heuristic", 0, seed).choose(ENGINE.view(state, 0),
                                                                       ENGINE.legal_actions(state, 0)), Ambush)
        for seed in range(40))
    assert ambushes >= 25
    votes = [make_bot("collusion", "heuristic", s, 9).choose(ENGINE.view(state, s), ENGINE.legal_actions(state, s))
             for s in range(1, 6)]
    assert all(getattr(v, "target", None) == 0 for v in votes)  # everyone gangs up on the leader


def test_a_table_where_nobody_ever_votes_is_reported_as_endless():
    """Everyone dies by C9 every round, nobody was dead before the last vote, so nobody draws
    (C14) and the pot stays forever: the simulator must say so instead of hanging."""
    class Idle:
        seat = 0
        uses_view = False

        def choose(self, view, legal):
            return None

        def think_ms(self):
            return 0

    with pytest.raises(SimulationError, match="did not end after 500 actions"):
        play_game(ENGINE, ENGINE.default_settings(), 4, 1, [Idle()] * 4, max_steps=500)


def test_an_illegal_bot_is_reported():
    class Cheat:
        seat = 0
        uses_view = False

        def choose(self, view, legal):
            return Vote(0)

        def think_ms(self):
            return 0

    with pytest.raises(IllegalAction, match="own colour"):
        play_game(ENGINE, ENGINE.default_settings(), 4, 1, [Cheat()] * 4)


def test_bot_kinds_cycle_over_the_seats():
    assert seat_kinds("heuristic,random", 5) == ["heuristic", "random", "heuristic", "random", "heuristic"]
    assert seat_kinds("random", 3) == ["random"] * 3
    with pytest.raises(UnknownBot):
        seat_kinds("random,genius", 4)
    assert main(["--bots", "random,genius", "--games", "1"]) == 2


def test_heuristic_bots_beat_random_bots():
    summary = run("collusion", 12, 60, 3, "heuristic,random")
    heuristic = sum(summary.wins[0::2]) / summary.games
    assert heuristic > 0.75


def test_heuristic_bot_takes_one_when_a_single_bar_wins():
    state = ENGINE.new_game(ENGINE.default_settings(), 4, 2)
    state = evolve(state, gold=((5, 5, 5, 5, 3),) + ((),) * 3)  # 23: any bar reaches 24
    state = evolve(state, phase=Phase.SHOWDOWN, showdown=Showdown((0, 1)))
    bot = make_bot("collusion", "heuristic", 0, 5)
    assert bot.choose(ENGINE.view(state, 0), ENGINE.legal_actions(state, 0)) == ShowdownPick(ShowdownChoice.TAKE_ONE)


def test_watch_prints_one_game_in_plain_words(capsys):
    assert main(["--watch", "--players", "4", "--seed", "6", "--bots", "heuristic"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "collusion: 4 players (heuristic bots), seed 6"
    assert any(line.startswith("  Reveal of vote 1") for line in lines)
    assert "Orange (seat 1)" in out and lines[-1].startswith("  Game over")


@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_clocked_games_stamp_times_and_replay(kind, tmp_path):
    """Cheating Moth's actions carry times: the simulator runs it on a virtual clock (think_ms,
    t_ms stamps, timers at their deadline, races from race_press) and its record replays."""
    path = tmp_path / "moth.json"
    assert main(["--game", "cheating_moth", "--players", "4", "--games", "2", "--seed", "5",
                 "--bots", kind, "--record", str(path)]) == 0
    record = load(path)
    times = [a.t_ms for a in record.actions]
    assert all(t is not None for t in times) and times == sorted(times)
    assert any("t_ms" in a.action and a.action["t_ms"] > 0 for a in record.actions)
    result = replay(record)
    assert result.engine.is_over(result.state)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_with_an_engine_and_bots_simulates(game, capsys):
    engine = get_engine(game)
    players = max(engine.min_seats, min(5, engine.max_seats))
    assert main(["--game", game, "--players", str(players), "--games", "3", "--seed", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 3 and sum(data["win_share"]) == pytest.approx(1.0)
