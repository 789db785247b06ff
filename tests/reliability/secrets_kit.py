"""The secrets matrix: bots play a game at a real server app while everything each observer is
given is recorded at every change — each seat's ``state`` frame (exactly the bytes the hub sends
that seat's socket), the spectator feed and the host console (real sockets), and the big screen's
snapshot. Then, for every recorded moment and every pair (observer, other seat), nothing the
observer holds carries that seat's secret. Shared by ``tests/reliability/test_secrets_matrix.py``
and ``bench/bench_secrets.py``.

What counts as a seat's secret (its private part of the view, ``me``; Cheating Moth before the
vocabulary change: ``you``), per game, beside the rule that the private part is only ever in its
own seat's frame:

* Collusion: the card put down (vote, target) before the reveal, the gold bar values and total,
  the showdown choice, the ambush prompt.
* Speakeasy: an identity not yet revealed, the host's subject, a pointing before the reveal.
* Cheating Moth: the hand's cards (the public view only says how many), the card being cheated,
  the playable cards, which card a seat would race with (who holds which number).
* Collusion companion: as Collusion, and whether a seat's real bars reached the target (C17) and
  the total it entered before everyone's are in.
* Speakeasy companion, Cheating Moth companion (no bots: ``companion_secrets_kit.py`` plays them
  and says precisely what is secret there).
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient, TestServer

from game.config import TableConfig
from game.server.app import ServerSettings, make_app
from game.server.hub import StateFrames
from game.server.ratelimit import RateLimit
from game.session.journal import Journal
from game.session.session import Session
from game.session.update import TableUpdate

PIN = "2468"
PRIVATE_KEYS = ("me", "you")
# keys that hold history: what they show was revealed when it happened
REVEALED = frozenset({"last_reveal", "last_showdown", "last_round_end", "final", "history", "reveal", "events",
                      "last_race", "last_accusation", "last_round", "ranking", "scores"})
SECRET_FIELDS: dict[str, frozenset[str]] = {
    "collusion": frozenset({"card", "gold", "total", "showdown_choice", "ambush_prompt", "vote_options"}),
    "speakeasy": frozenset({"identity", "subject", "pointed_at", "is_host_subject"}),
    "cheating_moth": frozenset({"hand", "playable", "cheat", "race_cards", "cheated_this_round"}),
    "collusion_companion": frozenset({"card", "gold", "total", "showdown_choice", "ambush_prompt", "vote_options",
                                      "reached", "entry"}),
    # the companions without bots (played by companion_secrets_kit.py's scripted people)
    "speakeasy_companion": frozenset({"identity", "subject", "pointed_at", "fingers"}),
    "cheating_moth_companion": frozenset(),  # the cards are real: the program holds no secret (checked there)
}
# fast settings: the bots' game ends in seconds, timers still run
FAST: dict[str, dict[str, int]] = {
    "collusion": {"conspiracy_ms": 2_000},
    "speakeasy": {"reveal_ms": 0, "host_choice_ms": 0, "pointing_ms": 0, "clues_per_game": 4},
    "cheating_moth": {"cheat_ms": 20, "round_pause_ms": 1, "race_timeout_ms": 300, "choice_ms": 0, "caught_window_ms": 10},
    "collusion_companion": {"conspiracy_ms": 2_000},  # digital gold: the only gold bots can play with
}
SEATS = {"collusion": 5, "speakeasy": 5, "cheating_moth": 4, "collusion_companion": 5}
FAST_GAMES = frozenset({"collusion", "speakeasy"})  # their bots finish a whole game within seconds


@dataclass
class Moment:
    version: int
    seat_frames: list[dict[str, Any]]  # what each seat's socket is sent now
    public: dict[str, Any]
    own: list[dict[str, Any] | None]  # each seat's private part (the truth)
    screen: dict[str, Any]
    host: dict[str, Any]  # what the host console's socket is sent now
    state: Any  # the engine's state the frames were made from


@dataclass
class Recorder:
    """A session listener beside the hub: the frames of every change, as the hub builds them."""

    session: Session
    moments: list[Moment] = field(default_factory=list)

    def updated(self, update: TableUpdate) -> None:
        s = self.session
        if s.run is None:
            return
        frames = StateFrames(update, s.clock())
        seats = range(s.table.seat_count)
        seat_frames = [json.loads(frames.get(seat, host=False)) for seat in seats]
        public = json.loads(frames.get(None, host=False))
        host = json.loads(frames.get(None, host=True))
        own = [_private(f.get("view")) for f in seat_frames]
        snapshot = s.snapshot
        screen = {"public_view": snapshot.public_view, "events": snapshot.events,
                  "race": dataclasses.asdict(snapshot.race), "claims": [dataclasses.asdict(c) for c in snapshot.claims],
                  "seats": [repr(seat) for seat in snapshot.seats]}
        self.moments.append(Moment(s.version, seat_frames, public, own, json.loads(json.dumps(screen, default=str)),
                                   host, s.run.state))

    def seat_revoked(self, seat: int, reason: Any = None) -> None:
        pass

    def notice(self, code: Any) -> None:
        pass


def _private(view: Any) -> dict[str, Any] | None:
    if not isinstance(view, dict):
        return None
    for key in PRIVATE_KEYS:
        if isinstance(view.get(key), dict):
            return view[key]
    return None


def _without_private(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: v for k, v in node.items() if k not in PRIVATE_KEYS}
    return node


def nodes_about(node: Any, seat: int, *, under_history: bool = False) -> Iterator[tuple[dict[str, Any], bool]]:
    """Every object in ``node`` that speaks of ``seat`` (``"seat": seat``), and whether it sits in a
    part that records what was already revealed."""
    if isinstance(node, dict):
        if node.get("seat") == seat and not isinstance(node.get("seat"), bool):
            yield node, under_history
        for key, value in node.items():
            yield from nodes_about(value, seat, under_history=under_history or key in REVEALED)
    elif isinstance(node, list):
        for value in node:
            yield from nodes_about(value, seat, under_history=under_history)


def leaks(game: str, observed: Any, seat: int, truth: dict[str, Any] | None) -> list[str]:
    """What of ``seat``'s secret the ``observed`` payload holds (empty: nothing)."""
    found: list[str] = []
    if truth is None:
        return found
    secret_fields = SECRET_FIELDS.get(game, frozenset())
    for node, revealed in nodes_about(observed, seat):
        if node is truth:
            continue
        for name in secret_fields & node.keys():
            value, mine = node[name], truth.get(name)
            if value in (None, False, [], {}) or revealed:
                continue
            if name == "identity" and mine is None:
                continue  # a real card the program was not told: it has nothing to leak (companion)
            if game.startswith("speakeasy") and name == "identity" and node.get("revealed") is True:
                continue  # turned over (S9): public from then on
            if game == "cheating_moth" and name == "hand" and not isinstance(value, list):
                continue  # how many ("many", 2), not which cards
            if mine is None or value == mine or name != "identity":
                found.append(f"{name}={value!r}")
    return found


