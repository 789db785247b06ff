"""How to play, on the TV (``game/howto`` is the plan): while the session's intro runs
(``snapshot.how_to_play``), the screen plays the game's scripted moments slide by slide —
the game's own scenes and beats, on a small inner screen (each slide names the tape its moment comes
from) — under a caption stating the rule, in the table's language. Space, Enter or a click skips to the game."""
from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Executor, Future, wait
from typing import Any

import pygame

from game import catalog, howto, i18n
from game.session.snapshot import HowToPlayInfo, TableSnapshot

from .kit import theme
from .kit.scene import RenderContext
from .kit.text import Align, TextStyle
from .moments import people_of

CAPTION_H = 150  # at 720p
SKIP_KEYS = frozenset({pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER})


STOP_POLL_S = 0.05  # while a slide's tape is recorded, how often the window checks for a stop


def record_tape(tape: str, lang: str) -> dict[str, Any]:
    """The scripted moments of the game ``tape`` names (a slide's; its catalog ``tapes``) in ``lang``, by name."""
    with people_of(lang):  # the examples' people bear names of the table's language
        return {m.name: m for m in catalog.get(tape).load_tapes().moments(lang)}


def stage_rect(size: tuple[int, int]) -> pygame.Rect:
    """Where the game's scenes play: the window below the caption band."""
    w, h = size
    band_h = round(CAPTION_H * min(w / 1280, h / 720))
    return pygame.Rect(0, band_h, w, h - band_h)


def intro_of(snapshot: TableSnapshot | None) -> HowToPlayInfo | None:
    return snapshot.how_to_play if snapshot is not None else None


def is_skip(event: pygame.event.Event) -> bool:
    return (event.type == pygame.KEYDOWN and event.key in SKIP_KEYS) or event.type == pygame.MOUSEBUTTONDOWN


