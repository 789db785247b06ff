"""The kiosk on the big screen: the lock, the attract loop and the pointer.

* **Lock**: the TV's keyboard and mouse belong to the guests, so whatever is staff's needs the
  admin PIN: quitting (Ctrl+Q, Alt+F4 / the window's close) and full screen (F11) everywhere, and the
  keys the scene on screen calls staff-only (``Scene.staff_keys``): the lobby's settings (S), the
  arcade wizard (A to start it; A or Esc to stop it), freeing a player's seat (K, Delete), changing a
  setting (Left/Right), a companion game's host keys (acting for the player in turn, undoing a
  race). A click on such a control becomes its key press (``staff_click``), so the mouse asks too.
  A PIN prompt opens on the TV; the typed digits show as dots, never as digits. After the right PIN
  the held key goes through and the table stays unlocked for ``UNLOCK_S``: an open padlock with the
  seconds left shows it in a top corner, and F12 (or a click on the padlock) locks again at once.
  Quitting is never covered by the unlock: it always asks for the PIN afresh, titled "stop the
  kiosk", and the right PIN exits with :attr:`~game.kiosk.supervise.ExitStatus.STAFF_STOP`, the one
  status the systemd unit does not restart after (it restarts every other exit). Guests keep the rest:
  the game, mode, edition, language, seats and bots, start, skipping the how-to-play or an
  animation, back to the lobby after the results, sound on/off. Answering a phone's seat claim is
  the host page's (behind the PIN): Y and N do nothing on a kiosk's TV (``game/render/claims.py``).
  SIGTERM (``systemctl stop``) still stops the table at once, with status 0 (systemd does not
  restart a unit it stopped itself).
* **Attract loop**: after ``attract_after_s`` of an empty, unchanged lobby the screen shows an
  :class:`~game.kiosk.attract.AttractReel` with "Scan to play" and the real seats' QR codes; the
  first phone that joins (or any key or click at the TV) brings the lobby back.
* **Pointer**: the mouse pointer hides after ``POINTER_IDLE_S`` without moving.
* **No network**: while the links phones are given point at this computer only (no network yet:
  ``game/server/netaddr.py`` re-checks the address and the codes follow it), a panel over the
  lobby's (or the attract loop's) codes says so plainly; during a game, a line at the top.

:class:`KioskLayer` sits between the window loop and the :class:`Screen`: ``shown()`` picks the
snapshot to draw, ``consume()`` filters input, ``draw()`` paints the overlays.
"""
from __future__ import annotations

import logging
import math
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import FrameType
from typing import Any

import pygame

from game import i18n
from game.config import LANGUAGES, TableConfig
from game.render.kit import shapes, theme
from game.render.kit.scene import RenderContext
from game.render.kit.text import Align, TextStyle, VAlign
from game.render.kit.widgets import readable_px
from game.server.netaddr import phones_cannot_reach
from game.session.snapshot import RunMode, SeatInfo, TablePhase, TableSnapshot

from .attract import AttractReel, TapeOrders, TapeWorker, wants_attract
from .supervise import ExitStatus

log = logging.getLogger(__name__)
audit = logging.getLogger("game.audit")  # who unlocked, re-locked, stopped, typed a wrong PIN: one line each, no PIN

UNLOCK_S = 60.0
WRONG_PINS = 5  # this many wrong PINs in a row: the prompt refuses for LOCKOUT_S
LOCKOUT_S = 60.0
POINTER_IDLE_S = 3.0
PIN_MAX = 8
DIGIT_KEYS: dict[int, str] = {
    **{getattr(pygame, f"K_{n}"): str(n) for n in range(10)},
    **{getattr(pygame, f"K_KP{n}"): str(n) for n in range(10)},
}
GUARDED_KEYS = frozenset({pygame.K_F11})  # everywhere; the scenes name their own staff keys
RELOCK_KEY = pygame.K_F12  # while unlocked: lock again now


