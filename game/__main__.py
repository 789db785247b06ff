"""``tabletop`` / ``python -m game``: start the table, or simulate and replay games.

    tabletop [--headless] [--new] [--mode table|companion|kiosk] [--host H] [--port P]
             [--lang en|fa|th] [--game G] [--serial PORT] [--fullscreen] [--data DIR]
    tabletop --mode kiosk --config FILE      (a café: see the README's "Kiosk" section)
    tabletop simulate --game <id> --players 12 --games 2000 --seed 1 --bots random
    tabletop replay FILE [--json]
"""
from __future__ import annotations

import argparse
import asyncio
import dataclasses
import faulthandler
import hashlib
import logging
import os
import signal
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, TextIO

from . import catalog
from .config import LANGUAGES, TableConfig, default_data_dir
from .display_check import no_display, quiet_audio
from .session.snapshot import RunMode

if TYPE_CHECKING:
    from .kiosk.screen import KioskLayer
    from .kiosk.supervise import Notifier, Watchdog
    from .server.app import ServerSettings
    from .server.process_runtime import ProcessRuntime

log = logging.getLogger("game")

_FATAL: list[TextIO] = []  # the file faulthandler writes a fatal signal's stacks to (kept open)
CONFIG_ERROR_STATUS = 2  # the systemd unit does not restart on this status (RestartPreventExitStatus)


def _table_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="tabletop",
        description="The big-screen party table. Subcommands: simulate, replay (see `tabletop simulate -h`).",
    )
    p.add_argument("--headless", action="store_true", help="run table and server without a window")
    p.add_argument("--new", action="store_true", help="start a fresh table instead of resuming the journal")
    p.add_argument("--mode", choices=[m.value for m in RunMode], default=RunMode.TABLE.value,
                   help="table: the game on the screen and phones; companion: real cards on the table, the "
                        "program referees races and keeps score (the --game's companion variant); kiosk: a café")
    p.add_argument("--host", default=None, help="address to listen on and advertise (default: the LAN address)")
    p.add_argument("--port", type=int, default=8765)
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="the table's language")
    p.add_argument("--game", choices=catalog.ids(), default=catalog.default_game(),
                   help="the game (with --mode companion: its family's companion variant)")
    p.add_argument("--serial", default=None, help="serial port of the arcade-button board (default: search)")
    p.add_argument("--fullscreen", action="store_true")
    p.add_argument("--size", default="1280x720", help="window size WxH")
    p.add_argument("--data", "--data-dir", dest="data", type=Path, default=None,
                   help=f"folder for the journal (default: {default_data_dir()})")
    p.add_argument("--pin", default="", help="admin PIN for the host link and kiosk (default: generated)")
    p.add_argument("--config", type=Path, default=None,
                   help="kiosk mode: the operator's TOML file (venue, languages, game, PIN, port, data dir, ...)")
    p.add_argument("--seed", type=int, default=None, help="fixed seed (reproducible games)")
    p.add_argument("-v", "--verbose", action="store_true", help="log what the table does")
    return p


def _parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"tabletop: --size wants WIDTHxHEIGHT, e.g. 1920x1080, not {text!r}") from None
    if w < 640 or h < 360:
        raise SystemExit("tabletop: --size must be at least 640x360")
    return w, h


def config_from_args(args: argparse.Namespace) -> TableConfig:
    if args.config is not None:
        return _kiosk_config(args)
    return TableConfig(
        host=args.host,
        port=args.port,
        mode=RunMode(args.mode),
        language=args.lang,
        game=args.game,
        data_dir=args.data or default_data_dir(),
        new=args.new,
        headless=args.headless,
        fullscreen=args.fullscreen or args.mode == RunMode.KIOSK.value,
        window_size=_parse_size(args.size),
        serial=args.serial,
        admin_pin=args.pin,
        seed=args.seed,
    )


def _kiosk_config(args: argparse.Namespace) -> TableConfig:
    """The table as the operator's file says (the file wins over --lang/--game/--port/--data/--pin)."""
    from .kiosk.config import ConfigError, load_config

    if args.mode != RunMode.KIOSK.value:
        print("tabletop: --config is for kiosk mode: tabletop --mode kiosk --config FILE", file=sys.stderr)
        raise SystemExit(CONFIG_ERROR_STATUS)
    try:
        kiosk = load_config(args.config)
    except ConfigError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        raise SystemExit(CONFIG_ERROR_STATUS) from None
    return TableConfig(
        host=args.host, port=kiosk.port, mode=RunMode.KIOSK, language=kiosk.language, game=kiosk.game,
        data_dir=kiosk.data_dir or args.data or default_data_dir(), new=args.new, headless=args.headless,
        fullscreen=True, window_size=_parse_size(args.size), serial=args.serial, admin_pin=kiosk.admin_pin,
        seed=args.seed, kiosk=kiosk,
    )


