"""Cheating Moth companion on the big screen: whose turn, the guard, the round, the races judged to
the millisecond with every margin and time source, and the score pad with its corrections.

Laid out for reading from three metres: the left two thirds tell the table what happens now (a
turn, a race, a race's verdict, the round's scoring, the final standings), the right third is the
score pad. Host keys: S calls a Mosquito, B a Beetle (for the player in turn), Enter ends the turn,
U undoes a wrong Beetle win, X annuls the race; 1–9 and 0 press for seats 1–10 during a race (the app's race keys)."""
from __future__ import annotations

import math
from typing import Any

import pygame

from game import i18n
from game.games.cheating_moth.companion_screen.model import (
    CompanionModel,
    DoneRace,
    FalseStartModel,
    OpenRace,
    TraceLine,
    model_of,
)
from game.render.kit import shapes, theme
from game.render.kit.hud import draw_notices
from game.render.kit.scene import Frame, Intent, RenderContext, Scene, host
from game.render.kit.scorepad import trace_shown
from game.render.kit.seats import plate_name
from game.render.kit.sound import Effect
from game.render.kit.text import Align, TextStyle, VAlign
from game.rules import race as race_rule
from game.session.snapshot import RunMode, TableSnapshot

DOMAIN = "screen_cheating_moth_companion"
FLASH_S = 0.6  # how long the screen flashes when a race opens

KEY_ACTIONS: dict[int, dict[str, Any]] = {
    pygame.K_s: {"type": "call", "kind": "mosquito"},
    pygame.K_b: {"type": "call", "kind": "beetle"},
    pygame.K_RETURN: {"type": "end_turn"},
    pygame.K_KP_ENTER: {"type": "end_turn"},
    pygame.K_u: {"type": "wrong_win"},
    pygame.K_x: {"type": "annul_race"},
}
HOST_KEYS = frozenset(KEY_ACTIONS)


def s(frame: Frame, key: str, **values: Any) -> str:
    return i18n.text(frame.lang, DOMAIN, key, **values)


def guest_hint(frame: Frame, key: str, **values: Any) -> str:
    """A hint that names the host's keys, or on a kiosk its guests' version (those keys are staff's there)."""
    kiosk_key = f"{key}_kiosk"
    if frame.snapshot.mode is RunMode.KIOSK and i18n.has(frame.lang, DOMAIN, kiosk_key):
        key = kiosk_key
    return s(frame, key, **values)


def seat_name(frame: Frame, seat: int | None) -> str:
    seats = frame.snapshot.seats
    if seat is None or not 0 <= seat < len(seats):
        return "?"
    return plate_name(frame.lang, seats[seat].name) or frame.s("seat.name", n=seat + 1)


def seat_rgb(frame: Frame, seat: int) -> theme.Colour:
    seats = frame.snapshot.seats
    return theme.seat_colour(seat, seats[seat].colour if 0 <= seat < len(seats) else None)


def seat_symbol(frame: Frame, seat: int) -> str:
    seats = frame.snapshot.seats
    return seats[seat].symbol if 0 <= seat < len(seats) else "circle"


def names(frame: Frame, seats: tuple[int, ...]) -> str:
    items = [seat_name(frame, x) for x in seats]
    if len(items) <= 1:
        return "".join(items)
    return frame.s("list.sep").join(items[:-1]) + frame.s("list.last") + items[-1]


def ms(frame: Frame, value: float) -> str:
    return s(frame, "ms", ms=measure(frame, value))


def measure(frame: Frame, value: float) -> str:
    """Milliseconds as the race rule writes them (``100``, ``100.2``) in the language's digits."""
    return i18n.digits(frame.lang, race_rule.shown_ms(value))


def _text(surface: pygame.Surface, frame: Frame, ctx: RenderContext, text: str, box: pygame.Rect, px: float,
          colour: theme.Colour = theme.TEXT, *, bold: bool = False, align: Align = Align.START, lines: int = 1) -> None:
    u = frame.scale.u
    ctx.text.draw(surface, text, frame.lang, box, TextStyle(round(px * u), colour, bold=bold, align=align,
                                                            max_lines=lines, min_px=max(9, round(px * u * 0.45))))


def _mirror(frame: Frame, box: pygame.Rect) -> pygame.Rect:
    """The box on the other side of the screen in right-to-left languages."""
    if not i18n.is_rtl(frame.lang):
        return box
    return pygame.Rect(frame.size[0] - box.right, box.y, box.width, box.height)


