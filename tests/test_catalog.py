"""The game catalog: every entry resolves to real files, ids are unique, tests can add a game."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from game import catalog
from game.bots import Bot, BotKind, UnknownBot, make_bot
from game.catalog import get_engine
from game.i18n import LANGUAGES, load
from game.rules.base import GameEngine
from game.session.bots import NoBotForGame, default_bot_factory
from game.session.seats import BotKind as SeatBotKind

GAMES_DIR = Path(__file__).resolve().parents[1] / "game" / "games"
ENTRIES = catalog.games()


def test_ids_are_unique_and_every_table_game_is_its_own_family():
    ids = [d.id for d in ENTRIES]
    assert len(ids) == len(set(ids))
    assert {d.id for d in catalog.games(catalog.PlayMode.TABLE)} >= {"collusion", "speakeasy", "cheating_moth"}
    for desc in catalog.games(catalog.PlayMode.TABLE):
        assert desc.family == desc.id


@pytest.mark.parametrize("desc", ENTRIES, ids=lambda d: d.id)
def test_entry_names_files_that_exist(desc: catalog.GameDescriptor):
    engine = desc.load_engine()
    assert isinstance(engine, GameEngine)
    assert get_engine(desc.id) is engine
    assert importlib.util.find_spec(desc.screen) is not None, f"{desc.id}: no screen module {desc.screen}"
    assert desc.phone_file.is_file(), f"{desc.id}: no phone module {desc.phone_file}"
    assert catalog.phone_file(desc.phone) == desc.phone_file  # served at /js/<phone>
    assert desc.views_doc.is_file(), f"{desc.id}: no views page {desc.views_doc}"
    family = catalog.get(desc.family)
    assert family.rulebook_doc is not None and family.rulebook_doc.is_file(), f"{desc.family}: no rulebook"
    for lang in LANGUAGES:
        for domain in desc.strings:
            assert load(lang, domain), f"{desc.id}: no {domain} strings in {lang}"
        assert desc.title_key in load(lang, "screen"), f"{desc.id}: no screen title in {lang}"
        for domain in desc.phone_strings:
            assert load(lang, domain), f"{desc.id}: no {domain} phone strings in {lang}"
        assert desc.title_key in load(lang, desc.phone_strings[-1]), f"{desc.id}: no phone title in {lang}"


@pytest.mark.parametrize("desc", [d for d in ENTRIES if d.has_bots], ids=lambda d: d.id)
def test_every_bot_kind_of_an_entry_plays_its_seat(desc: catalog.GameDescriptor):
    engine = desc.load_engine()
    state = engine.new_game(engine.default_settings(), max(engine.min_seats, 4), 3)
    for kind in BotKind:
        bot = desc.make_bot(kind, 1, 7)
        assert isinstance(bot, Bot)
        legal = engine.legal_actions(state, 1)
        choice = bot.choose(engine.view(state, 1), legal)
        assert choice is None or choice in legal
        # the old entry points read the same entry
        assert type(make_bot(desc.id, kind.value, 1, 7)) is type(bot)
        assert type(default_bot_factory(desc.id, SeatBotKind(kind.value), 1, 7)) is type(bot)


@pytest.mark.parametrize("desc", ENTRIES, ids=lambda d: d.id)
def test_the_descriptor_declares_what_its_engine_does(desc: catalog.GameDescriptor):
    engine = desc.load_engine()
    assert (desc.seats.low, desc.seats.high) == (engine.min_seats, engine.max_seats)
    assert desc.referee == (type(engine).table_actions is not GameEngine.table_actions)
    assert desc.search_iterations >= 1


def test_every_game_in_the_tree_is_one_package_found_through_an_entry_point():
    from importlib import metadata

    points = {p.value.partition(":")[0] for p in metadata.entry_points(group=catalog.ENTRY_POINT_GROUP)}
    packages = {f"game.games.{p.name}" for p in GAMES_DIR.iterdir() if (p / "__init__.py").is_file()}
    assert packages and packages <= points
    for desc in catalog.installed():
        assert Path(desc.folder).resolve().parent == GAMES_DIR  # its files are in its own folder
        assert desc.engine.startswith(f"game.games.{desc.family}.")


def test_unknown_games_and_kinds_are_refused_with_the_known_names():
    with pytest.raises(catalog.UnknownGame, match="collusion"):
        catalog.get("chess")
    with pytest.raises(KeyError):
        get_engine("chess")
    with pytest.raises(UnknownBot):
        make_bot("chess", "random", 0, 1)
    with pytest.raises(UnknownBot, match="heuristic"):
        catalog.get("collusion").make_bot("genius", 0, 1)
    with pytest.raises(NoBotForGame):
        default_bot_factory("chess", SeatBotKind.RANDOM, 0, 1)


def test_register_adds_a_game_everywhere_and_unregister_takes_it_off():
    desc = catalog.GameDescriptor(
        id="catalog_probe", family="collusion", mode=catalog.PlayMode.COMPANION,
        engine="game.games.collusion.rules:ENGINE", bots=None, screen="game.games.collusion.screen",
        phone="games/collusion.js", strings=("screen",), title_key="game.collusion",
        folder=catalog.get("collusion").folder, seats=catalog.SeatRange(3, 12))
    catalog.register(desc)
    try:
        assert catalog.get("catalog_probe") is desc
        assert "catalog_probe" in catalog.ids(catalog.PlayMode.COMPANION)
        assert "catalog_probe" not in catalog.ids(catalog.PlayMode.TABLE)
        assert get_engine("catalog_probe") is get_engine("collusion")
        with pytest.raises(UnknownBot, match="no bots"):
            make_bot("catalog_probe", "random", 0, 1)
        with pytest.raises(ValueError, match="already"):
            catalog.register(desc)
    finally:
        catalog.unregister("catalog_probe")
    assert "catalog_probe" not in catalog.ids()