def server_settings(config: TableConfig) -> ServerSettings | None:
    """The server's settings, composed here: a kiosk table's app also gets the kiosk's housekeeper
    and owner's page (the server layer names no kiosk). Any other table: None, the server's
    defaults, without importing the kiosk's web pages (Prometheus, the archive) or, in the TV's
    process, the server itself."""
    if config.mode is not RunMode.KIOSK:
        return None
    from .kiosk.web import install_kiosk
    from .server.app import ServerSettings

    return ServerSettings(extend=install_kiosk)


def run_table(config: TableConfig) -> int:
    from .kiosk.supervise import SERVER_LOOP, Notifier, start_watchdog

    notifier = Notifier()  # systemd's NOTIFY_SOCKET, when started by the unit
    if not config.headless and no_display():
        print("tabletop: no display found — running headless (phones, /watch and /host work as usual; "
              "start with --headless to skip this check)", file=sys.stderr, flush=True)
        config = dataclasses.replace(config, headless=True)
    if config.headless:
        from .server.runtime import run_headless  # here: with a window, the table's own process serves

        watchdog = start_watchdog((SERVER_LOOP,))
        try:
            return run_headless(config, on_started=partial(_supervise_loop, notifier, watchdog), settings=server_settings(config))
        finally:
            _stop_supervision(notifier, watchdog)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    quiet_audio()
    from .kiosk.display import NoDisplay, choose_video_driver
    from .kiosk.supervise import ExitStatus

    try:
        choose_video_driver()  # before the server starts: kmsdrm, then x11/wayland, or one clear line
    except NoDisplay as exc:
        print(f"tabletop: {exc}", file=sys.stderr, flush=True)
        return ExitStatus.NO_DISPLAY
    from .server.process_runtime import ProcessRuntime

    runtime = ProcessRuntime(config, server_settings(config))  # the table's loop in its own process: the TV never slows it
    runtime.orphan_log = kiosk_log_path(config)
    crash: str | None = None  # the TV owns the table's life: only its own exit path stops it cleanly
    try:
        return _run_windowed(runtime, config, notifier)
    except BaseException as exc:
        if _stop_within(exc):  # Ctrl+C, systemd's stop: the table's process ignores both, stopped here once
            return ExitStatus.DONE
        # the window failed (a lost display, an X error, a bug): a crash
        crash = f"the TV failed: {type(exc).__name__}: {exc}"
        log.exception("the TV's window failed")
        raise
    finally:
        runtime.stop(crash=crash)


def _run_windowed(runtime: ProcessRuntime, config: TableConfig, notifier: Notifier) -> int:
    """The TV's window in this process, the table in ``runtime``'s; the watchdog beats for both."""
    from .kiosk.supervise import RENDER_LOOP, SERVER_LOOP, ExitStatus, SupervisedRuntime, start_watchdog
    from .render.app import run_window
    from .server.errors import StartupError
    from .server.process_runtime import TableLost

    _stop_on_signals()
    runtime.start()
    try:
        runtime.wait_ready()
    except StartupError as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    print(runtime.links(), flush=True)
    watchdog = start_watchdog((RENDER_LOOP, SERVER_LOOP))
    if watchdog is not None:
        runtime.on_beat = partial(watchdog.beat, SERVER_LOOP)  # the table's loop beats through the link
        runtime.watchdog_misses = lambda: watchdog.missed_total  # /metrics: tabletop_watchdog_misses_total
    try:
        kiosk: KioskLayer | None = None  # kiosk mode: the PIN lock, the attract loop, the hidden pointer
        if config.mode is RunMode.KIOSK:  # only then its module (the attract reel, the archive's records)
            from .kiosk.screen import kiosk_layer

            kiosk = kiosk_layer(config)
        return run_window(SupervisedRuntime(runtime, notifier, watchdog), config, kiosk)
    except TableLost as exc:  # its run was left open by the dead process: counted at the next start
        log.error("%s", exc)
        return ExitStatus.TABLE_LOST
    finally:
        _stop_supervision(notifier, watchdog)


class StopRequested(BaseException):
    """SIGINT or SIGTERM before the window is up. Not a KeyboardInterrupt: one that passes through
    code run by ``exec`` of a string (dataclasses make their methods so, on import) marks CPython's
    exit as an unhandled Ctrl+C even when caught, and the process then ended by SIGINT, not 0."""


