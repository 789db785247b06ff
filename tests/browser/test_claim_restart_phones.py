"""A phone waiting for the host to hand it a held seat, on real phones through kill -9 and a
restart of the server process on the same data: the waiting phone keeps waiting and asks again by
itself (its hello on reconnect), the host console shows the request again, and Ali's phone,
back online only after the restart, is asked again (its card from before the restart is gone)
and gives the seat. Screenshots: out/phone/<lang>_claim_after_restart_*.png."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.reliability.crash_kit import PIN, ServerProcess, free_port

from .conftest import Phones
from .phone import give_seat, join

pytestmark = pytest.mark.browser

WAITING = {"fa": "در انتظار اجازه‌ی میزبان", "th": "กำลังขอโฮสต์"}


class Background:
    """An event loop on a thread for the server process's async start (Playwright owns this one)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(90)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


@pytest.fixture
def background() -> Iterator[Background]:
    loop = Background()
    yield loop
    loop.stop()


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_a_waiting_phone_is_still_waiting_after_kill_9(lang: str, background: Background, phones: Phones,
                                                      shots: Path, tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "data", free_port(), "--lang", lang)
    try:
        restart_while_waiting(process, background, phones, shots, lang)
    finally:
        process.stop()


def restart_while_waiting(process: ServerProcess, background: Background, phones: Phones, shots: Path, lang: str) -> None:
    tokens = background.run(process.start())
    url = f"http://127.0.0.1:{process.port}"
    as_lang = f"localStorage.setItem('tabletop.lang', '{lang}')"
    ali = phones.open(f"{url}/s/{tokens[0]}", init_script=as_lang)
    join(ali, "Ali")
    stranger = phones.open(f"{url}/s/{tokens[0]}", init_script=as_lang)  # Ali's link on another phone
    stranger.wait_for_selector("[data-testid=asking-host]")
    ali.wait_for_selector("[data-testid=consent]")
    ali.context.set_offline(True)  # Ali's phone loses the Wi-Fi, and the table dies
    process.kill9()
    background.run(process.start())

    host = phones.open(f"{url}/host", init_script=as_lang)
    host.fill("[data-testid=pin-input]", PIN)
    host.click("[data-testid=pin-go]")
    host.wait_for_selector("[data-testid=claim-0]")  # asked again by itself: nobody typed or tapped
    assert WAITING[lang] in stranger.inner_text("[data-testid=asking-host]")
    assert stranger.locator("[data-testid=me-card]").count() == 0
    stranger.screenshot(path=str(shots / f"{lang}_claim_after_restart_waiting.png"), full_page=True)
    host.screenshot(path=str(shots / f"{lang}_claim_after_restart_host.png"), full_page=True)

    ali.context.set_offline(False)
    ali.wait_for_function("document.body.dataset.status === 'online'")
    ali.wait_for_selector("[data-testid=consent]")  # the request as it is now
    ali.screenshot(path=str(shots / f"{lang}_claim_after_restart_consent.png"), full_page=True)
    give_seat(ali)
    stranger.wait_for_selector("[data-testid=name-input], [data-testid=me-card]")
    ali.wait_for_selector(".full-message")


def test_a_request_that_went_away_with_the_restart_leaves_no_card(background: Background, phones: Phones,
                                                                  tmp_path: Path) -> None:
    process = ServerProcess(tmp_path / "data", free_port())
    try:
        tokens = background.run(process.start())
        url = f"http://127.0.0.1:{process.port}"
        ali = phones.open(f"{url}/s/{tokens[0]}")
        join(ali, "Ali")
        stranger = phones.open(f"{url}/s/{tokens[0]}")
        stranger.wait_for_selector("[data-testid=asking-host]")
        ali.wait_for_selector("[data-testid=consent]")
        process.kill9()
        stranger.context.close()  # the other phone gave up while the table was down
        phones.contexts.remove(stranger.context)
        background.run(process.start())
        ali.wait_for_function("document.body.dataset.status === 'online'")
        ali.wait_for_selector("[data-testid=me-card]")
        ali.wait_for_selector("[data-testid=consent]", state="detached")  # nobody asks any more: no stale card
    finally:
        process.stop()
