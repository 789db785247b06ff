"""Every game's last screen: the title, the winners' symbols in a halo, who won in one line, a note
or two (how a tie was broken, the rule that ranks), every seat in a ranked row, and the table's two
ways on: *Play again, same players* and *New players* (:class:`Choice`).

A game's final scene says only *what* the board holds (:meth:`FinalScene.board`)."""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import pygame

from game import i18n
from game.session.snapshot import FINAL_SCENE, RunMode

from . import shapes, theme
from .motion import glow
from .scene import Frame, Intent, RenderContext, Scene, host
from .seats import SeatModel
from .text import Align, TextStyle

MAX_CROWNED = 4
# the choices take no press in the final screen's first moment: an Enter meant for the last
# reveal, or the second of a double press, does not choose for the table
ARM_S = 1.0
CHOICE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER)
FOCUS_KEYS = (pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_TAB)


class Choice(enum.Enum):
    """The final screen's two ways on, by the host command each sends."""

    AGAIN = "next"  # back to the lobby with the same seats, names and rules
    NEW = "new_players"  # the hand-over: new links and codes for a new group

    @property
    def label_key(self) -> str:
        return "final.same" if self is Choice.AGAIN else "final.new"


@dataclass(frozen=True, slots=True)
class Cell:
    """One column of a ranking row (reading order). ``pill``: drawn as a coloured tag."""

    text: str
    weight: float
    ink: theme.Colour | None = None  # None: gold for a winner, else the plain text colour
    bold: bool = False
    align: Align = Align.START
    px: int = 20
    pill: theme.Colour | None = None


@dataclass(frozen=True, slots=True)
class FinalRow:
    seat: SeatModel
    winner: bool
    cells: tuple[Cell, ...]
    rank: int | None = None  # shown in front of the symbol when given


@dataclass(frozen=True, slots=True)
class FinalBoard:
    title: str
    winners: tuple[SeatModel, ...]
    headline: str  # who won, in one line ("" when nobody did)
    notes: tuple[str, ...]
    rows: tuple[FinalRow, ...]


