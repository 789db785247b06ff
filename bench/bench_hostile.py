"""Hostile messages: 10,000 (or more) fuzzed WebSocket messages against the real server app.

    python3 bench/bench_hostile.py [--messages 10000] [--game collusion] [--flood-tries 20] [--flood-only]
                                   [--claims 1000] [--claims-only] [--reconnect-only] [--tries 10] [--busy 2]

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

Then the seated phone's way back under each hostile flood (``tests/reliability/reconnect_kit.py``,
``--reconnect-only`` for just this): a real table in a subprocess; quiet (the baseline), then each
flood in its own process (one seated address's 4,000 half-open ``GET /ws``, 140 addresses' half-open
connections, 140 × 4 hello-less WebSockets, one address re-opening ~1,000 connections a second, 20
addresses claiming the away seat through ``/api/away``), ``--tries`` reconnects of the seated phone
(its device key) and host logins each, and for the claim flood the lost phone's player asking again
from a new browser until the host's first card seats it. Once on a quiet machine, once with
``--busy`` processes spinning on the CPU. Prints p50/p99/max beside the quiet baseline, failures and
tracebacks in the table's log; exit 1 if any p99 is over 2 s or anything failed.
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
import reconnect_kit  # noqa: E402
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
    parser.add_argument("--reconnect-only", action="store_true", help="only the seated phone's way back under each flood")
    parser.add_argument("--tries", type=int, default=10, help="reconnects measured per flood")
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound processes in the second pass (0: one quiet pass)")
    parser.add_argument("--floods", default=",".join(reconnect_kit.FLOODS[1:]),
                        help="which floods after the quiet baseline (comma-separated)")
    args = parser.parse_args()
    if args.reconnect_only:
        return reconnect_floods(args.tries, args.busy, tuple(args.floods.split(",")))
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
    return (half_open_flood(args.flood_tries) or claims_flood(args.claims)
            or reconnect_floods(args.tries, args.busy))


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
    print(f"claim flood: {result.sent} claims from 4 addresses in {result.seconds:.1f} s, {result.waiting} told to wait, "
          f"{result.refused} refused over their address's connection rate")
    print(f"  claims pending max {result.pending_max}; holder prompts {result.prompts} "
          f"(at most {result.prompts_open_max} at once), holder states during the flood {result.holder_states}")
    real = f"{result.real_claim_s * 1000:.0f} ms" if result.real_claim_s is not None else "NOT SEATED"
    print(f"  'my phone died' from a new address: shown first, seated in {real}; tracebacks {tracebacks}"
          + (f"; problems: {result.problems}" if result.problems else ""))
    ok = result.real_claim_s is not None and result.prompts_open_max <= 1 and tracebacks == 0
    return 0 if ok else 1


def reconnect_floods(tries: int, busy: int, floods: tuple[str, ...] = reconnect_kit.FLOODS[1:]) -> int:
    """See module docs; 1 when a p99 is over 2 s, something failed or a traceback reached the log."""
    worst, failures = 0.0, 0
    for load in sorted({0, busy}):
        spinners = reconnect_kit.busy_processes(load)
        try:
            pass_worst, pass_failures = reconnect_pass(tries, load, floods)
        finally:
            for p in spinners:
                p.kill()
                p.join()
        worst, failures = max(worst, pass_worst), failures + pass_failures
    print(f"reconnect under floods: worst p99 {worst * 1000:.0f} ms, failures and tracebacks {failures}")
    return 0 if failures == 0 and worst <= 2.0 else 1


def reconnect_pass(tries: int, busy: int, floods: tuple[str, ...]) -> tuple[float, int]:
    """Every flood against one fresh table; the worst p99 and the failures (tracebacks included)."""
    worst, failures = 0.0, 0
    with tempfile.TemporaryDirectory(prefix="reconnect-") as tmp, flood_kit.table(Path(tmp)) as table:
        tokens = reconnect_kit.seat_tokens((Path(tmp) / "server.out").read_text(encoding="utf-8"))
        device_key = asyncio.run(flood_kit.seat_phone(table.port, table.seat_token))
        asyncio.run(reconnect_kit.seat_guest(table.port, tokens[1]))
        print(f"reconnect under floods ({'quiet machine' if not busy else f'{busy} busy processes'}), {tries} tries each:")
        base: dict[str, list[float]] = {}
        for kind in ("quiet", *floods):
            before = table.log_text().count("Traceback (most recent call last)")
            with reconnect_kit.flood(kind, table.port):
                if kind == "claims":
                    times = asyncio.run(reconnect_kit.lost_phone_back(table.port, device_key, tries))
                    device_key = times.key or device_key
                else:
                    times = asyncio.run(reconnect_kit.measure(table.port, device_key, tries))
                    if kind == "quiet":
                        lost = asyncio.run(reconnect_kit.lost_phone_back(table.port, device_key, max(2, tries // 3)))
                        times.lost, times.failed = lost.lost, times.failed + lost.failed
                        device_key = lost.key or device_key
            time.sleep(2.0)  # the table closes what the flood left
            tracebacks = table.log_text().count("Traceback (most recent call last)") - before
            for name, values in (("seated", times.seated), ("host", times.host), ("lost", times.lost)):
                if kind == "quiet":
                    base[name] = values
                if values:
                    print(f"  {kind:>16} {name:>6}: {spread(values)}  (quiet {spread(base.get(name, []))})")
                    worst = max(worst, percentile(values, 0.99))
            failures += len(times.failed) + tracebacks
            if times.failed or tracebacks:
                print(f"  {kind:>16} failures {len(times.failed)} (first: {times.failed[:1]}), tracebacks {tracebacks}")
    return worst, failures


if __name__ == "__main__":
    sys.exit(main())
