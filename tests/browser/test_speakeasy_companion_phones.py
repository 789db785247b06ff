"""Three phones play a companion game of Speakeasy through the real server, with real identity cards
and real fingers: the host picks the subject on their phone, the countdown, the host taps who
pointed at whom (a slip undone), the subject turns their card over with one tap (S8), the next
host continues (S10), the last identities are tapped (S12) and S13 names the winner."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import Phones, Table
from .phone import join, open_seats

pytestmark = pytest.mark.browser

NAMES = ("Sara", "Ali", "Nok")


def view(table: Table) -> dict[str, Any]:
    return table.call(lambda s: s.update.message(None)["view"])


def settle(table: Table, page: Any, leave: str) -> dict[str, Any]:
    """The table's view once it has left phase ``leave`` (polls the state, never a timer)."""
    for _ in range(300):
        v = view(table)
        if v["phase"] != leave:
            return v
        page.wait_for_timeout(20)
    raise AssertionError(f"the table stayed in {leave}")


def play_clue(table: Table, pages: list[Any], shots: Path | None = None) -> dict[str, Any]:
    """The host picks the first other seat; fingers: everyone points at the subject (one slip undone)."""
    v = view(table)
    host = v["host"]
    a, b = [s for s in range(3) if s != host]
    pages[host].click(f"[data-testid=seat-{a}]")
    pages[host].wait_for_selector("[data-testid=fingers-done], [data-testid=undo-finger], [data-testid^=finger-]")
    pages[host].click(f"[data-testid=finger-{a}-{a}]")
    pages[host].click(f"[data-testid=finger-{b}-none]")  # a slip…
    pages[host].wait_for_selector("[data-testid=undo-finger]")
    pages[host].click("[data-testid=undo-finger]")  # …taken back
    pages[host].wait_for_function(f"!document.querySelector('[data-testid=finger-{b}-none][aria-pressed=true]')")
    pages[host].click(f"[data-testid=finger-{b}-{a}]")
    if shots is not None:
        pages[host].screenshot(path=str(shots / "speakeasy_companion_fingers_en.png"), full_page=True)
    pages[host].click("[data-testid=fingers-done]")
    return {"host": host, "subject": a, "other": b}


def _next(table: Table, page: Any, before: dict[str, Any]) -> dict[str, Any]:
    for _ in range(300):
        v = view(table)
        if v["identity_asked"] != before["identity_asked"] or v["phase"] != before["phase"]:
            return v
        page.wait_for_timeout(20)
    raise AssertionError("the identity tap did not arrive")


