"""The Collusion reveal's words stay readable under its arrows: the round's
title and the score to reach sit in the window's top corner, off the table, where no card or
arrow goes; the pot's and the deck's words are drawn over the arrows, on a dark chip."""
from __future__ import annotations

import pygame
import pytest

from game import i18n
from game.games.collusion.screen.model import seat_models
from game.games.collusion.screen.table import card_rect
from game.games.collusion.tapes import _vote
from game.render.kit import theme
from game.render.kit.motion import edge_point
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.table import table_layout
from game.render.kit.text import Fitted, TextRenderer
from game.tapes import Moment, ScriptedTable, play_moment

SIZE = (1280, 720)


def reveal_drawn(n: int, lang: str) -> tuple[pygame.Surface, dict[str, pygame.Rect], list[tuple[int, int]], object]:
    """A reveal at ``n`` seats with its arrows drawn: the picture, each text's drawn rect, the votes."""
    t = ScriptedTable("collusion", n, lang, preset="tabani")
    t.start()
    for seat in range(n):
        _vote(t, seat, None if seat in (0, n // 2) else 0 if seat % 2 else n // 2)
    before = t.snapshot()
    t.expire()
    after = t.snapshot()
    texts: dict[str, pygame.Rect] = {}

    def probe(text: str, _lang: str, box: pygame.Rect, fitted: Fitted) -> None:
        texts[text] = fitted.surface.get_rect(center=box.center)

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    surface = pygame.Surface(SIZE)
    play_moment(Moment("reveal", (before, after), play_s=2.2), SIZE, ctx).draw(surface)
    votes = [(s, v) for s, v in enumerate(after.public_view["last_reveal"]["voted_for"]) if v is not None]
    return surface, texts, votes, before


@pytest.mark.parametrize("n", [8, 9, 12])
@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_reveals_arrows_leave_its_words_readable(lang: str, n: int) -> None:
    surface, texts, votes, before = reveal_drawn(n, lang)
    lay = table_layout(SIZE, n)
    seats = seat_models(before)
    title = texts[i18n.text(lang, "screen", "table.round", round=1, vote=1)]
    target = texts[i18n.text(lang, "screen", "table.target", n=int(before.public_view["target_score"]))]
    for rect in (title, target):
        assert rect.bottom < lay.felt.top  # off the table: cards and arrows stay on it
        assert not any(card_rect(lay, s).colliderect(rect) for s in range(n))
        assert not any(rect.clipline(card_rect(lay, s).center, edge_point(lay.spots[v].plate, card_rect(lay, s).center))
                       for s, v in votes)
    colours = {theme.seat_colour(s, seats[s].colour)[:3] for s, _ in votes}
    for key, values in (("table.pot", {"n": int(before.public_view["pot"])}), ("table.deck", {"n": int(before.public_view["deck"])})):
        rect = texts[i18n.text(lang, "screen", key, **values)].inflate(-2, -2)
        assert not any(card_rect(lay, s).colliderect(rect) for s in range(n)), key
        under = {surface.get_at((x, y))[:3] for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom)}
        assert not under & colours, key  # no arrow shows through the words
