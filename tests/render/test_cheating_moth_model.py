"""The Cheating Moth screen's reading of the view, the judge's outcome and the events: hand sizes
(M11), the cheat tell, the race verdict with sources and false starts (M16), and which beats a batch
of events calls for."""
from __future__ import annotations

import dataclasses

import pygame
import pytest

from game import i18n
from game.games.cheating_moth import screen as cm
from game.games.cheating_moth.screen.beats import AccusationBeat, FlightBeat, Move, RaceResultBeat
from game.games.cheating_moth.screen.model import Kind, Source, Tell, race_from, seat_models
from game.games.cheating_moth.screen.table import DOMAIN, bug_spot, moth_layout, neighbours
from game.games.cheating_moth.tapes import moth_moments
from game.render.app import Screen, choose_base
from game.render.kit import theme
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import Effect, SoundBank
from game.render.kit.text import TextRenderer
from game.session.snapshot import RaceInfo
from game.tapes import play_moment

EN = {m.name: m for m in moth_moments("en")}

DECIDED = {"type": "race_decided", "race": 4, "kind": "mosquito", "player": 1, "order": [3, 0, 2],
           "times_ms": [212, 260, 266], "margins_ms": [0, 48, 6], "error_ms": [1, 4, 6], "no_press": [], "void": [],
           "winner": None, "slowest": 2, "tied": [2], "tie_broken_by_rng": False, "close": True, "cause": "M14"}
OUTCOME = {"race": "race:4", "mode": "all", "order": [3, 0, 2], "reaction_ms": [212.0, 260.0, 266.0],
           "margins_ms": [48.0, 6.0], "sources": ["arcade", "phone", "keyboard"], "error_bound_ms": 6.0,
           "ties": [[0, 2]], "false_starts": [{"seat": 0, "early_by_ms": 140.0, "source": "phone"}],
           "missing": [], "timed_out": False}


class RecordingBank(SoundBank):
    def __init__(self) -> None:
        super().__init__(enabled=False)
        self.played: list[Effect] = []

    def play(self, effect: Effect) -> None:
        self.played.append(effect)


def test_neighbours_wrap_around_m5():
    assert neighbours(1) == (5, 2)
    assert neighbours(3) == (2, 4)
    assert neighbours(5) == (4, 1)


def test_the_race_verdict_joins_the_judges_sources_and_false_starts():
    race = race_from(DECIDED, RaceInfo.from_json({"last": OUTCOME}).last)
    assert race is not None and race.kind is Kind.MOSQUITO
    assert race.sources == (Source.ARCADE, Source.PHONE, Source.KEYBOARD)
    assert race.false_starts == ((0, 140.0),)
    assert race.error_bound_ms == 6.0
    assert [race.too_close(k) for k in range(3)] == [False, False, True]  # 6 ms apart, errors 4 + 6


def test_another_races_outcome_is_not_joined():
    race = race_from(DECIDED, RaceInfo.from_json({"last": dict(OUTCOME, race="race:6")}).last)
    assert race is not None
    assert race.sources == (None, None, None) and race.false_starts == ()
    assert race.error_bound_ms == 6.0  # the engine's own error bounds


def test_hand_sizes_are_exact_only_up_to_three_and_tells_are_read():
    snap = EN["m02_tell_trembles"].snapshots[-1]
    view = dict(snap.public_view)
    view["seats"] = [dict(s, hand=h, tell=t) for s, h, t in zip(view["seats"], [2, "many", 3, 0],
                                                                 ["tremble", None, "sleeve", None])]
    seats = seat_models(snap, view)
    assert [s.hand for s in seats] == [2, None, 3, 0]
    assert [s.tell for s in seats] == [Tell.TREMBLE, None, Tell.SLEEVE, None]
    shown: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: shown.append(text)), QrCache(), SoundBank(enabled=False))
    screen = Screen(ctx=ctx)
    screen.sync(dataclasses.replace(snap, public_view=view))
    screen.advance(0.1, (1280, 720))
    screen.draw(pygame.Surface((1280, 720)))
    for key, n in (("hand.exact", 2), ("hand.exact", 3)):
        assert i18n.text("en", DOMAIN, key, n=n) in shown
    assert i18n.text("en", DOMAIN, "hand.many") in shown
    assert i18n.text("en", DOMAIN, "hand.none") in shown
    assert not any(t.endswith(" cards") and t[0].isdigit() and int(t.split()[0]) > 3 for t in shown)


def _fan_region(snap, seat: int, size=(1280, 720)) -> pygame.Rect:
    ml = moth_layout(size, len(snap.public_view["seats"]))
    x, y = ml.table.spots[seat].card
    rect = pygame.Rect(0, 0, ml.card[0] * 3, round(ml.card[1] * 0.8))
    rect.midbottom = (round(x), round(y + ml.card[1] * 0.2))
    return rect


