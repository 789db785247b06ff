"""The attract loop: when nobody plays, bots play real short games on the big screen.

An :class:`AttractReel` plays a bot game of each table game in turn (real engine, the ladder's
``search`` bots — they make the best demos —, the simulator's :func:`play_game`) and keeps its
public steps as a tape; the screen is shown the tape
one step at a time as ordinary :class:`TableSnapshot` values, so the game's own scenes and beats
draw it. A step waits until the screen's beats for the last one have played (it reads well) but
never less than ``min_step_ms`` (it does not crawl): "sped up where it reads well". Each game
gets ``game_s`` on screen; the languages cycle with the games.

The reel never touches the session: the table stays an empty lobby with valid seat links, and the
first phone to join stops the loop (see :class:`AttractDirector`).

Recording a tape plays a whole bot game (search bots: 0.3–5 s of CPU at 5 seats): the live window
has them recorded in a worker process (:class:`TapeWorker`, at low priority; a worker thread,
``threaded``, would share the render thread's GIL), the next game's while the current one plays,
so the TV never stops for one; tests and screenshots record them where they are asked for.
"""
from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import multiprocessing.process
import os
import pickle
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, ParamSpec, TypeVar

from game import catalog
from game.bots import BotKind
from game.lifeline import die_with_parent
from game.seating import look
from game.session.snapshot import AttractInfo, RunMode, SeatInfo, SeatStatus, TablePhase, TableSnapshot
from game.simulate import bot_seed, game_seed, play_game

log = logging.getLogger(__name__)

DEMO_SEATS = 5
MIN_STEP_MS = 350  # a step stays at least this long
MAX_STEP_MS = 6_000  # and at most this long, even when the screen is still busy animating
FINAL_MS = 7_000  # the final scores stay this long before the next game
VERSION_BASE = 1 << 40  # demo snapshots never share a version with the real table's
DEMO_BOTS = BotKind.SEARCH  # the top of the ladder plays the demos
WORKER_NICE = 10  # the tape worker process's niceness: the window's frames come first

P = ParamSpec("P")
T = TypeVar("T")

DEMO_NAMES: dict[str, tuple[str, ...]] = {
    "en": ("Sara", "Ali", "Nok", "Dara", "Mina", "Kai"),
    "fa": ("سارا", "علی", "مینا", "دارا", "نیما", "پرستو"),
    "th": ("นก", "ต้น", "ฝน", "แก้ม", "บอล", "มิว"),
}


@dataclass(frozen=True, slots=True)
class Step:
    public_view: dict[str, Any]
    events: tuple[dict[str, Any], ...]


@dataclass(slots=True)
class Tape:
    game: str
    language: str
    preset: str | None
    settings: dict[str, Any]
    steps: list[Step]


def record_tape(game: str, language: str, seats: int, seed: int, kind: BotKind = DEMO_BOTS) -> Tape:
    """One whole bot game of ``game`` with ``kind`` bots, as the public table saw each step."""
    desc = catalog.get(game)
    engine = desc.load_engine()
    presets = list(engine.presets())
    preset = language if language in presets else (presets[0] if presets else None)
    settings = engine.default_settings(preset)
    state = engine.new_game(settings, seats, game_seed(seed, 0))
    steps = [Step(engine.view(state, None), tuple(engine.events_to_wire(engine.start_events(state))))]

    def keep(state: Any, events: list[Any]) -> None:
        steps.append(Step(engine.view(state, None), tuple(engine.events_to_wire(events))))

    bots = [desc.make_bot(kind.value, seat, bot_seed(seed, 0, seat)) for seat in range(seats)]
    play_game(engine, settings, seats, game_seed(seed, 0), bots, on_events=keep)
    return Tape(game, language, preset, engine.settings_to_wire(settings), steps)


TapeSpec = tuple[str, str, int, int]  # game, language, seats, seed: the arguments of record_tape


class WorkerLost(RuntimeError):
    """The tape worker process ended (killed, or the program is stopping) before it answered."""