class FinalScene(Scene):
    """A game's last screen. Subclasses give :meth:`board`; drawing and keys are shared.

    Its keys wait until the last reveal has played (an Enter during it does not skip the winner),
    and the table is told the moment it is on screen (a kiosk's results time starts then). Its two
    choices are buttons: a click on one, or Enter on the one in focus (the arrows and Tab move it);
    nothing else leaves. Each is deliberate: no press counts in the first :data:`ARM_S`, and once
    one is chosen the scene takes no other. On a table the focus starts on *Play again*; on a
    kiosk on *New players* (what the results time ends in anyway), and keeping the last group's
    seats asks first: a second Enter within ``CONFIRM_S``."""

    name = FINAL_SCENE
    keys_under_beats = False
    announces = True
    CONFIRM_S = 6.0

    def __init__(self) -> None:
        super().__init__()
        self.asked_at: float | None = None  # scene time of a kiosk's first press on Play again
        self.focus: Choice | None = None  # None: the mode's default (see focused)
        self.chosen: Choice | None = None  # sent: the scene takes no other press

    def board(self, frame: Frame) -> FinalBoard | None:
        raise NotImplementedError

    def asking(self) -> bool:
        return self.asked_at is not None and self.t - self.asked_at <= self.CONFIRM_S

    def focused(self, frame: Frame) -> Choice:
        if self.focus is not None:
            return self.focus
        return Choice.NEW if frame.snapshot.mode is RunMode.KIOSK else Choice.AGAIN

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        if self.chosen is not None or self.t < ARM_S:
            return []
        if event.type == pygame.KEYDOWN and event.key in FOCUS_KEYS:
            self.focus = Choice.NEW if self.focused(frame) is Choice.AGAIN else Choice.AGAIN
            self.asked_at = None
            return []
        if event.type == pygame.KEYDOWN and event.key in CHOICE_KEYS:
            return self._choose(self.focused(frame), frame)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            hit = next((c for c, rect in choice_buttons(frame).items() if rect.collidepoint(event.pos)), None)
            return self._choose(hit, frame) if hit is not None else []
        return []

    def _choose(self, choice: Choice, frame: Frame) -> list[Intent]:
        self.focus = choice
        if choice is Choice.AGAIN and frame.snapshot.mode is RunMode.KIOSK and not self.asking():
            self.asked_at = self.t  # a kiosk keeps the last group's seats only when they say so twice
            return []
        self.asked_at, self.chosen = None, choice
        return [host(choice.value)]

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        surface.fill(theme.BACKGROUND)
        board = self.board(frame)
        if board is None:
            return
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.08))
        ctx.text.draw(surface, board.title, frame.lang, title,
                      TextStyle(round(38 * u), theme.TEXT_DIM, bold=True, align=Align.CENTER, max_lines=1))
        self._draw_crowned(surface, board.winners, pygame.Rect(0, title.bottom, w, round(h * 0.2)))
        line = pygame.Rect(round(w * 0.08), round(h * 0.32), round(w * 0.84), round(h * 0.08))
        if board.headline:
            ctx.text.draw(surface, board.headline, frame.lang, line,
                          TextStyle(round(40 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=12))
        note = pygame.Rect(round(w * 0.08), line.bottom, round(w * 0.84), round(h * 0.05))
        for text in board.notes[:2]:
            ctx.text.draw(surface, text, frame.lang, note,
                          TextStyle(round(20 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=9))
            note = note.move(0, note.height)
        top = max(round(h * 0.48), note.y + round(h * 0.01))
        draw_rows(surface, frame, ctx, board.rows, pygame.Rect(round(w * 0.1), top, round(w * 0.8), round(h * 0.89) - top))
        self._draw_choices(surface, frame, ctx)

    def _draw_choices(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        """The two buttons; the one in focus lit (a kiosk's question replaces Play again's words)."""
        u = frame.scale.u
        focus, asking = self.focused(frame), self.asking()
        for choice, rect in choice_buttons(frame).items():
            lit = choice is focus
            shapes.panel(surface, rect, theme.PANEL_LIGHT if lit else theme.PANEL, theme.GOLD if lit else theme.TEXT_DIM,
                         radius=rect.height // 2, width=max(2, round((4 if lit else 2) * u)))
            words = frame.s("final.again") if asking and choice is Choice.AGAIN else frame.s(choice.label_key)
            ctx.text.draw(surface, words, frame.lang, rect.inflate(-rect.height // 2, -round(rect.height * 0.2)),
                          TextStyle(round(24 * u), theme.GOLD if lit else theme.TEXT, bold=lit, align=Align.CENTER,
                                    max_lines=1, min_px=9))

    def _draw_crowned(self, surface: pygame.Surface, winners: tuple[SeatModel, ...], area: pygame.Rect) -> None:
        shown = winners[:MAX_CROWNED]
        r = area.height * 0.3
        halo = theme.mix(theme.BACKGROUND, theme.GOLD, 0.25 + 0.2 * glow(self.t))
        for k, seat in enumerate(shown):
            c = (area.centerx + (k - (len(shown) - 1) / 2) * r * 3.2, area.centery)
            pygame.draw.circle(surface, halo, c, r * 1.4)
            shapes.symbol(surface, seat.symbol, theme.seat_colour(seat.seat, seat.colour), c, r)


def choice_buttons(frame: Frame) -> dict[Choice, pygame.Rect]:
    """Where the two choices sit, side by side under the ranking, Play again first in reading order."""
    w, h = frame.size
    width, height, gap = round(w * 0.36), round(h * 0.065), round(w * 0.03)
    y = round(h * 0.905)  # under the ranking (it ends at 0.89 of the height), clear of the bottom edge
    left = pygame.Rect(w // 2 - gap // 2 - width, y, width, height)
    right = pygame.Rect(w // 2 + gap // 2, y, width, height)
    first, second = (right, left) if frame.lang == "fa" else (left, right)
    return {Choice.AGAIN: first, Choice.NEW: second}


def draw_rows(surface: pygame.Surface, frame: Frame, ctx: RenderContext, rows: tuple[FinalRow, ...],
              area: pygame.Rect) -> None:
    """The ranking: one column up to six seats, two beyond (mirrored in Persian)."""
    u = frame.scale.u
    cols = 1 if len(rows) <= 6 else 2
    per_col = max(1, math.ceil(len(rows) / cols))
    cell_h = min(area.height // per_col, round(56 * u))
    cell_w = area.width // cols
    rtl = frame.lang == "fa"
    for k, row in enumerate(rows):
        col, r = divmod(k, per_col)
        if rtl:
            col = cols - 1 - col
        rect = pygame.Rect(area.x + col * cell_w + 4, area.y + r * cell_h + 2, cell_w - 8, cell_h - 4)
        draw_row(surface, frame, ctx, row, rect)


def draw_row(surface: pygame.Surface, frame: Frame, ctx: RenderContext, row: FinalRow, rect: pygame.Rect) -> None:
    u = frame.scale.u
    rtl = frame.lang == "fa"
    colour = theme.seat_colour(row.seat.seat, row.seat.colour)
    shapes.panel(surface, rect, theme.PANEL_LIGHT if row.winner else theme.PANEL, theme.GOLD if row.winner else colour,
                 radius=round(8 * u), width=max(1, round(2 * u)))
    lead = [rect.height] if row.rank is None else [round(rect.height * 1.1), rect.height]
    boxes = _columns(rect, lead, [c.weight for c in row.cells], rtl)
    if row.rank is not None:
        ctx.text.draw(surface, i18n.number(frame.lang, row.rank), frame.lang, boxes[0].inflate(-4, -4),
                      TextStyle(round(24 * u), theme.GOLD if row.winner else theme.TEXT_DIM, bold=True, align=Align.CENTER,
                                max_lines=1, min_px=7))
    shapes.symbol(surface, row.seat.symbol, colour, boxes[len(lead) - 1].center, rect.height * 0.3)
    for cell, box in zip(row.cells, boxes[len(lead):]):
        if not cell.text:
            continue
        if cell.pill is not None:
            _draw_pill(surface, frame, ctx, box, cell)
            continue
        ink = cell.ink or (theme.GOLD if row.winner else theme.TEXT)
        ctx.text.draw(surface, cell.text, frame.lang, box.inflate(-round(6 * u), 0),
                      TextStyle(round(cell.px * u), ink, bold=cell.bold or row.winner, align=cell.align, max_lines=1,
                                min_px=7))


def _draw_pill(surface: pygame.Surface, frame: Frame, ctx: RenderContext, box: pygame.Rect, cell: Cell) -> None:
    fill = cell.pill or theme.PANEL_LIGHT
    pill = box.inflate(-round(6 * frame.scale.u), -round(box.height * 0.3))
    pill.width = min(pill.width, round(pill.height * 3.2))
    pill.center = box.center
    pygame.draw.rect(surface, fill, pill, border_radius=pill.height // 2)
    pygame.draw.rect(surface, theme.TEXT, pill, max(1, round(1.5 * frame.scale.u)), border_radius=pill.height // 2)
    ctx.text.draw(surface, cell.text, frame.lang, pill.inflate(-pill.height // 2, -2),
                  TextStyle(round(cell.px * frame.scale.u), theme.ink_on(fill), bold=True, align=Align.CENTER,
                            max_lines=1, min_px=7))


def _columns(rect: pygame.Rect, fixed: list[int], weights: list[float], rtl: bool) -> list[pygame.Rect]:
    """Boxes across ``rect`` in reading order: ``fixed`` widths first, the rest shared by ``weights``."""
    free = max(0, rect.width - sum(fixed) - 8)
    total = sum(weights) or 1.0
    widths = [*fixed, *(round(free * wt / total) for wt in weights)]
    out: list[pygame.Rect] = []
    x = rect.right if rtl else rect.x
    for width in widths:
        out.append(pygame.Rect(x - width if rtl else x, rect.y, width, rect.height))
        x = x - width if rtl else x + width
    return out
