"""The seat-claim queue and who may take a seat by its link (``claims.py``), without a session."""
from __future__ import annotations

from dataclasses import replace

import pytest

from game.rules.base import IllegalAction, MalformedAction, UnknownSeat
from game.session.claims import (
    CLAIM_ID_START,
    CLAIM_TTL_MS,
    MAX_CLAIMS,
    MAX_PER_SEAT,
    REFUSED_WAIT_MS,
    AskLater,
    Claim,
    ClaimEnd,
    ClaimQueue,
    ClaimRank,
    HandedOver,
    QueueFull,
    granted_record,
    join,
)
from game.session.policy import RetiredLinks
from game.session.scheduler import VirtualTime
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


def test_the_queue_holds_at_most_max_claims_the_first_of_each_seat_stays_the_oldest_other_makes_room() -> None:
    ended: list[tuple[Claim, ClaimEnd]] = []
    queue = ClaimQueue(first_id=0, ended=lambda c, why: ended.append((c, why)))
    first = [queue.request(i % 4, "", None, f"10.0.0.{i}") for i in range(MAX_CLAIMS)]  # two per seat
    newest = queue.request(1, "", None, "10.0.0.99")
    assert len(queue) == MAX_CLAIMS and newest in queue and ended == [(first[4], ClaimEnd.PUSHED_OUT)]
    assert all(c in queue for c in first[:4])  # each seat's first request stays


def test_one_seat_holds_at_most_max_per_seat_and_a_flood_never_pushes_out_its_first() -> None:
    ended: list[tuple[Claim, ClaimEnd]] = []
    queue = ClaimQueue(first_id=0, ended=lambda c, why: ended.append((c, why)))
    owner = queue.request(1, "Sara", None, "10.0.0.1", urgent=True)
    for i in range(20):  # twenty addresses read the public away link and ask for the same seat
        queue.request(1, "Sara", None, f"10.0.1.{i}", urgent=True)
    assert owner in queue and queue.ordered()[0] == owner and len(queue) == MAX_PER_SEAT
    assert len(ended) == 20 - (MAX_PER_SEAT - 1) and all(why is ClaimEnd.PUSHED_OUT for _, why in ended)
    assert queue.request(2, "Bo", None, "10.0.2.1") in queue  # another seat still has room
    assert queue.firsts() == ((owner, MAX_PER_SEAT - 1), (queue.ordered()[-1], 0))


def test_claims_are_ranked_holder_then_own_link_then_the_rest_and_a_better_rank_takes_the_first_place() -> None:
    queue = ClaimQueue(first_id=0)
    flood = [queue.request(1, "Sara", None, f"10.0.1.{i}", urgent=True) for i in range(MAX_PER_SEAT)]
    qr = queue.request(1, "", None, "10.0.0.7", urgent=True, rank=ClaimRank.OWN_LINK)
    assert queue.ordered()[0] == qr and flood[0] not in queue and flood[1] in queue  # the oldest of the rest made room
    holder = queue.request(1, "", None, "10.0.0.3", urgent=True, rank=ClaimRank.HOLDER)
    assert queue.ordered()[:2] == (holder, qr)
    assert queue.firsts() == ((holder, MAX_PER_SEAT - 1),)  # the host: one card for the seat, three more asking
    for i in range(10):  # more of the rest: each pushes out another of the rest, never the two ranked above
        queue.request(1, "Sara", None, f"10.0.3.{i}", urgent=True)
    assert queue.ordered()[:2] == (holder, qr) and len(queue) == MAX_PER_SEAT


def test_a_newcomer_that_ranks_below_every_movable_place_is_refused_and_changes_nothing() -> None:
    queue = ClaimQueue(first_id=0)
    kept = [queue.request(1, "", None, f"10.0.0.{i}", rank=ClaimRank.OWN_LINK) for i in range(MAX_PER_SEAT)]
    with pytest.raises(QueueFull):
        queue.request(1, "Sara", None, "10.0.1.1")
    assert list(queue) == kept


def test_urgent_requests_are_shown_first_within_their_rank() -> None:
    queue = ClaimQueue(first_id=0)
    plain = queue.request(1, "Eve", None, "10.0.0.1")
    died = queue.request(2, "", None, "10.0.0.2", urgent=True)
    assert queue.ordered() == (died, plain)


def test_one_open_request_per_address_asking_again_renews_it_in_place() -> None:
    ended: list[tuple[Claim, ClaimEnd]] = []
    queue = ClaimQueue(first_id=0, ended=lambda c, why: ended.append((c, why)))
    a = queue.request(1, "Sara", None, "10.0.0.5")
    other = queue.request(1, "Bo", None, "10.0.0.6")
    again = queue.request(1, "Ali", "fa", "10.0.0.5")
    assert again.id == a.id and again.name == "Ali" and list(queue) == [again, other] and not ended
    moved = queue.request(2, "Ali", None, "10.0.0.5")  # another seat: a new request, the old one ends
    assert list(queue) == [other, moved] and ended == [(again, ClaimEnd.REPLACED)]


def test_a_request_expires_on_the_schedulers_time() -> None:
    vt = VirtualTime()
    ended: list[tuple[Claim, ClaimEnd]] = []
    queue = ClaimQueue(first_id=0, scheduler=vt, clock=vt, ended=lambda c, why: ended.append((c, why)))
    a = queue.request(1, "", None, "10.0.0.5")
    vt.advance(CLAIM_TTL_MS - 1)
    assert list(queue) == [a]
    queue.request(1, "again", None, "10.0.0.5")  # asking again never extends the deadline
    vt.advance(1)
    assert not list(queue) and ended == [(replace(a, name="again"), ClaimEnd.EXPIRED)]
    b = queue.request(1, "", None, "10.0.0.6")
    queue.drop(b.id)
    vt.advance(CLAIM_TTL_MS)
    assert ended[1:] == [(b, ClaimEnd.GONE)] and vt.pending() == 0  # a dropped request's deadline is cancelled


def test_a_refused_address_waits_longer_each_time() -> None:
    vt, t = VirtualTime(), table(4)
    queue = ClaimQueue(first_id=0, scheduler=vt, clock=vt)
    waits = []
    for _ in range(4):
        queue.refuse(queue.ask(t, 1, "Eve", None, "10.0.0.9").id)
        waits.append(queue.wait_ms("10.0.0.9"))
        with pytest.raises(AskLater):
            queue.ask(t, 1, "Eve", None, "10.0.0.9")
        queue.ask(t, 1, "Ana", None, "10.0.0.10")  # another address is not held back
        queue.refuse(queue.ask(t, 1, "Ana", None, "10.0.0.10").id)
        vt.advance(waits[-1])
    assert waits == [REFUSED_WAIT_MS[0] << i for i in range(4)]


def test_a_flood_of_1000_requests_from_four_addresses_never_blocks_my_phone_died() -> None:
    """1,000 requests from four addresses hold four places at most; the seat's own player on a new
    phone (its old phone is away) asks and is shown first."""
    vt, t = VirtualTime(), table(4)
    t = t.with_seat(t.seats[1].held_by()).with_seat(t.seats[2].held_by())
    queue = ClaimQueue(first_id=0, scheduler=vt, clock=vt)
    most = 0
    for i in range(1000):
        queue.ask(t, 1 + i % 2, f"Sara{i}", None, f"127.0.0.{2 + i % 4}", connected={1, 2})
        most = max(most, len(queue))
        vt.advance(4)
    assert most == 4
    mine = queue.ask(t, 1, None, None, "127.0.0.50", connected={2})  # seat 1's phone died
    assert queue.ordered()[0] == mine and mine.urgent


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
