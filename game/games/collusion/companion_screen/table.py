"""The Collusion companion's scenes: the table-mode play wrapped with a gold band, the C17 check
(who has answered, never what), the secret count (who has entered), the revealed totals on the
score pad with the host's corrections, and what the real table must do with its bars."""
from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol, cast

import pygame

from game import catalog, i18n
from game.render.kit import theme
from game.render.kit.hud import Ticker, draw_caption, draw_notices, draw_timer
from game.render.kit.plates import PlateLook, plates_layer
from game.render.kit.scene import Frame, Intent, RenderContext, Scene, view_of
from game.render.kit.scorepad import draw_pad
from game.render.kit.seats import SeatModel, look_of, names, seat_name
from game.render.kit.sound import Effect
from game.render.kit.table import table_layout
from game.render.kit.text import Align, TextStyle
from game.session.snapshot import TableSnapshot

DOMAIN = "screen_collusion_companion"
FAMILY = "collusion"
PLAY_PHASES = frozenset({"vote", "ambush_choice", "showdown"})
# what the real table must do with its bars: the notes the screen spells out (physical gold)
TABLE_NOTES = ("pot_taken_physical", "pot_stays", "bar_drawn_physical", "showdown_paid_physical", "tie_break",
               "nobody_reached", "check_nobody", "check_someone")


class TableScreen(Protocol):
    """What the family's table-mode screen package offers (``game.games.<family>.screen``)."""

    def choose_base(self, snapshot: TableSnapshot) -> Scene: ...
    def beats_for(self, snapshot: TableSnapshot, previous: TableSnapshot | None) -> list[Scene]: ...


def family_screen() -> TableScreen:
    """The table-mode screen of this game's family, through the catalog (never imported by name)."""
    return cast(TableScreen, importlib.import_module(catalog.get(FAMILY).screen))


def s(frame: Frame, key: str, **values: Any) -> str:
    return i18n.text(frame.lang, DOMAIN, key, **values)


def seat_models(frame: Frame) -> tuple[SeatModel, ...]:
    view = view_of(frame)
    n = len(view.get("seats", [])) or len(frame.snapshot.seats)
    return tuple(SeatModel(**look_of(frame.snapshot, k)) for k in range(n))


def companion(view: Mapping[str, Any]) -> Mapping[str, Any]:
    return cast(Mapping[str, Any], view.get("companion") or {})


