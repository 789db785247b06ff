"""The lobby: one QR code per seat in its colour, the seat's short code and link, who sits where,
and the host's controls (game, preset, language, settings, seats, bots, start, arcade buttons) by
key and mouse. While the arcade board's "press your button" wizard runs, a panel over the seats
says whose button it waits for and which seats already have theirs."""
from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass

import pygame

from game import catalog, i18n
from game.bots import Level
from game.config import LANGUAGES
from game.session.snapshot import RunMode, SeatInfo, SeatStatus, TablePhase, TableSnapshot

from .kit import shapes, theme
from .kit.scene import Frame, HostIntent, Intent, PushScene, RenderContext, Scene, host, staff_click
from .kit.seats import plate_name, shown_name
from .kit.text import Align, TextStyle, VAlign
from .kit.widgets import Button, button_need, draw_button, fitted_row, hit, readable_px, row

MIN_SEATS, MAX_SEATS = 3, 12
BOT_CYCLE: tuple[str | None, ...] = (*(level.kind.value for level in Level), None)  # easy, normal, hard, free
ARCADE_KEY = "A"
# Each key presses the control-bar button showing that key.
KEYED: dict[int, str] = {
    pygame.K_g: "G", pygame.K_p: "P", pygame.K_l: "L", pygame.K_s: "S", pygame.K_MINUS: "-",
    pygame.K_KP_MINUS: "-", pygame.K_PLUS: "+", pygame.K_EQUALS: "+", pygame.K_KP_PLUS: "+",
    pygame.K_b: "B", pygame.K_a: ARCADE_KEY, pygame.K_RETURN: "Enter", pygame.K_KP_ENTER: "Enter",
}
# Kiosk: the buttons whose keys need the staff PIN (game.kiosk.screen locks the keys); a click on
# one becomes its key press, so the lock asks for the PIN for the mouse too
STAFF_BUTTON_KEYS: dict[str, int] = {"S": pygame.K_s, ARCADE_KEY: pygame.K_a}
KICK_KEYS = (pygame.K_k, pygame.K_DELETE)  # free the selected player's seat
STOP_MAPPING_KEYS = (pygame.K_a, pygame.K_ESCAPE)
# Kiosk: freeing a player's seat hands it to whoever scans next, as allowing a claim does: staff's
STAFF_KEYS = frozenset({*STAFF_BUTTON_KEYS.values(), *KICK_KEYS})


def presets_of(game: str, snapshot: TableSnapshot | None = None) -> tuple[str, ...]:
    """The game's presets (from the session's lobby facts, else the engine; none if neither knows)."""
    if snapshot is not None and snapshot.lobby.presets:
        return snapshot.lobby.presets
    try:
        from game.catalog import get_engine

        return tuple(get_engine(game).presets())
    except (ImportError, KeyError, AttributeError):
        return ()


class ArcadeStage(enum.Enum):
    """What the lobby's arcade control shows (from the session's ``snapshot.arcade``)."""

    ABSENT = "absent"  # no arcade bridge at all: no control
    UNPLUGGED = "unplugged"  # the bridge looks for a board: "no arcade board", inactive
    READY = "ready"  # a board is connected: A starts the wizard
    MAPPING = "mapping"  # the wizard runs: A or Esc stops it


@dataclass(frozen=True, slots=True)
class ArcadeStatus:
    stage: ArcadeStage
    waiting_for: int | None  # the seat whose button the wizard waits for
    done: Mapping[int, int | None]  # seat -> its new button (None: the session did not say which)

    @classmethod
    def of(cls, snapshot: TableSnapshot) -> ArcadeStatus:
        board = snapshot.arcade
        if not board.present:
            return cls(ArcadeStage.ABSENT, None, {})
        if not board.connected:
            return cls(ArcadeStage.UNPLUGGED, None, {})
        if not board.mapping_in_progress:
            return cls(ArcadeStage.READY, None, {})
        return cls(ArcadeStage.MAPPING, board.waiting_for, dict(board.done))


