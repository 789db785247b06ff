"""Human pace and human limits: the one model every bot level's timing and attention is drawn from.

Bots are meant to feel like the people round the table, so every level — easy, normal and hard —
acts at a person's pace and within a person's limits; **levels differ by judgement, never by
speed**. A bot's ``think_ms()`` draws from :class:`Pace` by what it is about to do:

=============  ==========================================================  ======================
act            what a person does                                           drawn (ms)
=============  ==========================================================  ======================
reaction       a race press after the lamp (a simple visual reaction)       lognormal, median 280,
                                                                            never under 180
spot           see a tell, recognise it, press "accuse"                     reaction + 150–450
routine        a move with nothing to weigh: a forced play, a lock after    lognormal, median 1300,
               one's pick, playing on                                       700–4000
decision       a vote, a pick, a showdown card, a point: Hick–Hyman, 1.2 s  lognormal around it,
               plus 0.5 s per bit of choice, and people vary                1200–12000
gesture        a held gesture (Cheating Moth's cheat, M8): the hold it      hold + 80–350
               needs, let go a little after, never before
rest           after a gesture, before the next one (**one hand**): palm    lognormal, median 6500,
               the card away, settle, watch the guard, pick a moment        never under 3500
=============  ==========================================================  ======================

**One hand** (:class:`OneHand`): a person makes one gesture at a time and rests after it; a bot
starts a gesture only when ``hand.free`` (its waits since the last gesture add up to the rest), so
two cheats of one bot are never closer than a rest (6 cards shed by cheating take half a minute
or more, not 8 s). Meanwhile it plays its turns at the routine pace, as a person would.

**Attention** (:func:`notices`): a person busy acting (their own turn, a give, a race) sees what
happens elsewhere on the table half as often as one who only watches; a hard bot's guard watches
well when idle and still misses tells while it plays.

The figures are common human-factors ranges (simple reaction time 200–300 ms; Hick–Hyman choice
time), not measurements of this table; ``tests/bots/test_human_pace.py`` holds every level to
them.
"""
from __future__ import annotations

import math
import random

REACTION_FLOOR_MS = 180  # no person reacts to a lamp faster: a race press is never quicker
REACTION_MEDIAN_MS = 280
REACTION_CEIL_MS = 700
SPOT_EXTRA_MS = (150, 450)  # recognising a tell for what it is, on top of the reaction
ROUTINE_MS = (700, 1_300, 4_000)  # floor, median, ceiling
DECISION_MS = (1_200, 12_000)  # floor and ceiling of a weighed choice
DECISION_BASE_MS = 1_200
DECISION_PER_BIT_MS = 500
GESTURE_OVERSHOOT_MS = (80, 350)  # let go this long after the hold is enough
REST_MS = (3_500, 6_500, 15_000)  # floor, median, ceiling between two gestures of one hand
BUSY_ATTENTION = 0.5  # a person acting notices a tell this much as often as one watching
SPREAD = 0.35  # lognormal sigma: how much one person's times vary


def _lognormal(rng: random.Random, median: float, low: float, high: float, sigma: float = SPREAD) -> int:
    drawn = median * math.exp(rng.gauss(0.0, sigma))
    if drawn < low:  # clamped by comparisons, not min(high, max(low, ...)): every bot move draws one
        return int(low)
    return int(high) if drawn > high else int(drawn)


class Pace:
    """A person's timings, drawn from the bot's own ``rng`` (bots stay deterministic for a seed)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def reaction(self) -> int:
        """A race press after the lamp: never under :data:`REACTION_FLOOR_MS`."""
        return _lognormal(self.rng, REACTION_MEDIAN_MS, REACTION_FLOOR_MS, REACTION_CEIL_MS, 0.2)

    def spot(self) -> int:
        """Seeing a tell and pressing accuse."""
        return self.reaction() + self.rng.randint(*SPOT_EXTRA_MS)

    def routine(self) -> int:
        low, median, high = ROUTINE_MS
        return _lognormal(self.rng, median, low, high)

    def decision(self, options: int = 4) -> int:
        """A weighed choice among ``options`` (Hick–Hyman: time grows with the bits of choice)."""
        median = DECISION_BASE_MS + DECISION_PER_BIT_MS * math.log2(max(1, options) + 1)
        return _lognormal(self.rng, median, *DECISION_MS)

    def gesture(self, hold_ms: int) -> int:
        """A held gesture that needs ``hold_ms``: let go a little after it is enough, never before."""
        return hold_ms + self.rng.randint(*GESTURE_OVERSHOOT_MS)

    def rest(self) -> int:
        low, median, high = REST_MS
        return _lognormal(self.rng, median, low, high)


def notices(rng: random.Random, chance: float, busy: bool) -> bool:
    """Whether a person sees something that happens with ``chance`` of catching the eye; ``busy``
    (acting themself) halves it."""
    return rng.random() < chance * (BUSY_ATTENTION if busy else 1.0)


class OneHand:
    """One pair of hands: one gesture at a time and a rest after each. The bot cannot read a clock,
    so it counts the waits it asked for: the session acts on a bot only after its ``think_ms()``,
    so by the next ``choose`` that wait has passed (a wait cut short by a change counts as none,
    which can only make the rest longer)."""

    def __init__(self, pace: Pace) -> None:
        self._pace = pace
        self.owed_ms = 0  # rest still owed before the next gesture
        self._asked_ms = 0  # the last wait handed out, not yet known to have passed

    def wait(self, ms: int) -> int:
        """Hand out ``ms`` as ``think_ms()``, counted towards the rest once ``choose`` comes."""
        self._asked_ms = ms
        return ms

    def waited(self) -> None:
        """Called at the start of ``choose``: the wait handed out has passed."""
        self.owed_ms = max(0, self.owed_ms - self._asked_ms)
        self._asked_ms = 0

    @property
    def free(self) -> bool:
        """Whether a new gesture may start now."""
        return self.owed_ms == 0

    def gesture_done(self) -> None:
        """A gesture ended (finished or let go): a rest is owed before the next."""
        self.owed_ms = self._pace.rest()
