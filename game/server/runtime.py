"""Running the table: the session and the server on an asyncio loop.

* :class:`TableRuntime` runs the loop in a background thread, for the pygame renderer on the main
  thread: ``snapshot()`` reads the latest immutable :class:`TableSnapshot`, ``send()`` hands an
  :class:`InputEvent` to the session (via ``call_soon_threadsafe``).
* :func:`run_headless` runs the same on the calling thread until SIGINT / SIGTERM.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TextIO, runtime_checkable

from aiohttp import web

from firmware_bridge.bridge import ArcadeBridge
from game.config import TableConfig
from game.rules.base import RulesError
from game.seating import look
from game.session.api import CorruptJournal, Journal, Session, move_aside
from game.session.snapshot import InputEvent, TablePhase, TableSnapshot

from .app import FRAMES, GUARD, ServerSettings, guard_server, make_app
from .capacity import raise_fd_limit
from .errors import StartupError
from .guard import GuardedSite
from .netaddr import AddressWatch, base_url, lan_address, phones_cannot_reach

log = logging.getLogger(__name__)

ALL_INTERFACES = "0.0.0.0"
JOURNAL_NOTICE = "journal_moved_aside"  # i18n key: the saved table could not be read and was kept aside


@runtime_checkable
class RunLog(Protocol):
    """Where a kiosk keeps its runs (``game.kiosk.keeper.KioskKeeper``): a run closed after
    :meth:`crashed` is counted as a crash, with its cause."""

    def crashed(self, cause: str) -> None: ...


@dataclass(frozen=True, slots=True)
class Started:
    session: Session
    journal: Journal
    runner: web.AppRunner
    port: int
    url: str
    message: str | None  # about a journal moved aside
    arcade: ArcadeBridge | None = None  # the arcade-button board's bridge (searching or connected)
    address: AddressWatch | None = None  # re-checks the LAN address (None: a fixed host was given)
    address_task: asyncio.Task[None] | None = None
    runs: RunLog | None = None  # the kiosk's record of the program's runs (crashes counted)


def _open_session(config: TableConfig, **session_kw: Any) -> tuple[Session, Journal, str | None]:
    """The resumed table (or a fresh one); a journal that cannot be replayed is moved aside."""
    journal, saved, message = Journal.open(config.data_dir, new=config.new)
    try:
        session = Session.boot(config, journal, saved, **session_kw)
        if saved is not None:
            log.info("resumed the saved table from %s: %s, version %d", journal.path.name, session.phase.value,
                     session.version)
        return session, journal, message
    except (RulesError, KeyError, ValueError, TypeError, ImportError, AttributeError) as exc:
        if saved is None:
            journal.close()
            raise
        journal.close()
        moved = move_aside(journal.path, "corrupt")
        message = (f"The journal could not be replayed ({type(exc).__name__}: {exc}); it was moved to "
                   f"{moved.name} and the table starts fresh.")
        log.error(message)
        journal, _, _ = Journal.open(config.data_dir)
        return Session.boot(config, journal, None, **session_kw), journal, message


async def start_arcade(config: TableConfig, session: Session, **bridge_kw: Any) -> ArcadeBridge:
    """The arcade board's bridge on this loop: on ``config.serial``, else searching the USB serial
    ports. Never fails: with no board, races run on phones and keyboard until one shows up."""
    bridge = ArcadeBridge(port=config.serial, **bridge_kw)
    session.attach_arcade(bridge)
    await bridge.start()
    return bridge


async def start_table(config: TableConfig, settings: ServerSettings | None = None, *, arcade: bool = True,
                      address_source: Callable[[], str] = lan_address, **session_kw: Any) -> Started:
    """Open the journal, boot the session, and start serving on ``config.host``/``config.port``.
    ``arcade``: also run the arcade-button bridge (see :func:`start_arcade`). The address phones
    are given: ``--host``, else the kiosk file's ``host``, else the LAN address from
    ``address_source``, re-checked while the table runs (:class:`AddressWatch`)."""
    raise_fd_limit()  # room for the gallery's sockets (capacity.py); logged, never fatal
    try:
        session, journal, message = _open_session(config, **session_kw)
    except (OSError, CorruptJournal) as exc:
        raise StartupError(f"cannot open the table's data in {config.data_dir}: {exc}") from exc
    except (RulesError, KeyError, ImportError) as exc:
        raise StartupError(f"cannot set up the table for {config.game!r}: {exc}") from exc
    app = make_app(session, settings)
    runs: RunLog | None = None
    if settings is not None and settings.extend is not None:  # the kiosk's housekeeper and owner's page
        extended = settings.extend(app, session, journal, config, None if config.new else message)
        runs = extended if isinstance(extended, RunLog) else None  # the kiosk keeps the runs (crashes)
    runner = web.AppRunner(app, handle_signals=False, access_log=None)
    await runner.setup()
    assert runner.server is not None
    guard_server(app, runner.server)  # header deadline and per-address caps (game/server/guard.py)
    bind = config.host or ALL_INTERFACES
    site = GuardedSite(runner, app[GUARD], bind, config.port, reuse_address=True)  # the guard's door first
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        session.close()
        journal.close()
        raise StartupError(f"cannot listen on {bind}:{config.port}: {exc.strerror or exc}") from exc
    port = _bound_port(runner, config.port)
    fixed = fixed_host(config)
    watch: AddressWatch | None = None
    if fixed is None:
        watch = AddressWatch(port, session.set_base_url, address_source)
        url = watch.url
    else:
        url = base_url(fixed, port)
    session.set_base_url(url)
    if phones_cannot_reach(url):
        log.warning("no network yet: phones cannot reach the table at %s; the address is checked again "
                    "every few seconds", url)
    if message:
        session.add_notice(JOURNAL_NOTICE)
    log.info("table started: %s, %s, version %d, serving %s", session.table.game, session.phase.value,
             session.version, url)
    bridge = None
    if arcade:
        bridge = await start_arcade(config, session, **({"clock": session.clock} if "clock" in session_kw else {}))
    task = asyncio.get_running_loop().create_task(watch.run(), name="address-watch") if watch is not None else None
    return Started(session, journal, runner, port, url, message, bridge, watch, task, runs)


def fixed_host(config: TableConfig) -> str | None:
    """The address phones are given when one was set (``--host``, or the kiosk file's ``host``)."""
    if config.host and config.host != ALL_INTERFACES:
        return config.host
    return config.kiosk.host if config.kiosk is not None else None


def _bound_port(runner: web.AppRunner, fallback: int) -> int:
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            return int(address[1])
    return fallback


async def stop_table(started: Started, crash: str | None = None) -> None:
    """Close the table in order; ``crash``: why it stops without a clean stop (the process that
    owns the table's life died or failed): logged, and the run is counted as a crash."""
    if crash is not None:
        log.error("the table stops without a clean stop: %s", crash)
        if started.runs is not None:
            started.runs.crashed(crash)
    if started.address_task is not None:
        started.address_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await started.address_task
    if started.arcade is not None:
        await started.arcade.stop()
    await started.runner.cleanup()
    started.session.close()
    started.journal.close()


def join_links(started: Started) -> str:
    """The lines printed at start: seat links and codes, join, watch and host links."""
    session = started.session
    lines = []
    if started.message:
        lines.append(started.message)
    for record in session.offered:
        seat_look = look(record.seat)
        who = record.name or (f"bot ({record.bot.value})" if record.bot else "free")
        lines.append(f"Seat {record.seat + 1:>2} {seat_look.colour_name:<9} {session.seat_url(record)}"
                     f"   code {record.code}   {who}")
    lines += [
        f"Join by code: {session.base_url}/join",
        f"Watch:        {session.base_url}/watch",
        f"Host:         {session.base_url}/host   PIN {session.table.admin_pin}",
        f"Table: {session.table.game}, {session.phase.value}, version {session.version}"
        + (" (resumed)" if session.phase is not TablePhase.LOBBY else ""),
    ]
    return "\n".join(lines)


class TableRuntime:
    """The table's loop in a background thread (see module docs)."""

    def __init__(self, config: TableConfig, settings: ServerSettings | None = None, **session_kw: Any) -> None:
        self.config = config
        self._settings = settings
        self._session_kw = session_kw
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()
        self._stopped: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._started: Started | None = None

    # ---------------------------------------------------------------------- from any thread
    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the table is already running")
        self._thread = threading.Thread(target=self._main, name="table-loop", daemon=True)
        self._thread.start()

    def wait_ready(self, timeout: float | None = 30.0) -> None:
        """Block until the server listens; raises StartupError if it could not start."""
        if not self._ready.wait(timeout):
            raise StartupError("the table did not start in time")
        if self._error is not None:
            raise StartupError(str(self._error)) from self._error

    @property
    def url(self) -> str:
        """The address phones are given now (it follows the LAN address)."""
        return self._started.session.base_url if self._started else ""

    @property
    def port(self) -> int:
        return self._started.port if self._started else self.config.port

    def links(self) -> str:
        return join_links(self._started) if self._started else ""

    def snapshot(self) -> TableSnapshot:
        """The latest snapshot (an immutable value; reading the attribute is atomic)."""
        started = self._started
        if started is None:
            raise StartupError("the table has not started yet (call wait_ready())")
        started.runner.app[FRAMES].seen()  # the TV draws a frame per snapshot read (/metrics)
        return started.session.snapshot

    def send(self, event: InputEvent) -> None:
        loop, started = self._loop, self._started
        if loop is None or started is None or loop.is_closed():
            raise StartupError("the table is not running")
        loop.call_soon_threadsafe(started.session.handle_input, event)

    def call(self, fn: Callable[[Session], Any], timeout: float = 10.0) -> Any:
        """Run ``fn(session)`` on the loop thread and return its result (for tools and tests)."""
        loop, started = self._loop, self._started
        if loop is None or started is None:
            raise StartupError("the table is not running")

        async def run() -> Any:
            return fn(started.session)

        return asyncio.run_coroutine_threadsafe(run(), loop).result(timeout)

    def stop(self, timeout: float = 10.0) -> None:
        loop, stopped = self._loop, self._stopped
        if loop is not None and stopped is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stopped.set)
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    # ------------------------------------------------------------------- on the loop thread
    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as exc:  # reported through wait_ready()
            self._error = self._error or exc
            self._ready.set()

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        try:
            self._started = await start_table(self.config, self._settings, **self._session_kw)
        except BaseException as exc:
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        try:
            await self._stopped.wait()
        finally:
            await stop_table(self._started)


def run_headless(config: TableConfig, out: TextIO = sys.stdout,
                 on_started: Callable[[asyncio.AbstractEventLoop], None] | None = None,
                 settings: ServerSettings | None = None) -> int:
    """Run table and server without a window until SIGINT/SIGTERM. Returns the exit status.
    ``on_started(loop)`` runs on the loop once the table serves (systemd supervision)."""
    try:
        return asyncio.run(_headless(config, out, on_started, settings))
    except StartupError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0


async def _headless(config: TableConfig, out: TextIO, on_started: Callable[[asyncio.AbstractEventLoop], None] | None = None,
                    settings: ServerSettings | None = None) -> int:
    started = await start_table(config, settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    def asked(sig: signal.Signals) -> None:
        if not stop.is_set():
            logging.getLogger("game.audit").info("stop requested by %s", sig.name)
        stop.set()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, asked, sig)
    print(join_links(started), file=out, flush=True)
    print(f"Listening on port {started.port}. Ctrl+C stops the table (it resumes on the next start).",
          file=out, flush=True)
    if on_started is not None:
        on_started(loop)
    try:
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        await stop_table(started)
    return 0