def typed_address(join_url: str) -> str:
    """The join page as a person types it from across the room (no scheme): the seat's code does
    the rest. The seat's own secret link stays in its QR code only."""
    return join_url.split("://", 1)[-1].rstrip("/")


def next_language(snapshot: TableSnapshot) -> HostIntent:
    """The L key's command, in the lobby and during a game: the table's next language."""
    return host("set_language", language=_next(LANGUAGES, snapshot.language))


def _next(items: tuple, current: object) -> object:
    if not items:
        return current
    return items[(items.index(current) + 1) % len(items)] if current in items else items[0]


@dataclass(frozen=True, slots=True)
class SeatCardLayout:
    seat: int
    rect: pygame.Rect
    qr_size: int


@dataclass(frozen=True, slots=True)
class LobbyLayout:
    header: pygame.Rect
    subtitle: pygame.Rect
    cards: tuple[SeatCardLayout, ...]
    buttons: tuple[Button, ...]
    hints: pygame.Rect
    notices: pygame.Rect
    grid: pygame.Rect


def _grid(n: int, area: pygame.Rect, gap: int) -> tuple[int, int]:
    """Columns and rows that give each seat's QR code the most room."""
    best = (n, 1)
    best_size = 0.0
    for rows in range(1, 4):
        cols = math.ceil(n / rows)
        w = (area.width - gap * (cols - 1)) / cols
        h = (area.height - gap * (rows - 1)) / rows
        size = min(w * 0.84, h * 0.62)
        if size > best_size:
            best, best_size = (cols, rows), size
    return best


def seat_cards(n: int, area: pygame.Rect, gap: int, rtl: bool) -> tuple[SeatCardLayout, ...]:
    cols, rows = _grid(n, area, gap)
    w = (area.width - gap * (cols - 1)) // cols
    h = (area.height - gap * (rows - 1)) // rows
    out: list[SeatCardLayout] = []
    for i in range(n):
        r, c = divmod(i, cols)
        in_row = min(cols, n - r * cols)
        x0 = area.x + (area.width - (in_row * w + (in_row - 1) * gap)) // 2
        col = in_row - 1 - c if rtl else c
        rect = pygame.Rect(x0 + col * (w + gap), area.y + r * (h + gap), w, h)
        out.append(SeatCardLayout(i, rect, int(min(w * 0.84, h * 0.62))))
    return tuple(out)