def is_quit_attempt(event: pygame.event.Event) -> bool:
    if event.type == pygame.QUIT:
        return True
    if event.type != pygame.KEYDOWN:
        return False
    ctrl_q = event.key == pygame.K_q and event.mod & pygame.KMOD_CTRL
    alt_f4 = event.key == pygame.K_F4 and event.mod & pygame.KMOD_ALT
    return bool(ctrl_q or alt_f4)


@dataclass
class PinPrompt:
    """The PIN being typed for a held action (``None``: stop the kiosk)."""

    held: pygame.event.Event | None
    typed: str = ""
    wrong: bool = False
    locked: bool = False  # too many wrong PINs: wait


class KioskLayer:
    def __init__(self, config: TableConfig, clock: Callable[[], float] = time.monotonic,
                 tapes: TapeOrders | None = None) -> None:
        kiosk = config.kiosk
        self.tapes = tapes or TapeOrders()  # on the spot; the live window passes a worker process
        self.pin = config.admin_pin
        self.languages = kiosk.languages if kiosk is not None else LANGUAGES
        self.venue = kiosk.venue.name if kiosk is not None else ""
        self.logo_path = kiosk.venue.logo if kiosk is not None else None
        self.volume = (kiosk.volume if kiosk is not None else 70) / 100
        self._logo: pygame.Surface | None = None
        self._volume_set = False
        self.attract_after_s = kiosk.timers.attract_after_s if kiosk is not None else 60
        self.game_ms = (kiosk.timers.attract_game_s if kiosk is not None else 40) * 1000
        self.clock = clock
        self.prompt: PinPrompt | None = None
        self.quit_confirmed = False  # the window loop ends (SIGTERM, or staff stopped the kiosk)
        self.exit_status = ExitStatus.DONE  # STAFF_STOP once staff stop the kiosk with the PIN
        self.padlock: pygame.Rect | None = None  # where the open padlock was drawn (a click there locks)
        self._drawn_unlocked = 0  # the seconds left that the last draw's padlock showed
        self.reel: AttractReel | None = None
        self._unlocked_until = 0.0
        self._wrong = 0
        self._locked_until = 0.0
        self._quiet_since = clock()
        self._real_version: int | None = None
        self._real: TableSnapshot | None = None
        self._pointer_moved = clock()
        self._pointer_shown = True

    # ------------------------------------------------------------------------ the snapshot
    def shown(self, real: TableSnapshot, screen: Any = None) -> TableSnapshot:
        """What the screen draws: the real table, or the attract reel over an empty lobby.
        ``screen``: the :class:`~game.render.app.Screen` (the reel waits for its beats)."""
        now = self.clock()
        director = getattr(screen, "director", None)
        screen_busy = director is not None and (director.pending > 0 or len(director.stack) > 1)
        self._real = real
        if real.version != self._real_version or not wants_attract(real) or self.prompt is not None:
            self._real_version = real.version
            self._quiet_since = now
            self.reel = None
            return real
        if self.reel is None:
            if now - self._quiet_since < self.attract_after_s:
                return real
            self.reel = AttractReel(self.languages, game_ms=self.game_ms, seed=int(now) & 0xFFFF, tapes=self.tapes)
            self.reel.start(self._ms(now))
        self.reel.tick(self._ms(now), screen_busy)
        if self.reel.tape is None:
            return real  # the first game is still being recorded
        return self.reel.snapshot(self._ms(now), real)

    @staticmethod
    def _ms(seconds: float) -> int:
        return round(seconds * 1000)

    @property
    def attracting(self) -> bool:
        return self.reel is not None

    def demo_area(self, size: tuple[int, int], shown: TableSnapshot | None) -> pygame.Rect | None:
        """Where the screen draws the table now: the attract loop's demo goes beside the "Scan to
        play" column (``demo_rect``); otherwise the whole window (None)."""
        if self.reel is None or self.prompt is not None or shown is None:
            return None
        return demo_rect(size, shown.language)

    # ------------------------------------------------------------------------------ input
    def consume(self, event: pygame.event.Event, screen: Any = None) -> bool:
        """Whether the kiosk took ``event`` (the screen must not see it). ``screen``: the
        :class:`~game.render.app.Screen` whose scene names its staff-only keys (without one: the
        scene the last real snapshot would show)."""
        now = self.clock()
        if event.type == pygame.MOUSEMOTION:
            self._pointer_moved = now
            self._show_pointer(True)
        if self.prompt is not None:
            return self._prompt_input(event)
        if self.reel is not None and event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN):
            self.reel, self._quiet_since = None, now  # someone at the TV: the lobby
            return True
        if is_quit_attempt(event):  # never covered by an unlock: always the PIN, afresh
            audit.info("stop asked at the TV: the PIN is asked")
            self.prompt = PinPrompt(None)
            return True
        if now < self._unlocked_until:
            if self._is_relock(event):
                self.lock()
                return True
            return False
        if event.type == pygame.KEYDOWN and event.key in self._staff_keys(screen) and not event.mod & pygame.KMOD_CTRL:
            self.prompt = PinPrompt(event)
            return True
        return False

    def seconds_unlocked(self) -> int:
        """Whole seconds the TV stays unlocked (0: locked)."""
        return max(0, math.ceil(self._unlocked_until - self.clock()))

    def needs_draw(self) -> bool:
        """Whether the overlays would draw differently now than they last did with no input nor
        new snapshot in between: the padlock's seconds left changed (or it is to go away)."""
        return self.seconds_unlocked() != self._drawn_unlocked

    def close(self) -> None:
        """The window closes: the attract loop's tape worker is killed now, never waited for."""
        self.tapes.close()

    def unlock(self) -> None:
        """Staff typed the right PIN: staff keys go through for ``UNLOCK_S`` (quitting never does)."""
        self._unlocked_until = self.clock() + UNLOCK_S
        audit.info("unlocked at the TV with the PIN for %d s", UNLOCK_S)

    def lock(self) -> None:
        """End the staff unlock now (F12, a click on the padlock)."""
        self._unlocked_until = 0.0
        self.padlock = None
        audit.info("locked again at the TV (F12 or the padlock)")

    def _is_relock(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.KEYDOWN:
            return bool(event.key == RELOCK_KEY)
        return event.type == pygame.MOUSEBUTTONDOWN and self.padlock is not None \
            and self.padlock.collidepoint(event.pos)

    def _staff_keys(self, screen: Any) -> frozenset[int]:
        if screen is not None and screen.snapshot is not None:
            return GUARDED_KEYS | screen.staff_keys()
        from game.render.app import choose_base  # the window imports this module first
        from game.render.lobby import STAFF_KEYS

        if self._real is None:
            return GUARDED_KEYS | STAFF_KEYS  # a table starts in its lobby
        return GUARDED_KEYS | choose_base(self._real).staff_keys(self._real)

    def _prompt_input(self, event: pygame.event.Event) -> bool:
        prompt = self.prompt
        assert prompt is not None
        if event.type == pygame.QUIT:
            return True  # a second close while the prompt is up changes nothing
        if event.type != pygame.KEYDOWN:
            return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYUP, pygame.TEXTINPUT)
        if event.key == pygame.K_ESCAPE:
            self.prompt = None
        elif event.key == pygame.K_BACKSPACE:
            prompt.typed, prompt.wrong = prompt.typed[:-1], False
        elif event.key in DIGIT_KEYS and len(prompt.typed) < PIN_MAX:
            prompt.typed, prompt.wrong = prompt.typed + DIGIT_KEYS[event.key], False
        elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._check(prompt)
        return True

    def _check(self, prompt: PinPrompt) -> None:
        now = self.clock()
        prompt.locked = now < self._locked_until
        if prompt.locked or not self.pin or prompt.typed != self.pin:
            prompt.typed, prompt.wrong = "", True
            if not prompt.locked:
                self._wrong += 1
                audit.warning("wrong PIN at the TV (%d in a row)%s", self._wrong,
                              f"; the PIN pad waits {LOCKOUT_S} s" if self._wrong >= WRONG_PINS else "")
                if self._wrong >= WRONG_PINS:
                    self._wrong, self._locked_until, prompt.locked = 0, now + LOCKOUT_S, True
            return
        self._wrong = 0
        self.prompt = None
        if prompt.held is None:
            audit.warning("stopped by staff at the TV with the PIN (exit status %d: systemd does not restart it)",
                          ExitStatus.STAFF_STOP)
            self.exit_status, self.quit_confirmed = ExitStatus.STAFF_STOP, True
        else:
            self.unlock()
            pygame.event.post(pygame.event.Event(prompt.held.type, prompt.held.dict))

    def logo(self) -> pygame.Surface | None:
        """The venue's logo (read once; a file that cannot be read is left out, with a warning)."""
        if self._logo is None and self.logo_path is not None:
            try:
                self._logo = pygame.image.load(str(self.logo_path))
            except (pygame.error, OSError) as exc:
                log.warning("the venue logo %s cannot be shown: %s", self.logo_path, exc)
                self.logo_path = None
        return self._logo

    # ---------------------------------------------------------------------------- pointer
    def tick(self) -> None:
        if self._unlocked_until and self.clock() >= self._unlocked_until:
            self._unlocked_until = 0.0
            audit.info("locked again at the TV: the %d s unlock ran out", UNLOCK_S)
        if self._pointer_shown and self.clock() - self._pointer_moved >= POINTER_IDLE_S:
            self._show_pointer(False)

    def _show_pointer(self, shown: bool) -> None:
        if shown != self._pointer_shown:
            self._pointer_shown = shown
            if pygame.display.get_init():
                pygame.mouse.set_visible(shown)

    # ------------------------------------------------------------------------------- draw
    def draw(self, surface: pygame.Surface, shown: TableSnapshot, ctx: RenderContext) -> None:
        if not self._volume_set and ctx.sound.loaded:
            ctx.sound.set_volume(self.volume)
            self._volume_set = True
        codes: pygame.Rect | None = None
        if self.reel is not None and self.prompt is None:
            codes = draw_attract(surface, shown, self.venue, ctx, self.logo())
        elif self.prompt is None and self.venue and shown.phase is TablePhase.LOBBY:
            draw_venue(surface, self.venue, shown.language, ctx)
        if phones_cannot_reach(shown.join_url) and self.prompt is None:
            # over the codes themselves (they point at an address no phone reaches), never beside them
            area = codes or codes_area(surface.get_size(), shown.language, self.reel is not None, shown.phase)
            draw_no_network(surface, shown.language, ctx, area)
        left = self._drawn_unlocked = self.seconds_unlocked()
        self.padlock = draw_padlock(surface, shown.language, left, ctx) if left and self.prompt is None else None
        if self.prompt is not None:
            draw_pin_prompt(surface, shown.language, self.prompt, ctx)


