"""Try the arcade board (or the simulator) without the table: connect, map, race.

    python3 -m firmware_bridge                                  # find the board, print its events
    python3 -m firmware_bridge --serial /tmp/tabletop-arcade --map 0,1,2,3
    python3 -m firmware_bridge --serial /tmp/tabletop-arcade --race 0,1,2 --timeout 5

``--map`` runs the lobby's "press your button" wizard for those seats; ``--race`` arms one race
for those seats (their lamps light), judges it with the race judge and prints the outcome.
"""
from __future__ import annotations

import argparse
import asyncio
import json

from game.session.race_floor import RaceJudge

from .bridge import ArcadeBridge, BridgeEvent, ButtonDown, MappingDone, monotonic_ms


def seats(text: str) -> list[int]:
    try:
        values = [int(s) for s in text.split(",") if s.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"seats are numbers separated by commas, not {text!r}") from None
    if not values or min(values) < 0:
        raise argparse.ArgumentTypeError("give at least one seat number >= 0")
    return values


async def run(args: argparse.Namespace) -> int:
    bridge = ArcadeBridge(port=args.serial)
    judge = RaceJudge()
    mapped = asyncio.Event()

    def on_event(event: BridgeEvent) -> None:
        print(event, flush=True)
        if isinstance(event, ButtonDown) and judge.armed and (press := event.to_press()) is not None:
            print(f"  judge: {judge.press(press).value}", flush=True)
        if isinstance(event, MappingDone):
            mapped.set()

    bridge.add_listener(on_event)
    await bridge.start()
    try:
        await bridge.wait_connected(args.wait)
        if args.map:
            bridge.start_mapping(args.map)
            print(f"seat {args.map[0]}: press your button", flush=True)
            await mapped.wait()
        if args.race:
            judge.arm("try", args.race, monotonic_ms(), args.timeout * 1000)
            bridge.arm_race("try", args.race)
            while not judge.is_complete(monotonic_ms()):
                await asyncio.sleep(0.02)
            bridge.end_race()
            print(json.dumps(judge.result(monotonic_ms()).to_wire(), indent=1), flush=True)
        if not (args.map or args.race):
            await asyncio.Event().wait()  # print events until interrupted
    except TimeoutError:
        print(f"no board found in {args.wait:g} s", flush=True)
        return 1
    finally:
        await bridge.stop()
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python3 -m firmware_bridge", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--serial", help="the board's port (default: search USB serial ports)")
    ap.add_argument("--map", type=seats, help="run the mapping wizard for these seats, e.g. 0,1,2,3")
    ap.add_argument("--race", type=seats, help="arm one race for these seats and print the result")
    ap.add_argument("--timeout", type=float, default=5.0, help="race timeout in seconds")
    ap.add_argument("--wait", type=float, default=10.0, help="seconds to wait for a board")
    args = ap.parse_args(argv)
    try:
        return asyncio.run(run(args))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