@pytest.mark.parametrize("tell", ["tremble", None])
def test_the_fan_trembles_only_while_a_cheat_is_held(tell, shared_ctx):
    snap = EN["m01_deal"].snapshots[-1]
    view = dict(snap.public_view)
    view["seats"] = [dict(s, tell=tell if s["seat"] == 2 else None) for s in view["seats"]]
    screen = Screen(ctx=shared_ctx)
    screen.sync(dataclasses.replace(snap, public_view=view))
    pictures = []
    for _ in range(2):
        screen.advance(0.05, (1280, 720))
        surface = pygame.Surface((1280, 720))
        screen.draw(surface)
        pictures.append(pygame.image.tobytes(surface.subsurface(_fan_region(snap, 2)), "RGB"))
    assert (pictures[0] != pictures[1]) == (tell == "tremble")


@pytest.mark.parametrize("name", ["m06_bug_walks", "m17_new_round"])  # caught (M10), a new round (M18)
def test_the_guard_bug_walks_to_the_new_guard(name, shared_ctx):
    moment = EN[name]
    after = moment.snapshots[-1]
    new = after.public_view["guard"]
    ml = moth_layout((1280, 720), len(after.public_view["seats"]))
    spot = bug_spot(ml, new)

    def gold_near_spot(screen: Screen) -> int:
        surface = pygame.Surface((1280, 720))
        screen.draw(surface)
        r = 4
        return sum(surface.get_at((round(spot[0]) + dx, round(spot[1]) + dy))[:3] == theme.GOLD
                   for dx in range(-r, r + 1) for dy in range(-r, r + 1))

    screen = play_moment(dataclasses.replace(moment, play_s=0.3), (1280, 720), shared_ctx)
    on_the_way = gold_near_spot(screen)
    screen.advance(2.0, (1280, 720))
    arrived = gold_near_spot(screen)
    assert on_the_way == 0 < arrived


def test_beats_follow_the_events():
    caught, wrong = EN["m04_caught"].snapshots, EN["m07_wrong_guess"].snapshots
    assert [type(b).__name__ for b in cm.beats_for(caught[1], caught[0])] == ["AccusationBeat"]
    beats = cm.beats_for(wrong[1], wrong[0])
    assert [type(b).__name__ for b in beats] == ["AccusationBeat", "FlightBeat"]
    assert beats[1].moves == (Move(None, beats[0].accusation.guard),)  # the guard draws (M10)
    ant = EN["m08_ant"].snapshots
    player = next(e["seat"] for e in ant[1].events if e["type"] == "effect")
    (beat,) = cm.beats_for(ant[1], ant[0])
    drew = {e["seat"] for e in ant[1].events if e["type"] == "drew" and e["cause"] == "M12" and e["count"]}
    assert {m.dst for m in beat.moves} == drew and player not in drew
    assert all(m.src is None for m in beat.moves)


def test_a_race_result_names_the_raced_number():
    before, after = EN["m15_beetle_result"].snapshots
    (beat,) = [b for b in cm.beats_for(after, before) if isinstance(b, RaceResultBeat)]
    assert beat.race.number == before.public_view["race"]["number"]
    assert beat.race.sources and all(s is not None for s in beat.race.sources)


def test_nothing_flies_over_the_round_summary():
    over = EN["m18_game_over"].snapshots[-1]
    assert not [b for b in cm.beats_for(over, None) if isinstance(b, (FlightBeat, AccusationBeat))]


def test_the_base_scene_follows_the_phase():
    assert choose_base(EN["m02_tell_trembles"].snapshots[-1]).name == "moth_table"
    assert choose_base(EN["m16_round_over"].snapshots[-1]).name == "moth_round_over"
    assert choose_base(EN["m18_game_over"].snapshots[-1]).name == "moth_game_over"


@pytest.mark.parametrize("name, effect", [("m03_card_played", Effect.PLACE), ("m04_caught", Effect.STING),
                                          ("m07_wrong_guess", Effect.LOSS), ("m11_mosquito_race", Effect.SUSPENSE),
                                          ("m12_mosquito_result", Effect.REVEAL)])
def test_sound_cues(name, effect):
    bank = RecordingBank()
    play_moment(EN[name], (1280, 720), RenderContext(TextRenderer(), QrCache(), bank))
    assert effect in bank.played


def test_game_over_enter_goes_back_to_the_lobby(shared_ctx):
    screen = play_moment(EN["m18_game_over"], (1280, 720), shared_ctx)
    intents = screen.handle(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0), (1280, 720))
    assert [i.command for i in intents] == ["next"]
