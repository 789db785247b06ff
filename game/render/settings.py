"""The settings screen (over the lobby): the game's settings, changed with the arrow keys or the
mouse; every change goes to the session as ``set_setting`` (which checks it)."""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import pygame

from game import catalog, i18n
from game.rules.schema import SettingKind, SettingSpec, SettingUnit
from game.session.snapshot import ExtendedTimers, TableSnapshot

from .kit import shapes, theme
from .kit.scene import Frame, Intent, PopScene, RenderContext, Scene, host, staff_click
from .kit.text import Align, TextStyle

ROWS_PER_PAGE = 9
# The table's own settings, after the game's: the how-to-play before round one, and more time on
# every timed step for players who need it (also on the host page's "Table" card)
TABLE_SPECS = (SettingSpec("how_to_play", SettingKind.BOOL),
               SettingSpec("extended_timers", SettingKind.CHOICE, tuple(e.value for e in ExtendedTimers)))
CHANGE_KEYS = frozenset({pygame.K_LEFT, pygame.K_RIGHT})  # kiosk: a change needs the PIN once the unlock lapsed


@functools.cache
def schema(game: str) -> tuple[SettingSpec, ...]:
    """The game's editable settings, as its engine declares them (``GameEngine.settings_schema``)."""
    return catalog.get(game).load_engine().settings_schema()


def spec_of(game: str, name: str) -> SettingSpec | None:
    return next((s for s in schema(game) if s.key == name), None)


def seat_shown(frame: Frame, seat: int) -> str:
    """A seat as people call it: its player's name, else "Seat 3" (numbers from 1)."""
    named = next((s.name for s in frame.snapshot.seats if s.seat == seat and s.name), "")
    return named or frame.s("seat.name", n=seat + 1)