def _token(surface: pygame.Surface, frame: Frame, seat: int, centre: tuple[float, float], r: float) -> None:
    colour = seat_rgb(frame, seat)
    pygame.draw.circle(surface, theme.BACKGROUND, centre, r * 1.15)
    shapes.symbol(surface, seat_symbol(frame, seat), colour, centre, r)


class CompanionScene(Scene):
    """The companion table (every phase but game over)."""

    name = "cheating_moth_companion"

    def __init__(self) -> None:
        super().__init__()
        self._race_seen: int | None = None
        self._flash_from = -10.0

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        race = model_of(frame.snapshot).race
        if race is not None and race.race != self._race_seen:
            self._race_seen = race.race
            self._flash_from = self.t
            ctx.sound.play(Effect.SUSPENSE)

    def staff_keys(self, snapshot: TableSnapshot) -> frozenset[int]:
        return HOST_KEYS  # the host acting for the player in turn, or undoing a race: staff's at a kiosk

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        if event.type != pygame.KEYDOWN or event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT):
            return []
        action = KEY_ACTIONS.get(event.key)
        return [host("table_action", action=action)] if action is not None else []

    # ----------------------------------------------------------------------------------- draw
    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        m = model_of(frame.snapshot)
        w, h = frame.size
        surface.fill(theme.BACKGROUND)
        # a race not seen by update yet flashes too: the first frame showing it is the signal (M14)
        flash = m.race is not None and (m.race.race != self._race_seen or self.t - self._flash_from < FLASH_S)
        if flash:
            surface.fill(theme.mix(theme.BACKGROUND, self._race_colour(m.race), 0.55))
        self._header(surface, frame, ctx, m)
        left = _mirror(frame, pygame.Rect(round(w * 0.03), round(h * 0.15), round(w * 0.57), round(h * 0.74)))
        right = _mirror(frame, pygame.Rect(round(w * 0.62), round(h * 0.15), round(w * 0.35), round(h * 0.74)))
        if m.race is not None:
            self._race(surface, frame, ctx, m, m.race, left)
        elif m.phase == "scoring":
            self._scoring(surface, frame, ctx, m, left)
        else:
            self._turn(surface, frame, ctx, m, left)
        draw_pad(surface, frame, ctx, m, right)
        self._footer(surface, frame, ctx, m)
        draw_notices(surface, frame, ctx)

    @staticmethod
    def _race_colour(race: OpenRace | None) -> theme.Colour:
        return theme.DANGER if race is not None and race.kind == "mosquito" else theme.GOLD

    def _header(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel) -> None:
        w, h = frame.size
        title = _mirror(frame, pygame.Rect(round(w * 0.03), round(h * 0.055), round(w * 0.55), round(h * 0.08)))
        _text(surface, frame, ctx, s(frame, "title"), title, 34, theme.GOLD, bold=True)
        where = _mirror(frame, pygame.Rect(round(w * 0.62), round(h * 0.055), round(w * 0.35), round(h * 0.08)))
        _text(surface, frame, ctx, s(frame, "round", round=m.round, rounds=m.rounds), where, 34, theme.TEXT, bold=True,
              align=Align.END)

    def _turn(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel, box: pygame.Rect) -> None:
        u = frame.scale.u
        shapes.panel(surface, box, theme.PANEL, radius=round(18 * u))
        inner = box.inflate(-round(40 * u), -round(30 * u))
        r = 40 * u
        rtl = i18n.is_rtl(frame.lang)
        top = pygame.Rect(inner.x, inner.y, inner.width, round(100 * u))
        cx = top.right - r if rtl else top.x + r
        _token(surface, frame, m.turn, (cx, top.centery), r)
        name_box = pygame.Rect(0, top.y, inner.width - round(2.6 * r), top.height)
        name_box.x = inner.x if rtl else inner.x + round(2.6 * r)
        _text(surface, frame, ctx, s(frame, "turn", name=seat_name(frame, m.turn)), name_box, 54, seat_rgb(frame, m.turn),
              bold=True)
        guard = pygame.Rect(inner.x, top.bottom + round(10 * u), inner.width, round(54 * u))
        self._bug(surface, frame, guard, rtl)
        gbox = pygame.Rect(0, guard.y, inner.width - round(70 * u), guard.height)
        gbox.x = inner.x if rtl else inner.x + round(70 * u)
        _text(surface, frame, ctx, s(frame, "guard", name=seat_name(frame, m.guard), rule="M18"), gbox, 34, theme.TEXT)
        rest = pygame.Rect(inner.x, guard.bottom + round(20 * u), inner.width, inner.bottom - guard.bottom - round(20 * u))
        if m.last is not None:
            draw_result(surface, frame, ctx, m, m.last, rest)
        else:
            hint = pygame.Rect(rest.x, rest.y, rest.width, min(rest.height, round(110 * u)))
            _text(surface, frame, ctx, s(frame, "turn_hint", button=frame.button("mothc.end_turn")), hint, 30, theme.TEXT_DIM, lines=3)

    @staticmethod
    def _bug(surface: pygame.Surface, frame: Frame, row: pygame.Rect, rtl: bool) -> None:
        """The guard bug: a small beetle shape beside the guard's name."""
        u = frame.scale.u
        cx = row.right - 28 * u if rtl else row.x + 28 * u
        body = pygame.Rect(0, 0, round(30 * u), round(40 * u))
        body.center = (round(cx), row.centery)
        for dy in (-10, 0, 10):
            pygame.draw.line(surface, theme.TEXT_DIM, (cx - 24 * u, row.centery + dy * u), (cx + 24 * u, row.centery + dy * u),
                             max(2, round(3 * u)))
        pygame.draw.ellipse(surface, theme.GOLD, body)
        pygame.draw.line(surface, theme.BACKGROUND, (cx, body.y + 6 * u), (cx, body.bottom - 3 * u), max(2, round(2 * u)))

    def _race(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel, race: OpenRace,
              box: pygame.Rect) -> None:
        u = frame.scale.u
        colour = self._race_colour(race)
        pulse = 0.5 + 0.5 * math.sin(self.t * 8)
        shapes.panel(surface, box, theme.mix(theme.PANEL, colour, 0.18 + 0.1 * pulse), colour, round(18 * u),
                     max(3, round(5 * u)))
        inner = box.inflate(-round(40 * u), -round(30 * u))
        head = pygame.Rect(inner.x, inner.y, inner.width, round(120 * u))
        _text(surface, frame, ctx, s(frame, f"race.{race.kind}.title"), head, 96, colour, bold=True, align=Align.CENTER)
        sub = pygame.Rect(inner.x, head.bottom, inner.width, round(90 * u))
        _text(surface, frame, ctx, s(frame, f"race.{race.kind}.sub", name=seat_name(frame, race.caller), rule=race.rule),
              sub, 30, theme.TEXT, align=Align.CENTER, lines=2)
        self._race_timer(surface, frame, race, (inner.centerx, sub.bottom + 60 * u), 44 * u, colour)
        grid = pygame.Rect(inner.x, sub.bottom + round(120 * u), inner.width, inner.bottom - sub.bottom - round(120 * u))
        if race.closes_at_ms is not None:
            bar = pygame.Rect(inner.x, grid.y, inner.width, round(70 * u))
            closing_bar(surface, frame, ctx, race, bar, colour)
            grid.height -= bar.height + round(10 * u)
            grid.y = bar.bottom + round(10 * u)
        self._pressed_grid(surface, frame, ctx, race, grid)

    @staticmethod
    def _race_timer(surface: pygame.Surface, frame: Frame, race: OpenRace, centre: tuple[float, float], r: float,
                    colour: theme.Colour) -> None:
        if race.armed_at_ms is None:
            return
        left = max(0, race.armed_at_ms + race.timeout_ms - frame.now_ms)
        pygame.draw.circle(surface, theme.BACKGROUND, centre, r)
        shapes.timer_ring(surface, centre, r, left / max(1, race.timeout_ms), colour, max(3, round(r * 0.2)))

    @staticmethod
    def _pressed_grid(surface: pygame.Surface, frame: Frame, ctx: RenderContext, race: OpenRace, box: pygame.Rect) -> None:
        """Who must still press (Mosquito) or how many pressed (Beetle: holders stay secret), and the false starts."""
        u = frame.scale.u
        rows: list[tuple[int, str, theme.Colour]] = []
        early = {f.seat: f for f in race.false_starts}
        for seat in race.eligible:
            if race.kind == "mosquito":
                done = seat in race.pressed
                label = s(frame, "race.pressed") if done else s(frame, "race.waiting")
                rows.append((seat, label, theme.GOOD if done else theme.TEXT_DIM))
            elif seat in early:
                rows.append((seat, "", theme.TEXT_DIM))
        rows = [(seat, label, colour) for seat, label, colour in rows if label or seat in early]
        line_h = min(round(56 * u), box.height // max(1, len(rows)))
        y = box.y
        rtl = i18n.is_rtl(frame.lang)
        for seat, label, colour in rows:
            row = pygame.Rect(box.x, y, box.width, line_h)
            r = line_h * 0.34
            _token(surface, frame, seat, (row.right - r - 4 if rtl else row.x + r + 4, row.centery), r)
            text = pygame.Rect(0, row.y, row.width - round(3 * r), row.height)
            text.x = row.x if rtl else row.x + round(3 * r)
            start = early.get(seat)
            words = seat_name(frame, seat) + (f"  {label}" if label else "")
            if start is not None:
                words += "  " + false_start_text(frame, start)
                colour = theme.DANGER if label != s(frame, "race.pressed") else colour
            _text(surface, frame, ctx, words, text, 30, colour)
            y += line_h

    def _scoring(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel, box: pygame.Rect) -> None:
        u = frame.scale.u
        shapes.panel(surface, box, theme.PANEL, radius=round(18 * u))
        inner = box.inflate(-round(40 * u), -round(30 * u))
        head = pygame.Rect(inner.x, inner.y, inner.width, round(130 * u))
        _text(surface, frame, ctx, s(frame, "scoring.title", round=m.round, name=seat_name(frame, m.out)), head, 44,
              theme.GOLD, bold=True, lines=2)
        hint = pygame.Rect(inner.x, head.bottom + round(10 * u), inner.width, round(170 * u))
        _text(surface, frame, ctx, s(frame, "scoring.hint"), hint, 30, theme.TEXT, lines=4)
        wait = pygame.Rect(inner.x, hint.bottom + round(20 * u), inner.width, inner.bottom - hint.bottom - round(20 * u))
        key, colour = ("scoring.waiting", theme.ACCENT) if m.waiting_for else ("scoring.ready", theme.GOOD)
        button = frame.button("mothc.finish" if m.round >= m.rounds else "mothc.next_round")  # as the phones say it
        _text(surface, frame, ctx, s(frame, key, names=names(frame, m.waiting_for), button=button), wait, 36, colour,
              bold=True, lines=3)

    def _footer(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel) -> None:
        w, h = frame.size
        box = pygame.Rect(round(w * 0.03), round(h * 0.905), round(w * 0.94), round(h * 0.08))
        key = "hint.race" if m.race is not None else "hint.scoring" if m.phase == "scoring" else "hint.play"
        _text(surface, frame, ctx, guest_hint(frame, key), box, 26, theme.TEXT_DIM, align=Align.CENTER, lines=2)


def closing_bar(surface: pygame.Surface, frame: Frame, ctx: RenderContext, race: OpenRace, box: pygame.Rect,
                colour: theme.Colour) -> None:
    """M15: a Beetle someone pressed for stays open ``window_ms`` (the right card may follow a wrong
    one): a bar that empties until it closes, with what it means."""
    if race.closes_at_ms is None:
        return
    u = frame.scale.u
    left = max(0.0, min(1.0, (race.closes_at_ms - frame.now_ms) / max(1.0, race.window_ms)))
    track = pygame.Rect(box.x, box.bottom - round(18 * u), box.width, round(18 * u))
    pygame.draw.rect(surface, theme.BACKGROUND, track, border_radius=track.height // 2)
    fill = track.copy()
    fill.width = round(track.width * left)
    if i18n.is_rtl(frame.lang):
        fill.right = track.right
    if fill.width > 0:
        pygame.draw.rect(surface, colour, fill, border_radius=track.height // 2)
    label = pygame.Rect(box.x, box.y, box.width, box.height - track.height - round(4 * u))
    _text(surface, frame, ctx, s(frame, "race.closing"), label, 28, theme.TEXT, align=Align.CENTER)


def false_start_text(frame: Frame, start: FalseStartModel) -> str:
    return s(frame, "false_start", ms=i18n.digits(frame.lang, max(0, start.early_ms)), source=source_name(frame, start.source))


def source_name(frame: Frame, source: str, short: bool = False) -> str:
    """A press's source in the table's words; ``short``: without the precision some names carry."""
    for key in ((f"source.{source}_short",) if short else ()) + (f"source.{source}",):
        if i18n.has(frame.lang, DOMAIN, key):
            return s(frame, key)
    return source


def draw_result(surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel, r: DoneRace,
                box: pygame.Rect) -> None:
    """A decided race: who lost (Mosquito) or won (Beetle), every press with its time, margin and source."""
    u = frame.scale.u
    mosquito = r.kind == "mosquito"
    if mosquito:
        head_text, colour = s(frame, "result.slowest", name=seat_name(frame, r.loser), rule=r.rule), theme.DANGER
    elif r.winner is not None:
        head_text, colour = s(frame, "result.fastest", name=seat_name(frame, r.winner), rule=r.rule), theme.GOLD
    else:
        key = "result.none_fit" if r.undone else "result.nobody"
        head_text, colour = s(frame, key, rule=r.rule), theme.TEXT_DIM
    head = pygame.Rect(box.x, box.y, box.width, round(56 * u))
    _text(surface, frame, ctx, head_text, head, 40, colour, bold=True)
    notes: list[str] = []
    drawn = r.loser if mosquito else r.winner
    if r.tied and r.within_ms > 0:
        notes.append(s(frame, "result.drawn", names=names(frame, r.tied), ms=measure(frame, r.within_ms),
                       name=seat_name(frame, drawn)))
    elif mosquito and r.tied:
        key = "result.tied_unpressed" if set(r.tied) <= set(r.missing) else "result.tied"  # nobody to time
        notes.append(s(frame, key, names=names(frame, r.tied), name=seat_name(frame, r.loser)))
    if mosquito and r.loser is not None:
        notes.append(s(frame, "result.give", name=seat_name(frame, r.loser)))
    if r.undone:
        notes.append(s(frame, "result.undone", names=names(frame, r.undone)))
    if r.clamped:
        notes.append(s(frame, "result.clamped", names=names(frame, r.clamped)))
    if not mosquito and r.winner is not None and r.undo_open:
        notes.append(guest_hint(frame, "result.check", name=seat_name(frame, r.winner), button=frame.button("mothc.wrong_win")))
    note = pygame.Rect(box.x, head.bottom, box.width, round(44 * u) * max(1, len(notes)))
    if notes:
        _text(surface, frame, ctx, frame.s("sep").join(notes), note, 26, theme.TEXT, lines=len(notes) + 1)
    table = pygame.Rect(box.x, note.bottom + round(8 * u), box.width, box.bottom - note.bottom - round(8 * u))
    _race_lines(surface, frame, ctx, r, table)


def _race_lines(surface: pygame.Surface, frame: Frame, ctx: RenderContext, r: DoneRace, box: pygame.Rect) -> None:
    u = frame.scale.u
    rows = len(r.lines) + len(r.missing) + len(r.false_starts) + 1
    line_h = min(round(44 * u), box.height // max(1, rows))
    rtl = i18n.is_rtl(frame.lang)
    y = box.y
    loser = r.loser if r.kind == "mosquito" else None
    for i, line in enumerate(r.lines):
        row = pygame.Rect(box.x, y, box.width, line_h)
        colour = theme.DANGER if line.seat == loser else theme.GOLD if line.seat == r.winner else theme.TEXT
        struck = line.seat in r.undone
        cells = [seat_name(frame, line.seat), ms(frame, line.ms),
                 "" if line.margin_ms is None else s(frame, "margin", ms=measure(frame, line.margin_ms)), source_name(frame, line.source)]
        _row(surface, frame, ctx, row, line.seat, cells, theme.TEXT_DIM if struck else colour, rtl, i + 1)
        y += line_h
    for seat in r.missing:
        row = pygame.Rect(box.x, y, box.width, line_h)
        _row(surface, frame, ctx, row, seat, [seat_name(frame, seat), s(frame, "result.missing"), "", ""],
             theme.DANGER if seat == loser else theme.TEXT_DIM, rtl, None)
        y += line_h
    for start in r.false_starts:
        row = pygame.Rect(box.x, y, box.width, line_h)
        token_w = round(row.height * 1.0)
        _token(surface, frame, start.seat, (row.right - token_w / 2 if rtl else row.x + token_w / 2, row.centery),
               row.height * 0.32)
        text = pygame.Rect(row.x if rtl else row.x + token_w, row.y, row.width - token_w, row.height)
        _text(surface, frame, ctx, f"{seat_name(frame, start.seat)}: {false_start_text(frame, start)}", text, 24,
              theme.TEXT_DIM)
        y += line_h
    if not r.lines:
        return  # no press was timed: no precision to state
    foot = pygame.Rect(box.x, y, box.width, max(line_h, box.bottom - y))  # the rest: two lines if it says why
    _text(surface, frame, ctx, precision_line(frame, r), foot, 22, theme.TEXT_DIM, lines=2)


def one_board_note(frame: Frame, r: DoneRace, errors: dict[str, float]) -> str:
    """Why a margin smaller than the times' error was decided: every press came from the one arcade
    board, which orders its own buttons to a fraction of a millisecond (game/rules/race.py); the
    error is only how far its clock sits from the session's ("" when nothing needs saying)."""
    margins = [line.margin_ms for line in r.lines if line.margin_ms is not None]
    if set(errors) != {"arcade"} or not margins or min(margins) > r.error_ms or r.within_ms > 0:
        return ""
    return frame.s("sep") + s(frame, "result.one_board", ms=measure(frame, min(margins)))


def precision_line(frame: Frame, r: DoneRace) -> str:
    """How precise the times are: one figure when one kind of source timed them, else each
    source with its own (buttons to a fraction of a millisecond, phones to tens)."""
    errors: dict[str, float] = {}
    for line in r.lines:
        if line.source:
            errors[line.source] = max(errors.get(line.source, 0.0), line.error_ms)
    if len(errors) < 2:
        said = s(frame, "result.error", ms=measure(frame, r.error_ms),
                 sources=frame.s("list.sep").join(source_name(frame, x) for x in errors) or "–")
        return said + one_board_note(frame, r, errors)
    items = [s(frame, "result.error_of", source=source_name(frame, x, short=True), ms=measure(frame, e))
             for x, e in sorted(errors.items(), key=lambda kv: kv[1])]
    return s(frame, "result.errors", list=frame.s("list.sep").join(items))


def _row(surface: pygame.Surface, frame: Frame, ctx: RenderContext, row: pygame.Rect, seat: int, cells: list[str],
         colour: theme.Colour, rtl: bool, place: int | None) -> None:
    u = frame.scale.u
    weights = (0.36, 0.2, 0.2, 0.24)
    r = row.height * 0.32
    token_w = round(row.height * 1.0)
    _token(surface, frame, seat, (row.right - token_w / 2 if rtl else row.x + token_w / 2, row.centery), r)
    x = row.x if rtl else row.x + token_w
    width = row.width - token_w
    cursor = row.right - token_w if rtl else x
    for k, (weight, cell) in enumerate(zip(weights, cells)):
        cw = round(width * weight)
        gap = round(20 * u)  # a column's words never run into the next one's ("+89 ms" then "buttons")
        cell_box = pygame.Rect(cursor - cw + gap if rtl else cursor, row.y, cw - gap, row.height)
        cursor = cursor - cw if rtl else cursor + cw
        if cell:  # the source (last) may take two lines: "USB pad / ±8 ms"
            _text(surface, frame, ctx, cell, cell_box, 28, colour, lines=2 if k == len(cells) - 1 else 1)
    del place


def draw_pad(surface: pygame.Surface, frame: Frame, ctx: RenderContext, m: CompanionModel, box: pygame.Rect) -> None:
    """The score pad: a row per seat (guard and turn marked), a column per round, totals, corrections."""
    u = frame.scale.u
    shapes.panel(surface, box, theme.PANEL, radius=round(18 * u))
    inner = box.inflate(-round(24 * u), -round(24 * u))
    rtl = i18n.is_rtl(frame.lang)
    head = pygame.Rect(inner.x, inner.y, inner.width, round(46 * u))
    _text(surface, frame, ctx, s(frame, "pad.title"), head, 32, theme.GOLD, bold=True)
    trace_lines = trace_shown(frame, [trace_line(frame, c) for c in m.trace])
    trace_h = round(34 * u) * len(trace_lines)
    rows_box = pygame.Rect(inner.x, head.bottom + round(6 * u), inner.width,
                           inner.bottom - head.bottom - round(6 * u) - trace_h - round(36 * u))
    rounds = max(m.round, max((len(r) for r in m.rows), default=0))
    line_h = min(round(58 * u), rows_box.height // max(1, m.n + 1))
    shown = list(range(max(1, rounds - 4), rounds + 1))  # the last five rounds fit; totals count them all
    cols = ["", *(s(frame, "pad.round", n=r) for r in shown), s(frame, "pad.total")]
    _pad_row(surface, frame, ctx, pygame.Rect(rows_box.x, rows_box.y, rows_box.width, line_h), None, cols,
             theme.TEXT_DIM, rtl, len(shown))
    order = sorted(range(m.n), key=lambda x: (m.totals[x] if x < len(m.totals) else 0, x))
    for i, seat in enumerate(order):
        row = pygame.Rect(rows_box.x, rows_box.y + line_h * (i + 1), rows_box.width, line_h)
        values = m.rows[seat] if seat < len(m.rows) else ()
        cells = [_pad_name(frame, m, seat)]
        for r in shown:
            v = values[r - 1] if r - 1 < len(values) else None
            cells.append("–" if v is None else i18n.number(frame.lang, v))
        cells.append(i18n.number(frame.lang, m.totals[seat] if seat < len(m.totals) else 0))
        if m.phase == "play" and seat == m.turn:
            pygame.draw.rect(surface, theme.PANEL_LIGHT, row, border_radius=round(8 * u))
        _pad_row(surface, frame, ctx, row, seat, cells, seat_rgb(frame, seat), rtl, len(shown))
    trace = pygame.Rect(inner.x, inner.bottom - trace_h - round(30 * u), inner.width, trace_h)
    for i, text in enumerate(trace_lines):
        line = pygame.Rect(trace.x, trace.y + round(34 * u) * i, trace.width, round(34 * u))
        _text(surface, frame, ctx, text, line, 22, theme.ACCENT)
    foot = pygame.Rect(inner.x, inner.bottom - round(30 * u), inner.width, round(30 * u))
    _text(surface, frame, ctx, s(frame, "pad.lowest", rule="M19"), foot, 20, theme.TEXT_DIM)


def _pad_name(frame: Frame, m: CompanionModel, seat: int) -> str:
    tags = []
    if seat == m.guard:
        tags.append(s(frame, "pad.guard"))
    return seat_name(frame, seat) + (f" ({', '.join(tags)})" if tags else "")


def trace_line(frame: Frame, line: TraceLine) -> str:
    """A trace line of the pad: a correction, or a race the host annulled."""
    if line.kind in ("annul_mosquito", "annul_beetle"):
        return s(frame, f"trace.{line.kind}", n=i18n.number(frame.lang, line.race or 0), name=seat_name(frame, line.seat))
    return trace_text(frame, line.kind, line.seat, line.round, line.old, line.new, line.by)


def trace_text(frame: Frame, kind: str, seat: int, round_no: int, old: int | None, new: int | None, by: int | None) -> str:
    key = "trace.undo" if kind == "undo" else "trace.edit"
    return s(frame, key, name=seat_name(frame, seat), round=round_no, old="–" if old is None else i18n.number(frame.lang, old),
             new="–" if new is None else i18n.number(frame.lang, new),
             by=s(frame, "by_host") if by is None else seat_name(frame, by))


def _pad_row(surface: pygame.Surface, frame: Frame, ctx: RenderContext, row: pygame.Rect, seat: int | None,
             cells: list[str], colour: theme.Colour, rtl: bool, rounds: int) -> None:
    u = frame.scale.u
    token_w = round(row.height * 0.9)
    if seat is not None:
        _token(surface, frame, seat, (row.right - token_w / 2 if rtl else row.x + token_w / 2, row.centery), row.height * 0.28)
    width = row.width - token_w
    name_w = round(width * 0.42)
    num_w = (width - name_w) // (rounds + 1)
    widths = [name_w, *([num_w] * rounds), num_w]
    cursor = row.right - token_w if rtl else row.x + token_w
    for i, (cw, cell) in enumerate(zip(widths, cells)):
        box = pygame.Rect(cursor - cw if rtl else cursor, row.y, cw - round(4 * u), row.height)
        cursor = cursor - cw if rtl else cursor + cw
        last = i == len(cells) - 1
        ctx.text.draw(surface, cell, frame.lang, box,
                      TextStyle(round((30 if last else 26) * u), theme.TEXT if i else colour, bold=last or i == 0,
                                align=Align.START if i == 0 else Align.CENTER, valign=VAlign.MIDDLE, max_lines=1,
                                min_px=max(9, round(12 * u))))
