"""Sound effects synthesised at start (pure Python: no files, no downloads), with a mute switch.

If the mixer cannot start (no audio device), the bank is silent and every call is a no-op.
"""
from __future__ import annotations

import array
import enum
import math
import random
from collections.abc import Callable
from dataclasses import dataclass

import pygame

RATE = 22050


class Effect(enum.Enum):
    PLACE = "place"  # a card put down, a choice made
    REVEAL = "reveal"  # cards turn over, arrows fly
    LOSS = "loss"  # someone falls or guessed wrong
    STING = "sting"  # a trap springs, someone is caught
    SUSPENSE = "suspense"  # a drum roll: a duel, a race, the final tally
    TICK = "tick"  # a timer's last seconds


Wave = Callable[[float], float]


@dataclass(frozen=True, slots=True)
class Tone:
    """One voice: frequency glide ``f0 -> f1`` over ``seconds``, with attack/decay envelope."""

    f0: float
    f1: float
    seconds: float
    start: float = 0.0
    volume: float = 0.5
    attack: float = 0.005
    wave: str = "sine"  # sine | square | noise | tri


def _sample(wave: str, phase: float, noise: random.Random) -> float:
    if wave == "square":
        return 1.0 if math.sin(phase) >= 0 else -1.0
    if wave == "tri":
        return 2 / math.pi * math.asin(math.sin(phase))
    if wave == "noise":
        return noise.uniform(-1.0, 1.0)
    return math.sin(phase)


def render(tones: tuple[Tone, ...], rate: int = RATE) -> array.array:
    """Mix the tones into signed 16-bit mono samples."""
    total = max(t.start + t.seconds for t in tones)
    mixbuf = [0.0] * (int(total * rate) + 1)
    noise = random.Random(7)  # fixed seed: the same sound every start
    for tone in tones:
        n = int(tone.seconds * rate)
        offset = int(tone.start * rate)
        phase = 0.0
        for i in range(n):
            t = i / rate
            freq = tone.f0 + (tone.f1 - tone.f0) * (i / n)
            phase += 2 * math.pi * freq / rate
            env = min(1.0, t / tone.attack) * (1 - i / n) ** 2
            mixbuf[offset + i] += tone.volume * env * _sample(tone.wave, phase, noise)
    peak = max(1.0, max(abs(v) for v in mixbuf))
    return array.array("h", (int(32000 * v / peak * min(1.0, peak)) for v in mixbuf))


RECIPES: dict[Effect, tuple[Tone, ...]] = {
    Effect.PLACE: (Tone(180, 90, 0.09, volume=0.7, wave="tri"), Tone(0, 0, 0.04, volume=0.25, wave="noise")),
    Effect.REVEAL: (
        Tone(523, 523, 0.5, volume=0.35),
        Tone(659, 659, 0.5, start=0.07, volume=0.3),
        Tone(784, 784, 0.6, start=0.14, volume=0.3),
        Tone(0, 0, 0.12, volume=0.15, wave="noise"),
    ),
    Effect.LOSS: (Tone(220, 70, 0.7, volume=0.6, wave="tri"), Tone(110, 40, 0.8, volume=0.4)),
    Effect.STING: (
        Tone(0, 0, 0.25, volume=0.5, wave="noise"),
        Tone(466, 440, 0.6, start=0.05, volume=0.3, wave="square"),
        Tone(494, 466, 0.6, start=0.05, volume=0.3, wave="square"),
        Tone(98, 60, 0.7, start=0.05, volume=0.5, wave="tri"),
    ),
    Effect.SUSPENSE: (
        Tone(0, 0, 0.6, volume=0.3, wave="noise", attack=0.4),
        Tone(196, 196, 0.9, start=0.5, volume=0.35),
        Tone(247, 247, 0.9, start=0.5, volume=0.3),
        Tone(294, 294, 0.9, start=0.5, volume=0.3),
    ),
    Effect.TICK: (Tone(1320, 1320, 0.05, volume=0.4, wave="square"),),
}


class SoundBank:
    """The table's effects. ``play`` does nothing while muted or without an audio device."""

    def __init__(self, enabled: bool = True) -> None:
        self.muted = False
        self._sounds: dict[Effect, pygame.mixer.Sound] = {}
        self.available = enabled and self._start_mixer()

    @staticmethod
    def _start_mixer() -> bool:
        try:
            if not pygame.mixer.get_init():
                pygame.mixer.init(frequency=RATE, size=-16, channels=1)
            return pygame.mixer.get_init() is not None
        except pygame.error:
            return False

    def load(self, stopping: Callable[[], bool] = lambda: False) -> bool:
        """Synthesise every effect (about a tenth of a second on a quiet machine, seconds on a busy
        one; call after the first frame). Between two effects it gives way when ``stopping()``: a
        stop never waits for it. Whether every effect is ready (call again to go on)."""
        if not self.available or len(self._sounds) == len(RECIPES):
            return True
        init = pygame.mixer.get_init()
        if init is None:
            return True
        freq, size, channels = init
        if size not in (-16, 16):
            self.available = False
            return True
        repeat = max(1, freq // RATE)  # synthesise at 22 kHz, repeat samples up to the device rate
        for effect, tones in RECIPES.items():
            if effect in self._sounds:
                continue
            if stopping():
                return False
            mono = render(tones, freq // repeat)
            if repeat * channels > 1:
                mono = array.array("h", (v for v in mono for _ in range(repeat * channels)))
            self._sounds[effect] = pygame.mixer.Sound(buffer=mono.tobytes())
        return True

    def set_volume(self, fraction: float) -> None:
        """Every effect's loudness, 0.0 to 1.0 (the kiosk operator's ``volume``); after ``load()``."""
        for sound in self._sounds.values():
            sound.set_volume(max(0.0, min(1.0, fraction)))

    def toggle_mute(self) -> bool:
        self.muted = not self.muted
        if self.muted and self.available:
            pygame.mixer.stop()
        return self.muted

    def play(self, effect: Effect) -> None:
        if self.muted or not self.available:
            return
        sound = self._sounds.get(effect)
        if sound is not None:
            sound.play()

    @property
    def loaded(self) -> bool:
        return bool(self._sounds)
