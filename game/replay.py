"""``tabletop replay FILE [--json]``: replay a game record and print its event log in plain words,
then the final public view (``--json``: both as one JSON object for machines)."""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .records import BadRecord, GameRecord, Replay, load, replay
from .seating import look


def seat_name(seat: int) -> str:
    """A seat's plain name: its colour and 1-based number, e.g. ``Blue (seat 5)``."""
    if not isinstance(seat, int):
        return str(seat)
    return f"{look(seat).colour_name.capitalize()} (seat {seat + 1})"


def seat_namer(record: GameRecord) -> Callable[[int], str]:
    """Names seats by player name when the record has one, else by seat colour and number."""
    names = {p.seat: p.name for p in record.players if p.name}

    def name(seat: int) -> str:
        return names.get(seat) or seat_name(seat) if isinstance(seat, int) else str(seat)

    return name


def describe(engine: Any, event: Mapping[str, Any], name: Callable[[int], str]) -> str:
    """The engine's own sentence for an event (GameEngine gives a neutral line by default)."""
    return engine.describe_event(event, name)


def log_lines(result: Replay) -> list[str]:
    name = seat_namer(result.record)
    lines = [f"{'start':>5}  {describe(result.engine, event, name)}" for event in result.opening]
    for step in result.steps:
        for event in step.events:
            lines.append(f"{step.index + 1:>5}  {describe(result.engine, event, name)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tabletop replay", description="Replay a game record.")
    parser.add_argument("file", help="a game record (JSON, see docs/records.md)")
    parser.add_argument("--json", action="store_true", help="print events and the final view as JSON")
    args = parser.parse_args(argv)
    try:
        result = replay(load(args.file))
    except BadRecord as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps({"game": result.record.game, "events": result.events,
                          "final_view": result.final_view()}, ensure_ascii=False, indent=2))
        return 0
    record = result.record
    print(f"{record.game} · {record.seats} seats · seed {record.seed} · preset {record.preset or 'default'}"
          f" · {len(record.actions)} actions")
    print("\n".join(log_lines(result)))
    print("\nFinal public view:")
    print(json.dumps(result.final_view(), ensure_ascii=False, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