def _stop_within(exc: BaseException) -> bool:
    """Whether ``exc`` is or wraps a stop (Ctrl+C, :class:`StopRequested`): a stop that lands while
    a module is imported can surface as another error (Python 3.11 wraps one raised in a dataclass
    field's ``__set_name__`` in a RuntimeError). That is still systemd's stop, not a crash."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, (KeyboardInterrupt, StopRequested)):
            return True
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return False


def _stop_on_signals() -> None:
    """SIGINT and SIGTERM, handled once, in this process (the table's ignores both: a terminal's
    Ctrl+C and ``systemctl stop`` reach every process): before the window is up they raise
    :class:`StopRequested`, then they close the window with a quit event (an exception raised
    while pygame runs C code can be lost). A kiosk's window takes both over (``kiosk_layer``)."""
    import pygame

    def stop(signum: int, _frame: FrameType | None) -> None:
        logging.getLogger("game.audit").info("stop requested by %s", signal.Signals(signum).name)
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)  # once: the window and the table are stopping
        if not pygame.display.get_init():
            raise StopRequested(signal.Signals(signum).name)
        pygame.event.post(pygame.event.Event(pygame.QUIT))

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)


def _supervise_loop(notifier: Notifier | None, watchdog: Watchdog | None, loop: asyncio.AbstractEventLoop) -> None:
    """On the server loop: beat for the watchdog; headless, the table is ready once it serves."""
    from .kiosk.supervise import beat_server_loop

    if watchdog is not None:
        beat_server_loop(watchdog, loop)
    if notifier is not None:
        notifier.ready("serving")


def _stop_supervision(notifier: Notifier, watchdog: Watchdog | None) -> None:
    notifier.stopping()
    if watchdog is not None:
        watchdog.stop()


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["simulate"]:
        from .simulate import main as simulate_main

        return simulate_main(argv[1:])
    if argv[:1] == ["replay"]:
        from .replay import main as replay_main

        return replay_main(argv[1:])
    args = _table_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    config = config_from_args(args)
    if config.admin_pin and len(config.admin_pin) < 6:
        print("tabletop: warning: an admin PIN shorter than 6 characters is easy to guess", file=sys.stderr)
    if config.mode is RunMode.KIOSK:
        _kiosk_log_file(config)
    return run_table(config)


def kiosk_log_path(config: TableConfig) -> Path | None:
    """The kiosk's log file (None when not a kiosk)."""
    if config.mode is not RunMode.KIOSK:
        return None
    from .kiosk.keeper import LOG_NAME  # only then: the keeper brings the session and the archive

    return config.data_dir / "logs" / LOG_NAME


def _kiosk_log_file(config: TableConfig) -> None:
    """Kiosk: the log also goes to ``<data>/logs/tabletop.log``, rotated (``[disk]`` settings). A
    fatal signal (the watchdog's SIGABRT, a segfault in a driver) writes every thread's stack there
    too (``faulthandler``): the cause of a crash is in the log, not only in the journal."""
    from .kiosk.config import DiskLimits
    from .kiosk.keeper import rotating_log

    limits = config.kiosk.disk if config.kiosk is not None else DiskLimits()
    try:
        handler = rotating_log(config.data_dir, limits)
    except OSError as exc:
        print(f"tabletop: cannot write the log in {config.data_dir}: {exc}", file=sys.stderr)
        return
    _FATAL.append(open(handler.baseFilename, "a", encoding="utf-8"))  # noqa: SIM115  # open while the process lives
    faulthandler.enable(_FATAL[-1], all_threads=True)
    # the file gets the table's INFO lines (start, resume, hand-over) and up; the terminal keeps
    # the level -v chose (with the root at WARNING the file stayed empty all day)
    root = logging.getLogger()
    for console in root.handlers:
        if console.level == logging.NOTSET:
            console.setLevel(root.level)
    handler.setLevel(logging.INFO)
    root.setLevel(min(root.level, logging.INFO))
    root.addHandler(handler)
    _audit_config(config)


def _audit_config(config: TableConfig) -> None:
    """One audit line per start: which kiosk.toml was read, and a digest of it. The file is read at
    start only (a changed one takes effect with ``systemctl restart``), so the line says when a
    change took effect; the digest shows whether it changed at all. Never a value: the PIN is in it."""
    path = config.kiosk.path if config.kiosk is not None else None
    if path is None:
        logging.getLogger("game.audit").info("kiosk started with the built-in settings (no --config file)")
        return
    try:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    except OSError as exc:  # read a moment ago; gone now is worth a line, not a stop
        digest = f"unreadable now: {exc.strerror}"
    logging.getLogger("game.audit").info("kiosk config read from %s (sha256 %s)", path, digest)


if __name__ == "__main__":
    sys.exit(main())
