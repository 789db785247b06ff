"""The host's commands, typed (``parse_host_command``), and the lobby's rules as a pure function
(``apply_lobby``): a bad command raises and changes nothing, any sequence keeps the table valid."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game import catalog
from game.catalog import get_engine
from game.config import LANGUAGES, TableConfig
from game.rules.base import BadSettings, IllegalAction, MalformedAction, RulesError, UnknownSeat
from game.seating import MAX_SEATS
from game.session import lobby
from game.session.lobby import (
    AnswerClaim,
    FillBots,
    HostCommand,
    Kick,
    MapButtons,
    SetBot,
    SetGame,
    SetLanguage,
    SetMode,
    SetPreset,
    SetSeats,
    SetSetting,
    SkipIntro,
    Start,
    TableAction,
    apply_lobby,
    parse_host_command,
)
from game.session.policy import KioskPolicy, TablePolicy
from game.session.seats import MIN_OFFERED_SEATS, BotKind
from game.session.snapshot import RunMode, TablePhase
from game.session.table import TableRecord

RULES = lobby.LobbyRules(get_engine, TablePolicy())


def fresh(game: str = "collusion", policy: TablePolicy | None = None) -> TableRecord:
    _, table = lobby.new_table(TableConfig(game=game, admin_pin="2468"), get_engine, policy or TablePolicy())
    return table


# ------------------------------------------------------------------------------- parsing
@pytest.mark.parametrize("payload, command", [
    ({"command": "set_game", "game": "speakeasy"}, SetGame("speakeasy")),
    ({"command": "set_mode", "mode": "companion"}, SetMode("companion")),
    ({"command": "set_preset", "preset": "rod_ruang"}, SetPreset("rod_ruang")),
    ({"command": "set_language", "language": "fa"}, SetLanguage("fa")),
    ({"command": "set_setting", "name": "target_score", "value": None}, SetSetting("target_score", None)),
    ({"command": "set_seats", "count": 5}, SetSeats(5)),
    ({"command": "set_bot", "seat": 2}, SetBot(2, None)),
    ({"command": "set_bot", "seat": 2, "kind": "random"}, SetBot(2, "random")),
    ({"command": "fill_bots", "kind": "heuristic"}, FillBots("heuristic")),
    ({"command": "start"}, Start()),
    ({"command": "skip_intro"}, SkipIntro()),
    ({"command": "kick", "seat": 0}, Kick(0)),
    ({"command": "map_buttons"}, MapButtons(False)),
    ({"command": "map_buttons", "cancel": True}, MapButtons(True)),
    ({"command": "claim", "id": 7, "allow": False}, AnswerClaim(7, False)),
    ({"command": "table_action", "action": {"type": "x"}}, TableAction({"type": "x"})),
])
def test_each_host_payload_becomes_its_typed_command(payload: dict[str, Any], command: object) -> None:
    assert parse_host_command(payload) == command


@pytest.mark.parametrize("name", list(HostCommand))
def test_every_command_name_parses_or_names_its_missing_field(name: HostCommand) -> None:
    try:
        parse_host_command({"command": name.value})
    except MalformedAction as exc:  # never a KeyError: every name has its parser
        assert "missing field" in str(exc)


@pytest.mark.parametrize("payload", [
    None, [], "start", {}, {"command": 5}, {"command": "dance"}, {"command": "set_seats", "count": "5"},
    {"command": "set_seats", "count": True}, {"command": "kick", "seat": 1.0}, {"command": "set_setting", "name": "x"},
    {"command": "claim", "id": 1}, {"command": "claim", "id": 1, "allow": 1},
])
def test_malformed_host_payloads_are_refused(payload: Any) -> None:
    with pytest.raises(MalformedAction):
        parse_host_command(payload)


# ------------------------------------------------------------------------------- the rules
def test_set_seats_clears_the_bots_beyond_the_new_count() -> None:
    table = apply_lobby(fresh(), FillBots("random"), RULES)
    table = apply_lobby(table, SetSeats(4), RULES)
    assert table.seat_count == 4 and all(r.bot is None for r in table.seats[4:])
    assert all(r.bot is BotKind.RANDOM for r in table.offered)


def test_set_seats_refuses_to_drop_a_player() -> None:
    table = fresh()
    table = table.with_seat(table.seats[5].held_by())
    with pytest.raises(BadSettings):
        apply_lobby(table, SetSeats(5), RULES)


def test_the_edition_follows_the_language_until_the_host_picks_one() -> None:
    table = fresh("speakeasy")
    assert table.preset == "en"
    table = apply_lobby(table, SetLanguage("th"), RULES)
    assert (table.language, table.preset) == ("th", "th")
    chosen = apply_lobby(table, SetPreset("fa"), RULES)
    assert apply_lobby(chosen, SetLanguage("en"), RULES).preset == "fa"  # the host's choice stays


def test_switching_to_the_mode_in_play_is_the_same_table() -> None:
    table = fresh()
    assert apply_lobby(table, SetMode("table"), RULES) is table
    companion = apply_lobby(table, SetMode("companion"), RULES)
    assert catalog.get(companion.game).mode is catalog.PlayMode.COMPANION


def test_the_kiosk_offers_only_its_languages_and_lays_its_house_rules_on() -> None:
    from game.kiosk.config import KioskConfig

    kiosk = KioskPolicy(KioskConfig(languages=("fa", "en"), house_rules={"collusion": {"target_score": 30}}))
    rules = lobby.LobbyRules(get_engine, kiosk)
    table = fresh(policy=kiosk)
    assert table.settings["target_score"] == 30
    assert apply_lobby(table, SetLanguage("th"), rules).language == "en"  # th is not offered: the next one
    assert apply_lobby(table, SetGame("collusion"), rules).settings["target_score"] == 30


@pytest.mark.parametrize("command, error", [
    (SetGame("chess"), BadSettings), (SetMode("solo"), BadSettings), (SetPreset("nope"), BadSettings),
    (SetLanguage("de"), BadSettings), (SetSeats(1), BadSettings), (SetSeats(MAX_SEATS + 1), BadSettings),
    (SetBot(11, "random"), UnknownSeat), (SetBot(0, "clever"), BadSettings), (FillBots("clever"), BadSettings),
    (SetSetting("idle_reset_minutes", "soon"), BadSettings),
])
def test_bad_lobby_commands_raise_their_typed_error(command: lobby.LobbyCommand, error: type[RulesError]) -> None:
    table = fresh()
    with pytest.raises(error):
        apply_lobby(table, command, RULES)


@pytest.mark.parametrize("command", [SetBot(0, "clever"), FillBots("clever"), SetSetting("default_bot", "clever")])
def test_a_bad_bot_kind_is_refused_naming_every_kind(command: lobby.LobbyCommand) -> None:
    with pytest.raises(BadSettings) as refused:
        apply_lobby(fresh(), command, RULES)
    assert all(repr(kind.value) in str(refused.value) for kind in BotKind), str(refused.value)


def test_every_kind_of_the_ladder_can_sit_and_be_the_default() -> None:
    for kind in BotKind:
        table = apply_lobby(apply_lobby(fresh(), SetBot(0, kind.value), RULES), SetSetting("default_bot", kind.value), RULES)
        assert table.seats[0].bot is kind and table.table_settings.default_bot is kind


def test_only_table_settings_change_outside_the_lobby() -> None:
    playing = replace(fresh(), phase=TablePhase.PLAYING)
    for command in (SetGame("speakeasy"), SetSeats(5), SetBot(0, "random"), FillBots("random"), SetPreset("rod_ruang"),
                    SetSetting("target_score", 30)):
        with pytest.raises(IllegalAction):
            apply_lobby(playing, command, RULES)
    after = apply_lobby(playing, SetSetting("default_bot", "random"), RULES)
    assert after.table_settings.default_bot is BotKind.RANDOM


# ------------------------------------------------------------------------ the property test
GAMES = catalog.ids()
commands = st.one_of(
    st.builds(SetGame, st.sampled_from([*GAMES, "chess"])),
    st.builds(SetMode, st.sampled_from(["table", "companion", "kiosk"])),
    st.builds(SetPreset, st.sampled_from(["en", "fa", "th", "tabani", "rod_ruang", "classic", "nope"])),
    st.builds(SetLanguage, st.sampled_from([*LANGUAGES, "de"])),
    st.builds(SetSetting, st.sampled_from(["idle_reset_minutes", "default_bot", "how_to_play", "target_score", "rounds", "zzz"]),
              st.one_of(st.integers(-2, 40), st.booleans(), st.sampled_from(["random", "heuristic", "x"]))),
    st.builds(SetSeats, st.integers(0, MAX_SEATS + 2)),
    st.builds(SetBot, st.integers(-1, MAX_SEATS), st.sampled_from([None, "random", "heuristic", "x"])),
    st.builds(FillBots, st.sampled_from(["random", "heuristic", "x"])),
)


def assert_valid(table: TableRecord) -> None:
    engine = get_engine(table.game)
    assert table.game in GAMES and table.language in LANGUAGES
    assert max(MIN_OFFERED_SEATS, engine.min_seats) <= table.seat_count <= min(MAX_SEATS, engine.max_seats)
    assert table.preset in engine.presets()
    engine.settings_from_wire(table.settings, table.preset)  # the settings are the engine's
    assert all(r.bot is None for r in table.seats[table.seat_count:])  # no bot beyond the offered seats
    assert all(not (r.bot is not None and r.joined) for r in table.seats)
    assert [r.seat for r in table.seats] == list(range(MAX_SEATS))
    assert TableRecord.from_json(table.to_json()) == table  # it journals and reads back


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(commands, max_size=12), st.sampled_from([RunMode.TABLE, RunMode.KIOSK]))
def test_any_command_sequence_keeps_the_table_valid_and_errors_change_nothing(
        sequence: list[lobby.LobbyCommand], mode: RunMode) -> None:
    policy = TablePolicy() if mode is RunMode.TABLE else KioskPolicy(None)
    rules = lobby.LobbyRules(get_engine, policy)
    table = fresh(policy=policy)
    table = table.with_seat(table.seats[1].held_by())  # a player holds seat 2
    for command in sequence:
        before = table.to_json()
        try:
            table = apply_lobby(table, command, rules)
        except RulesError:
            assert table.to_json() == before  # the table is a value: a refused command left it as it was
        assert_valid(table)
        assert table.seats[1].joined  # no lobby command drops a player
