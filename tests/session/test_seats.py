from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.base import MalformedAction
from game.session.seats import (
    CODE_ALPHABET,
    CODE_LENGTH,
    BotKind,
    SeatRecord,
    clean_name,
    fresh_seats,
    new_code,
    normalise_code,
)
from game.session.snapshot import SeatStatus


def test_tokens_are_long_unique_and_codes_unambiguous() -> None:
    seats = fresh_seats()
    tokens = {s.token for s in seats}
    codes = {s.code for s in seats}
    assert len(tokens) == len(seats) == len(codes) == 12
    assert all(len(t) >= 22 for t in tokens)  # 18 bytes -> 24 url-safe chars, >= 128 bits
    assert not set("".join(codes)) & set("BGILOQSUVZ0125678")
    assert all(len(c) == CODE_LENGTH and set(c) <= set(CODE_ALPHABET) for c in codes)


def test_new_code_avoids_taken_codes() -> None:
    taken = {new_code(()) for _ in range(50)}
    assert new_code(taken) not in taken


def test_fresh_seats_never_reuse_the_previous_groups_codes() -> None:
    """A kiosk hand-over: the next group's codes avoid the last group's, even when the random
    source offers exactly those codes again (the same seed replays them first)."""
    old = fresh_seats(choose=random.Random(7).choice)
    again = fresh_seats(choose=random.Random(7).choice)
    assert [s.code for s in again] == [s.code for s in old]  # the seed does collide without avoid
    new = fresh_seats(avoid={s.code for s in old}, choose=random.Random(7).choice)
    assert not {s.code for s in new} & {s.code for s in old}
    assert len({s.code for s in new}) == len(new)


@pytest.mark.parametrize("typed,expected", [("acde", "ACDE"), (" a c d e ", "ACDE"), ("ACD", None),
                                            ("ACDB", None), ("ACDEF", None), ("", None)])
def test_normalise_code(typed: str, expected: str | None) -> None:
    assert normalise_code(typed) == expected


@pytest.mark.parametrize("name,expected", [("  Sara ", "Sara"), ("سارا‌جان", "سارا‌جان"), ("สมชาย", "สมชาย")])
def test_clean_name_keeps_scripts_and_zwnj(name: str, expected: str) -> None:
    assert clean_name(name) == expected


@pytest.mark.parametrize("bad", ["", "   ", "x" * 25, "a\nb", "a\x00b", 5, None, ["a"]])
def test_clean_name_rejects(bad: object) -> None:
    with pytest.raises(MalformedAction):
        clean_name(bad)


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=40))
def test_clean_name_never_returns_garbage(text: str) -> None:
    try:
        name = clean_name(text)
    except MalformedAction:
        return
    assert 1 <= len(name) <= 24 and name == name.strip()


def test_seat_record_round_trip_and_status() -> None:
    record = SeatRecord(3, "tok", "ACDE", "Sara", "fa", None, True, device="key")
    assert SeatRecord.from_json(record.to_json()) == record
    legacy = {k: v for k, v in record.to_json().items() if k != "device"}  # a journal from before device keys
    assert SeatRecord.from_json(legacy).device == "tok"
    assert record.status is SeatStatus.JOINED
    bot = record.with_bot(BotKind.RANDOM)
    assert bot.status is SeatStatus.BOT and bot.name == "" and not bot.joined
    freed = record.freed({"ACDE"})
    assert freed.status is SeatStatus.FREE and freed.token != record.token and freed.code != "ACDE"
