"""Kiosk pages on a real phone browser: the owner's page on the host console (fa, th, en) and the
kind message an old group's phone gets when the table is handed to the next group."""
from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from game.kiosk.archive import Archive, Outcome
from game.kiosk.owner import day_start
from game.kiosk.web import install_kiosk
from game.server.app import ServerSettings
from game.server.runtime import TableRuntime
from game.session.snapshot import RunMode

from .conftest import ADMIN_PIN, BOT_DELAY_SCALE, Phones, Table, start_runtime
from .phone import join

pytestmark = pytest.mark.browser
WEB_STRINGS = Path(__file__).resolve().parents[2] / "game" / "i18n"


def web_text(lang: str, key: str) -> str:
    return str(json.loads((WEB_STRINGS / f"web_{lang}.json").read_text(encoding="utf-8"))[key])


@pytest.fixture
def kiosk_table(tmp_path: Path) -> Iterator[Table]:
    plain = start_runtime(tmp_path)
    config = replace(plain.config, mode=RunMode.KIOSK)
    plain.stop()
    runtime = TableRuntime(config, ServerSettings(extend=install_kiosk), bot_delay_scale=BOT_DELAY_SCALE)
    runtime.start()
    runtime.wait_ready()
    t = Table(runtime, tmp_path)
    yield t
    t.runtime.stop()


def earlier_today(seconds: float) -> float:
    """``seconds`` ago, or local midnight if that was yesterday: the owner's tables count from
    midnight, so a seeded game must start today whatever the hour the test runs (just after
    midnight its story runs on past now)."""
    now = time.time()
    return max(now - seconds, day_start(now))


def seed_archive(data_dir: Path) -> None:
    """A morning at the café, written beside the running table (the archive is one sqlite file)."""
    clock = [earlier_today(3 * 3600)]
    archive = Archive(data_dir / "archive.sqlite3", lambda: clock[0])
    for n, (game, people, minutes) in enumerate([("collusion", 6, 24), ("speakeasy", 5, 18),
                                                  ("collusion", 8, 31), ("cheating_moth", 4, 12)], 100):
        archive.game_started(n, game, None, 8, people)
        clock[0] += minutes * 60
        archive.game_ended(n, Outcome.FINISHED)
        clock[0] += 600
    archive.add_error("bot at seat 3 failed", "bot")
    archive.add_error("arcade board lost: races use phones and keyboard", "arcade_unplugged")
    archive.close()


def send_bad_requests(url: str, n: int) -> None:
    """``n`` requests the server cannot parse (a guest's device on the LAN), each answered 400."""
    address = urlsplit(url)
    for _ in range(n):
        with socket.create_connection((address.hostname or "127.0.0.1", address.port or 80), timeout=5) as sock:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: table\r\nBad Header\r\n\r\n")
            assert b" 400 " in sock.recv(64)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_owners_page_on_the_host_console(kiosk_table: Table, phones: Phones, shots: Path, lang: str) -> None:
    seed_archive(kiosk_table.tmp_path / "data")
    send_bad_requests(kiosk_table.url, 3)  # guests' noise: counted on its own line, never an error
    kiosk_table.host("set_language", language=lang)
    host = phones.open(f"{kiosk_table.url}/host", locale={"en": "en-US", "fa": "fa-IR", "th": "th-TH"}[lang])
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    owner = host.locator("[data-testid=owner]")
    owner.locator(".owner-table").first.wait_for()
    owner.scroll_into_view_if_needed()
    text = owner.inner_text()
    assert "cheating" not in text.lower() or lang == "en"  # game names are translated
    errors = owner.locator("[data-testid=owner-error]")  # newest first, in plain words, the raw line under it
    assert errors.count() == 2
    assert web_text(lang, "owner.kind.arcade_unplugged") in errors.first.inner_text()
    assert errors.first.locator("[data-testid=owner-error-detail]").inner_text() == \
        "arcade board lost: races use phones and keyboard"
    assert web_text(lang, "owner.kind.bot") in errors.nth(1).inner_text()
    bad = owner.locator("[data-testid=owner-bad-requests]").inner_text()
    words = web_text(lang, "owner.bad_requests.other").replace("{n}", "\0").split("\0")
    assert all(part.strip() in bad for part in words) and bad != web_text(lang, "owner.bad_requests.zero")
    rows = owner.locator(".owner-table").first.locator("tbody tr")
    assert rows.count() == 3  # collusion, speakeasy, cheating moth
    with host.expect_download() as download:
        host.click("[data-testid=owner-csv]")
    csv = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert csv[0].startswith("game_no,game,") and len(csv) == 5
    owner.screenshot(path=str(shots / f"owner_{lang}.png"))