def test_three_phones_play_a_companion_game_with_real_cards_and_fingers(table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_game", game="speakeasy_companion")
    table.host("set_seats", count=3)
    for name, value in (("identities", "cards"), ("pointing", "hands"), ("clues_per_game", 2), ("countdown_ms", 1000)):
        table.host("set_setting", name=name, value=value)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    table.host("start")
    for page in pages:
        page.wait_for_selector("[data-testid=clue]")
        assert page.locator("[data-testid=real-identity]").count() == 1  # the program knows no card

    first = play_clue(table, pages, shots)
    subject = pages[first["subject"]]
    subject.wait_for_selector("[data-testid=turned-citizen-me]")
    assert pages[first["other"]].locator("[data-testid^=turned-]").count() == 0
    subject.screenshot(path=str(shots / "speakeasy_companion_reveal_en.png"), full_page=True)
    subject.click("[data-testid=turned-citizen-me]")  # S8: a citizen found scores 1 alone
    for page in pages:
        page.wait_for_selector("[data-testid=pad-trace], [data-testid=pad]")
    assert view(table)["seats"][first["subject"]]["score"] == 1
    assert "S8" in pages[first["other"]].inner_text("[data-testid=quick-rule]")
    nxt = view(table)["next_host"]
    pages[nxt].click("[data-testid=continue]")

    second = view(table)
    assert second["host"] == nxt and second["clue"]["number"] == 2  # S5, S10: the host rotates
    play_clue(table, pages)
    v = settle(table, pages[0], "recording")
    if v["phase"] == "identity":  # the subject of clue 2 was not revealed yet: one tap (S8)
        pages[v["identity_asked"][0]].click("[data-testid=turned-informant-me]")
        v = settle(table, pages[0], "identity")
    pages[v["next_host"]].click("[data-testid=continue]")
    v = settle(table, pages[0], "reveal")
    while v["phase"] == "final_identities":  # S12: every card never revealed is turned over, one tap each
        pages[v["identity_asked"][0]].click("[data-testid=turned-citizen-me]")
        v = settle(table, pages[0], "final_identities") if len(v["identity_asked"]) == 1 else _next(table, pages[0], v)
    for page in pages:
        page.wait_for_selector("[data-testid=result]")
    final = view(table)
    assert final["phase"] == "game_over" and final["winners"]
    scores = [s["score"] for s in final["seats"]]
    assert scores == [sum(p or 0 for p in row) for row in final["pad"]["rows"]]
    pages[0].screenshot(path=str(shots / "speakeasy_companion_over_en.png"), full_page=True)


def test_three_phones_point_in_secret_and_the_subject_reveals_with_one_tap(table: Table, phones: Phones, shots: Path) -> None:
    """Identities dealt to the phones (face down, tap to peek) and pointing on the phones: nobody's
    phone learns where another pointed before the reveal (S7); the subject's reveal is one tap (S8)."""
    table.host("set_game", game="speakeasy_companion")
    table.host("set_seats", count=3)
    for name, value in (("clues_per_game", 1), ("countdown_ms", 1000)):
        table.host("set_setting", name=name, value=value)
    frames: list[list[dict[str, Any]]] = [[], [], []]
    pages = [phones.open(table.seat_url(i), frames=frames[i]) for i in range(3)]
    for page, name in zip(pages, NAMES):
        join(page, name)
    table.host("start")
    for page in pages:
        page.wait_for_selector("[data-testid=identity-peek]")  # own identity, face down
    host = view(table)["host"]
    a, b = [s for s in range(3) if s != host]
    pages[host].click(f"[data-testid=seat-{a}]")
    for s in (a, b):
        pages[s].wait_for_selector(f"[data-testid=seat-{a}]:not([disabled])")  # point! (after the countdown)
    pages[a].click(f"[data-testid=seat-{a}]")  # a thinks the clue is about themselves
    pages[a].wait_for_selector(f"[data-testid=seat-{a}][aria-pressed=true]")
    pages[b].screenshot(path=str(shots / "speakeasy_companion_pointing_en.png"), full_page=True)
    pages[b].click(f"[data-testid=seat-{a}]")
    pages[a].wait_for_selector("[data-testid=reveal-me]")
    pages[a].click("[data-testid=reveal-me]")  # S8 in one tap
    pages[view(table)["next_host"]].click("[data-testid=continue]")
    for page in pages:
        page.wait_for_selector("[data-testid=result]")
    final = view(table)
    assert final["phase"] == "game_over" and all(s["revealed"] for s in final["seats"])  # S12 for the rest
    for i, received in enumerate(frames):
        for f in received:
            v = f.get("view") if f.get("kind") == "state" else None
            if not v or v["phase"] != "pointing":
                continue
            assert v["me"]["seat"] == i and v["pointing"] is None  # nobody else's finger before the reveal
            assert v["me"]["pointed_at"] in (None, a)  # only its own, once pointed


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_S6_the_console_picks_for_a_clue_host_whose_seat_was_freed(lang: str, table: Table, phones: Phones,
                                                                    shots: Path) -> None:
    """The clue host leaves (the host frees their seat) while the untimed choice waits on them: the
    console offers to choose for them, in the table's language, and the clue goes on."""
    from .phone import host_console
    from .test_host_final_choices import LONG_NAMES
    from .test_screenshots import shoot

    table.host("set_language", language=lang)
    table.host("set_game", game="speakeasy_companion")
    table.host("set_seats", count=3)
    host = host_console(table, phones, lang)
    open_seats(table, phones, LONG_NAMES)
    table.host("start")
    clue_host = view(table)["host"]
    assert host.locator("[data-testid=pick-for-host]").count() == 0  # their phone is there: they choose
    table.host("kick", seat=clue_host)
    panel = host.locator("[data-testid=pick-for-host]")
    panel.wait_for()
    offered = panel.locator("[data-testid^=seat-]").all_inner_texts()  # the others, never the clue host
    assert sorted(offered) == sorted(LONG_NAMES[s] for s in range(3) if s != clue_host)
    for width in (320, 390):
        host.set_viewport_size({"width": width, "height": 720})
        assert host.evaluate("document.documentElement.scrollWidth <= innerWidth")
        shoot(host, shots, lang, f"speakeasy_pick_for_host_{width}")
    subject = next(s for s in range(3) if s != clue_host)
    panel.locator(f"[data-testid=seat-{subject}]").click()
    after = settle(table, host, "choosing")
    assert after["phase"] in ("countdown", "pointing")
    host.locator("[data-testid=pick-for-host]").wait_for(state="detached")
