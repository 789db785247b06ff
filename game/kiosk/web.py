"""Kiosk mode on the server: the housekeeper on the table's loop, and the owner's page routes
(``/api/owner`` JSON and ``/api/owner.csv``; the admin PIN in the ``X-Admin-Pin`` header, wrong
PINs counted per address like the host link's)."""
from __future__ import annotations

import asyncio
import math
from collections.abc import AsyncIterator

from aiohttp import web

from game.config import TableConfig
from game.server.app import HUB, SESSION
from game.session.api import Journal, Session

from .archive import Archive
from .config import DiskLimits
from .keeper import SEEN_EVERY_S, KioskKeeper
from .owner import owner_report, report_csv

KEEPER = web.AppKey("kiosk_keeper", KioskKeeper)
PIN_HEADER = "X-Admin-Pin"


def install_kiosk(app: web.Application, session: Session, journal: Journal | None, config: TableConfig,
                  journal_moved: str | None = None) -> KioskKeeper:
    """Attach the housekeeper and add the owner's routes (before the app's runner is set up).
    ``journal_moved``: why the journal was moved aside at start-up (the owner's page tells it)."""
    limits = config.kiosk.disk if config.kiosk is not None else DiskLimits()
    keeper = KioskKeeper(session, journal, Archive.beside(config.data_dir), limits)
    keeper.attach(journal_moved)
    app[KEEPER] = keeper
    app.add_routes([web.get("/api/owner", owner_json), web.get("/api/owner.csv", owner_csv)])
    app.cleanup_ctx.append(_chores)
    return keeper


async def _chores(app: web.Application) -> AsyncIterator[None]:
    keeper = app[KEEPER]

    async def loop() -> None:
        while True:
            await asyncio.sleep(SEEN_EVERY_S)
            keeper.chore()

    task = asyncio.create_task(loop())
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    keeper.close()


def _check_pin(request: web.Request) -> None:
    """The host console's PIN, under the same guard as the console's own hello (hub._hello_host):
    the wait is the guard's backoff, and a right PIN clears this address's wrong tries."""
    guard = request.app[HUB].pin_failures
    address = request.remote or "?"
    wait = guard.wait_s(address)
    if wait > 0:
        seconds = math.ceil(wait)
        raise web.HTTPTooManyRequests(text=f"Too many wrong PINs from this device; wait {seconds} s.",
                                      headers={"Retry-After": str(seconds)})
    if not request.app[SESSION].check_pin(request.headers.get(PIN_HEADER, "")):
        guard.failed(address)
        raise web.HTTPForbidden(text="wrong PIN")
    guard.succeeded(address)


async def owner_json(request: web.Request) -> web.Response:
    _check_pin(request)
    keeper = request.app[KEEPER]
    keeper.flush_errors()
    return web.json_response(owner_report(keeper.archive), headers={"Cache-Control": "no-store"})


async def owner_csv(request: web.Request) -> web.Response:
    _check_pin(request)
    text = report_csv(request.app[KEEPER].archive)
    return web.Response(text=text, content_type="text/csv", charset="utf-8", headers={
        "Content-Disposition": 'attachment; filename="tabletop-games.csv"', "Cache-Control": "no-store"})
