"""Seat claims on real phones: a second phone typing a held seat's code is told to ask
the host, the host allows it on the host console, the old phone is told kindly and the new one has
the seat (its link and code rotated); a bot seat's link mid-game asks for a name, then the host.
Screenshots: out/phone/<lang>_claim_*.png (the join page, the waiting phone, the host console)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import give_seat, host_console, join

pytestmark = pytest.mark.browser

NAMES = {"en": "Ali", "fa": "علی", "th": "สมชาย"}
WORDS = {  # what each page must say, in the table's language (from game/i18n/web_*.json)
    "en": ("Ask the host", "Asking the host", "A phone asks for Ali's seat", "moved to another phone"),
    "fa": ("از میزبان بخواهید", "در انتظار اجازه‌ی میزبان", "یک گوشی صندلی علی را می‌خواهد", "به گوشی دیگری رفت"),
    "th": ("ขอให้โฮสต์อนุญาต", "กำลังขอโฮสต์", "มีโทรศัพท์ขอที่นั่งของ สมชาย", "ย้ายไปอีกเครื่องแล้ว"),
}


def shoot(page: Any, folder: Path, lang: str, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(folder / f"{lang}_{name}.png"), full_page=True, animations="disabled")


DANGER_RED = "rgb(255, 85, 119)"  # --danger in game/web/style.css


def message_look(page: Any) -> tuple[str, str, str]:
    """The /join message's class, role and text colour."""
    cls, role, colour = page.eval_on_selector("[data-testid=join-message]",
                                              "el => [el.className, el.getAttribute('role'), getComputedStyle(el).color]")
    return cls, role, colour


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_a_held_seats_code_on_a_new_phone_asks_the_host_who_allows_it(lang: str, table: Table, phones: Phones,
                                                                           shots: Path) -> None:
    table.host("set_language", language=lang)
    ali = phones.open(table.seat_url(0))
    join(ali, NAMES[lang])
    old_code = table.seat_code(0)
    assert table.snapshot().seats[0].code == ""  # the TV no longer shows a held seat's code or QR
    host = host_console(table, phones, lang)

    new_phone = phones.open(f"{table.url}/join", scale=2, init_script=f"localStorage.setItem('tabletop.lang', '{lang}')")
    new_phone.type("[data-testid=code-input]", "b0s")  # letters no code uses are named, not dropped silently
    assert "B 0 S" in new_phone.inner_text(".form-error")
    assert message_look(new_phone) == ("form-error", "alert", DANGER_RED)  # a real error stays red
    shoot(new_phone, shots, lang, "join_letters")
    new_phone.fill("[data-testid=code-input]", "")
    new_phone.type("[data-testid=code-input]", old_code.lower())
    new_phone.click("[data-testid=code-go]")
    new_phone.wait_for_selector("[data-testid=ask-host]")
    assert WORDS[lang][0] in new_phone.inner_text("main")
    # "someone holds this seat: ask the host" is information, not an error: neutral, not red
    assert message_look(new_phone)[:2] == ("form-info", "status") and message_look(new_phone)[2] != DANGER_RED
    shoot(new_phone, shots, lang, "claim_join")
    new_phone.click("[data-testid=ask-host]")
    new_phone.wait_for_selector("[data-testid=asking-host]")
    assert WORDS[lang][1] in new_phone.inner_text("main")
    assert new_phone.locator("[data-testid=me-card], .vote-grid").count() == 0  # nothing of the seat yet
    shoot(new_phone, shots, lang, "claim_waiting")

    host.wait_for_selector("[data-testid=claim-0]")
    assert WORDS[lang][2] in host.inner_text("[data-testid=claims]")
    assert host.locator("[data-testid=kick-hint]").count() == 1  # "Free seat" says what it does
    host.set_viewport_size({"width": 360, "height": 900})
    shoot(host, shots, lang, "claim_host")
    host.click("[data-testid=allow-0]")

    ali.wait_for_selector(".full-message")
    assert WORDS[lang][3] in ali.inner_text(".full-message")
    shoot(ali, shots, lang, "claim_moved")
    new_phone.wait_for_selector("[data-testid=me-card]")
    assert new_phone.inner_text("[data-testid=my-name]") == NAMES[lang]
    assert table.seat_code(0) != old_code
    host.wait_for_selector("[data-testid=claims]", state="detached")


def test_the_host_refuses_and_the_seat_stays(table: Table, phones: Phones) -> None:
    ali = phones.open(table.seat_url(0))
    join(ali, "Ali")
    stranger = phones.open(table.seat_url(0))  # a photo of the QR taken before Ali joined
    stranger.wait_for_selector("[data-testid=asking-host]")
    host = host_console(table, phones, "en")
    host.click("[data-testid=refuse-0]")
    stranger.wait_for_selector(".full-message")
    assert "The host said no" in stranger.inner_text(".full-message")
    assert ali.inner_text("[data-testid=my-name]") == "Ali" and ali.locator(".full-message").count() == 0