def shown_value(frame: Frame, spec: SettingSpec, value: Any) -> str:
    if spec.unit is SettingUnit.SEAT and isinstance(value, int) and not isinstance(value, bool):
        return seat_shown(frame, value)
    if isinstance(value, bool):
        return frame.s("settings.on") if value else frame.s("settings.off")
    if isinstance(value, int) and spec.unit is SettingUnit.MS:
        if value == 0:
            return frame.s("settings.untimed")
        if value % 60_000 == 0:
            return frame.s("settings.minutes", n=value // 60_000)
        return frame.s("settings.seconds", n=value // 1000) if value % 1000 == 0 else frame.s(
            "settings.seconds", n=round(value / 1000, 1))
    if isinstance(value, int):
        return i18n.number(frame.lang, value)
    if isinstance(value, str):
        return _words(frame, f"value.{value}") or value
    return str(value)


def _words(frame: Frame, key: str) -> str | None:
    """``key`` in the TV's strings, else in the phone's (one label key for both: the schema's)."""
    for domain in ("screen", "web", *catalog.get(frame.snapshot.game).phone_strings):
        if i18n.has(frame.lang, domain, key):
            return i18n.text(frame.lang, domain, key)
    return None


def setting_label(frame: Frame, spec: SettingSpec) -> str:
    return _words(frame, spec.label_key) or spec.key.replace("_", " ").capitalize()


def _arrow(direction: int, lang: str) -> int:
    """The arrow key that steps a value in ``direction`` (mirrored in Persian, as the screen is)."""
    return pygame.K_RIGHT if (direction == 1) != (lang == "fa") else pygame.K_LEFT


@dataclass(frozen=True, slots=True)
class Row:
    spec: SettingSpec
    value: Any
    rect: pygame.Rect
    minus: pygame.Rect
    plus: pygame.Rect

    @property
    def name(self) -> str:
        return self.spec.key


class SettingsScene(Scene):
    name = "settings"
    overlay = True

    def __init__(self) -> None:
        super().__init__()
        self.selected = 0

    def _items(self, frame: Frame) -> list[tuple[SettingSpec, Any]]:
        settings, table = frame.snapshot.settings, frame.snapshot.lobby.table_settings
        return [*((spec, settings[spec.key]) for spec in schema(frame.snapshot.game) if spec.key in settings),
                *((spec, table[spec.key]) for spec in TABLE_SPECS if spec.key in table)]

    def _rows(self, frame: Frame) -> tuple[pygame.Rect, pygame.Rect, list[Row]]:
        w, h = frame.size
        box = pygame.Rect(0, 0, round(w * 0.74), round(h * 0.84))
        box.center = (w // 2, h // 2)
        title = pygame.Rect(box.x, box.y + round(h * 0.02), box.width, round(h * 0.08))
        items = self._items(frame)
        page = self.selected // ROWS_PER_PAGE
        shown = items[page * ROWS_PER_PAGE:(page + 1) * ROWS_PER_PAGE]
        row_h = round(h * 0.062)
        rows: list[Row] = []
        rtl = frame.lang == "fa"
        for i, (spec, value) in enumerate(shown):
            r = pygame.Rect(box.x + round(w * 0.03), title.bottom + i * row_h, box.width - round(w * 0.06), row_h - 4)
            bw = round(r.height * 1.1)
            value_w = round(r.width * 0.3)
            left_end = r.x if not rtl else r.x
            minus = pygame.Rect(left_end + (r.width - value_w - 2 * bw - 8 if not rtl else 0), r.y + 2, bw, r.height - 4)
            plus = pygame.Rect(minus.x + bw + value_w + 8, minus.y, bw, minus.height)
            rows.append(Row(spec, value, r, minus, plus))
        hint = pygame.Rect(box.x, box.bottom - round(h * 0.08), box.width, round(h * 0.07))
        return box, hint, rows

    def staff_keys(self, snapshot: TableSnapshot) -> frozenset[int]:
        return CHANGE_KEYS  # choosing a row and closing the screen change nothing

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        items = self._items(frame)
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_s, pygame.K_BACKSPACE):
                return [PopScene()]
            if not items:
                return []
            self.selected = min(self.selected, len(items) - 1)
            if event.key == pygame.K_DOWN:
                self.selected = (self.selected + 1) % len(items)
            elif event.key == pygame.K_UP:
                self.selected = (self.selected - 1) % len(items)
            elif event.key in (pygame.K_LEFT, pygame.K_RIGHT):
                direction = 1 if (event.key == pygame.K_RIGHT) != (frame.lang == "fa") else -1  # see _arrow
                spec, value = items[self.selected]
                seat_count = frame.snapshot.lobby.seat_count
                return [host("set_setting", name=spec.key, value=spec.stepped(value, direction, seat_count))]
            return []
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            box, _, rows = self._rows(frame)
            if not box.collidepoint(event.pos):
                return [PopScene()]
            for row in rows:
                for rect, direction in ((row.minus, -1), (row.plus, 1)):
                    if rect.collidepoint(event.pos):
                        self.selected = [s for s, _ in items].index(row.spec)
                        if staff_click(frame.snapshot, _arrow(direction, frame.lang)):
                            return []
                        return [host("set_setting", name=row.spec.key,
                                     value=row.spec.stepped(row.value, direction, frame.snapshot.lobby.seat_count))]
        return []

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        surface.blit(shapes.veil(frame.size, (0, 0, 0, 170)), (0, 0))
        box, hint, rows = self._rows(frame)
        shapes.panel(surface, box, theme.PANEL, theme.ACCENT, radius=round(14 * u), width=max(2, round(3 * u)))
        title = pygame.Rect(box.x, box.y + round(frame.size[1] * 0.02), box.width, round(frame.size[1] * 0.08))
        game = frame.game_title()
        ctx.text.draw(surface, frame.s("settings.title", game=game), frame.lang, title.inflate(-40, 0),
                      TextStyle(round(34 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        items = self._items(frame)
        if not items:
            ctx.text.draw(surface, frame.s("settings.none"), frame.lang, box.inflate(-80, -200),
                          TextStyle(round(26 * u), theme.TEXT_DIM, align=Align.CENTER))
        selected = items[min(self.selected, len(items) - 1)][0] if items else None
        for row in rows:
            self._draw_row(surface, row, row.spec == selected, frame, ctx)
        pages = max(1, -(-len(items) // ROWS_PER_PAGE))
        if pages > 1:
            page_box = pygame.Rect(box.x, hint.y - round(frame.size[1] * 0.045), box.width, round(frame.size[1] * 0.04))
            page = min(self.selected, len(items) - 1) // ROWS_PER_PAGE + 1
            ctx.text.draw(surface, frame.s("settings.page", n=page, m=pages), frame.lang, page_box.inflate(-40, 0),
                          TextStyle(round(17 * u), theme.ACCENT, align=Align.CENTER, max_lines=1, min_px=7))
        ctx.text.draw(surface, frame.s("settings.keys"), frame.lang, hint.inflate(-40, 0),
                      TextStyle(round(18 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=2, min_px=7))

    @staticmethod
    def _draw_row(surface: pygame.Surface, row: Row, selected: bool, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        if selected:
            shapes.panel(surface, row.rect, theme.PANEL_LIGHT, theme.GOLD, radius=round(6 * u), width=max(1, round(2 * u)))
        rtl = frame.lang == "fa"
        label_w = row.rect.width - (row.plus.right - row.minus.x) - round(16 * u)
        label = pygame.Rect(row.rect.x + round(10 * u), row.rect.y, label_w - round(10 * u), row.rect.height)
        if rtl:
            label.right = row.rect.right - round(10 * u)
        ctx.text.draw(surface, setting_label(frame, row.spec), frame.lang, label,
                      TextStyle(round(21 * u), theme.TEXT, max_lines=1, min_px=7))
        for rect, sign in ((row.minus, "◀"), (row.plus, "▶")):
            shapes.panel(surface, rect, theme.BACKGROUND, theme.ACCENT, radius=round(5 * u), width=max(1, round(u)))
            cx, cy, s = rect.centerx, rect.centery, rect.height * 0.22
            d = -1 if sign == "◀" else 1
            pygame.draw.polygon(surface, theme.ACCENT, [(cx - d * s, cy - s), (cx + d * s, cy), (cx - d * s, cy + s)])
        value_box = pygame.Rect(row.minus.right + 4, row.rect.y, row.plus.x - row.minus.right - 8, row.rect.height)
        ctx.text.draw(surface, shown_value(frame, row.spec, row.value), frame.lang, value_box,
                      TextStyle(round(21 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=7))