class HowToPlay:
    """Plays the explanation (see module docs); one per window."""

    def __init__(self, ctx: RenderContext, make_screen: Callable[..., Any], pool: Executor | None = None,
                 stopping: Callable[[], bool] = lambda: False) -> None:
        self.ctx = ctx
        self._make_screen = make_screen  # the window's Screen class (game.render.app): a slide is a whole screen
        self._pool = pool  # records tapes (ahead: see prefetch); None: on this thread when the first slide needs them
        self._stopping = stopping  # the program is stopping: a slide's tape is not waited for
        self._ahead: dict[tuple[str, str], Future[dict[str, Any]]] = {}  # (tape, lang), being recorded
        self._moments: dict[tuple[str, str], dict[str, Any]] = {}  # (tape, lang): one game's tapes at a time
        self._moments_of: tuple[str, str] | None = None  # the (game, lang) they were recorded for
        self._key: tuple[str, str, int] | None = None
        self._inner: Any = None  # the inner Screen of the current slide
        self._last: TableSnapshot | None = None

    def prefetch(self, game: str, lang: str) -> None:
        """Have ``game``'s tapes in ``lang`` recorded ahead on the worker thread (the window asks
        while the lobby is up): a tape plays a scripted game, 40–220 ms of CPU that the first
        slide would otherwise freeze the TV for. Only the latest game and language are kept."""
        if self._pool is None:
            return
        keys = {(slide.tape, lang) for slide in howto.slides(game)}
        for key in self._ahead.keys() - keys:
            del self._ahead[key]
        for tape, tape_lang in keys - self._ahead.keys() - self._moments.keys():
            self._ahead[(tape, tape_lang)] = self._pool.submit(record_tape, tape, tape_lang)

    def _moment(self, game: str, lang: str, slide: howto.Slide) -> Any:
        if self._moments_of != (game, lang):
            self._moments, self._moments_of = {}, (game, lang)
        key = (slide.tape, lang)
        if key not in self._moments:
            if self._pool is None:
                self._moments[key] = record_tape(slide.tape, lang)
            else:  # recorded on the worker (ordered now if it was not): this thread only waits
                ahead = self._ahead.pop(key, None) or self._pool.submit(record_tape, slide.tape, lang)
                while not ahead.done():
                    if self._stopping():
                        self._ahead[key] = ahead
                        return None  # the window closes before this slide is shown
                    wait([ahead], timeout=STOP_POLL_S)
                self._moments[key] = ahead.result()
        return self._moments[key].get(slide.moment)

    def update(self, snapshot: TableSnapshot, now_ms: int, dt: float, size: tuple[int, int]) -> None:
        intro = intro_of(snapshot)
        if intro is None:
            self._key, self._inner = None, None
            return
        game, lang = intro.game, snapshot.language
        at = howto.slide_at(game, now_ms - intro.started_ms)
        if at is None:
            return
        index, slide = at
        size = stage_rect(size).size
        if (game, lang, index) != self._key:
            self._key = (game, lang, index)
            self._start_slide(self._moment(game, lang, slide), size)
        elif self._inner is not None and self._last is not None:
            self._inner.advance(dt, size)
            self._inner.sync(self._last)

    def _start_slide(self, moment: Any, size: tuple[int, int]) -> None:
        if moment is None:
            self._inner = self._last = None
            return
        self._inner = self._make_screen(ctx=self.ctx)
        for snap in moment.snapshots:
            self._inner.sync(snap)
            self._inner.advance(1 / 60, size)
        self._last = moment.snapshots[-1]

    def draw(self, surface: pygame.Surface, snapshot: TableSnapshot, now_ms: int) -> None:
        intro = intro_of(snapshot)
        if intro is None:
            return
        game, lang = intro.game, snapshot.language
        elapsed = now_ms - intro.started_ms
        at = howto.slide_at(game, elapsed)
        if at is None:
            return
        index, slide = at
        w, h = surface.get_size()
        u = min(w / 1280, h / 720)
        band_h = round(CAPTION_H * u)
        surface.fill(theme.BACKGROUND)
        if self._inner is not None:
            self._inner.draw(surface.subsurface(stage_rect((w, h))))
        self._draw_caption(surface, game, lang, index, slide, elapsed, band_h, u)

    def _draw_caption(self, surface: pygame.Surface, game: str, lang: str, index: int, slide: howto.Slide,
                      elapsed: int, band_h: int, u: float) -> None:
        w = surface.get_width()
        band = pygame.Rect(0, 0, w, band_h)
        pygame.draw.rect(surface, theme.PANEL, band)
        pad = round(16 * u)
        count = len(howto.slides(game))
        name = i18n.text(lang, "screen", catalog.get(game).title_key)
        title = i18n.text(lang, "screen", "howto.title", game=name)
        head = pygame.Rect(pad, round(6 * u), w - 2 * pad, round(34 * u))
        step = f"{i18n.number(lang, index + 1)}/{i18n.number(lang, count)}"
        self.ctx.text.draw(surface, f"{title} | {step}", lang, head,
                           TextStyle(round(24 * u), theme.GOLD, bold=True, max_lines=1))
        self.ctx.text.draw(surface, i18n.text(lang, "screen", "howto.skip"), lang, head,
                           TextStyle(round(18 * u), theme.TEXT_DIM, align=Align.END, max_lines=1))
        body = pygame.Rect(pad, head.bottom, w - 2 * pad, band_h - head.bottom - round(12 * u))
        self.ctx.text.draw(surface, i18n.text(lang, slide.strings, slide.caption), lang, body,
                           TextStyle(round(36 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=2))
        done = sum(s.seconds for s in howto.slides(game)[:index]) * 1000
        fraction = min(1.0, (elapsed - done) / (slide.seconds * 1000))
        bar = pygame.Rect(0, band_h - round(6 * u), round(w * (index + fraction) / count), round(6 * u))
        pygame.draw.rect(surface, theme.ACCENT, bar)
