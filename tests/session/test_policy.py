"""A host's table and a café's kiosk differ in one place: their :class:`TablePolicy`."""
from __future__ import annotations

from dataclasses import replace

from game.catalog import get_engine
from game.config import LANGUAGES, TableConfig
from game.kiosk.config import KioskConfig, Timers
from game.session.journal import SavedTimer
from game.session.policy import (
    HAND_OVER_KEY,
    RESULTS_MS,
    RETIRED_TOKENS,
    HandOverClock,
    KioskPolicy,
    RetiredLinks,
    TablePolicy,
    policy_for,
)
from game.session.scheduler import VirtualTime
from game.session.snapshot import RunMode, TablePhase
from game.session.table import TableRecord

MINUTE = 60_000
CAFE = KioskConfig(languages=("th", "en"), preset="rod_ruang", idle_minutes=5, how_to_play=True,
                   timers=Timers(results_s=45), house_rules={"collusion": {"target_score": 30}})


def table(**changes: object) -> TableRecord:
    return replace(TableRecord.fresh("collusion", "tabani", {}, "en", 4, "1"), **changes)  # type: ignore[arg-type]


def test_each_mode_gets_its_policy() -> None:
    assert type(policy_for(TableConfig(mode=RunMode.TABLE))) is TablePolicy
    assert type(policy_for(TableConfig(mode=RunMode.COMPANION))) is TablePolicy
    assert policy_for(TableConfig(mode=RunMode.KIOSK, kiosk=CAFE)) == KioskPolicy(CAFE)


def test_a_hosts_table_keeps_to_the_games_own_rules_and_never_hands_over() -> None:
    policy, engine = TablePolicy(), get_engine("collusion")
    assert not policy.hands_over() and policy.house_rules("collusion") == {}
    assert [policy.offered_language(lang) for lang in LANGUAGES] == list(LANGUAGES)
    assert policy.start_preset(engine, "en") == engine.default_preset("en")
    fresh = table()
    assert policy.fresh_table(fresh) == fresh
    idle = table(phase=TablePhase.FINISHED)
    assert not policy.hand_over_due(idle, 10 * 60 * MINUTE, 0, 0)


def test_the_kiosk_offers_its_languages_rules_preset_and_table_settings() -> None:
    policy, engine = KioskPolicy(CAFE), get_engine("collusion")
    assert policy.hands_over() and policy.results_ms() == 45_000
    assert [policy.offered_language(lang) for lang in ("en", "fa", "th")] == ["en", "th", "th"]  # fa: the next offered
    assert policy.game_settings(engine, "collusion", "tabani")["target_score"] == 30
    assert policy.start_preset(engine, "en") == "rod_ruang"
    settings = policy.fresh_table(table()).table_settings
    assert (settings.idle_reset_minutes, settings.how_to_play) == (5, True)


def test_a_kiosk_without_an_operators_file_uses_the_defaults() -> None:
    policy = KioskPolicy(None)
    assert policy.results_ms() == RESULTS_MS and policy.house_rules("collusion") == {}
    fresh = table()
    assert policy.fresh_table(fresh) == fresh and policy.offered_language("fa") == "fa"


def test_the_kiosk_hands_over_after_the_results_or_when_idle_but_not_an_empty_lobby() -> None:
    policy = KioskPolicy(CAFE)
    finished = table(phase=TablePhase.FINISHED)
    assert not policy.hand_over_due(finished, 44_999, 44_999, 0)
    assert policy.hand_over_due(finished, 45_000, 45_000, 0)
    lobby = table()
    assert not policy.hand_over_due(lobby, 60 * MINUTE, 0, None)  # nobody there: nothing to reset
    joined = lobby.with_seat(lobby.seats[0].held_by())
    assert not policy.hand_over_due(joined, 10 * MINUTE - 1, 0, None)
    assert policy.hand_over_due(joined, 10 * MINUTE, 0, None)  # the table's own idle setting (10 min)


