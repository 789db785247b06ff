"""The companion score pad: entries, edits and undos leave a trace; bad values are typed errors."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.rules.base import RulesError
from game.rules.scorepad import (
    BadEntry,
    ChangeKind,
    EntryProblem,
    ScorePad,
    check_points,
    parse_points,
    replay_cells,
)


def test_enter_then_edit_leaves_a_trace_line_naming_old_new_and_who() -> None:
    pad = ScorePad.empty(3, high=200).enter(0, 2, 7, by=0).edit(0, 2, 5, by=None)
    assert pad.value(0, 2) == 5 and pad.total(0) == 5
    (line,) = pad.trace()
    assert (line.kind, line.seat, line.round_no, line.old, line.new, line.by) == (ChangeKind.EDIT, 0, 2, 7, 5, None)


def test_undo_reverts_the_latest_change_and_is_itself_a_trace_line() -> None:
    pad = ScorePad.empty(2).enter(1, 1, 4, by=1).edit(1, 1, 9, by=None).undo(by=None)
    assert pad.value(1, 1) == 4
    assert [c.kind for c in pad.trace()] == [ChangeKind.EDIT, ChangeKind.UNDO]
    assert pad.trace()[-1].undoes == 1
    pad = pad.undo(by=None)  # the first entry itself goes back out
    assert pad.value(1, 1) is None and pad.total(1) == 0
    with pytest.raises(BadEntry) as caught:
        pad.undo(by=None)
    assert caught.value.reason is EntryProblem.NOTHING_TO_UNDO


@pytest.mark.parametrize(("points", "reason"), [
    (-1, EntryProblem.NEGATIVE), (201, EntryProblem.OUT_OF_RANGE), ("7", EntryProblem.NOT_A_NUMBER),
    (2.5, EntryProblem.NOT_A_NUMBER), (True, EntryProblem.NOT_A_NUMBER), (None, EntryProblem.NOT_A_NUMBER),
])
def test_bad_entries_raise_a_typed_error_and_change_nothing(points: object, reason: EntryProblem) -> None:
    pad = ScorePad.empty(2, high=200)
    with pytest.raises(BadEntry) as caught:
        pad.enter(0, 1, points, by=0)
    assert caught.value.reason is reason and isinstance(caught.value, RulesError)
    assert caught.value.code == "bad_entry"
    assert pad == ScorePad.empty(2, high=200)


def test_double_entry_and_empty_edit_and_unknown_seat_are_refused() -> None:
    pad = ScorePad.empty(2).enter(0, 1, 3, by=0)
    for call, reason in [(lambda: pad.enter(0, 1, 4, by=0), EntryProblem.ALREADY_ENTERED),
                         (lambda: pad.edit(0, 1, 3, by=None), EntryProblem.UNCHANGED),
                         (lambda: pad.edit(1, 1, 3, by=None), EntryProblem.NOT_ENTERED),
                         (lambda: pad.enter(2, 1, 3, by=None), EntryProblem.NO_SUCH_SEAT),
                         (lambda: pad.enter(1, 0, 3, by=None), EntryProblem.NO_SUCH_ROUND)]:
        with pytest.raises(BadEntry) as caught:
            call()
        assert caught.value.reason is reason


def test_parse_points_reads_persian_and_thai_digits_and_refuses_words() -> None:
    assert parse_points("۱۲") == 12 and parse_points("๗") == 7 and parse_points(" 5 ") == 5
    with pytest.raises(BadEntry) as caught:
        parse_points("five")
    assert caught.value.reason is EntryProblem.NOT_A_NUMBER
    with pytest.raises(BadEntry) as caught:
        parse_points("-3")
    assert caught.value.reason is EntryProblem.NEGATIVE
    assert check_points(-3, low=-10, high=10) == -3


@pytest.mark.parametrize("text", ["²", "①", "１２", "𝟓", "٣²", "⁵", "5\u0661\u06f2x"])
def test_parse_points_refuses_digit_forms_it_does_not_read(text: str) -> None:
    with pytest.raises(BadEntry) as caught:
        parse_points(text)
    assert caught.value.reason is EntryProblem.NOT_A_NUMBER


def test_parse_points_reads_arabic_indic_and_mixed_known_digits() -> None:
    assert parse_points("٤٢") == 42 and parse_points("۱2๓") == 123


def test_to_wire_lists_rows_totals_and_trace() -> None:
    pad = ScorePad.empty(2).enter(0, 1, 3, by=0).enter(1, 1, 0, by=None).enter(0, 2, 4, by=0).edit(0, 2, 6, by=None)
    wire = pad.to_wire()
    assert wire["rows"] == [[3, 6], [0, None]] and wire["totals"] == [9, 0] and wire["rounds"] == 2
    assert wire["trace"] == [{"kind": "edit", "seat": 0, "round": 2, "old": 4, "new": 6, "by": None, "undoes": None}]


_OPS = st.lists(st.tuples(st.sampled_from(["enter", "edit", "undo"]), st.integers(0, 3), st.integers(1, 3),
                          st.integers(-5, 60), st.sampled_from([None, 0, 1, 2, 3])), max_size=40)


@settings(max_examples=300, deadline=None)
@given(_OPS)
def test_property_totals_equal_the_sum_of_entries_after_any_edits_and_undos(ops: list) -> None:
    pad = ScorePad.empty(4, high=50)
    for op, seat, round_no, points, by in ops:
        before = pad
        try:
            if op == "enter":
                pad = pad.enter(seat, round_no, points, by)
            elif op == "edit":
                pad = pad.edit(seat, round_no, points, by)
            else:
                pad = pad.undo(by)
        except BadEntry:
            assert pad is before  # refused: nothing changed
        cells = replay_cells(pad)
        assert {(s, r): p for s, r, p in pad.cells} == cells  # the values are what the history adds up to
        for s in range(4):
            assert pad.total(s) == sum(p for (cs, _), p in cells.items() if cs == s)
        assert len(pad.changes) >= len(before.changes)  # history only grows: no silent change
        assert pad.changes[: len(before.changes)] == before.changes


def test_a_refusal_says_which_number_whose_and_why_on_the_wire() -> None:
    from game.server.protocol import error_message

    pad = ScorePad.empty(3, high=200)
    with pytest.raises(BadEntry) as caught:
        pad.enter(2, 1, 1200, by=None)
    wire = error_message(caught.value)
    assert wire["code"] == "bad_entry" and wire["reason"] == "out_of_range"
    assert (wire["value"], wire["low"], wire["high"], wire["seat"], wire["round"]) == (1200, 0, 200, 3, 1)
    with pytest.raises(BadEntry) as caught:
        pad.enter(0, 1, "12a", by=None)
    assert error_message(caught.value)["value"] == "12a"
