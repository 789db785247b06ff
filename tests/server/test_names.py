"""Names at entry: a name the big screen cannot draw (an emoji, a pictograph) is
refused at entry with a typed error naming the characters; Persian (with its ZWNJ) and Thai names
are taken as typed."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from game.session.seats import BadName, clean_name, undrawable

MakeTable = Callable[..., Any]


@pytest.mark.parametrize("name", ["Sara 😀", "Ali ❤", "👍", "Nok\ufe0f", "Reza 🇮🇷", "王"])
def test_names_the_tv_cannot_draw_are_refused(name: str) -> None:
    with pytest.raises(BadName) as refused:
        clean_name(name)
    assert refused.value.code == "bad_name" and refused.value.chars and refused.value.chars in str(refused.value)


@pytest.mark.parametrize("name", ["شب‌پره", "علی رضا", "สมชาย", "นก", "José", "Zoë-Anne", "O'Brien", "Ana (2)"])
def test_persian_thai_and_latin_names_are_taken(name: str) -> None:
    assert clean_name(name) == name and undrawable(name) == ""


async def test_the_server_answers_bad_name_and_keeps_the_old_name(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    phone, _, _ = await t.seat(0, name="Sara")
    await phone.send("set_name", name="Sara 😀")
    error = await phone.error()
    assert error["code"] == "bad_name" and "😀" in error["message"]
    assert t.session.table.seats[0].name == "Sara"
    fresh = await t.connect()
    await fresh.send("hello", token=t.session.table.seats[1].token, name="🎉")
    assert (await fresh.error())["code"] == "bad_name"
    assert t.session.table.seats[1].status.value == "free"


async def test_a_lookalike_of_a_seated_name_gets_name_lookalike_and_changes_nothing(make_table: MakeTable) -> None:
    t = await make_table(seats=3)
    await t.seat(0, name="Sara")
    phone, _, _ = await t.seat(1, name="Ali")
    version = t.session.version
    await phone.send("set_name", name="Sаra")  # a Cyrillic а
    assert (await phone.error())["code"] == "name_lookalike"
    fresh = await t.connect()
    await fresh.send("hello", token=t.session.table.seats[2].token, name="sara", lang="fa")
    assert (await fresh.error())["code"] == "name_lookalike"
    assert [r.name for r in t.session.table.seats[:3]] == ["Sara", "Ali", ""] and t.session.version == version
    assert t.session.table.seats[2].status.value == "free"
