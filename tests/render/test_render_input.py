"""Keys and clicks become host commands for the session (and scene pushes/pops on screen)."""
from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.games.collusion.tapes import moments
from game.render.app import Screen
from game.render.kit.final import ARM_S
from game.render.kit.scene import HostIntent, WindowOp
from game.render.lobby import bot_label, layout
from game.session.snapshot import InputKind, InputSource
from game.tapes import lobby_snapshot, play_moment

SIZE = (1280, 720)


def key(k: int, mod: int = 0) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="")


def click(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


def lobby_screen(ctx, **kw) -> Screen:
    screen = Screen(ctx=ctx)
    screen.sync(lobby_snapshot(**kw))
    return screen


def payloads(intents) -> list[dict]:
    return [i.payload() for i in intents if isinstance(i, HostIntent)]


def test_lobby_keys_send_host_commands(shared_ctx):
    screen = lobby_screen(shared_ctx, n=8, language="en")
    assert payloads(screen.handle(key(pygame.K_g), SIZE)) == [{"command": "set_game", "game": "speakeasy"}]
    assert payloads(screen.handle(key(pygame.K_p), SIZE)) == [{"command": "set_preset", "preset": "rod_ruang"}]
    assert payloads(screen.handle(key(pygame.K_l), SIZE)) == [{"command": "set_language", "language": "fa"}]
    assert payloads(screen.handle(key(pygame.K_EQUALS), SIZE)) == [{"command": "set_seats", "count": 9}]
    assert payloads(screen.handle(key(pygame.K_MINUS), SIZE)) == [{"command": "set_seats", "count": 7}]
    assert payloads(screen.handle(key(pygame.K_b), SIZE)) == [{"command": "fill_bots", "kind": "heuristic"}]
    # free seats in a game with bots: Enter starts, as Start on the host page does (bots fill them)
    assert payloads(screen.handle(key(pygame.K_RETURN), SIZE)) == [{"command": "start"}]
    full = lobby_screen(shared_ctx, n=8, language="en", joined=3, bots=5)
    assert payloads(full.handle(key(pygame.K_RETURN), SIZE)) == [{"command": "start"}]


def test_a_game_without_bots_never_offers_them_and_says_what_is_missing(shared_ctx):
    """Companion Cheating Moth (real cards: no bots): B, a click on a free seat and Enter do nothing
    while seats are free, and the lobby says exactly why ("3 seats are free: every seat needs a
    person — press − to remove them"); with every seat a person's, Enter starts."""
    from game.render.lobby import start_hint

    screen = lobby_screen(shared_ctx, n=6, language="en", joined=3, bots=0, game="cheating_moth_companion")
    cards = layout(screen.frame(SIZE)).cards
    assert payloads(screen.handle(key(pygame.K_b), SIZE)) == []
    assert payloads(screen.handle(click(cards[4].rect.center), SIZE)) == []
    assert payloads(screen.handle(key(pygame.K_RETURN), SIZE)) == []
    assert start_hint(screen.snapshot) == ("lobby.start_people", 3)
    assert screen.frame(SIZE).s("lobby.start_people", n=3) == \
        "3 seats are free: every seat needs a person — press − to remove them"
    bots = lobby_screen(shared_ctx, n=6, language="en", joined=3, bots=0)
    assert start_hint(bots.snapshot) == ("lobby.start_bots", 3)
    full = lobby_screen(shared_ctx, n=3, language="en", joined=3, bots=0, game="cheating_moth_companion")
    assert start_hint(full.snapshot) is None
    assert payloads(full.handle(key(pygame.K_RETURN), SIZE)) == [{"command": "start"}]


def test_seat_limits_disable_the_seat_buttons(shared_ctx):
    screen = lobby_screen(shared_ctx, n=12, language="en", joined=12, bots=0)
    assert payloads(screen.handle(key(pygame.K_EQUALS), SIZE)) == []
    assert payloads(screen.handle(key(pygame.K_b), SIZE)) == []  # no free seat to fill


def test_clicking_seats_cycles_the_bot_levels_and_right_click_frees_a_player(shared_ctx):
    screen = lobby_screen(shared_ctx, n=8, language="en", joined=3, bots=3)  # seats 3-5: easy, normal, hard
    cards = layout(screen.frame(SIZE)).cards
    # free -> easy (heuristic) -> normal (belief) -> hard (search) -> free
    assert payloads(screen.handle(click(cards[6].rect.center), SIZE)) == [{"command": "set_bot", "seat": 6, "kind": "heuristic"}]
    assert payloads(screen.handle(click(cards[3].rect.center), SIZE)) == [{"command": "set_bot", "seat": 3, "kind": "belief"}]
    assert payloads(screen.handle(click(cards[4].rect.center), SIZE)) == [{"command": "set_bot", "seat": 4, "kind": "search"}]
    assert payloads(screen.handle(click(cards[5].rect.center), SIZE)) == [{"command": "set_bot", "seat": 5, "kind": None}]
    assert payloads(screen.handle(click(cards[0].rect.center), SIZE)) == []  # a player is not replaced by a bot
    assert payloads(screen.handle(click(cards[0].rect.center, button=3), SIZE)) == [{"command": "kick", "seat": 0}]


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_a_bot_seat_is_labelled_with_its_level_by_name(shared_ctx, lang):
    screen = lobby_screen(shared_ctx, n=6, language=lang, joined=3, bots=3)
    frame = screen.frame(SIZE)
    kinds = [s.bot for s in screen.snapshot.seats[3:6]]
    assert kinds == ["heuristic", "belief", "search"]
    assert [frame.s(bot_label(k)) for k in kinds] == [i18n.text(lang, "screen", f"bot.level.{v}") for v in ("easy", "normal", "hard")]
    assert bot_label("random") == "seat.bot_random"


def test_keyboard_seat_selection(shared_ctx):
    screen = lobby_screen(shared_ctx, n=8, language="en", joined=3, bots=2)
    for _ in range(6):
        screen.handle(key(pygame.K_TAB), SIZE)
    assert payloads(screen.handle(key(pygame.K_SPACE), SIZE)) == [{"command": "set_bot", "seat": 6, "kind": "heuristic"}]
    screen.handle(key(pygame.K_TAB, pygame.KMOD_SHIFT), SIZE)
    assert payloads(screen.handle(key(pygame.K_k), SIZE)) == []  # seat 5 is free: nothing to kick


def test_buttons_are_mirrored_in_persian_and_clickable(shared_ctx):
    screen = lobby_screen(shared_ctx, n=8, language="fa", joined=3, bots=5)
    buttons = layout(screen.frame(SIZE)).buttons
    assert buttons[0].rect.x > buttons[-1].rect.x  # "game" is on the right, "start" on the left
    assert payloads(screen.handle(click(buttons[-1].rect.center), SIZE)) == [{"command": "start"}]


def test_settings_open_change_and_close(shared_ctx):
    screen = lobby_screen(shared_ctx, n=8, language="en")
    screen.handle(key(pygame.K_s), SIZE)
    assert screen.director.names() == ["lobby", "settings"]
    name, value = next(iter(screen.snapshot.settings.items()))
    assert payloads(screen.handle(key(pygame.K_RIGHT), SIZE)) == [{"command": "set_setting", "name": name, "value": value + 1}]
    screen.handle(key(pygame.K_DOWN), SIZE)
    screen.handle(key(pygame.K_DOWN), SIZE)
    screen.handle(key(pygame.K_DOWN), SIZE)
    assert payloads(screen.handle(key(pygame.K_LEFT), SIZE)) == [{"command": "set_setting", "name": "gold_threes", "value": 27}]
    screen.handle(key(pygame.K_ESCAPE), SIZE)
    assert screen.director.names() == ["lobby"]


def test_timer_settings_step_by_five_seconds(shared_ctx):
    from game.render.settings import spec_of

    def stepped(name: str, value: object, direction: int) -> object:
        spec = spec_of("collusion", name)  # the engine's settings schema
        assert spec is not None
        return spec.stepped(value, direction)

    assert stepped("conspiracy_ms", 90_000, 1) == 95_000
    assert stepped("conspiracy_ms", 0, -1) == 0
    assert stepped("reveal_when_all_locked", True, 1) is False
    assert stepped("showdown_default", "take_one", 1) == "split"


def test_window_keys(shared_ctx):
    screen = lobby_screen(shared_ctx)
    assert screen.handle(key(pygame.K_F11), SIZE) == [WindowOp.TOGGLE_FULLSCREEN]
    assert screen.handle(key(pygame.K_m), SIZE) == [WindowOp.TOGGLE_MUTE]
    assert screen.handle(key(pygame.K_q, pygame.KMOD_CTRL), SIZE) == [WindowOp.QUIT]


def test_game_over_goes_back_to_the_lobby_and_space_skips_a_beat(shared_ctx):
    by_name = {m.name: m for m in moments("en")}
    screen = play_moment(by_name["13_game_over"], SIZE, shared_ctx)
    screen.advance(ARM_S, SIZE)  # the choices take presses once the final screen has settled
    assert payloads(screen.handle(key(pygame.K_RETURN), SIZE)) == [{"command": "next"}]
    screen = play_moment(by_name["05_reveal"], SIZE, shared_ctx)
    assert screen.director.names()[-1] == "reveal"
    screen.handle(key(pygame.K_SPACE), SIZE)
    screen.advance(1 / 60, SIZE)
    assert screen.director.names()[-1] == "collusion_table"


def test_input_events_carry_the_session_clock(shared_ctx):
    screen = lobby_screen(shared_ctx)
    screen.advance(0.5, SIZE)
    event = screen.input_event(HostIntent("start"))
    assert event.source is InputSource.KEYBOARD and event.kind is InputKind.HOST and event.seat is None
    assert event.payload == {"command": "start"}
    assert event.t_ms == screen.snapshot.clock_ms + 500


def test_M3_a_seat_setting_names_the_seat_and_goes_round_the_table(shared_ctx):
    """M3: the first guard is shown as people call the seat (its player's name, else "Seat 3",
    numbers from 1), never as the index ("First guard: ۰"); the arrows go round the table's seats."""
    from game.render.settings import shown_value, spec_of
    from game.rules.schema import SettingUnit

    for game in ("cheating_moth", "cheating_moth_companion"):
        spec = spec_of(game, "first_guard")
        assert spec is not None and spec.unit is SettingUnit.SEAT
    assert spec.stepped(5, 1, seat_count=6) == 0
    assert spec.stepped(0, -1, seat_count=6) == 5
    for lang, free in (("fa", "صندلی ۶"), ("th", "ที่นั่ง 6"), ("en", "Seat 6")):
        screen = lobby_screen(shared_ctx, n=6, language=lang, joined=3, bots=0, game="cheating_moth")
        frame = screen.frame(SIZE)
        named = screen.snapshot.seats[0].name
        assert named and shown_value(frame, spec, 0) == named
        assert shown_value(frame, spec, 5) == free


def test_L_changes_the_tables_language_during_a_game_too(shared_ctx):
    from game.tapes import ScriptedTable

    by_name = {m.name: m for m in moments("en")}
    screen = play_moment(by_name["03_table"], SIZE, shared_ctx)
    assert payloads(screen.handle(key(pygame.K_l), SIZE)) == [{"command": "set_language", "language": "fa"}]
    table = ScriptedTable("collusion", 4, "en", people=4)
    table.start()
    table.host("set_language", language="fa")  # the session takes it mid-game: every screen follows
    assert table.snapshot().language == "fa" and table.session.run is not None