class TapeWorker(Executor):
    """One worker process for the reel's tapes, started fresh (``spawn``: nothing of the window's
    threads comes along) at :data:`WORKER_NICE` when the first tape is ordered: a search tape's
    seconds of CPU never hold the render thread's GIL. ``submit`` takes picklable work
    (``record_tape``), from the thread that lives as long as the window (the main one).

    A stop is a stop: the worker is one process on one pipe, with no lock shared with this process
    (a ``multiprocessing.Pool`` hung the kiosk's exit for good when ``systemctl stop``'s SIGTERM
    reached its worker mid-job: ``Pool._help_stuff_finish`` waited for a lock the dead worker
    held). SIGTERM ends the worker at once, :meth:`shutdown` kills it, and it dies with this process
    (:func:`game.lifeline.die_with_parent`); a job it never answered fails with :class:`WorkerLost`,
    and the next ``submit`` starts a new worker."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: multiprocessing.process.BaseProcess | None = None
        self._conn: Connection | None = None
        self._jobs: dict[int, Future[Any]] = {}
        self._next_id = 0

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        done: Future[T] = Future()
        with self._lock:
            if self._conn is None:
                self._start()
            assert self._conn is not None
            self._next_id += 1
            self._jobs[self._next_id] = done
            try:
                self._conn.send((self._next_id, fn, args, kwargs))
            except (OSError, ValueError) as exc:  # the worker is gone: the reader fails the rest
                self._jobs.pop(self._next_id, None)
                done.set_exception(WorkerLost(f"the tape worker is gone ({exc})"))
        return done

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        mine, theirs = ctx.Pipe()
        process = ctx.Process(target=_tape_worker, args=(theirs, os.getpid()), name="tabletop-tapes", daemon=True)
        process.start()
        theirs.close()  # the worker holds its end alone: its death is this end's EOF
        self._process, self._conn = process, mine
        threading.Thread(target=self._read, args=(mine,), name="tape-worker", daemon=True).start()

    def _read(self, conn: Connection) -> None:
        try:
            while True:
                job, ok, value = conn.recv()
                with self._lock:
                    future = self._jobs.pop(job, None)
                if future is not None:
                    future.set_result(value) if ok else future.set_exception(value)
        except (EOFError, OSError):
            self._lost(conn)

    def _lost(self, conn: Connection) -> None:
        with self._lock:
            if self._conn is conn:
                self._conn = self._process = None
            jobs, self._jobs = self._jobs, {}
        for future in jobs.values():
            future.set_exception(WorkerLost("the tape worker ended before it answered"))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Kill the worker now (a tape is worth nothing once the window closes)."""
        with self._lock:
            process, conn = self._process, self._conn
            self._process = self._conn = None
        if process is not None:
            process.kill()
            if wait:
                process.join(2)
        if conn is not None:
            conn.close()


def _tape_worker(conn: Connection, parent: int) -> None:
    """The worker process: jobs from the pipe, one at a time, until its end closes."""
    die_with_parent(parent)
    os.nice(WORKER_NICE)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl+C: the window stops, then kills this
    while True:
        try:
            job, fn, args, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = (job, True, fn(*args, **kwargs))
        except Exception as exc:
            answer = (job, False, exc)
        try:
            conn.send(answer)
        except (pickle.PicklingError, TypeError, AttributeError) as exc:
            conn.send((job, False, RuntimeError(f"the tape worker's answer could not be sent: {exc!r}")))


