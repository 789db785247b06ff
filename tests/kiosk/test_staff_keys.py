"""The kiosk's TV, every key and click path: what is staff's (stopping the arcade wizard, freeing a
player's seat, changing a setting, a companion game's host keys, quitting, full screen) asks for
the PIN first and only then goes through; what is the guests' (picking and starting a game,
bots, skipping the how-to-play, back to the lobby after the results) still just works. Each event
goes the way the window loop sends it (``game.render.app.table_input``)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pygame
import pytest
from tv_kit import Clock, display, key  # noqa: F401 (display: the autouse fixture)

from game import i18n
from game.config import TableConfig
from game.games.cheating_moth import companion_tapes as moth_companion_tapes
from game.games.collusion.tapes import moments
from game.kiosk.config import KioskConfig, Timers, Venue
from game.kiosk.screen import UNLOCK_S, KioskLayer
from game.render.app import Screen, table_input
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext, WindowOp
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.render.lobby import ARCADE_KEY, layout
from game.render.settings import SettingsScene
from game.session.session import Session
from game.session.snapshot import ArcadeInfo, ClaimInfo, HowToPlayInfo, InputEvent, InputKind, RunMode, TableSnapshot
from game.tapes import lobby_snapshot, play_moment

PIN = "482193"
SIZE = (1280, 720)
MAPPING = ArcadeInfo(present=True, connected=True, mapping_in_progress=True, waiting_for=1, done=((0, 4),))


def config(tmp_path: Path, lang: str = "en") -> TableConfig:
    kiosk = KioskConfig(venue=Venue("Café Nakhl"), languages=("en", "fa", "th"),
                        timers=Timers(attract_after_s=60, attract_game_s=40), admin_pin=PIN)
    return TableConfig(mode=RunMode.KIOSK, language=lang, data_dir=tmp_path, admin_pin=PIN, kiosk=kiosk)


def click(pos: tuple[int, int], button: int = 1) -> pygame.event.Event:
    return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button)


class Tv:
    """A kiosk TV: the lock over a screen showing ``snap``, fed events as the window loop feeds them."""

    def __init__(self, tmp_path: Path, snap: TableSnapshot, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        self.layer = KioskLayer(config(tmp_path, snap.language), self.clock)
        self.screen = Screen(ctx=RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False)))
        self.show(snap)

    def show(self, snap: TableSnapshot) -> None:
        self.screen.sync(self.layer.shown(snap, self.screen))
        self.screen.advance(1 / 60, SIZE)

    def send(self, event: pygame.event.Event) -> list[InputEvent | WindowOp]:
        """The event and whatever it posts (a click on a staff control becomes its key press)."""
        out = table_input(event, self.screen, self.layer, SIZE)
        for posted in pygame.event.get():
            out += table_input(posted, self.screen, self.layer, SIZE)
        return out

    def type_pin(self, pin: str = PIN) -> list[InputEvent | WindowOp]:
        out: list[InputEvent | WindowOp] = []
        for ch in pin:
            out += self.send(key(getattr(pygame, f"K_{ch}")))
        return out + self.send(key(pygame.K_RETURN))

    @property
    def asking(self) -> bool:
        return self.layer.prompt is not None

    @property
    def top(self) -> str:
        return self.screen.director.stack[-1].name


def commands(out: list[InputEvent | WindowOp]) -> list[dict]:
    return [dict(e.payload) for e in out if isinstance(e, InputEvent)]


def kiosk_lobby(tmp_path: Path, lang: str = "en") -> Session:
    session = Session.boot(config(tmp_path, lang), None, None)
    session.set_base_url("http://192.168.1.20:8765")
    return session


# ------------------------------------------------------------------------------ arcade wizard
async def test_esc_does_not_stop_the_arcade_wizard_without_the_pin(tmp_path: Path) -> None:
    """The defect as it was: the lock let Esc through to the lobby, which stopped the wizard."""
    session = kiosk_lobby(tmp_path)
    mapping = replace(session.snapshot, arcade=MAPPING)
    layer = KioskLayer(config(tmp_path), Clock())
    screen = Screen(ctx=RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False)))
    screen.sync(layer.shown(mapping))
    esc = key(pygame.K_ESCAPE)
    assert layer.consume(esc) and layer.prompt is not None  # held for the PIN
    session.close()


@pytest.mark.parametrize("stop", ["esc", "a", "click"])
async def test_stopping_the_arcade_wizard_needs_the_pin_then_stops_it(tmp_path: Path, stop: str) -> None:
    session = kiosk_lobby(tmp_path)
    tv = Tv(tmp_path, replace(session.snapshot, arcade=MAPPING))
    [button] = [b for b in layout(tv.screen.frame(SIZE)).buttons if b.hint == ARCADE_KEY]
    event = {"esc": key(pygame.K_ESCAPE), "a": key(pygame.K_a), "click": click(button.rect.center)}[stop]
    assert tv.send(event) == [] and tv.asking
    assert commands(tv.type_pin("000000")) == [] and tv.asking  # a wrong PIN: the wizard runs on
    assert commands(tv.type_pin()) == [{"command": "map_buttons", "cancel": True}] and not tv.asking
    session.close()


async def test_a_table_host_stops_the_wizard_without_a_pin(tmp_path: Path) -> None:
    session = kiosk_lobby(tmp_path)
    snap = replace(session.snapshot, arcade=MAPPING, mode=RunMode.TABLE)
    screen = Screen(ctx=RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False)))
    screen.sync(snap)
    [button] = [b for b in layout(screen.frame(SIZE)).buttons if b.hint == ARCADE_KEY]
    for event in (key(pygame.K_ESCAPE), click(button.rect.center)):
        assert commands(table_input(event, screen, None, SIZE)) == [{"command": "map_buttons", "cancel": True}]
    assert pygame.event.get(pygame.KEYDOWN) == []
    session.close()


# -------------------------------------------------------------------------- freeing a seat
@pytest.mark.parametrize("how", ["k", "delete", "right_click"])
async def test_freeing_a_players_seat_needs_the_pin(tmp_path: Path, how: str) -> None:
    session = kiosk_lobby(tmp_path)
    session.join_seat(session.table.seats[1].token, "Sara")
    tv = Tv(tmp_path, session.snapshot)
    card = layout(tv.screen.frame(SIZE)).cards[1]
    tv.send(click(card.rect.center, button=2))  # a middle click only selects seat 2
    event = {"k": key(pygame.K_k), "delete": key(pygame.K_DELETE), "right_click": click(card.rect.center, 3)}[how]
    assert tv.send(event) == [] and tv.asking
    assert commands(tv.type_pin()) == [{"command": "kick", "seat": 1}]
    session.close()


async def test_guests_still_add_and_remove_bots_by_click(tmp_path: Path) -> None:
    session = kiosk_lobby(tmp_path)
    tv = Tv(tmp_path, session.snapshot)
    card = layout(tv.screen.frame(SIZE)).cards[2]
    assert commands(tv.send(click(card.rect.center))) == [{"command": "set_bot", "seat": 2, "kind": "heuristic"}]
    assert commands(tv.send(click(card.rect.center, 3))) == []  # a free seat: nothing to free, no PIN
    assert not tv.asking
    session.close()


# ------------------------------------------------------------------------------- settings
async def test_a_setting_changes_only_while_unlocked(tmp_path: Path) -> None:
    session = kiosk_lobby(tmp_path)
    tv = Tv(tmp_path, session.snapshot)
    assert tv.send(key(pygame.K_s)) == [] and tv.asking
    tv.type_pin()
    assert tv.top == "settings"
    assert [c["command"] for c in commands(tv.send(key(pygame.K_RIGHT)))] == ["set_setting"]  # unlocked
    tv.clock.now += UNLOCK_S + 1  # staff walked away with the settings open
    assert tv.send(key(pygame.K_RIGHT)) == [] and tv.asking
    tv.send(key(pygame.K_ESCAPE))  # the prompt closes, nothing changed
    assert not tv.asking and tv.top == "settings"
    assert tv.send(key(pygame.K_DOWN)) == [] and not tv.asking  # choosing a row changes nothing
    assert tv.send(key(pygame.K_ESCAPE)) == [] and not tv.asking and tv.top == "lobby"  # anyone may close it
    session.close()


@pytest.mark.parametrize("lang", ["en", "fa"])
async def test_clicking_a_settings_arrow_asks_for_the_pin_then_steps_that_way(tmp_path: Path, lang: str) -> None:
    session = kiosk_lobby(tmp_path, lang)
    tv = Tv(tmp_path, session.snapshot)
    tv.screen.director.stack.append(SettingsScene())  # opened by staff a while ago
    scene = tv.screen.director.stack[-1]
    assert isinstance(scene, SettingsScene)
    _, _, rows = scene._rows(tv.screen.frame(SIZE))
    row = next(r for r in rows if isinstance(r.value, int) and not isinstance(r.value, bool))
    assert tv.send(click(row.plus.center)) == [] and tv.asking
    [change] = commands(tv.type_pin())
    assert change["name"] == row.name and change["value"] > row.value  # the plus button, mirrored or not
    session.close()


# -------------------------------------------------------------------------- game scenes
def companion_turn(lang: str = "en") -> TableSnapshot:
    turn = next(m for m in moth_companion_tapes.moth_moments(lang) if m.name == "turn")
    return replace(turn.snapshots[-1], mode=RunMode.KIOSK)


@pytest.mark.parametrize("k", [pygame.K_s, pygame.K_b, pygame.K_RETURN, pygame.K_u])
def test_a_companion_games_host_keys_need_the_pin(tmp_path: Path, k: int) -> None:
    tv = Tv(tmp_path, companion_turn())
    assert tv.top == "cheating_moth_companion"
    assert tv.send(key(k)) == [] and tv.asking
    [done] = commands(tv.type_pin())
    assert done["command"] == "table_action"


def test_a_companion_game_on_a_table_takes_the_host_keys_at_once(tmp_path: Path) -> None:
    screen = Screen(ctx=RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False)))
    screen.sync(replace(companion_turn(), mode=RunMode.TABLE))
    out = commands(table_input(key(pygame.K_s), screen, None, SIZE))
    assert out == [{"command": "table_action", "action": {"type": "call", "kind": "mosquito"}}]


def test_back_to_the_lobby_after_the_results_is_the_guests(tmp_path: Path) -> None:
    final = next(m for m in moments("en") if m.name == "13_game_over")
    tv = Tv(tmp_path, replace(final.snapshots[-1], mode=RunMode.KIOSK))
    for event in (key(pygame.K_RETURN), key(pygame.K_n), click((640, 360))):
        # leaving the results is deliberate: the first press asks on the screen, the second leaves
        assert commands(tv.send(event)) == [] and not tv.asking
        assert commands(tv.send(event)) == [{"command": "next"}] and not tv.asking


def test_skipping_the_how_to_play_is_the_guests(tmp_path: Path) -> None:
    intro = replace(lobby_snapshot(5, "en"), mode=RunMode.KIOSK, how_to_play=HowToPlayInfo("collusion", 0, 40_000))
    tv = Tv(tmp_path, intro)
    for event in (key(pygame.K_SPACE), key(pygame.K_RETURN), click((640, 360))):
        assert commands(tv.send(event)) == [{"command": "skip_intro"}] and not tv.asking


async def test_the_guests_lobby_keys_need_no_pin(tmp_path: Path) -> None:
    session = kiosk_lobby(tmp_path)
    tv = Tv(tmp_path, session.snapshot)
    sent = []
    for k in (pygame.K_c, pygame.K_g, pygame.K_p, pygame.K_l, pygame.K_PLUS, pygame.K_MINUS, pygame.K_TAB,
              pygame.K_SPACE, pygame.K_b, pygame.K_RETURN):
        for command in commands(tv.send(key(k))):
            sent.append(command["command"])
            if command["command"] != "set_mode":  # the rest play on at the table's game
                session.host_command(command)
                tv.show(session.snapshot)
        assert not tv.asking, pygame.key.name(k)
    assert {"set_game", "set_language", "set_seats", "fill_bots", "set_mode", "set_bot", "start"} <= set(sent)
    assert tv.send(key(pygame.K_m)) == [WindowOp.TOGGLE_MUTE] and not tv.asking
    session.close()


async def test_the_window_keys_stay_locked_in_every_scene(tmp_path: Path) -> None:
    tv = Tv(tmp_path, companion_turn())
    for event in (key(pygame.K_F11), key(pygame.K_q, pygame.KMOD_LCTRL), pygame.event.Event(pygame.QUIT)):
        assert tv.send(event) == [] and tv.asking
        tv.send(key(pygame.K_ESCAPE))
    assert tv.send(key(pygame.K_F11)) == [] and tv.type_pin() == [WindowOp.TOGGLE_FULLSCREEN]


def test_a_kiosks_tv_does_not_answer_a_seat_claim(tmp_path: Path) -> None:
    claim = ClaimInfo.from_json({"id": 7, "seat": 0, "name": "", "seat_name": "Ali", "bot": False})
    snap = replace(lobby_snapshot(5, "en", joined=2, bots=0), mode=RunMode.KIOSK, claims=(claim,))
    tv = Tv(tmp_path, snap)
    assert commands(tv.send(key(pygame.K_y))) == [] and not tv.asking  # the host page answers (behind the PIN)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_a_kiosks_companion_hints_do_not_offer_the_staff_keys(tmp_path: Path, lang: str) -> None:
    moments = {m.name: m for m in moth_companion_tapes.moth_moments(lang)}
    domain = "screen_cheating_moth_companion"
    drawn: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: drawn.append(text)), QrCache(), SoundBank(enabled=False))
    decided = moments["beetle_fastest"].snapshots[-1]  # the tape's Beetle: 16 ms apart, within the errors: a draw (M16)
    winner = decided.seats[decided.public_view["last_race"]["winner"]].name
    for mode, wanted in ((RunMode.KIOSK, "_kiosk"), (RunMode.TABLE, "")):
        drawn.clear()
        for name in ("turn", "mosquito_race", "beetle_fastest"):
            moment = replace(moments[name], snapshots=tuple(replace(s, mode=mode) for s in moments[name].snapshots))
            surface = pygame.Surface((1920, 1080))
            play_moment(moment, (1920, 1080), ctx).draw(surface)
            pygame.image.save(surface, str(tmp_path / f"{lang}_{mode.value}_{name}.png"))
        text = "\n".join(drawn)
        assert i18n.text(lang, domain, f"hint.play{wanted}") in text
        assert i18n.text(lang, domain, f"hint.race{wanted}") in text
        assert i18n.text(lang, domain, f"result.check{wanted}", name=winner,
                         button=i18n.text(lang, "web_cheating_moth_companion", "mothc.wrong_win")) in text, mode  # the phone's own label


def test_a_kiosks_race_is_not_pressed_from_the_tv_keyboard(tmp_path: Path) -> None:
    """M16's keyboard is the host's; a kiosk's TV keyboard is the guests', and a key cannot tell who
    pressed it: the buttons and the phones judge a kiosk's race. At a home table the digits press."""
    race = next(m for m in moth_companion_tapes.moth_moments("en") if m.name == "mosquito_race").snapshots[-1]
    assert race.public_view.get("race") is not None
    for mode, pressed in ((RunMode.KIOSK, False), (RunMode.TABLE, True)):
        screen = Screen(ctx=RenderContext(TextRenderer(), QrCache(), SoundBank(enabled=False)))
        screen.sync(replace(race, mode=mode))
        presses = [e for e in table_input(key(pygame.K_1), screen, None, SIZE)
                   if isinstance(e, InputEvent) and e.kind is InputKind.PRESS]
        assert bool(presses) is pressed, mode