@dataclass
class Matrix:
    game: str
    moments: int = 0
    finished: bool = False
    checks: int = 0
    messages: int = 0  # payloads looked into: seat frames, spectator, host console, screen snapshots
    spectator_states: int = 0
    host_states: int = 0
    breaches: list[str] = field(default_factory=list)


def check(game: str, recorder: Recorder, spectator: list[dict[str, Any]], host: list[dict[str, Any]], matrix: Matrix) -> None:
    for m in recorder.moments:
        matrix.messages += len(m.seat_frames) + 3
        _check_seat_frames(game, m, matrix)
        _check_public_payloads(game, m, matrix)
    by_version = {m.version: m for m in recorder.moments}
    for label, received in (("spectator socket", spectator), ("host socket", host)):
        matrix.messages += len(received)
        for state in received:
            moment = by_version.get(state["version"])
            if moment is not None and state.get("view") is not None:
                _check_received(game, label, state, moment, matrix)


def _check_seat_frames(game: str, m: Moment, matrix: Matrix) -> None:
    """Each seat's frame: the public frame plus its own private part, and no other seat's secret."""
    n = len(m.seat_frames)
    shared = {k: v for k, v in m.public.items() if k not in ("view", "legal")}
    for observer, frame in enumerate(m.seat_frames):
        view = frame.get("view")
        mine = _private(view)
        if mine is not None and mine.get("seat", observer) != observer:
            matrix.breaches.append(f"v{m.version}: seat {observer} was sent seat {mine.get('seat')}'s private view")
        if _without_private(view) != _without_private(m.public.get("view")):
            matrix.breaches.append(f"v{m.version}: seat {observer}'s frame differs from the public view outside its own part")
        if {k: v for k, v in frame.items() if k not in ("view", "legal")} != shared:
            matrix.breaches.append(f"v{m.version}: seat {observer}'s frame differs from the public frame outside its view")
        for other in range(n):
            if other == observer:
                continue
            matrix.checks += 1
            for leak in leaks(game, _without_private(view), other, m.own[other]):
                matrix.breaches.append(f"v{m.version}: seat {observer} holds seat {other}'s {leak}")


