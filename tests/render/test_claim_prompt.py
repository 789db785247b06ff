"""The TV's approval prompt: a phone asking for a held seat is shown over any
scene, Y allows and N refuses the first request; without a request, Y and N do what they did."""
from __future__ import annotations

import dataclasses
from typing import Any

import pygame
import pytest

from game import i18n
from game.render.app import Screen
from game.render.kit.qr import QrCache
from game.render.kit.scene import HostIntent, RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.session.snapshot import ClaimInfo, RunMode, TableSnapshot
from game.tapes import lobby_snapshot

SIZE = (1920, 1080)
ALI = {"id": 7, "seat": 0, "name": "", "seat_name": "Ali", "bot": False}
SARA_FOR_BOT = {"id": 8, "seat": 3, "name": "Sara", "seat_name": "Red", "bot": True}


def with_claims(lang: str, *claims: dict[str, Any]) -> TableSnapshot:
    snap = lobby_snapshot(6, lang, joined=3, bots=2)
    return dataclasses.replace(snap, claims=tuple(ClaimInfo.from_json(c) for c in claims))


def key(k: int) -> pygame.event.Event:
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def screen_for(snap: TableSnapshot, ctx: RenderContext) -> Screen:
    screen = Screen(ctx=ctx)
    screen.sync(snap)
    screen.advance(0.05, SIZE)
    return screen


def shown(snap: TableSnapshot) -> list[str]:
    texts: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, lang, box, fitted: texts.append(text)), QrCache(), SoundBank(enabled=False))
    screen_for(snap, ctx).draw(pygame.Surface(SIZE))
    return texts


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_item1_the_tv_asks_the_host_with_the_seats_name_and_the_keys(lang: str) -> None:
    texts = shown(with_claims(lang, ALI, SARA_FOR_BOT))
    assert i18n.text(lang, "screen", "claim.phone", name="Ali") in texts
    assert i18n.text(lang, "screen", "claim.keys") in texts
    assert not any("Sara" in text for text in texts)  # one request at a time: the second waits its turn
    assert i18n.text(lang, "screen", "claim.keys") not in shown(with_claims(lang))


def test_item2_a_guest_asking_for_a_bots_seat_is_named() -> None:
    assert "A phone calling itself “Sara” asks to take over from the bot Red" in shown(with_claims("en", SARA_FOR_BOT))


def test_item1_y_allows_and_n_refuses_the_first_request(shared_ctx: RenderContext) -> None:
    screen = screen_for(with_claims("en", ALI, SARA_FOR_BOT), shared_ctx)
    answers = [i.payload() for k in (pygame.K_y, pygame.K_n) for i in screen.handle(key(k), SIZE) if isinstance(i, HostIntent)]
    assert answers == [{"command": "claim", "id": 7, "allow": True}, {"command": "claim", "id": 7, "allow": False}]


def test_without_a_request_y_and_n_are_not_answers(shared_ctx: RenderContext) -> None:
    screen = screen_for(with_claims("en"), shared_ctx)
    for k in (pygame.K_y, pygame.K_n):
        assert all(i.payload()["command"] != "claim" for i in screen.handle(key(k), SIZE) if isinstance(i, HostIntent))


def test_a_kiosks_keyboard_does_not_answer_only_the_host_console_does(shared_ctx: RenderContext) -> None:
    snap = dataclasses.replace(with_claims("en", ALI), mode=RunMode.KIOSK)
    screen = screen_for(snap, shared_ctx)
    assert all(i.payload()["command"] != "claim" for i in screen.handle(key(pygame.K_y), SIZE) if isinstance(i, HostIntent))
    assert i18n.text("en", "screen", "claim.keys_kiosk") in shown(snap)
