"""Kiosk mode on the server: the housekeeper on the table's loop, the owner's page routes
(``/api/owner`` JSON and ``/api/owner.csv``; the admin PIN in the ``X-Admin-Pin`` header, wrong
PINs counted per address like the host link's) and ``/metrics`` (the Prometheus text format: the
PIN in ``X-Admin-Pin`` or as the password of HTTP basic auth, or no PIN from an address in the
config's ``[monitoring] metrics_from``)."""
from __future__ import annotations

import asyncio
import base64
import ipaddress
import logging
import math
from collections.abc import AsyncIterator

from aiohttp import web

from game.config import TableConfig
from game.server.app import FRAMES, HUB, NOISE, SESSION
from game.server.metrics import CONTENT_TYPE, ErrorCount, TableCollector, exposition
from game.server.noise import NoiseKind
from game.session.api import Journal, Session

from .archive import Archive
from .config import DiskLimits, Network
from .keeper import SEEN_EVERY_S, KioskKeeper
from .owner import owner_report, report_csv

KEEPER = web.AppKey("kiosk_keeper", KioskKeeper)
METRICS = web.AppKey("metrics", TableCollector)
METRICS_FROM = web.AppKey("metrics_from", tuple)  # tuple[Network, ...]: read /metrics without the PIN
ERRORS = web.AppKey("error_count", ErrorCount)
PIN_HEADER = "X-Admin-Pin"
audit = logging.getLogger("game.audit")


def install_kiosk(app: web.Application, session: Session, journal: Journal | None, config: TableConfig,
                  journal_moved: str | None = None) -> KioskKeeper:
    """Attach the housekeeper and add the owner's routes (before the app's runner is set up).
    ``journal_moved``: why the journal was moved aside at start-up (the owner's page tells it)."""
    limits = config.kiosk.disk if config.kiosk is not None else DiskLimits()
    keeper = KioskKeeper(session, journal, Archive.beside(config.data_dir), limits)
    keeper.attach(journal_moved)
    app[KEEPER] = keeper
    app[ERRORS] = ErrorCount()
    app[METRICS] = TableCollector(app[HUB], app[NOISE], app[FRAMES], app[ERRORS], lambda: _report(app))
    app[METRICS_FROM] = config.kiosk.metrics_from if config.kiosk is not None else ()
    app.add_routes([web.get("/api/owner", owner_json), web.get("/api/owner.csv", owner_csv),
                    web.get("/metrics", metrics)])
    app.cleanup_ctx.append(_chores)
    return keeper


def _report(app: web.Application) -> dict[str, object]:
    """The owner's report, with today's bad requests from the network noise counter and the
    archive's size against its budget."""
    keeper = app[KEEPER]
    report = owner_report(keeper.archive, bad_requests_today=app[NOISE].today(NoiseKind.BAD_REQUEST))
    report["disk"] = {"archive_bytes": keeper.archive.size_bytes(), "limit_bytes": keeper.limits.keep_mb * 1024 * 1024}
    return report


async def _chores(app: web.Application) -> AsyncIterator[None]:
    keeper = app[KEEPER]
    logging.getLogger().addHandler(app[ERRORS])

    async def loop() -> None:
        while True:
            await asyncio.sleep(SEEN_EVERY_S)
            keeper.chore()

    task = asyncio.create_task(loop())
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    logging.getLogger().removeHandler(app[ERRORS])
    keeper.close()


def _check_pin(request: web.Request, pin: str | None = None) -> None:
    """The host console's PIN (``pin``, else the ``X-Admin-Pin`` header), under the same guard as
    the console's own hello (hub._hello_host): the wait is the guard's backoff, and a right PIN
    clears this address's wrong tries."""
    guard = request.app[HUB].pin_failures
    address = request.remote or "?"
    wait = guard.wait_s(address)
    if wait > 0:
        seconds = math.ceil(wait)
        raise web.HTTPTooManyRequests(text=f"Too many wrong PINs from this device; wait {seconds} s.",
                                      headers={"Retry-After": str(seconds)})
    if not request.app[SESSION].check_pin(request.headers.get(PIN_HEADER, "") if pin is None else pin):
        guard.failed(address)
        audit.warning("wrong admin PIN from %s on %s", address, request.path)
        raise web.HTTPForbidden(text="wrong PIN")
    guard.succeeded(address)


async def owner_json(request: web.Request) -> web.Response:
    _check_pin(request)
    keeper = request.app[KEEPER]
    keeper.flush_errors()
    return web.json_response(_report(request.app), headers={"Cache-Control": "no-store"})


async def owner_csv(request: web.Request) -> web.Response:
    _check_pin(request)
    text = report_csv(request.app[KEEPER].archive)
    return web.Response(text=text, content_type="text/csv", charset="utf-8", headers={
        "Content-Disposition": 'attachment; filename="tabletop-games.csv"', "Cache-Control": "no-store"})


def _listed(address: str, networks: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip.version == net.version and ip in net for net in networks)


def _metrics_pin(request: web.Request) -> str | None:
    """The PIN a scraper sent: ``X-Admin-Pin``, or the password of HTTP basic auth (any user name)."""
    if PIN_HEADER in request.headers:
        return request.headers[PIN_HEADER]
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        return base64.b64decode(credentials.strip(), validate=True).decode("utf-8").partition(":")[2]
    except (ValueError, UnicodeDecodeError):
        return ""  # a PIN that cannot be right: refused and counted like a wrong one


async def metrics(request: web.Request) -> web.Response:
    """The table's figures for Prometheus (``game/server/metrics.py``)."""
    if not _listed(request.remote or "", request.app[METRICS_FROM]):
        pin = _metrics_pin(request)
        if pin is None:
            raise web.HTTPUnauthorized(text="the admin PIN is needed (basic auth password or X-Admin-Pin)",
                                       headers={"WWW-Authenticate": 'Basic realm="tabletop metrics"'})
        _check_pin(request, pin)
    return web.Response(body=exposition(request.app[METRICS]),
                        headers={"Content-Type": CONTENT_TYPE, "Cache-Control": "no-store"})