class TapeOrders:
    """Where the reel's tapes are recorded: on the spot when asked for (the default), or, when
    ``threaded``, on one worker thread, or in ``worker`` (the window's :class:`TapeWorker`), ordered
    ahead (see module docs)."""

    def __init__(self, threaded: bool = False, record: Callable[[str, str, int, int], Tape] | None = None,
                 worker: Executor | None = None) -> None:
        self._pool = worker or (ThreadPoolExecutor(1, thread_name_prefix="attract-tapes") if threaded else None)
        self._record = record or record_tape
        self._orders: dict[TapeSpec, Future[Tape]] = {}

    def order(self, spec: TapeSpec) -> None:
        """Start recording ``spec`` now (threaded), so that :meth:`take` finds it done."""
        if self._pool is not None and spec not in self._orders:
            self._orders[spec] = self._pool.submit(self._record, *spec)

    def take(self, spec: TapeSpec) -> Tape | None:
        """The tape, or None while it is still being recorded (threaded: ordered if it was not)."""
        if self._pool is None:
            return self._record(*spec)
        self.order(spec)
        future = self._orders[spec]
        if not future.done():
            return None
        del self._orders[spec]
        try:
            return future.result()
        except WorkerLost as exc:  # killed under the window: ordered again on the next take
            log.warning("attract loop: %s; the tape is recorded again", exc)
            return None

    def close(self) -> None:
        """Stop recording (the window is closing): a worker process is killed now."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


@dataclass
class AttractReel:
    """Which game and language are on, and which step of its tape (see module docs)."""

    languages: Sequence[str]
    games: Sequence[str] = field(default_factory=lambda: [d.id for d in catalog.games(catalog.PlayMode.TABLE) if d.has_bots])
    game_ms: int = 40_000
    seats: int = DEMO_SEATS
    seed: int = 1
    turn: int = 0
    tape: Tape | None = None
    step: int = 0
    started_ms: int = 0  # when this game's turn began
    step_ms: int = 0  # when the current step came on screen
    version: int = VERSION_BASE
    tapes: TapeOrders = field(default_factory=TapeOrders)

    def start(self, now_ms: int) -> None:
        self._load(self.turn, now_ms)

    def _spec(self, turn: int) -> TapeSpec:
        return (self.games[turn % len(self.games)], self.languages[turn % len(self.languages)], self.seats,
                self.seed + turn)

    def _load(self, turn: int, now_ms: int) -> None:
        """Show the ``turn``-th game from its start, once its tape is recorded (until then the
        current tape stays on)."""
        tape = self.tapes.take(self._spec(turn))
        if tape is None:
            return
        self.turn, self.tape = turn, tape
        self.step, self.started_ms, self.step_ms = 0, now_ms, now_ms
        self.version += 1
        self.tapes.order(self._spec(turn + 1))  # recorded while this game plays

    def tick(self, now_ms: int, screen_busy: bool) -> None:
        """Move on when the step has been seen (see module docs) and the game's turn when it is up."""
        tape = self.tape
        if tape is None:
            self._load(self.turn, now_ms)
            return
        shown = now_ms - self.step_ms
        last = self.step >= len(tape.steps) - 1
        if (last and shown >= FINAL_MS) or (not last and now_ms - self.started_ms >= self.game_ms and not screen_busy):
            self._load(self.turn + 1, now_ms)
            return
        if not last and shown >= MIN_STEP_MS and (not screen_busy or shown >= MAX_STEP_MS):
            self.step += 1
            self.step_ms = now_ms
            self.version += 1

    def snapshot(self, now_ms: int, real: TableSnapshot) -> TableSnapshot:
        """The demo step as the screen draws it; ``attract`` carries the real table's
        free seats (their QR codes invite people in) and the venue."""
        tape = self.tape
        assert tape is not None, "call start() first"
        step = tape.steps[self.step]
        over = self.step == len(tape.steps) - 1
        names = DEMO_NAMES.get(tape.language, DEMO_NAMES["en"])
        seats = tuple(SeatInfo(seat=i, status=SeatStatus.JOINED, name=names[i % len(names)], colour=look(i).colour,
                               symbol=look(i).symbol, code="", url="", connected=True, language=tape.language)
                      for i in range(self.seats))
        free = [s for s in real.seats if s.status is SeatStatus.FREE]
        return TableSnapshot(
            version=self.version, mode=RunMode.KIOSK, language=tape.language, game=tape.game, preset=tape.preset,
            settings=tape.settings, seats=seats, phase=TablePhase.FINISHED if over else TablePhase.PLAYING,
            public_view=step.public_view, events=step.events, event_seq=self.version if step.events else 0,
            clock_ms=now_ms, join_url=real.join_url, spectator_url=real.spectator_url,
            lobby=dataclasses.replace(real.lobby, can_start=False), arcade=real.arcade,
            attract=AttractInfo(tuple(free), real.join_url),
        )


def wants_attract(real: TableSnapshot) -> bool:
    """The table is an empty lobby: nobody holds a seat."""
    return real.phase is TablePhase.LOBBY and real.how_to_play is None and \
        not any(s.status is SeatStatus.JOINED for s in real.seats)
