"""One error tree: rules, protocol and admin errors under TableError, each family apart, every
typed error with its own wire code."""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import game
from game.errors import TableError
from game.rules.base import RulesError
from game.server.errors import AdminError, BadPin, Forbidden, ProtocolError, RateLimited, ServerFault, TooLarge


def _coded_exceptions() -> set[type[Exception]]:
    """Every exception class in ``game`` that carries a wire ``code`` of its own."""
    found: set[type[Exception]] = set()
    for info in pkgutil.walk_packages(game.__path__, "game."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        found |= {c for _, c in inspect.getmembers(module, inspect.isclass)
                  if issubclass(c, Exception) and c.__module__ == module.__name__ and "code" in vars(c)}
    return found


def test_three_families_under_one_root_and_apart():
    for family in (RulesError, ProtocolError, AdminError, ServerFault):
        assert issubclass(family, TableError)
    assert issubclass(BadPin, AdminError) and issubclass(Forbidden, AdminError)
    assert issubclass(RateLimited, ProtocolError) and issubclass(TooLarge, ProtocolError)
    for server_error in (BadPin, Forbidden, RateLimited, TooLarge, ServerFault):
        assert not issubclass(server_error, RulesError)  # the engines' errors stay the engines'


def test_every_error_with_a_wire_code_is_in_the_tree():
    errors = _coded_exceptions()
    assert {RulesError, ProtocolError, AdminError, BadPin} <= errors
    for error in errors:
        assert issubclass(error, TableError), f"{error.__module__}.{error.__name__} is outside the tree"
        assert re.fullmatch(r"[a-z][a-z0-9_]*", error.code), error


def test_every_error_code_has_a_sentence_on_the_tv_the_phone_and_the_host_page():
    """No developer message reaches a screen: each wire code of the tree (game/errors.py, the rules'
    errors, the session's, the server's, the clue decks') has its sentence in en, fa and th, for the
    TV (screen strings, the lobby's refusal line) and for the phones and the host page (web strings)."""
    from game import i18n

    codes = {error.code for error in _coded_exceptions()}
    assert {"bad_settings", "illegal_action", "bad_pin", "deck_too_small", "server_error"} <= codes
    for lang in i18n.LANGUAGES:
        for domain in ("screen", "web"):
            strings = i18n.load(lang, domain)
            missing = sorted(code for code in codes if f"error.{code}" not in strings)
            assert missing == [], f"{domain}_{lang}.json lacks a sentence for {missing}"


def test_the_tv_shows_a_refusal_in_the_tables_language_never_its_message():
    import pygame

    from game import i18n
    from game.render.app import Screen
    from game.render.kit.qr import QrCache
    from game.render.kit.scene import RenderContext
    from game.render.kit.sound import SoundBank
    from game.render.kit.text import TextRenderer
    from game.session.snapshot import InputEvent, InputKind, InputSource
    from game.tapes import ScriptedTable

    table = ScriptedTable("cheating_moth", 4, "fa", people=2)
    table.session.handle_input(InputEvent(InputSource.KEYBOARD, InputKind.HOST, None,
                                          {"command": "set_setting", "name": "first_guard", "value": 40}, 0))
    assert table.session.snapshot.lobby.host_error is not None
    drawn: list[str] = []
    screen = Screen(ctx=RenderContext(TextRenderer(lambda text, *_: drawn.append(text)), QrCache(), SoundBank(enabled=False)))
    screen.sync(table.session.snapshot)
    screen.draw(pygame.Surface((1280, 720)))
    message = table.session.snapshot.lobby.host_error.message
    assert not any(message in text for text in drawn)  # the English developer message stays off the TV
    assert any(i18n.text("fa", "screen", "error.bad_settings") in text for text in drawn)
    table.session.close()