def layout(frame: Frame) -> LobbyLayout:
    w, h = frame.size
    u = frame.scale.u
    snap = frame.snapshot
    margin = round(min(w, h) * 0.025)
    rtl = frame.lang == "fa"
    header = pygame.Rect(margin, margin // 2, w - 2 * margin, round(h * 0.085))
    subtitle = pygame.Rect(margin, header.bottom, w - 2 * margin, round(h * 0.05))
    footer_top = round(h * 0.815)
    notice_h = round(h * 0.035)
    grid = pygame.Rect(margin, subtitle.bottom + margin // 2, w - 2 * margin,
                       footer_top - subtitle.bottom - margin - notice_h)
    n = min(MAX_SEATS, len(snap.seats))
    cards = seat_cards(n, grid, round(12 * u), rtl)
    bar = pygame.Rect(margin, footer_top, w - 2 * margin, round(h * 0.085))
    hints = pygame.Rect(margin, bar.bottom + round(h * 0.01), w - 2 * margin, h - bar.bottom - round(h * 0.015))
    notices = pygame.Rect(margin, grid.bottom + margin // 4, w - 2 * margin, notice_h)
    return LobbyLayout(header, subtitle, cards, tuple(_buttons(frame, bar, rtl)), hints, notices, grid)


def _buttons(frame: Frame, bar: pygame.Rect, rtl: bool) -> list[Button]:
    """The control bar: each button first gets the room its label needs on two lines at the
    readable size with no word broken ("Game: S / peakeasy", "صندلی / ها" otherwise), then a share
    of what is left (the long labels, game and rules, the most)."""
    arcade = ArcadeStatus.of(frame.snapshot)
    if arcade.stage is ArcadeStage.ABSENT:
        weights = [1.5, 1.4, 0.9, 0.95, 0.45, 0.9, 0.95, 1.05]
    else:  # a ninth button: the long labels (game, rules) keep their room, the short ones give some
        weights = [1.05, 1.6, 0.9, 0.95, 0.4, 0.9, 0.95, 1.45, 1.15]
    unplaced = pygame.Rect(0, 0, 0, bar.height)
    buttons = _unplaced_buttons(frame, unplaced)
    if arcade.stage is not ArcadeStage.ABSENT:
        buttons.insert(7, _arcade_button(frame, unplaced, arcade))
    needs = [button_need(b.label, b.hint, bar.height, frame.scale.u) for b in buttons]
    rects = fitted_row(bar, needs, weights, round(6 * frame.scale.u), rtl)
    return [dataclasses.replace(b, rect=r) for b, r in zip(buttons, rects, strict=True)]


def _unplaced_buttons(frame: Frame, rect: pygame.Rect) -> list[Button]:
    snap = frame.snapshot
    presets = presets_of(snap.game, snap)
    seats = len(snap.seats)
    low, high = seat_limits(snap)
    preset_name = (frame.s(f"preset.{snap.preset}") if i18n.has(frame.lang, "screen", f"preset.{snap.preset}") else snap.preset
                   ) if snap.preset else frame.s("lobby.no_preset")
    return [
        Button(rect, frame.s("lobby.btn_game", name=frame.game_title()), "G",
               (host("set_game", game=_next(games_of(snap), snap.game)),)),
        Button(rect, frame.s("lobby.btn_preset", name=preset_name), "P",
               (host("set_preset", preset=_next(presets, snap.preset)),), active=len(presets) > 1),
        Button(rect, frame.s("lobby.btn_language"), "L", (next_language(snap),)),
        Button(rect, frame.s("lobby.btn_settings"), "S", (PushScene(_settings_scene()),)),
        Button(rect, "", "-", (host("set_seats", count=seats - 1),), active=seats > low),
        Button(rect, frame.s("lobby.btn_seats", count=seats), "+", (host("set_seats", count=seats + 1),),
               active=seats < high),
        Button(rect, frame.s("lobby.btn_fill_bots"), "B", (host("fill_bots", kind="heuristic"),),
               active=any(s.status is SeatStatus.FREE for s in snap.seats))
        if has_bots(snap) else  # a game without bots never offers them: the slot says so
        Button(rect, frame.s("lobby.btn_no_bots"), "", (), active=False),
        Button(rect, frame.s("lobby.btn_start"), "Enter", (host("start"),), primary=True, active=snap.lobby.can_start),
    ]


def key_hints(snapshot: TableSnapshot) -> str:
    """The key hints' string: a kiosk says which keys are staff's (the PIN), never "Ctrl+Q: quit";
    a game without bots offers none ("_people")."""
    key = "lobby.keys" if has_bots(snapshot) else "lobby.keys_people"
    return f"{key}_kiosk" if snapshot.mode is RunMode.KIOSK else key


def games_of(snapshot: TableSnapshot) -> tuple[str, ...]:
    """The games the lobby offers now: those of the chosen mode (table or companion), from the catalog."""
    return snapshot.lobby.games or catalog.ids(catalog.PlayMode.TABLE)


def other_mode(snapshot: TableSnapshot) -> str | None:
    """The play mode the C key switches to (table <-> companion), if the catalog has games for it."""
    others = [m for m in snapshot.lobby.play_modes if m != snapshot.lobby.play_mode]
    return others[0] if others else None


def _arcade_button(frame: Frame, rect: pygame.Rect, arcade: ArcadeStatus) -> Button:
    if arcade.stage is ArcadeStage.MAPPING:
        return Button(rect, frame.s("lobby.btn_arcade_stop"), ARCADE_KEY, (host("map_buttons", cancel=True),))
    if arcade.stage is ArcadeStage.READY:
        return Button(rect, frame.s("lobby.btn_arcade"), ARCADE_KEY, (host("map_buttons"),))
    return Button(rect, frame.s("lobby.btn_arcade_none"), ARCADE_KEY, (), active=False)


def _settings_scene() -> Scene:
    from .settings import SettingsScene

    return SettingsScene()


def _press(lay: LobbyLayout, key: str) -> list[Intent]:
    """The intents of the (active) control-bar button showing ``key``; none if there is none."""
    for button in lay.buttons:
        if button.hint == key:
            return list(button.intents) if button.active else []
    return []


def bot_kind(snapshot: TableSnapshot, seat: SeatInfo) -> str | None:
    """The kind of bot on a seat (the easy level's when the session does not say)."""
    if seat.status is not SeatStatus.BOT:
        return None
    return seat.bot or BOT_CYCLE[0]


def next_bot(snapshot: TableSnapshot, seat: SeatInfo) -> str | None:
    """Clicking a seat: free -> easy -> normal -> hard bot -> free (a tests-only kind: easy). Joined
    seats are not touched."""
    kind = bot_kind(snapshot, seat)
    if seat.status is SeatStatus.FREE or kind not in BOT_CYCLE:
        return BOT_CYCLE[0]
    return BOT_CYCLE[(BOT_CYCLE.index(kind) + 1) % len(BOT_CYCLE)]


def bot_label(kind: str | None) -> str:
    """The seat card's label of a bot of ``kind``: its level by name ("Bot (hard)"), or the random one's."""
    level = Level.of(kind)
    return level.label_key if level is not None else "seat.bot_random"


def has_bots(snapshot: TableSnapshot) -> bool:
    """Whether bots can play the lobby's game with its settings (a companion game with real cards or
    real gold has none: every seat a person)."""
    return snapshot.lobby.has_bots


def start_hint(snapshot: TableSnapshot) -> tuple[str, int] | None:
    """The lobby's line about the free seats (key, count): Enter gives them bots where the game
    has bots, else every seat needs a person; None when every seat is taken."""
    free = sum(1 for s in snapshot.seats if s.status is SeatStatus.FREE)
    if not free or snapshot.phase is not TablePhase.LOBBY:
        return None
    return ("lobby.start_bots" if has_bots(snapshot) else "lobby.start_people"), free


def seat_limits(snapshot: TableSnapshot) -> tuple[int, int]:
    return snapshot.lobby.min_seats, snapshot.lobby.max_seats


class LobbyScene(Scene):
    name = "lobby"

    def __init__(self) -> None:
        super().__init__()
        self.selected = 0  # the seat keyboard commands act on

    # input ------------------------------------------------------------------------------------
    def staff_keys(self, snapshot: TableSnapshot) -> frozenset[int]:
        if ArcadeStatus.of(snapshot).stage is ArcadeStage.MAPPING:
            return frozenset(STOP_MAPPING_KEYS)
        return STAFF_KEYS

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        lay = layout(frame)
        snap = frame.snapshot
        if ArcadeStatus.of(snap).stage is ArcadeStage.MAPPING:
            return self._while_mapping(event, lay, snap)
        if event.type == pygame.MOUSEBUTTONDOWN:
            return self._click(event, lay, snap)
        if event.type != pygame.KEYDOWN:
            return []
        if event.key in KEYED:
            return _press(lay, KEYED[event.key])
        if event.key == pygame.K_c:
            mode = other_mode(snap)
            return [host("set_mode", mode=mode)] if mode is not None else []
        return self._seat_key(event, snap)

    @staticmethod
    def _while_mapping(event: pygame.event.Event, lay: LobbyLayout, snap: TableSnapshot) -> list[Intent]:
        """The wizard is modal: only stopping it (A, Esc, or its button) does anything."""
        if event.type == pygame.KEYDOWN and event.key in STOP_MAPPING_KEYS:
            return _press(lay, ARCADE_KEY)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            button = hit(list(lay.buttons), event.pos)
            if button is not None and button.hint == ARCADE_KEY:
                return [] if staff_click(snap, pygame.K_a) else list(button.intents)
        return []

    def _click(self, event: pygame.event.Event, lay: LobbyLayout, snap: TableSnapshot) -> list[Intent]:
        button = hit(list(lay.buttons), event.pos)
        if button is not None and event.button == 1:
            if button.active and button.hint in STAFF_BUTTON_KEYS and staff_click(snap, STAFF_BUTTON_KEYS[button.hint]):
                return []
            return list(button.intents)
        for card in lay.cards:
            if card.rect.collidepoint(event.pos) and card.seat < len(snap.seats):
                self.selected = card.seat
                kick = event.button == 3
                if kick and snap.seats[card.seat].status is SeatStatus.JOINED and staff_click(snap, KICK_KEYS[0]):
                    return []  # the K press frees the selected seat once the PIN is typed
                return self._seat_action(snap, snap.seats[card.seat], kick=kick)
        return []

    def _seat_key(self, event: pygame.event.Event, snap: TableSnapshot) -> list[Intent]:
        n = len(snap.seats)
        if not n:
            return []
        if event.key == pygame.K_TAB:
            step = -1 if event.mod & pygame.KMOD_SHIFT else 1
            self.selected = (self.selected + step) % n
            return []
        self.selected %= n
        if event.key == pygame.K_SPACE:
            return self._seat_action(snap, snap.seats[self.selected], kick=False)
        if event.key in KICK_KEYS:
            return self._seat_action(snap, snap.seats[self.selected], kick=True)
        return []

    @staticmethod
    def _seat_action(snap: TableSnapshot, seat: SeatInfo, kick: bool) -> list[Intent]:
        if kick:
            return [host("kick", seat=seat.seat)] if seat.status is SeatStatus.JOINED else []
        if seat.status is SeatStatus.JOINED or not has_bots(snap):
            return []  # a game without bots: a free seat waits for a person
        return [host("set_bot", seat=seat.seat, kind=next_bot(snap, seat))]

    # drawing ----------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        surface.fill(theme.BACKGROUND)
        lay = layout(frame)
        u = frame.scale.u
        snap = frame.snapshot
        title = frame.s("lobby.title", game=frame.game_title())
        ctx.text.draw(surface, title, frame.lang, lay.header,
                      TextStyle(round(40 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        sub = frame.s("lobby.join_hint", url=snap.join_url) if snap.join_url else frame.s("lobby.scan_hint")
        ctx.text.draw(surface, sub, frame.lang, lay.subtitle,
                      TextStyle(round(22 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1))
        error = snap.lobby.host_error
        notes = [frame.s(f"notice.{n}") if i18n.has(frame.lang, "screen", f"notice.{n}") else n for n in snap.notices]
        if error is not None:  # its sentence in the table's language, never the developer's message
            key = f"error.{error.code}"
            notes.append(frame.s(key) if i18n.has(frame.lang, "screen", key) else frame.s("error.error"))
        if notes:
            ctx.text.draw(surface, frame.s("sep").join(notes), frame.lang, lay.notices,
                          TextStyle(round(18 * u), theme.DANGER, align=Align.CENTER, max_lines=1, min_px=7))
        elif (hint := start_hint(snap)) is not None:  # what Enter does with the free seats, or what is missing
            ctx.text.draw(surface, frame.s(hint[0], n=hint[1]), frame.lang, lay.notices,
                          TextStyle(round(18 * u), theme.GOLD if has_bots(snap) else theme.DANGER, bold=True,
                                    align=Align.CENTER, max_lines=1, min_px=readable_px(u)))
        for card in lay.cards:
            if card.seat < len(snap.seats):
                self._draw_seat(surface, snap.seats[card.seat], card, frame, ctx, card.seat == self.selected)
        for button in lay.buttons:
            draw_button(surface, button, frame, ctx)
        arcade = ArcadeStatus.of(snap)
        if arcade.stage is ArcadeStage.MAPPING:
            draw_mapping_panel(surface, lay.grid, arcade, frame, ctx)
        ctx.text.draw(surface, frame.s(key_hints(snap)), frame.lang, lay.hints,
                      TextStyle(round(17 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=3, min_px=readable_px(u)))

    def _draw_seat(self, surface: pygame.Surface, seat: SeatInfo, card: SeatCardLayout, frame: Frame,
                   ctx: RenderContext, selected: bool) -> None:
        u = frame.scale.u
        colour = theme.seat_colour(seat.seat, seat.colour)
        rect = card.rect
        border = max(2, round(4 * u))
        shapes.panel(surface, rect, theme.PANEL, colour, radius=round(10 * u), width=border)
        if selected:
            pygame.draw.rect(surface, theme.TEXT, rect.inflate(border * 2, border * 2), max(1, border // 2),
                             border_radius=round(12 * u))
        pad = max(3, round(rect.width * 0.04))
        head = pygame.Rect(rect.x + pad, rect.y + pad, rect.width - 2 * pad, round(rect.height * 0.13))
        sym_r = head.height * 0.42
        rtl = frame.lang == "fa"
        sym_x = head.right - sym_r if rtl else head.x + sym_r
        shapes.symbol(surface, seat.symbol, colour, (sym_x, head.centery), sym_r)
        name_box = pygame.Rect(head.x, head.y, head.width - round(sym_r * 2.3), head.height)
        if not rtl:
            name_box.x = head.x + round(sym_r * 2.3)
        shown = plate_name(frame.lang, shown_name(seat.name)) if seat.status is not SeatStatus.FREE else ""
        name = shown or frame.s("seat.name", n=seat.seat + 1)
        ctx.text.draw(surface, name, frame.lang, name_box,  # a long name: on two lines, elided only past them
                      TextStyle(round(22 * u), theme.TEXT, bold=True, max_lines=2, min_px=readable_px(u)))
        body = pygame.Rect(rect.x + pad, head.bottom + pad // 2, rect.width - 2 * pad, rect.bottom - head.bottom - pad)
        if seat.status is SeatStatus.FREE or (seat.status is SeatStatus.JOINED and not seat.connected):
            self._draw_join(surface, seat, card, body, colour, frame, ctx)
        else:
            self._draw_taken(surface, seat, body, colour, frame, ctx, bot_kind(frame.snapshot, seat))

    @staticmethod
    def _draw_join(surface: pygame.Surface, seat: SeatInfo, card: SeatCardLayout, body: pygame.Rect,
                   colour: theme.Colour, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        size = min(card.qr_size, body.width, round(body.height * 0.66))  # room below for the code and the address
        if seat.url:
            qr = ctx.qr.surface(seat.url, colour, size)
            surface.blit(qr, qr.get_rect(midtop=(body.centerx, body.y)))
            qr_bottom = body.y + qr.get_height()
        else:
            qr_bottom = body.y
        rest = pygame.Rect(body.x, qr_bottom + round(2 * u), body.width, body.bottom - qr_bottom - round(2 * u))
        code_box = pygame.Rect(rest.x, rest.y, rest.width, round(rest.height * 0.45))
        status = frame.s("seat.away") if seat.status is SeatStatus.JOINED else frame.s("seat.code", code=seat.code)
        ctx.text.draw(surface, status, frame.lang, code_box,
                      TextStyle(round(24 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=7))
        link_box = pygame.Rect(rest.x, code_box.bottom, rest.width, rest.bottom - code_box.bottom)
        ctx.text.draw(surface, typed_address(frame.snapshot.join_url), "en", link_box,
                      TextStyle(round(20 * u), theme.TEXT, align=Align.CENTER, max_lines=1, min_px=round(12 * u),
                                valign=VAlign.TOP))

    @staticmethod
    def _draw_taken(surface: pygame.Surface, seat: SeatInfo, body: pygame.Rect, colour: theme.Colour,
                    frame: Frame, ctx: RenderContext, kind: str | None) -> None:
        u = frame.scale.u
        r = min(body.width, body.height) * 0.26
        centre = (body.centerx, body.y + body.height * 0.36)
        shapes.symbol(surface, seat.symbol, colour, centre, r)
        if seat.status is SeatStatus.BOT:
            label = frame.s(bot_label(kind))
            tone = theme.ACCENT
        else:
            label, tone = frame.s("seat.connected"), theme.GOOD
        box = pygame.Rect(body.x, round(body.y + body.height * 0.68), body.width, round(body.height * 0.3))
        ctx.text.draw(surface, label, frame.lang, box,
                      TextStyle(round(22 * u), tone, bold=True, align=Align.CENTER, max_lines=2, min_px=7))


# ------------------------------------------------------------------------------ arcade wizard
def mapping_panel_rect(grid: pygame.Rect) -> pygame.Rect:
    """Where the wizard's panel goes: over the middle of the seat grid."""
    rect = pygame.Rect(0, 0, round(grid.width * 0.72), round(grid.height * 0.9))
    rect.center = grid.center
    return rect


def _seat_of(snapshot: TableSnapshot, seat: int | None) -> SeatInfo | None:
    return next((s for s in snapshot.seats if s.seat == seat), None)


def draw_mapping_panel(surface: pygame.Surface, grid: pygame.Rect, arcade: ArcadeStatus, frame: Frame,
                       ctx: RenderContext) -> None:
    """"Press the button of seat N" in that seat's colour and symbol, every seat's progress below."""
    u = frame.scale.u
    rect = mapping_panel_rect(grid)
    waiting = _seat_of(frame.snapshot, arcade.waiting_for)
    border = theme.seat_colour(waiting.seat, waiting.colour) if waiting is not None else theme.ACCENT
    surface.blit(shapes.veil(rect.size, (*theme.BACKGROUND, 235), round(14 * u)), rect.topleft)
    pygame.draw.rect(surface, border, rect, max(2, round(5 * u)), border_radius=round(14 * u))
    pad = round(rect.height * 0.05)
    inner = rect.inflate(-2 * pad, -2 * pad)
    heights = [round(inner.height * f) for f in (0.12, 0.4, 0.34, 0.14)]
    bands: list[pygame.Rect] = []
    y = inner.y
    for height in heights:
        bands.append(pygame.Rect(inner.x, y, inner.width, height))
        y += height
    title, prompt, chips, footer = bands
    ctx.text.draw(surface, frame.s("lobby.arcade_title"), frame.lang, title,
                  TextStyle(round(24 * u), theme.TEXT_DIM, bold=True, align=Align.CENTER, max_lines=1, min_px=7))
    if waiting is not None:
        _draw_prompt(surface, prompt, waiting, frame, ctx)
    _draw_progress(surface, chips, arcade, frame, ctx)
    stop_hint = "lobby.arcade_stop_hint_kiosk" if frame.snapshot.mode is RunMode.KIOSK else "lobby.arcade_stop_hint"
    ctx.text.draw(surface, frame.s(stop_hint), frame.lang, footer,
                  TextStyle(round(18 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=1, min_px=7))


def _draw_prompt(surface: pygame.Surface, box: pygame.Rect, seat: SeatInfo, frame: Frame, ctx: RenderContext) -> None:
    u = frame.scale.u
    colour = theme.seat_colour(seat.seat, seat.colour)
    r = box.height * 0.36
    rtl = frame.lang == "fa"
    gap = round(r * 2.5)
    sym_x = box.right - gap / 2 if rtl else box.x + gap / 2
    shapes.symbol(surface, seat.symbol, colour, (sym_x, box.centery), r)
    text_box = pygame.Rect(box.x if rtl else box.x + gap, box.y, box.width - gap, box.height)
    named = seat.status is not SeatStatus.FREE and bool(seat.name)
    line = pygame.Rect(text_box.x, text_box.y, text_box.width, round(text_box.height * (0.6 if named else 1.0)))
    ctx.text.draw(surface, frame.s("lobby.arcade_press", n=seat.seat + 1), frame.lang, line,
                  TextStyle(round(44 * u), theme.GOLD, bold=True, max_lines=2, min_px=8))
    if named:
        rest = pygame.Rect(text_box.x, line.bottom, text_box.width, text_box.bottom - line.bottom)
        ctx.text.draw(surface, plate_name(frame.lang, seat.name), frame.lang, rest,
                      TextStyle(round(30 * u), colour, bold=True, max_lines=1, min_px=8, valign=VAlign.TOP))


def _draw_progress(surface: pygame.Surface, box: pygame.Rect, arcade: ArcadeStatus, frame: Frame,
                   ctx: RenderContext) -> None:
    """One chip per seat: its symbol and, once pressed, its button (dim until its turn)."""
    seats = frame.snapshot.seats[:MAX_SEATS]
    if not seats:
        return
    rows = 1 if len(seats) <= 6 else 2
    cols = math.ceil(len(seats) / rows)
    gap = round(8 * frame.scale.u)
    chip_h = (box.height - gap * (rows - 1)) // rows
    rtl = frame.lang == "fa"
    for r in range(rows):
        in_row = seats[r * cols:(r + 1) * cols]
        rects = row(pygame.Rect(box.x, box.y + r * (chip_h + gap), box.width, chip_h), [1.0] * cols, gap, rtl)
        offset = (cols - len(in_row)) * (rects[0].width + gap) // 2  # a short last row is centred
        for seat, rect in zip(in_row, rects):
            _draw_chip(surface, rect.move(-offset if rtl else offset, 0), seat, arcade, frame, ctx)


def _draw_chip(surface: pygame.Surface, rect: pygame.Rect, seat: SeatInfo, arcade: ArcadeStatus, frame: Frame,
               ctx: RenderContext) -> None:
    u = frame.scale.u
    colour = theme.seat_colour(seat.seat, seat.colour)
    now = seat.seat == arcade.waiting_for
    done = seat.seat in arcade.done
    fill = theme.PANEL_LIGHT if now or done else theme.PANEL
    shapes.panel(surface, rect, fill, colour if now or done else theme.DEAD, radius=round(8 * u),
                 width=max(1, round((4 if now else 2) * u)))
    r = min(rect.height * 0.26, rect.width * 0.18)
    shapes.symbol(surface, seat.symbol, colour if now or done else theme.DEAD, (rect.centerx, rect.y + rect.height * 0.34), r)
    button = arcade.done.get(seat.seat)
    if now:
        label, tone = frame.s("lobby.arcade_now"), theme.GOLD
    elif done:
        label = frame.s("lobby.arcade_button", n=button + 1) if button is not None else frame.s("lobby.arcade_done")
        tone = theme.GOOD
    else:
        label, tone = frame.s("seat.name", n=seat.seat + 1), theme.TEXT_DIM
    box = pygame.Rect(rect.x + round(4 * u), round(rect.y + rect.height * 0.62), rect.width - round(8 * u),
                      round(rect.height * 0.34))
    ctx.text.draw(surface, label, frame.lang, box,
                  TextStyle(round(17 * u), tone, bold=now or done, align=Align.CENTER, max_lines=1, min_px=7))