def trace_lines(frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> list[str]:
    """The pad's corrections as sentences ("Ali's count 1: 27 → 25, corrected by the host")."""
    out = []
    for c in companion(view).get("pad", {}).get("trace", []):
        who = seat_name(frame, seats, int(c["seat"]))
        old = "–" if c.get("old") is None else i18n.number(frame.lang, int(c["old"]))
        new = "–" if c.get("new") is None else i18n.number(frame.lang, int(c["new"]))
        if c.get("kind") == "undo":
            key = "trace.undo"
        else:
            key = "trace.host" if c.get("by") is None else "trace.self"
        out.append(s(frame, key, name=who, count=int(c["round"]), old=old, new=new))
    return out


def note_lines(frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> list[str]:
    """The latest quick-rule notes the real table acts on, seats of one kind of note together."""
    grouped: dict[tuple[str, str, Any], list[int]] = {}
    for note in companion(view).get("notes", []):
        if note.get("key") in TABLE_NOTES:
            grouped.setdefault((note["rule"], note["key"], note.get("value")), []).extend(note.get("seats", []))
    return [s(frame, f"note.{key}", names=names(frame, seats, who), n=value if value is not None else 0, rule=rule)
            for (rule, key, value), who in grouped.items()]


# ------------------------------------------------------------------------------------ play
def draw_gold_band(surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
    """Top corner: this is the companion, and who keeps the gold."""
    u = frame.scale.u
    w, h = frame.size
    gold = str(companion(view_of(frame)).get("gold", "digital"))
    rect = pygame.Rect(0, round(h * 0.012), round(w * 0.2), round(h * 0.045))
    rect.x = round(w * 0.01) if frame.lang == "fa" else w - rect.width - round(w * 0.01)
    pygame.draw.rect(surface, theme.mix(theme.BACKGROUND, theme.GOLD, 0.25), rect, border_radius=round(8 * u))
    ctx.text.draw(surface, s(frame, f"gold.{gold}"), frame.lang, rect.inflate(-round(12 * u), -4),
                  TextStyle(round(18 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=7))


class PlayScene(Scene):
    """The table-mode scene of the current phase, with the gold band on top."""

    def __init__(self, inner: Scene) -> None:
        super().__init__()
        self.inner = inner
        self.name = inner.name

    def key(self) -> tuple:
        return ("companion", *self.inner.key())

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        self.inner.update(dt, frame, ctx)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        self.inner.draw(surface, frame, ctx)
        draw_gold_band(surface, frame, ctx)

    def handle(self, event: pygame.event.Event, frame: Frame) -> list[Intent]:
        return self.inner.handle(event, frame)


# ------------------------------------------------------------------------------- between rounds
class _Waiting(Scene):
    """Plates round the table marked done / waiting, a title and a question in the middle."""

    def __init__(self) -> None:
        super().__init__()
        self._done: frozenset[int] = frozenset()
        self._ticker = Ticker()

    def seats_in(self, view: Mapping[str, Any]) -> list[int]:
        return [int(x["seat"]) for x in view.get("seats", [])]

    def done_seats(self, view: Mapping[str, Any]) -> list[int]:
        raise NotImplementedError

    def plate_status(self, frame: Frame, seat: int, done: bool, asked: bool) -> str:
        raise NotImplementedError

    def lines(self, frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> tuple[str, str, str, str]:
        """Title, why (may be empty), the question, the tally."""
        raise NotImplementedError

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        done = frozenset(self.done_seats(view_of(frame)))
        if done - self._done:
            ctx.sound.play(Effect.PLACE)
        self._done = done
        self._ticker.update(frame, ctx)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        view = view_of(frame)
        seats = seat_models(frame)
        asked = set(self.seats_in(view))
        done = set(self.done_seats(view))
        plates = tuple((m, PlateLook(self.plate_status(frame, m.seat, m.seat in done, m.seat in asked),
                                     theme.GOOD if m.seat in done else theme.TEXT_DIM, dim=m.seat not in asked,
                                     ring=theme.GOOD if m.seat in done else None))
                       for m in seats)
        surface.blit(plates_layer(frame, ctx, plates), (0, 0))
        lay = table_layout(frame.size, len(seats))
        self.draw_middle(surface, frame, ctx, lay.middle, *self.lines(frame, seats, view))
        notes = note_lines(frame, seats, view)
        if notes:
            draw_caption(surface, frame, ctx, lay.caption, " | ".join(notes), theme.GOLD, px=22)
        draw_gold_band(surface, frame, ctx)
        draw_notices(surface, frame, ctx)

    def draw_middle(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext, mid: pygame.Rect, title: str,
                    why: str, question: str, count: str) -> None:
        u = frame.scale.u
        head = pygame.Rect(mid.x, mid.y - round(mid.height * 0.08), mid.width, round(mid.height * 0.22))
        ctx.text.draw(surface, title, frame.lang, head,
                      TextStyle(round(40 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1, min_px=10))
        sub = pygame.Rect(mid.x, head.bottom, mid.width, round(mid.height * 0.16) if why else 0)
        if why:
            ctx.text.draw(surface, why, frame.lang, sub,
                          TextStyle(round(24 * u), theme.GOLD, align=Align.CENTER, max_lines=2, min_px=8, balance=True))
        ask = pygame.Rect(mid.x, sub.bottom, mid.width, round(mid.height * (0.36 if why else 0.48)))  # a question's clauses on lines of their own
        ctx.text.draw(surface, question, frame.lang, ask,
                      TextStyle(round(30 * u), theme.TEXT, align=Align.CENTER, max_lines=3, min_px=9, balance=True))
        tally = pygame.Rect(mid.x, ask.bottom, mid.width, round(mid.height * 0.2))
        ctx.text.draw(surface, count, frame.lang, tally,
                      TextStyle(round(28 * u), theme.ACCENT, bold=True, align=Align.CENTER, max_lines=1, min_px=9))


class CheckScene(_Waiting):
    """C17 after a round with real gold: every phone is asked in secret; only who answered shows."""

    name = "companion_check"

    def done_seats(self, view: Mapping[str, Any]) -> list[int]:
        return [int(x) for x in (companion(view).get("check") or {}).get("answered", [])]

    def plate_status(self, frame: Frame, seat: int, done: bool, asked: bool) -> str:
        return s(frame, "plate.answered" if done else "plate.thinking")

    def lines(self, frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> tuple[str, str, str, str]:
        done, n = len(self.done_seats(view)), len(self.seats_in(view))
        return (s(frame, "check.title", round=max(1, int(view.get("round", 2)) - 1)), "",
                s(frame, "check.ask", n=int(view.get("target_score", 0))),
                s(frame, "check.count", n=done, m=n))


class CountScene(_Waiting):
    """Everyone (or the tied players) enters their total in secret (C18, C20)."""

    name = "companion_count"

    def seats_in(self, view: Mapping[str, Any]) -> list[int]:
        return [int(x) for x in (companion(view).get("count") or {}).get("seats", [])]

    def done_seats(self, view: Mapping[str, Any]) -> list[int]:
        return [int(x) for x in (companion(view).get("count") or {}).get("entered", [])]

    def plate_status(self, frame: Frame, seat: int, done: bool, asked: bool) -> str:
        if not asked:
            return s(frame, "plate.watching")
        return s(frame, "plate.entered" if done else "plate.counting")

    def lines(self, frame: Frame, seats: Sequence[SeatModel], view: Mapping[str, Any]) -> tuple[str, str, str, str]:
        count = companion(view).get("count") or {}
        who = [int(x) for x in count.get("seats", [])]
        if count.get("reason") == "deck_empty":
            why = s(frame, "count.why_dry")
        elif int(count.get("number", 1)) > 1 and len(who) < len(seats):
            why = s(frame, "count.why_tie", names=names(frame, seats, who))
        else:
            why = s(frame, "count.why_target", n=int(view.get("target_score", 0)))
        return (s(frame, "count.title"), why, s(frame, "count.ask"),
                s(frame, "count.count", n=len(self.done_seats(view)), m=len(who)))


class ReviewScene(Scene):
    """The totals revealed together on the score pad; the host's corrections stay visible."""

    name = "companion_review"

    def __init__(self) -> None:
        super().__init__()
        self._ticker = Ticker()
        self._played = False

    def update(self, dt: float, frame: Frame, ctx: RenderContext) -> None:
        super().update(dt, frame, ctx)
        if not self._played:
            ctx.sound.play(Effect.REVEAL)
            self._played = True
        self._ticker.update(frame, ctx)

    def draw(self, surface: pygame.Surface, frame: Frame, ctx: RenderContext) -> None:
        u = frame.scale.u
        w, h = frame.size
        view = view_of(frame)
        seats = seat_models(frame)
        surface.fill(theme.BACKGROUND)
        count = companion(view).get("count") or {}
        title = pygame.Rect(0, round(h * 0.03), w, round(h * 0.09))
        ctx.text.draw(surface, s(frame, "review.title"), frame.lang, title,
                      TextStyle(round(46 * u), theme.GOLD, bold=True, align=Align.CENTER, max_lines=1))
        who = [int(x) for x in count.get("seats", [])]
        totals = count.get("totals") or []
        target = int(view.get("target_score", 0))
        best = max((int(t) for t in totals if t is not None), default=0)
        lead = frozenset(k for k, t in zip(who, totals) if t is not None and int(t) == best and best >= target)
        area = pygame.Rect(round(w * 0.16), title.bottom + round(h * 0.03), round(w * 0.56), round(h * 0.7))
        if frame.lang == "fa":
            area.x = w - area.right
        draw_pad(surface, frame, ctx, area, companion(view).get("pad", {}), seats,
                 lambda r: s(frame, "pad.count", n=r), trace=trace_lines(frame, seats, view), highlight=lead,
                 rows_of=who)
        ring_x = round(w * 0.85) if frame.lang != "fa" else round(w * 0.15)
        draw_timer(surface, frame, ctx, (ring_x, round(h * 0.35)), h * 0.08)
        hint = pygame.Rect(round(w * 0.05), round(h * 0.88), round(w * 0.9), round(h * 0.09))
        ctx.text.draw(surface, s(frame, "review.hint", n=target), frame.lang, hint,
                      TextStyle(round(24 * u), theme.TEXT_DIM, align=Align.CENTER, max_lines=2, min_px=8))
        draw_notices(surface, frame, ctx)
