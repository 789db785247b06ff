"""Synthesised effects (and silence without a device), and seat symbols told apart by shape."""
from __future__ import annotations

import dataclasses
import itertools

import pygame
import pytest

from game.render.kit import shapes
from game.render.kit.sound import RECIPES, Effect, SoundBank, Tone, render
from game.seating import SEAT_LOOKS


def test_every_effect_has_a_recipe_that_renders_to_16_bit_samples():
    assert set(RECIPES) == set(Effect)
    for effect, tones in RECIPES.items():
        samples = render(tones, 8000)
        assert len(samples) >= 8000 * max(t.start + t.seconds for t in tones) - 1, effect
        assert max(abs(v) for v in samples) > 8000, effect  # audible
        assert all(-32768 <= v <= 32767 for v in samples)


def test_the_bank_loads_plays_and_mutes():
    bank = SoundBank()
    if not bank.available:
        pytest.skip("no mixer in this environment")
    bank.load()
    assert bank.loaded
    bank.play(Effect.REVEAL)
    assert bank.toggle_mute() is True
    bank.play(Effect.LOSS)  # silent, no error
    assert bank.toggle_mute() is False


def test_no_audio_device_means_silence_not_a_crash(monkeypatch):
    def broken(*args, **kwargs):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    bank = SoundBank()
    assert not bank.available
    bank.load()
    bank.play(Effect.STING)
    assert not bank.loaded


def test_a_disabled_bank_is_silent():
    bank = SoundBank(enabled=False)
    bank.load()
    bank.play(Effect.TICK)
    assert not bank.available and not bank.loaded


def _mask(name: str) -> pygame.mask.Mask:
    surface = pygame.Surface((64, 64), pygame.SRCALPHA)
    shapes.symbol(surface, name, (200, 200, 200), (32, 32), 28)
    return pygame.mask.from_surface(surface)


def test_every_seat_symbol_is_drawn_and_shapes_differ():
    names = [look.symbol for look in SEAT_LOOKS]
    assert len(set(names)) == len(names)
    assert all(name in shapes.SYMBOLS for name in names)
    masks = {name: _mask(name) for name in names}
    for name, mask in masks.items():
        assert mask.count() > 300, name
    for a, b in itertools.combinations(names, 2):
        overlap = masks[a].overlap_area(masks[b], (0, 0))
        union = masks[a].count() + masks[b].count() - overlap
        assert overlap / union < 0.85, (a, b)  # no two seats look alike in grey


def test_tones_are_plain_values():
    tone = Tone(440, 440, 0.1)
    assert tone.volume == 0.5 and tone.wave == "sine"


class RecordingBank(SoundBank):
    def __init__(self) -> None:
        super().__init__(enabled=False)
        self.played: list[Effect] = []

    def play(self, effect: Effect) -> None:
        self.played.append(effect)


def test_scenes_cue_their_effects_as_the_story_unfolds(shared_ctx):
    from game.games.collusion.tapes import moments
    from game.render.kit.scene import RenderContext
    from game.tapes import play_moment

    by_name = {m.name: m for m in moments("en")}
    bank = RecordingBank()
    ctx = RenderContext(shared_ctx.text, shared_ctx.qr, bank)
    table = by_name["03_table"]
    play_moment(table, (1280, 720), ctx)
    assert bank.played == [Effect.PLACE] * 5  # five cards went down after the screen started
    bank.played.clear()
    play_moment(dataclasses.replace(table, snapshots=table.snapshots[-1:]), (1280, 720), ctx)
    assert bank.played == []  # cards already down when the screen starts make no sound
    play_moment(by_name["06_ambush"], (1280, 720), ctx)
    story = [e for e in bank.played if e not in (Effect.TICK, Effect.PLACE)]
    assert story == [Effect.REVEAL, Effect.STING]  # no deaths yet: the ambushing target is choosing
    bank.played.clear()
    play_moment(by_name["08_deaths"], (1280, 720), ctx)
    assert Effect.LOSS in bank.played
    bank.played.clear()
    play_moment(by_name["11_showdown_reveal"], (1280, 720), ctx)
    assert Effect.SUSPENSE in bank.played
    bank.played.clear()
    play_moment(by_name["04_last_seconds"], (1280, 720), ctx)
    assert Effect.TICK in bank.played