def test_the_hand_over_clock_waits_for_the_results_and_checks_the_game_is_still_over() -> None:
    vt, handed, over = VirtualTime(0), [], [True]
    clock = HandOverClock(KioskPolicy(CAFE), vt, lambda: handed.append(vt.now_ms()), lambda: over[0])
    clock.game_finished()
    assert clock.results_shown() and not clock.results_shown()  # the TV's word counts once
    vt.advance(44_999)
    assert handed == []
    vt.advance(1)
    assert handed == [45_000]
    clock.game_finished()
    clock.results_shown()
    over[0] = False  # the host started the next game meanwhile
    vt.advance(60_000)
    assert handed == [45_000]
    clock.game_finished()
    clock.cancel()
    over[0] = True
    vt.advance(60_000)
    assert handed == [45_000]
    HandOverClock(TablePolicy(), vt, lambda: handed.append(-1), lambda: True).game_finished()
    vt.advance(10 * MINUTE)
    assert handed == [45_000]


def test_the_hand_over_clock_resumes_with_what_was_left_of_the_results() -> None:
    vt, handed, wall = VirtualTime(0), [], 1_000_000
    clock = HandOverClock(KioskPolicy(CAFE), vt, lambda: handed.append(vt.now_ms()), lambda: True, clock=vt,
                          wall=lambda: wall)
    finished = table(phase=TablePhase.FINISHED, game_no=3)
    clock.resume(SavedTimer(3, HAND_OVER_KEY, wall + 20_000), finished)
    assert clock.finished_ms == -25_000  # the results began 25 s before the restart
    vt.advance(20_000)
    assert handed == [20_000]
    clock.resume(SavedTimer(2, HAND_OVER_KEY, wall), finished)  # another game's deadline: the whole results
    vt.advance(45_000)
    assert handed == [20_000, 65_000]
    clock.resume(SavedTimer(3, HAND_OVER_KEY, wall + 10_000), table(phase=TablePhase.LOBBY))  # no results showing
    vt.advance(60_000)
    assert handed == [20_000, 65_000] and vt.pending() == 0


def test_retired_links_remember_the_newest_seat_links_and_device_keys() -> None:
    old = table()
    old = old.with_seat(old.seats[0].held_by())
    retired = RetiredLinks()
    retired.retire(old)
    assert old.seats[0].token in retired and old.seats[0].device in retired and old.seats[11].token in retired
    assert table().seats[0].token not in retired and None not in retired
    assert len(retired.digests()) == 13 and old.seats[0].token not in retired.digests()  # digests, never links
    for _ in range(RETIRED_TOKENS // 12 + 1):
        retired.retire(table())
    assert old.seats[0].token not in retired and len(retired.digests()) == RETIRED_TOKENS
    assert RetiredLinks(retired.digests()).digests() == retired.digests()


async def test_the_next_kiosk_group_finds_the_cafes_table_not_the_last_groups() -> None:
    """A group switched the Thai café's table to English and Speakeasy and changed the rules: the
    next group finds the café's default language, game, edition and house rules again (the staff's
    PIN and the arcade buttons' map stay); a host's own table keeps what its host chose."""
    from game.session.session import Session

    config = TableConfig(mode=RunMode.KIOSK, language="th", admin_pin="2468", seed=3, kiosk=replace(CAFE, admin_pin="2468"))
    session = Session.boot(config, None, None)
    opening = (session.table.language, session.table.game, session.table.preset, dict(session.table.settings))
    assert opening[:3] == ("th", "collusion", "rod_ruang") and opening[3]["target_score"] == 30
    session.host_command({"command": "set_language", "language": "en"})
    session.host_command({"command": "set_setting", "name": "target_score", "value": 12})
    session.host_command({"command": "set_game", "game": "speakeasy"})
    session.host_command({"command": "set_seats", "count": 7})
    session.table = replace(session.table, arcade_map=((0, 3), (1, 2)))
    session.hand_over()
    t = session.table
    assert (t.language, t.game, t.preset, dict(t.settings)) == opening
    assert session.engine.name == "collusion" and t.seat_count == 6  # the café's game: its opening seats
    assert t.admin_pin == "2468" and t.arcade_map == ((0, 3), (1, 2))
    session.close()

    last, fresh = table(language="fa", settings={"target_score": 12}), table()
    kept = TablePolicy().next_group(last, fresh)
    assert kept.language == "fa" and kept.settings == {"target_score": 12} and kept.seats == fresh.seats
