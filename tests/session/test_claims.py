"""The seat-claim queue and who may take a seat by its link (``claims.py``), without a session."""
from __future__ import annotations

from dataclasses import replace

import pytest

from game.rules.base import IllegalAction, MalformedAction, UnknownSeat
from game.session.claims import CLAIM_ID_START, MAX_CLAIMS, Claim, ClaimQueue, HandedOver, granted_record, join
from game.session.policy import RetiredLinks
from game.session.seats import AskHost, BotKind, NameNeeded
from game.session.snapshot import ClaimInfo, TablePhase
from game.session.table import TableRecord


def table(seats: int = 4) -> TableRecord:
    return TableRecord.fresh("collusion", "tabani", {}, "en", seats, "2468")


def test_requests_are_numbered_in_order_and_listed_oldest_first() -> None:
    queue = ClaimQueue(first_id=100)
    a, b = queue.request(0, "Ana", None), queue.request(2, "", "fa")
    assert (a.id, b.id) == (101, 102) and list(queue) == [a, b] and len(queue) == 2


def test_a_restarted_table_numbers_its_requests_elsewhere() -> None:
    first = ClaimQueue().request(0, "", None).id
    assert 0 < first <= CLAIM_ID_START and first < 2 ** 53


def test_the_queue_holds_at_most_max_claims() -> None:
    queue = ClaimQueue(first_id=0)
    for _ in range(MAX_CLAIMS):
        queue.request(1, "", None)
    with pytest.raises(IllegalAction):
        queue.request(1, "", None)
    assert len(queue) == MAX_CLAIMS


def test_ask_checks_the_seat_the_name_and_the_language() -> None:
    queue, t = ClaimQueue(first_id=0), table(4)
    with pytest.raises(UnknownSeat):
        queue.ask(t, 4, None, None)
    with pytest.raises(MalformedAction):
        queue.ask(t, 1, None, "de")
    claim = queue.ask(t, 1, "  Bea  ", "th")
    assert (claim.seat, claim.name, claim.lang) == (1, "Bea", "th") and list(queue) == [claim]


def test_answering_refusing_giving_and_dropping() -> None:
    queue = ClaimQueue(first_id=0)
    a, b, c = queue.request(1, "A", None), queue.request(1, "B", None), queue.request(2, "C", None)
    assert queue.asking(a.id) == a
    with pytest.raises(IllegalAction):
        queue.for_seat(2, a.id)  # a asks for seat 2's neighbour, not seat 2
    assert queue.refuse(c.id) == c and list(queue) == [a, b]
    with pytest.raises(IllegalAction):
        queue.asking(c.id)
    assert queue.granted(a) == [b] and list(queue) == []  # the others for that seat are refused with it
    assert queue.drop(a.id) is None


def test_a_claim_as_the_tv_and_the_host_console_show_it() -> None:
    t = table()
    t = t.with_seat(t.seats[2].with_bot(BotKind.RANDOM))
    claim = Claim(5, 2, "Dee", None)
    assert claim.info(t) == ClaimInfo.from_json(claim.to_json(t)) == ClaimInfo(5, 2, "Dee", claim.info(t).seat_name, True)
    assert claim.info(t).seat_name  # a bot's seat shows its bot's name


# ------------------------------------------------------------------------ joining by link
def test_a_free_seats_link_takes_it_and_the_device_key_comes_back() -> None:
    t = table()
    before, after = join(t, t.seats[0].token, "Ana", "fa", RetiredLinks())
    assert before == t.seats[0] and after.joined and (after.name, after.lang) == ("Ana", "fa")
    t = t.with_seat(after)
    assert join(t, after.device, None, None, RetiredLinks()) == (after, after)


def test_a_held_seat_or_a_bot_mid_game_asks_the_host() -> None:
    t = table()
    t = t.with_seat(t.seats[0].held_by()).with_seat(t.seats[1].with_bot(BotKind.RANDOM))
    with pytest.raises(AskHost):
        join(t, t.seats[0].token, "Eve", None, RetiredLinks())
    with pytest.raises(NameNeeded):
        join(t, t.seats[1].token, None, None, RetiredLinks())
    _, after = join(t, t.seats[1].token, "Bo", None, RetiredLinks())  # in the lobby the bot steps aside
    assert after.name == "Bo"
    with pytest.raises(AskHost):
        join(replace(t, phase=TablePhase.PLAYING), t.seats[1].token, "Bo", None, RetiredLinks())


def test_links_of_an_earlier_group_are_told_kindly() -> None:
    old = table()
    retired = RetiredLinks()
    retired.retire(old)
    with pytest.raises(HandedOver):
        join(table(), old.seats[0].token, None, None, retired)
    with pytest.raises(UnknownSeat) as refused:
        join(table(), "not-a-link", None, None, retired)
    assert not isinstance(refused.value, HandedOver)


def test_an_allowed_claim_moves_the_seat_to_new_secrets() -> None:
    t = table()
    t = t.with_seat(replace(t.seats[1].held_by(), name="Old"))
    updated = granted_record(t, Claim(9, 1, "New", "th"))
    old = t.seats[1]
    assert (updated.name, updated.lang) == ("New", "th") and updated.joined
    assert updated.token != old.token and updated.code != old.code and updated.device != old.device
    assert granted_record(t, Claim(9, 1, "", None)).name == "Old"  # the seat's own player on a new phone