def test_an_old_groups_phone_is_told_kindly(kiosk_table: Table, phones: Phones, shots: Path) -> None:
    url = kiosk_table.seat_url(0)
    page = phones.open(url)
    join(page, "Sara")
    kiosk_table.call(lambda s: s.hand_over())
    page.wait_for_selector("text=This table has a new game")
    assert "Sara" not in page.inner_text("body")
    page.screenshot(path=str(shots / "new_group_en.png"))
    again = phones.open(url)  # the old link, opened later
    again.wait_for_selector("text=This table has a new game")
    assert kiosk_table.snapshot().seats[0].name == ""




@pytest.mark.parametrize("locale, title", [("fa-IR", "این میز بازی تازه‌ای دارد"), ("th-TH", "โต๊ะนี้เริ่มเกมใหม่แล้ว")])
def test_an_old_link_speaks_the_browsers_language_and_nothing_else(kiosk_table: Table, phones: Phones, shots: Path,
                                                                    locale: str, title: str) -> None:
    """The old-link page follows the phone's browser language, and no "Something went wrong" toast
    stands under its message."""
    url = kiosk_table.seat_url(0)
    join(phones.open(url), "Sara")
    kiosk_table.call(lambda s: s.hand_over())
    again = phones.open(url, locale=locale)
    again.wait_for_selector(f"text={title}")
    again.wait_for_timeout(300)
    assert again.locator(".toast").count() == 0
    again.screenshot(path=str(shots / f"new_group_{locale[:2]}.png"))


def test_a_phone_skips_the_how_to_play(kiosk_table: Table, phones: Phones, shots: Path) -> None:
    kiosk_table.host("set_setting", name="how_to_play", value=True)
    page = phones.open(kiosk_table.seat_url(0))
    join(page, "Sara")
    kiosk_table.host("start")
    skip = page.locator("[data-testid=skip-intro]")
    skip.wait_for()
    page.screenshot(path=str(shots / "how_to_play_skip_en.png"))
    skip.click()
    page.wait_for_selector("[data-testid=skip-intro]", state="detached")
    assert kiosk_table.snapshot().phase.value == "playing"


def seed_crash_and_short_game(data_dir: Path) -> str:
    """Written while the table is stopped: a run that crashed with its cause after one 23-second
    game. Returns the cause."""
    clock = [earlier_today(2 * 3600)]
    archive = Archive(data_dir / "archive.sqlite3", lambda: clock[0])
    cause = "the TV's process (pid 4242) ended without stopping the table"
    archive.open_run()
    archive.game_started(300, "speakeasy", None, 5, 3)
    clock[0] += 23
    archive.game_ended(300, Outcome.FINISHED)
    clock[0] += 600
    archive.close_run(cause)
    archive.close()
    return cause


def test_the_owners_page_shows_each_crashs_cause_and_a_short_average_in_seconds(
        kiosk_table: Table, phones: Phones, shots: Path) -> None:
    config = replace(kiosk_table.runtime.config, port=kiosk_table.runtime.port, new=False)
    kiosk_table.runtime.stop()
    cause = seed_crash_and_short_game(kiosk_table.tmp_path / "data")
    kiosk_table.runtime = TableRuntime(config, ServerSettings(extend=install_kiosk),  # back after the crash
                                       bot_delay_scale=BOT_DELAY_SCALE)
    kiosk_table.runtime.start()
    kiosk_table.runtime.wait_ready()
    host = phones.open(f"{kiosk_table.url}/host", locale="en-US")
    host.fill("[data-testid=pin-input]", ADMIN_PIN)
    host.click("[data-testid=pin-go]")
    owner = host.locator("[data-testid=owner]")
    owner.locator(".owner-table").first.wait_for()
    crash = owner.locator("[data-testid=owner-crash]")
    assert crash.count() == 1
    assert crash.locator("[data-testid=owner-crash-cause]").inner_text() == cause
    row = owner.locator(".owner-table").first.locator("tbody tr").first.inner_text()
    assert "23 s" in row and "1 min" not in row  # a 23 s average read "1 min"
    owner.scroll_into_view_if_needed()
    owner.screenshot(path=str(shots / "owner_crash_cause_en.png"))
