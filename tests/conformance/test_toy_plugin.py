"""The toy game plugs in as a whole game from its own folder: registered with its one descriptor
(``catalog.register``, nothing edited in the shared files), a real ``Session`` plays it, the TV
draws it with its own screen and words, and the table serves its phone module and phone words."""
from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame
import pytest
import toygame

from game import catalog, i18n
from game.render.kit.text import TextRenderer
from game.server.app import I18N_DIR, game_phone_module, phone_strings
from game.tapes import play_moment

SIZE = (1280, 720)


@pytest.fixture
def toy() -> Iterator[catalog.GameDescriptor]:
    desc = catalog.register(toygame.DESCRIPTOR)
    yield desc
    catalog.unregister(desc.id)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every text the screen draws (headless pygame)."""
    pygame.init()
    pygame.display.set_mode((64, 64))
    texts: list[str] = []
    draw = TextRenderer.draw

    def spy(self: TextRenderer, target: pygame.Surface, text: str, *args: Any, **kwargs: Any) -> pygame.Rect:
        texts.append(text)
        return draw(self, target, text, *args, **kwargs)

    monkeypatch.setattr(TextRenderer, "draw", spy)
    yield texts
    pygame.quit()


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_T1_T4_the_toy_game_plays_on_the_tv_with_its_own_screen_and_words(toy: catalog.GameDescriptor, lang: str,
                                                                         drawn: list[str]) -> None:
    scenes = {}
    for moment in toy.load_tapes().moments(lang):  # a real Session on virtual time (game/tapes.py)
        screen = play_moment(moment, SIZE)
        screen.draw(pygame.Surface(SIZE))
        scenes[moment.name] = screen.director.names()[-1]
    assert scenes == {"01_lobby": "lobby", "02_picking": "toy_guess_table", "03_game_over": "game_over"}
    own = i18n.load(lang, "screen_toy_guess")
    assert own and own["game.toy_guess"] == i18n.text(lang, "screen_toy_guess", "game.toy_guess")
    assert any(own["game.toy_guess"] in text for text in drawn)  # the lobby names the game in its own words
    assert i18n.text(lang, "screen_toy_guess", "round", n=1, m=3) in " ".join(drawn)
    assert any(text.startswith(own["winners"].split("{")[0]) for text in drawn)  # T4 on the final board


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_table_serves_the_toy_phone_module_and_words_only_while_it_is_registered(lang: str) -> None:
    module = Path(toygame.DESCRIPTOR.folder) / "phone" / "toy_guess.js"
    assert game_phone_module(f"js/{toygame.DESCRIPTOR.phone}") is None
    assert "game.toy_guess" not in (phone_strings(I18N_DIR, lang) or {})
    catalog.register(toygame.DESCRIPTOR)
    try:
        assert game_phone_module(f"js/{toygame.DESCRIPTOR.phone}") == module and module.is_file()
        assert game_phone_module("js/games/other.js") is None
        served = phone_strings(I18N_DIR, lang)
        assert served is not None and served["game.toy_guess"] == i18n.load(lang, "web_toy_guess")["game.toy_guess"]
        assert served["lobby.waiting"] == i18n.text(lang, "web", "lobby.waiting")  # the shared words too
    finally:
        catalog.unregister(toygame.DESCRIPTOR.id)