def _s(lang: str, key: str, **values: object) -> str:
    return i18n.text(lang if lang in i18n.LANGUAGES else i18n.FALLBACK, "screen", key, **values)


COLUMN_SHARE = 0.34  # the attract loop's "Scan to play" column: this share of the width, at the reading end


def attract_column(size: tuple[int, int], lang: str) -> pygame.Rect:
    """Where the "Scan to play" column stands (right in en/th, left in Persian)."""
    w, h = size
    col_w = round(w * COLUMN_SHARE)
    return pygame.Rect(0 if i18n.is_rtl(lang) else w - col_w, 0, col_w, h)


def demo_rect(size: tuple[int, int], lang: str) -> pygame.Rect:
    """The demo game's own screen beside the column: the largest 16:9 box in the free area, centred
    (the column covers nothing of it: plates, clue and captions all show)."""
    w, h = size
    col = attract_column(size, lang)
    free = pygame.Rect(col.right if col.x == 0 else 0, 0, w - col.width, h)
    margin = round(min(w, h) * 0.015)
    inner = free.inflate(-2 * margin, -2 * margin)
    width = min(inner.width, round(inner.height * 16 / 9))
    box = pygame.Rect(0, 0, width, round(width * 9 / 16))
    box.center = inner.center
    return box


def draw_venue(surface: pygame.Surface, venue: str, lang: str, ctx: RenderContext) -> None:
    """The café's name on the lobby, in the top corner where a sentence ends (the title is centred;
    staff's padlock takes the corner where it starts)."""
    w, h = surface.get_size()
    u = min(w / 1280, h / 720)
    margin = round(min(w, h) * 0.025)
    box = pygame.Rect(margin, margin // 2, round(w * 0.2), round(h * 0.085))
    if not i18n.is_rtl(lang):
        box.right = w - margin
    ctx.text.draw(surface, venue, lang, box, TextStyle(round(24 * u), theme.TEXT_DIM, bold=True, align=Align.END,
                                                       max_lines=2, min_px=readable_px(u)))


def draw_attract(surface: pygame.Surface, shown: TableSnapshot, venue: str, ctx: RenderContext,
                 logo: pygame.Surface | None = None) -> pygame.Rect:
    """The invitation over the demo game: a column with "Scan to play", the join address (for a
    phone that cannot scan) and the free seats' codes; returns where the address and the codes are."""
    w, h = surface.get_size()
    u = min(w / 1280, h / 720)
    lang = shown.language
    col = attract_column((w, h), lang)
    surface.blit(shapes.veil(col.size, (12, 14, 20, 235)), col.topleft)
    pad = round(18 * u)
    inner = col.inflate(-2 * pad, -2 * pad)
    y = inner.y
    if logo is not None:
        y = _draw_logo(surface, logo, inner, u)
    if venue:
        box = pygame.Rect(inner.x, y, inner.width, round(34 * u))
        ctx.text.draw(surface, venue, lang, box, TextStyle(round(26 * u), theme.TEXT_DIM, bold=True, align=Align.CENTER, max_lines=1))
        y = box.bottom + round(4 * u)
    title = pygame.Rect(inner.x, y, inner.width, round(92 * u))
    ctx.text.draw(surface, _s(lang, "kiosk.scan"), lang, title,
                  TextStyle(round(64 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=round(30 * u)))
    hint = pygame.Rect(inner.x, title.bottom, inner.width, round(56 * u))
    ctx.text.draw(surface, _s(lang, "kiosk.scan_hint"), lang, hint,
                  TextStyle(round(22 * u), theme.TEXT, align=Align.CENTER, max_lines=2, valign=VAlign.TOP))
    link = pygame.Rect(inner.x, hint.bottom, inner.width, 0)
    if shown.join_url:  # the address a phone that cannot scan opens to type a code
        link.height = round(32 * u)
        ctx.text.draw(surface, shown.join_url.split("://", 1)[-1], lang, link,
                      TextStyle(round(24 * u), theme.ACCENT, align=Align.CENTER, max_lines=1,
                                min_px=readable_px(u)))
        hint = link
    seats: list[SeatInfo] = list(shown.attract.seats if shown.attract else ())[:6]
    grid = pygame.Rect(inner.x, hint.bottom + round(10 * u), inner.width, inner.bottom - hint.bottom - round(10 * u))
    _draw_codes(surface, seats, grid, lang, u, ctx)
    return grid.union(link)  # where a phone is told to go: what the no-network notice covers


_SCALED: dict[tuple[int, tuple[int, int]], pygame.Surface] = {}


def _draw_logo(surface: pygame.Surface, logo: pygame.Surface, inner: pygame.Rect, u: float) -> int:
    """The logo centred at the top of the column, at most 64 px tall at 720p; returns its bottom."""
    lw, lh = logo.get_size()
    k = min(64 * u / max(1, lh), inner.width / max(1, lw))
    size = (max(1, round(lw * k)), max(1, round(lh * k)))
    scaled = _SCALED.get((id(logo), size))
    if scaled is None:
        _SCALED.clear()  # one logo at one size at a time
        scaled = _SCALED[(id(logo), size)] = pygame.transform.smoothscale(logo, size)
    rect = scaled.get_rect(midtop=(inner.centerx, inner.y))
    surface.blit(scaled, rect)
    return rect.bottom + round(6 * u)


def _draw_codes(surface: pygame.Surface, seats: list[SeatInfo], grid: pygame.Rect, lang: str, u: float,
                ctx: RenderContext) -> None:
    if not seats:
        return
    cols = 2 if len(seats) > 1 else 1
    rows = (len(seats) + cols - 1) // cols
    gap = round(12 * u)
    cell_w = (grid.width - gap * (cols - 1)) // cols
    cell_h = (grid.height - gap * (rows - 1)) // rows
    code_h = round(30 * u)
    qr_size = max(40, min(cell_w, cell_h - code_h))
    rtl = i18n.is_rtl(lang)
    for i, seat in enumerate(seats):
        col, row = i % cols, i // cols
        if rtl:
            col = cols - 1 - col
        cell = pygame.Rect(grid.x + col * (cell_w + gap), grid.y + row * (cell_h + gap), cell_w, cell_h)
        colour = theme.seat_colour(seat.seat, seat.colour)
        qr = ctx.qr.surface(seat.url, colour, qr_size)
        surface.blit(qr, qr.get_rect(midtop=(cell.centerx, cell.y)))
        code = pygame.Rect(cell.x, cell.y + qr.get_height(), cell.width, code_h)
        sym_r = code_h * 0.36
        shapes.symbol(surface, seat.symbol, colour, (code.x + sym_r + 2, code.centery), sym_r)
        ctx.text.draw(surface, _s(lang, "seat.code", code=seat.code), lang, code,
                      TextStyle(round(22 * u), colour, bold=True, align=Align.CENTER, max_lines=1))


def draw_pin_prompt(surface: pygame.Surface, lang: str, prompt: PinPrompt, ctx: RenderContext) -> None:
    """A dimmed screen and a panel asking staff for the PIN; digits show as dots."""
    w, h = surface.get_size()
    u = min(w / 1280, h / 720)
    surface.blit(shapes.veil((w, h), (0, 0, 0, 190)), (0, 0))
    panel = pygame.Rect(0, 0, round(560 * u), round(330 * u))
    panel.center = (w // 2, h // 2)
    shapes.panel(surface, panel, theme.PANEL, theme.ACCENT, radius=round(16 * u), width=max(2, round(3 * u)))
    pad = round(24 * u)
    inner = panel.inflate(-2 * pad, -2 * pad)
    title = pygame.Rect(inner.x, inner.y, inner.width, round(70 * u))
    heading = _s(lang, "kiosk.stop_title") if prompt.held is None else _s(lang, "kiosk.pin_title")
    ctx.text.draw(surface, heading, lang, title,
                  TextStyle(round(34 * u), theme.TEXT, bold=True, align=Align.CENTER, max_lines=2))
    dots = pygame.Rect(inner.x, title.bottom + round(16 * u), inner.width, round(64 * u))
    _draw_dots(surface, dots, len(prompt.typed), u)
    message = _s(lang, "kiosk.pin_locked") if prompt.locked else \
        _s(lang, "kiosk.pin_wrong") if prompt.wrong else _s(lang, "kiosk.pin_hint")
    note = pygame.Rect(inner.x, dots.bottom + round(18 * u), inner.width, inner.bottom - dots.bottom - round(18 * u))
    ctx.text.draw(surface, message, lang, note,
                  TextStyle(round(24 * u), theme.DANGER if prompt.wrong else theme.TEXT_DIM, align=Align.CENTER,
                            max_lines=2))


def _draw_dots(surface: pygame.Surface, box: pygame.Rect, typed: int, u: float) -> None:
    slots = max(6, typed)  # never hints at the PIN's length
    r = round(14 * u)
    step = round(44 * u)
    x0 = box.centerx - (slots - 1) * step // 2
    for i in range(slots):
        centre = (x0 + i * step, box.centery)
        if i < typed:
            pygame.draw.circle(surface, theme.GOLD, centre, r)
        else:
            pygame.draw.circle(surface, theme.TEXT_DIM, centre, r, max(2, round(3 * u)))


def codes_area(size: tuple[int, int], lang: str, attracting: bool, phase: TablePhase) -> pygame.Rect | None:
    """Where the seats' codes are on screen: in the attract column, across the lobby's seat cards,
    or nowhere (None: a game is on)."""
    w, h = size
    if attracting:
        column = attract_column(size, lang)
        return pygame.Rect(column.x, round(h * 0.3), column.width, round(h * 0.66))
    if phase is TablePhase.LOBBY:
        return pygame.Rect(round(w * 0.02), round(h * 0.27), round(w * 0.96), round(h * 0.4))
    return None


def draw_no_network(surface: pygame.Surface, lang: str, ctx: RenderContext, codes: pygame.Rect | None) -> None:
    """Phones cannot reach the table yet: a panel over ``codes`` (the seats' codes, which would not
    work), or a line at the top during a game (``codes`` None)."""
    w, h = surface.get_size()
    u = min(w / 1280, h / 720)
    if codes is None:
        band = pygame.Rect(round(w * 0.18), round(4 * u), round(w * 0.64), round(40 * u))
        surface.blit(shapes.veil(band.size, (*theme.BACKGROUND, 225), round(10 * u)), band.topleft)
        ctx.text.draw(surface, _s(lang, "kiosk.no_network"), lang, band.inflate(-round(16 * u), -round(6 * u)),
                      TextStyle(round(24 * u), theme.DANGER, bold=True, align=Align.CENTER, max_lines=1,
                                min_px=round(12 * u)))
        return
    panel = codes.inflate(-round(12 * u), 0)
    surface.blit(shapes.veil(panel.size, (*theme.BACKGROUND, 240), round(18 * u)), panel.topleft)
    pygame.draw.rect(surface, theme.DANGER, panel, max(3, round(4 * u)), border_radius=round(18 * u))
    inner = panel.inflate(-round(40 * u), -round(32 * u))
    title = pygame.Rect(inner.x, inner.y, inner.width, round(inner.height * 0.5))
    ctx.text.draw(surface, _s(lang, "kiosk.no_network"), lang, title,
                  TextStyle(round(44 * u), theme.DANGER, bold=True, align=Align.CENTER, max_lines=3,
                            min_px=round(24 * u), balance=True))
    hint = pygame.Rect(inner.x, title.bottom + round(8 * u), inner.width, inner.bottom - title.bottom - round(8 * u))
    ctx.text.draw(surface, _s(lang, "kiosk.no_network_hint"), lang, hint,
                  TextStyle(round(26 * u), theme.TEXT, align=Align.CENTER, max_lines=4, min_px=round(16 * u),
                            balance=True))


def draw_padlock(surface: pygame.Surface, lang: str, seconds: int, ctx: RenderContext) -> pygame.Rect:
    """The unlocked TV's badge in the top corner (left, or right in Persian), above the lobby's
    subtitle: an open padlock, the seconds left in large digits (read from across the room) and the
    key that locks again. Returns the badge's rect (a click there locks)."""
    w, h = surface.get_size()
    u = min(w / 1280, h / 720)
    rtl = i18n.is_rtl(lang)
    margin = round(6 * u)
    badge = pygame.Rect(0, margin, round(236 * u), round(58 * u))
    badge.x = w - margin - badge.width if rtl else margin
    shapes.panel(surface, badge, theme.PANEL, theme.GOLD, radius=round(10 * u), width=max(2, round(3 * u)))
    pad = round(6 * u)
    icon = pygame.Rect(0, 0, round(40 * u), badge.height - 2 * pad)
    icon.y = badge.y + pad
    icon.x = badge.right - pad - icon.width if rtl else badge.x + pad
    open_padlock(surface, icon, theme.GOLD)
    text = pygame.Rect(badge.x + pad if rtl else icon.right + pad, badge.y + round(2 * u),
                       badge.width - icon.width - 3 * pad, round(36 * u))
    ctx.text.draw(surface, _s(lang, "kiosk.unlocked", seconds=i18n.number(lang, seconds)), lang, text,
                  TextStyle(round(30 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=round(20 * u)))
    hint = pygame.Rect(text.x, text.bottom, text.width, badge.bottom - text.bottom - round(2 * u))
    ctx.text.draw(surface, _s(lang, "kiosk.relock_hint"), lang, hint,
                  TextStyle(round(15 * u), theme.TEXT, align=Align.CENTER, max_lines=1, min_px=round(11 * u)))
    return badge


def open_padlock(surface: pygame.Surface, box: pygame.Rect, colour: theme.Colour) -> None:
    """An open padlock in ``box``: the body, a keyhole, and the shackle lifted off its right post."""
    body = pygame.Rect(0, 0, round(box.width * 0.72), round(box.height * 0.5))
    body.midbottom = (box.centerx, box.bottom)
    line = max(3, round(box.width * 0.11))
    radius = round(body.width * 0.32)
    arch = pygame.Rect(0, 0, radius * 2, radius * 2)
    arch.midbottom = (body.x + line // 2 + radius, body.y - round(box.height * 0.16))
    pygame.draw.arc(surface, colour, arch, 0, 3.1416, line)  # the shackle, lifted
    left_post = arch.x + line // 2
    pygame.draw.line(surface, colour, (left_post, arch.centery), (left_post, body.y + 2), line)
    right_post = arch.right - line // 2 - 1
    pygame.draw.line(surface, colour, (right_post, arch.centery), (right_post, arch.bottom - 1), line)  # free end
    pygame.draw.rect(surface, colour, body, border_radius=max(2, round(body.height * 0.18)))
    hole = max(2, round(body.height * 0.14))
    pygame.draw.circle(surface, theme.PANEL, (body.centerx, body.centery - hole // 2), hole)
    pygame.draw.line(surface, theme.PANEL, (body.centerx, body.centery), (body.centerx, body.centery + hole * 2),
                     max(2, hole))


def kiosk_layer(config: TableConfig) -> KioskLayer | None:
    """The kiosk layer for a kiosk table (call before ``pygame.init()``), else None. In kiosk mode
    SDL must not turn SIGTERM into a quit event (the lock would hold it): SIGTERM and SIGINT stop
    the table through :attr:`KioskLayer.quit_confirmed` instead."""
    if config.mode is not RunMode.KIOSK:
        return None
    os.environ["SDL_NO_SIGNAL_HANDLERS"] = "1"
    layer = KioskLayer(config, tapes=TapeOrders(worker=TapeWorker()))  # off the render thread and its GIL

    def stop(signum: int, _frame: FrameType | None) -> None:
        if not layer.quit_confirmed:
            audit.info("stop requested by %s (systemd's stop, or Ctrl+C)", signal.Signals(signum).name)
        layer.quit_confirmed = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    return layer
