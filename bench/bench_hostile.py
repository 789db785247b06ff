"""Hostile messages: 10,000 (or more) fuzzed WebSocket messages against the real server app.

    python3 bench/bench_hostile.py [--messages 10000] [--game collusion] [--flood-tries 20] [--flood-only]
                                   [--claims 1000] [--claims-only]

Hypothesis draws plans of up to 50 hostile frames (wrong fields, random JSON, lone surrogates,
huge numbers, deep nesting, other seats' actions, replays, binary and oversized frames) sent by a
seat, a spectator, the host and a socket that never said hello, each on a fresh table in play
(``tests/reliability/hostile_kit.py``). Every refused message must leave every seat's view as it
was; every socket gets an answer or a documented close. Prints the counts and the first breach.

Then a half-open flood (``tests/reliability/flood_kit.py``): a real table in a
subprocess, with the inherited open-file limit and with 1,024; silent connections from 140
loopback addresses (127.0.0.2 … 127.0.0.141), 40 each, re-opened as the table closes them;
meanwhile the seated phone reconnects (its usual address and a new one) and the host logs in,
``--flood-tries`` times. Prints their p50/p99/max, the failures, and the log's bytes per 1,000
hostile connections (the table at ``-v``: INFO and up), also for 1,000 malformed HTTP requests.

Then a seat-claim flood (``tests/reliability/claim_flood_kit.py``) against a real table in a
subprocess: ``--claims`` requests for a held seat from 4 loopback addresses (127.0.0.2 … 127.0.0.5)
while its phone and the host's console watch; then the seat's phone dies and its player asks from a
new phone. Prints the requests waiting at once (claims pending max), the "give your seat?" cards
the seat's phone got (holder prompts) and at most at once, its states during the flood, and how
long the real "my phone died" request took to be seated once the host allowed the first one shown.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "reliability")]

import flood_kit  # noqa: E402
from claim_flood_kit import claim_flood  # noqa: E402
from hostile_kit import FAST_DIR, SENDERS, Frame, Run, make_plans, play_hostile  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--game", default="collusion")
    parser.add_argument("--flood-tries", type=int, default=20, help="reconnects measured per open-file limit")
    parser.add_argument("--flood-only", action="store_true", help="only the half-open flood (and the claim flood)")
    parser.add_argument("--claims", type=int, default=1000, help="seat claims in the claim flood")
    parser.add_argument("--claims-only", action="store_true", help="only the seat-claim flood")
    args = parser.parse_args()
    if args.claims_only:
        return claims_flood(args.claims)
    if args.flood_only:
        return half_open_flood(args.flood_tries) or claims_flood(args.claims)
    totals: Counter[str] = Counter()
    closes: Counter[int] = Counter()
    tables = 0
    started = time.monotonic()

    @settings(max_examples=max(1, args.messages // 60), deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(plan=make_plans(40, 80))
    def one(plan: list[tuple[str, Frame]]) -> None:
        nonlocal tables
        if totals["messages"] >= args.messages:
            return
        with tempfile.TemporaryDirectory(prefix="hostile-", dir=FAST_DIR) as data_dir:
            run: Run = asyncio.run(play_hostile(plan, Path(data_dir), args.game))
        tables += 1
        totals.update(messages=run.messages, refused=run.refused, accepted=run.accepted)
        totals.update(f"from {role}" for role, _ in plan)
        closes.update(run.closes)

    try:
        while totals["messages"] < args.messages:
            one()
        breach = None
    except AssertionError as exc:
        breach = exc
    seconds = time.monotonic() - started
    print(f"hostile messages: {totals['messages']} on {tables} tables in {seconds:.0f} s ({args.game}); "
          f"refused {totals['refused']} (each left every view unchanged), accepted {totals['accepted']}")
    print("  senders: " + ", ".join(f"{role} {totals['from ' + role]}" for role in SENDERS))
    print("  documented closes: " + (", ".join(f"{code} x{n}" for code, n in sorted(closes.items())) or "none"))
    if breach is not None:
        print(f"BREACH: {breach}")
        return 1
    print("breaches: 0")
    return half_open_flood(args.flood_tries) or claims_flood(args.claims)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def spread(values: list[float]) -> str:
    return (f"p50 {percentile(values, 0.5) * 1000:.0f} ms, p99 {percentile(values, 0.99) * 1000:.0f} ms, "
            f"max {max(values, default=float('nan')) * 1000:.0f} ms ({len(values)})")


def half_open_flood(tries: int) -> int:
    """See module docs; 1 when a seated phone or the host did not get in within 2 s."""
    worst = 0.0
    failures = 0
    for fd_limit in (0, 1024):
        with tempfile.TemporaryDirectory(prefix="flood-") as tmp, flood_kit.table(Path(tmp), fd_limit) as table:
            device_key = asyncio.run(flood_kit.seat_phone(table.port, table.seat_token))
            before = table.log_bytes
            flood = flood_kit.Flood(table.port, addresses=140, per_address=40)
            try:
                result = asyncio.run(flood_kit.reconnect_under_flood(flood, device_key, tries))
            finally:
                flood.close()
            grown = table.log_bytes - before
            time.sleep(1.0)  # the table closes the flood's last connections
            bad_before = table.log_bytes
            answered = asyncio.run(flood_kit.bad_requests(table.port, 1000))
            bad_grown = table.log_bytes - bad_before
            tracebacks = flood_kit.tracebacks(table.log_text())
        limit = "inherited" if fd_limit == 0 else str(fd_limit)
        print(f"half-open flood, open-file limit {limit}: {flood.opened} hostile connections from 140 addresses")
        print(f"  seated phone back (its address): {spread(result.seated)}")
        print(f"  seated phone back (a new address): {spread(result.moved)}")
        print(f"  host in: {spread(result.host)}; failures {len(result.failed)}"
              + (f" (first: {result.failed[0]})" if result.failed else ""))
        print(f"  log: {grown * 1000 / max(1, flood.opened):.0f} bytes per 1,000 hostile connections; "
              f"{bad_grown} bytes for 1,000 malformed requests ({answered} answered 400); tracebacks {tracebacks}")
        worst = max([worst, *result.seated, *result.moved, *result.host])
        failures += len(result.failed) + tracebacks
    print(f"half-open flood: worst seated/host time {worst * 1000:.0f} ms, failures {failures}")
    return 0 if failures == 0 and worst <= 2.0 else 1


def claims_flood(claims: int) -> int:
    """See module docs; 1 when the real claim did not go through or the seat's phone got two cards at once."""
    with tempfile.TemporaryDirectory(prefix="claims-") as tmp, flood_kit.table(Path(tmp)) as table:
        result = asyncio.run(claim_flood(f"http://127.0.0.1:{table.port}/ws", table.seat_token, flood_kit.PIN,
                                         claims=claims))
        tracebacks = flood_kit.tracebacks(table.log_text())
    print(f"claim flood: {result.sent} claims from 4 addresses in {result.seconds:.1f} s, {result.waiting} told to wait")
    print(f"  claims pending max {result.pending_max}; holder prompts {result.prompts} "
          f"(at most {result.prompts_open_max} at once), holder states during the flood {result.holder_states}")
    real = f"{result.real_claim_s * 1000:.0f} ms" if result.real_claim_s is not None else "NOT SEATED"
    print(f"  'my phone died' from a new address: shown first, seated in {real}; tracebacks {tracebacks}"
          + (f"; problems: {result.problems}" if result.problems else ""))
    ok = result.real_claim_s is not None and result.prompts_open_max <= 1 and tracebacks == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