def _check_public_payloads(game: str, m: Moment, matrix: Matrix) -> None:
    """The spectator feed, the host console and the big screen: the public view, no seat's secret."""
    for label, view in (("host console's frame", m.host.get("view")), ("big screen", m.screen["public_view"])):
        if view != m.public.get("view"):
            matrix.breaches.append(f"v{m.version}: the {label} has another view than the public one")
    for label, payload in (("spectator feed", m.public), ("host console", m.host), ("big screen", m.screen)):
        if _private(payload.get("view")) is not None:
            matrix.breaches.append(f"v{m.version}: the {label} holds a private view")
        for seat in range(len(m.seat_frames)):
            matrix.checks += 1
            for leak in leaks(game, payload, seat, m.own[seat]):
                matrix.breaches.append(f"v{m.version}: the {label} holds seat {seat}'s {leak}")


def _check_received(game: str, label: str, state: dict[str, Any], m: Moment, matrix: Matrix) -> None:
    """A state a real socket (spectator, host) received: the public view of its version."""
    if _private(state["view"]) is not None:
        matrix.breaches.append(f"v{m.version}: the {label} was sent a private view")
    if state["view"] != m.public["view"]:
        matrix.breaches.append(f"v{m.version}: the {label} got another view than the public one")
    for seat in range(len(m.seat_frames)):
        matrix.checks += 1
        for leak in leaks(game, state, seat, m.own[seat]):
            matrix.breaches.append(f"v{m.version}: the {label} holds seat {seat}'s {leak}")


async def _listen(ws: aiohttp.ClientWebSocketResponse, into: list[dict[str, Any]]) -> None:
    async for msg in ws:
        if msg.type is aiohttp.WSMsgType.TEXT:
            data = json.loads(msg.data)
            if data["kind"] == "state":
                into.append(data)


async def play_and_check(game: str, data_dir: Path, *, seed: int = 3, kind: str = "heuristic",
                         max_seconds: float = 20.0, max_moments: int = 10_000) -> Matrix:
    """Bots play ``game`` until it is over (or the limits), recorded from every side; then checked."""
    config = TableConfig(data_dir=data_dir, admin_pin=PIN, seed=seed, game=game, new=True)
    journal, saved, _ = Journal.open(config.data_dir, new=True)
    session = Session.boot(config, journal, saved, bot_delay_scale=0.02)
    client = TestClient(TestServer(make_app(session, ServerSettings(rate=RateLimit(10_000, 10_000)))))
    await client.start_server()
    matrix = Matrix(game)
    spectator: list[dict[str, Any]] = []
    host: list[dict[str, Any]] = []
    try:
        if session.table.game != game:
            session.host_command({"command": "set_game", "game": game})
        session.host_command({"command": "set_seats", "count": SEATS[game]})
        for name, value in FAST.get(game, {}).items():
            session.host_command({"command": "set_setting", "name": name, "value": value})
        session.host_command({"command": "fill_bots", "kind": kind})
        recorder = Recorder(session)
        session.attach(recorder)
        sockets = []
        for hello in ({"role": "spectator"}, {"role": "host", "pin": PIN}):
            ws = await client.ws_connect("/ws")
            await ws.send_str(json.dumps({"v": 1, "kind": "hello", **hello}))
            sockets.append(ws)
        tasks = [asyncio.create_task(_listen(sockets[0], spectator)), asyncio.create_task(_listen(sockets[1], host))]
        session.host_command({"command": "start"})
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max_seconds
        while session.phase.value == "playing" and loop.time() < deadline and len(recorder.moments) < max_moments:
            await asyncio.sleep(0.02)
        matrix.finished = session.phase.value != "playing"
        await asyncio.sleep(0.25)  # the spectator feed's last round
        for ws in sockets:
            await ws.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        session.detach(recorder)
        matrix.moments = len(recorder.moments)
        matrix.spectator_states, matrix.host_states = len(spectator), len(host)
        check(game, recorder, spectator, host, matrix)
        return matrix
    finally:
        await client.close()
        session.close()
        journal.close()
