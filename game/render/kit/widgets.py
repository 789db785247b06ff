"""Buttons and key hints shared by the scenes: laid out by pure functions so ``draw`` and
``handle`` agree on where everything is."""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import pygame

from . import shapes, theme
from .scene import Frame, Intent, RenderContext
from .text import ZWSP, Align, TextStyle, VAlign, as_line, break_words


@dataclass(frozen=True, slots=True)
class Button:
    rect: pygame.Rect
    label: str  # already translated
    hint: str  # the key, e.g. "G"
    intents: tuple[Intent, ...]
    active: bool = True
    primary: bool = False


READABLE_PX_720P = 16  # 24 px at 1080p: the least a guest reads from across the room


def readable_px(u: float) -> int:
    """The smallest text a guest must read on the TV (≥ 24 px at 1080p), at the screen's scale ``u``."""
    return round(READABLE_PX_720P * u)


GLYPH_EM = 0.56  # a letter's average width in a word of Noto Sans, Arabic or Thai, as a share of the size (0.45-0.6)


def _key_w(hint: str, height: int) -> int:
    """A key cap no wider than it needs: the label beside it keeps the room to stay readable from 3 m."""
    return round(height * (0.6 if len(hint) <= 1 else 1.15)) if hint else 0


def _est_width(text: str, px: int) -> float:
    """About how wide ``text`` is at ``px`` (marks, joiners and zero-width spaces take no room)."""
    drawn = [c for c in text if c != ZWSP and not unicodedata.combining(c) and unicodedata.category(c) not in ("Mn", "Cf")]
    return px * sum(0.3 if c.isspace() else GLYPH_EM for c in drawn)


def button_need(label: str, hint: str, height: int, u: float) -> int:
    """The width a button needs for its key and its label on at most two lines at the readable
    size, with no word broken: the bar gives each button this much before sharing out the rest."""
    pad = max(2, round(6 * u))
    key = _key_w(hint, height) + pad if hint else 0
    if not label:
        return key + 2 * pad
    px = readable_px(u)
    pieces = break_words(label)
    two = min(max(_est_width(as_line("".join(pieces[:k])), px), _est_width(as_line("".join(pieces[k:])), px))
              for k in range(1, len(pieces) + 1))
    return round(key + 3 * pad + two)


def fitted_row(area: pygame.Rect, needs: Sequence[int], weights: Sequence[float], gap: int, rtl: bool) -> list[pygame.Rect]:
    """A row of rects, each at least as wide as it ``needs`` (all shrunk alike when the row is too
    short), the room left shared in proportion to ``weights`` (mirrored for RTL)."""
    free = area.width - gap * (len(needs) - 1)
    spare = free - sum(needs)
    if spare < 0:
        shares = [n / sum(needs) * free for n in needs]
    else:
        shares = [n + spare * w / sum(weights) for n, w in zip(needs, weights, strict=True)]
    return row(area, shares, gap, rtl)


def draw_button(surface: pygame.Surface, button: Button, frame: Frame, ctx: RenderContext) -> None:
    u = frame.scale.u
    colour = theme.GOOD if button.primary and button.active else (theme.PANEL_LIGHT if button.active else theme.PANEL)
    shapes.panel(surface, button.rect, colour, theme.ACCENT if button.active else theme.DEAD, width=max(1, round(2 * u)))
    ink = theme.ink_on(colour) if button.active else theme.TEXT_DIM
    pad = max(2, round(6 * u))
    key_w = _key_w(button.hint, button.rect.height)
    body = button.rect.inflate(-2 * pad, -pad)
    rtl = frame.lang == "fa"
    if button.hint:
        key_rect = pygame.Rect(0, 0, key_w, round(button.rect.height * 0.62))
        key_rect.centery = button.rect.centery
        if not button.label:
            key_rect.centerx = button.rect.centerx
        elif rtl:
            key_rect.right = button.rect.right - pad
            body.width -= key_w + pad
        else:
            key_rect.x = button.rect.x + pad
            body.x += key_w + pad
            body.width -= key_w + pad
        shapes.panel(surface, key_rect, theme.BACKGROUND, ink, radius=max(2, round(4 * u)), width=max(1, round(u)))
        ctx.text.draw(surface, button.hint, "en", key_rect.inflate(-pad // 2, -2),
                      TextStyle(round(16 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=1, min_px=6))
    if not button.label:
        return
    ctx.text.draw(surface, button.label, frame.lang, body,
                  TextStyle(round(19 * u), ink, align=Align.CENTER, max_lines=2, valign=VAlign.MIDDLE, min_px=readable_px(u)))


def hit(buttons: list[Button], pos: tuple[int, int]) -> Button | None:
    for button in buttons:
        if button.active and button.rect.collidepoint(pos):
            return button
    return None


def row(area: pygame.Rect, weights: list[float], gap: int, rtl: bool) -> list[pygame.Rect]:
    """Split ``area`` into a row of rects with widths in proportion to ``weights`` (mirrored for RTL)."""
    total = sum(weights)
    free = area.width - gap * (len(weights) - 1)
    rects: list[pygame.Rect] = []
    x = area.x
    for w in weights:
        width = round(free * w / total)
        rects.append(pygame.Rect(x, area.y, width, area.height))
        x += width + gap
    if rtl:
        rects = [pygame.Rect(area.x + area.right - r.right, r.y, r.width, r.height) for r in rects]
    return rects
