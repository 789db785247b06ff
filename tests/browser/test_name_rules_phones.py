"""On real phones, the name form applies the table's name rules
(game/session/names.py) before sending, with the same verdict as the table on random Unicode, and
says clearly why a name is refused (blank, stacked marks, someone else's name) in en, fa and th.
Screenshots: out/phone/<lang>_name_blank.png, <lang>_name_taken.png."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from game.rules.base import MalformedAction
from game.session.names import DRAWABLE_RANGES, clean_name

from .conftest import Phones, Table
from .phone import join
from .test_screenshots import shoot

pytestmark = pytest.mark.browser

CASES = 800
VERDICT = {  # the table's error code -> the message the phone's form shows for it
    "malformed": {"name.empty"},
    "blank_name": {"name.blank"},
    "bad_name": {"name.undrawable"},
    "name_marks": {"name.marks"},
    "name_taken": {"name.taken"},
}
TAKEN = ["Sara", "علی", "", "สมชาย"]
REFUSED = {  # what the form says (game/i18n/web_*.json name.blank, name.taken)
    "en": ("at least one letter or digit", "Sara is already at the table"),
    "fa": ("دست‌کم یک حرف یا رقم", "Sara همین حالا سر میز است"),
    "th": ("อย่างน้อยหนึ่งตัว", "Sara อยู่ที่โต๊ะแล้ว"),
}


def random_names(rng: random.Random) -> list[str]:
    """Names typed from a pool weighted towards the hard parts: marks, invisible characters,
    scripts side by side, emoji, the other seats' names."""
    pool = [chr(rng.randint(low, high)) for low, high in DRAWABLE_RANGES for _ in range(12)]
    pool += list("\u200c\u200e\u200f\u034f \u00a0\u0301\u0308\u064e\u0651\u0e31\u0e48\u0e49😀\u200d\ufe0f\t") * 6
    names = ["".join(rng.choice(pool) for _ in range(rng.randint(0, 10))) for _ in range(CASES)]
    return names + [f"{name}{rng.choice(['', chr(0x200E), chr(0x200C)])}" for name in TAKEN if name]


def table_verdict(name: str) -> str | None:
    """The table's error code for a name the form would send; None: taken as it is."""
    try:
        kept = clean_name(name, TAKEN)
    except MalformedAction as exc:
        return exc.code
    assert kept == name, f"the table changed {name!r} the phone sends into {kept!r}"
    return None


def test_the_phone_and_the_table_judge_names_alike(table: Table, phones: Phones) -> None:
    page = phones.open(table.seat_url(0))
    page.wait_for_selector("[data-testid=name-input]")
    typed = random_names(random.Random(19))
    judged: list[tuple[str, Any]] = page.evaluate("""async ([names, taken]) => {
        const m = await import("/static/js/screens/join.js");
        return names.map((raw) => { const name = m.cleanName(raw); const p = m.nameProblem(name, taken); return [name, p ? p.key : null]; });
    }""", [typed, TAKEN])
    accepted = 0
    for raw, (name, phone_says) in zip(typed, judged):
        code = table_verdict(name)
        if code is None:
            accepted += 1
            assert phone_says is None, f"{raw!r} -> {name!r}: the phone refuses ({phone_says}) what the table takes"
        else:
            assert phone_says in VERDICT[code], f"{raw!r} -> {name!r}: table {code}, phone {phone_says}"
    assert accepted > CASES // 10  # the pool is not all refusals


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_the_form_says_why_a_name_is_refused(lang: str, table: Table, phones: Phones, shots: Path) -> None:
    table.host("set_language", language=lang)
    sara = phones.open(table.seat_url(0))
    join(sara, "Sara")
    page = phones.open(table.seat_url(1))
    page.wait_for_selector("[data-testid=name-input]")
    page.fill("[data-testid=name-input]", "\u200c\u200e \u200c")  # only invisible characters and spaces
    page.click("[data-testid=name-go]")
    page.wait_for_selector(".form-error:not(:empty)")
    assert REFUSED[lang][0] in page.inner_text(".form-error")
    shoot(page, shots, lang, "name_blank")
    page.fill("[data-testid=name-input]", "Sara\u200e")  # draws exactly like Sara's name
    page.click("[data-testid=name-go]")
    page.wait_for_function(f"document.querySelector('.form-error').textContent.includes({REFUSED[lang][1]!r})")
    shoot(page, shots, lang, "name_taken")
    assert table.snapshot().seats[1].name == ""
    page.fill("[data-testid=name-input]", "Sara B")
    page.click("[data-testid=name-go]")
    page.wait_for_selector("[data-testid=me-card]")
    assert table.snapshot().seats[1].name == "Sara B"