def test_a_bot_seats_link_mid_game_needs_a_name_and_the_host(table: Table, phones: Phones) -> None:
    ali = phones.open(table.seat_url(0))
    join(ali, "Ali")
    table.host("set_setting", name="conspiracy_ms", value=120_000)
    table.host("fill_bots", kind="heuristic")
    table.host("start")
    ali.wait_for_selector(".vote-grid")
    guest = phones.open(table.seat_url(2))
    guest.wait_for_selector("[data-testid=claim-note]")  # a name first; the bot keeps playing meanwhile
    assert table.snapshot().seats[2].status.value == "bot"
    guest.fill("[data-testid=name-input]", "Nok")
    guest.click("[data-testid=name-go]")
    guest.wait_for_selector("[data-testid=asking-host]")
    assert table.snapshot().seats[2].status.value == "bot"  # still the bot's until the host allows
    claim = table.call(lambda s: s.claims[0].id)
    table.host("claim", id=claim, allow=True)
    guest.wait_for_selector(".who-name")
    guest.wait_for_function("document.querySelector('.who-name')?.textContent === 'Nok'")
    seat = table.snapshot().seats[2]
    assert seat.status.value == "joined" and seat.name == "Nok"


def test_a_name_with_an_emoji_is_refused_on_the_phone(table: Table, phones: Phones) -> None:
    page = phones.open(table.seat_url(1))
    page.wait_for_selector("[data-testid=name-input]")
    page.fill("[data-testid=name-input]", "Sara 😀")
    page.click("[data-testid=name-go]")
    page.wait_for_selector(".form-error:not(:empty)")
    assert "can't show 😀" in page.inner_text(".form-error")
    assert table.snapshot().seats[1].status.value == "free" or table.snapshot().seats[1].name == ""
    page.fill("[data-testid=name-input]", "Sara")
    page.click("[data-testid=name-go]")
    page.wait_for_selector("[data-testid=me-card]")


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_dead_phones_player_taps_their_seat_and_the_host_lets_them_in(lang: str, table: Table, phones: Phones,
                                                                              shots: Path) -> None:
    table.host("set_language", language=lang)
    ali = phones.open(table.seat_url(0))
    join(ali, NAMES[lang])
    ali.context.close()  # the phone died
    phones.contexts.remove(ali.context)
    for _ in range(500):  # the table notices the closed socket (each call is a round trip to its loop)
        if not table.call(lambda s: s.is_connected(0)):
            break
    new_phone = phones.open(f"{table.url}/join", init_script=f"localStorage.setItem('tabletop.lang', '{lang}')")
    new_phone.wait_for_selector("[data-testid=away-0]")
    shoot(new_phone, shots, lang, "join_away")
    new_phone.click("[data-testid=away-0]")
    new_phone.wait_for_selector("[data-testid=asking-host]")
    table.host("claim", id=table.call(lambda s: s.claims[0].id), allow=True)  # Y on the TV
    new_phone.wait_for_selector("[data-testid=me-card]")
    assert new_phone.inner_text("[data-testid=my-name]") == NAMES[lang]


def test_the_seated_phone_gives_its_seat_to_its_players_new_phone(table: Table, phones: Phones, shots: Path) -> None:
    old = phones.open(table.seat_url(0))
    join(old, "Ali")
    new_phone = phones.open(table.seat_url(0))  # the same link on the player's new phone
    new_phone.wait_for_selector("[data-testid=asking-host]")
    old.wait_for_selector("[data-testid=consent]")
    shoot(old, shots, "en", "claim_consent")
    give_seat(old)
    old.wait_for_selector(".full-message")
    assert "You gave your seat to another phone" in old.inner_text(".full-message")  # not "the host"
    new_phone.wait_for_selector("[data-testid=me-card]")
    assert new_phone.inner_text("[data-testid=my-name]") == "Ali"


OTHERS = {"en": "3 other phones are asking for this seat too", "fa": "۳ گوشی دیگر هم این صندلی را می‌خواهند"}


@pytest.mark.parametrize("lang", ["en", "fa"])
def test_a_flood_on_one_seat_is_one_host_card_with_the_count_of_other_askers(lang: str, table: Table, phones: Phones,
                                                                                  shots: Path) -> None:
    table.host("set_language", language=lang)
    ali = phones.open(table.seat_url(0))
    join(ali, NAMES[lang])
    ali.close()  # away: "my phone died"
    for n in range(5):  # five devices of the LAN ask for it through the public away link (four are kept)
        table.call(lambda session, n=n: session.request_claim(0, "Sara", None, f"10.0.9.{n}"))
    host = host_console(table, phones, lang)
    host.wait_for_selector("[data-testid=claim-others-0]")
    assert len(host.query_selector_all(".claim-row")) == 1  # one card for the seat, not five "Sara"s
    assert host.inner_text("[data-testid=claim-others-0]").startswith(OTHERS[lang][:12])
    shoot(host, shots, lang, "claim_others")
