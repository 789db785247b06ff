"""The aiohttp application: the phone app's pages and files, join codes, fonts, and ``/ws``.

Routes and messages are documented in ``docs/protocol.md``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import mimetypes
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from aiohttp import WSMsgType, web

from game import catalog
from game.config import TableConfig
from game.package_files import package_path
from game.session.api import HOUSEKEEPING_S, Journal, Session, away_token, normalise_code
from game.session.snapshot import SeatStatus

from .capacity import connection_room, current_fd_limit, size_sockets
from .frames import FrameClock
from .guard import CONNECTIONS_PER_ADDRESS, HEADER_DEADLINE_S, LOOPBACK, ConnectionGuard, guard_middleware
from .heap import Collector, HeapTrim, collecting
from .hub import MAX_SPECTATORS, Hub, SocketLimits
from .linger import linger_after_too_big
from .noise import NetworkNoise, NoiseKind, quiet_aiohttp_noise
from .protocol import HARD_MAX_MESSAGE_BYTES
from .ratelimit import Backoff, PinGuard, RateLimit

log = logging.getLogger(__name__)

WEB_DIR = package_path("web")  # package data (game/package_files.py)
I18N_DIR = package_path("i18n")
HEARTBEAT_S = 15.0
FONT_CACHE_S = 86_400
WATCHDOG_S = 1.0
KEEPALIVE_S = 15.0
JOIN_FAILURES_PER_MINUTE = 10  # wrong codes from one address before it backs off (1 s, 2 s, 4 s, ...)

FONT_FAMILIES: dict[str, str] = {
    "NotoSans.ttf": "Noto Sans",
    "NotoSansArabic.ttf": "Noto Sans Arabic",
    "NotoSansThai.ttf": "Noto Sans Thai",
}
LANG_FILES = ("en", "fa", "th")

for _type, _ext in (("text/javascript", ".js"), ("text/javascript", ".mjs"), ("text/css", ".css"),
                    ("application/manifest+json", ".webmanifest"), ("image/svg+xml", ".svg"),
                    ("font/ttf", ".ttf"), ("application/json", ".json")):
    mimetypes.add_type(_type, _ext)


def remote_address(request: web.Request) -> str:
    return request.remote or "?"


class AppExtension(Protocol):
    """Adds routes and background work to the table's app: ``(app, session, journal, config,
    journal_moved)``, where ``journal_moved`` says why the journal was moved aside at start-up."""

    def __call__(self, app: web.Application, session: Session, journal: Journal | None, config: TableConfig,
                 journal_moved: str | None, /) -> object: ...


@dataclass(frozen=True, slots=True)
class ServerSettings:
    web_dir: Path = WEB_DIR
    i18n_dir: Path = I18N_DIR
    rate: RateLimit = field(default_factory=RateLimit)
    heartbeat_s: float = HEARTBEAT_S
    max_sockets: int | None = None  # every WebSocket at once (None: sized from the open-file limit)
    max_spectators: int = MAX_SPECTATORS  # the gallery, if the open-file limit allows it
    fd_limit: int | None = None  # the open-file limit to size for (None: the process's soft limit)
    housekeeping_s: float = HOUSEKEEPING_S
    clock: Callable[[], float] | None = None  # seconds, for deadlines and backoffs (None: the loop's)
    address_of: Callable[[web.Request], str] = remote_address  # who is asking
    per_address_sockets: int = 16  # WebSockets from one device
    hello_s: float = 10.0  # a socket says hello within this or is closed
    header_s: float = HEADER_DEADLINE_S  # an HTTP connection sends its first request's headers within this
    per_address_connections: int = CONNECTIONS_PER_ADDRESS
    uncapped: frozenset[str] = LOOPBACK  # addresses without per-address caps (the table's own machine)
    # what the layer above adds to the app before it serves (the kiosk's housekeeper and owner's
    # page: game.kiosk.web.install_kiosk), composed in game.__main__ so the server names no kiosk;
    # a module-level function, so the settings cross to the table's own process
    extend: AppExtension | None = None


SESSION = web.AppKey("session", Session)
HUB = web.AppKey("hub", Hub)
SETTINGS = web.AppKey("settings", ServerSettings)
JOINS = web.AppKey("joins", Backoff)
GUARD = web.AppKey("guard", ConnectionGuard)
NOISE = web.AppKey("noise", NetworkNoise)  # network noise from other devices (the owner's page, /metrics)
FRAMES = web.AppKey("frames", FrameClock)  # when the TV last drew a frame (/metrics)
HEAP = web.AppKey("heap", HeapTrim)  # freed heap back to the system after a flood (heap.py)


# ------------------------------------------------------------------------------------- pages
def _index(request: web.Request) -> web.StreamResponse:
    index = request.app[SETTINGS].web_dir / "index.html"
    if not index.is_file():
        return web.Response(status=503, text="The phone app is not installed (game/web/index.html is missing).")
    response = web.FileResponse(index, headers={"Cache-Control": "no-cache"})
    return response


async def app_page(request: web.Request) -> web.StreamResponse:
    return _index(request)


async def root(request: web.Request) -> web.StreamResponse:
    raise web.HTTPSeeOther("/join")


def _lookup(request: web.Request, typed: str) -> str | None:
    """The seat link path for a typed code, or None. A free seat's code (on the TV for everyone to
    read) always works; wrong codes make their address back off, and then only free seats answer."""
    address = request.app[SETTINGS].address_of(request)
    joins = request.app[JOINS]
    code = normalise_code(typed)
    record = request.app[SESSION].table.seat_by_code(code) if code else None
    if record is not None and record.status is SeatStatus.FREE:
        return f"/s/{record.token}"
    wait = joins.wait_s(address)
    if wait > 0:
        raise web.HTTPTooManyRequests(text=f"Too many wrong codes; try again in {math.ceil(wait)} s.")
    if record is None:
        joins.failed(address)
        return None
    return f"/s/{record.token}"


async def join(request: web.Request) -> web.StreamResponse:
    typed = request.query.get("code")
    if typed is None:
        return _index(request)
    target = _lookup(request, typed)
    raise web.HTTPSeeOther(target or "/join?error=unknown_code")


async def api_join(request: web.Request) -> web.Response:
    target = _lookup(request, request.match_info["code"])
    if target is None:
        return web.json_response({"error": {"code": "unknown_seat", "message": "no seat has this code"}}, status=404)
    record = request.app[SESSION].table.seat_by_token(target.removeprefix("/s/"))
    # a held seat's code only asks the host: the phone says so before it opens the link
    return web.json_response({"url": target, "held": record is not None and record.status is not SeatStatus.FREE})


async def api_away(request: web.Request) -> web.Response:
    """Held seats whose phone is away, for the join page's "Phone died? Tap your seat": each link
    is the seat's away link, not its own (anyone on the LAN reads this list): it only asks the host
    (who allows it on the TV or the host console), ranked after the seat's own device and own link."""
    session = request.app[SESSION]
    seats = [{**session.update.seat_card(r.seat), "url": f"/s/{away_token(r)}"} for r in session.offered
             if r.status is SeatStatus.JOINED and not session.is_connected(r.seat)]
    return web.json_response({"seats": seats}, headers={"Cache-Control": "no-store"})


async def font(request: web.Request) -> web.StreamResponse:
    family = FONT_FAMILIES.get(request.match_info["name"])
    if family is None:
        raise web.HTTPNotFound()
    import fontpkg  # here: only a phone's font request needs it, not the table's start

    try:
        path = fontpkg.path(family)
    except fontpkg.FontpkgError:
        raise web.HTTPNotFound(text=f"font {family} is not installed") from None
    return web.FileResponse(path, headers={"Content-Type": "font/ttf", "Cache-Control": f"max-age={FONT_CACHE_S}"})


def phone_strings(i18n_dir: Path, lang: str) -> dict[str, str] | None:
    """The phone's strings in ``lang``: the shared ``web_<lang>.json`` (None when there is none)
    and every catalog game's own (``GameDescriptor.phone_strings``, beside it or in a plug-in's folder)."""
    shared = i18n_dir / f"web_{lang}.json"
    if lang not in LANG_FILES or not shared.is_file():
        return None
    strings: dict[str, str] = json.loads(shared.read_text(encoding="utf-8"))
    for domain in catalog.phone_domains():
        name = f"{domain}_{lang}.json"
        path = next((folder / name for folder in (i18n_dir, *catalog.string_folders()) if (folder / name).is_file()), None)
        if path is not None:
            strings.update(json.loads(path.read_text(encoding="utf-8")))
    return strings


async def i18n(request: web.Request) -> web.StreamResponse:
    strings = phone_strings(request.app[SETTINGS].i18n_dir, request.match_info["lang"])
    if strings is None:
        raise web.HTTPNotFound()
    return web.json_response(strings, headers={"Cache-Control": "no-cache"})


def game_phone_module(path: str) -> Path | None:
    """A game's phone module (``js/games/<file>``), from its own folder's ``phone/``."""
    return catalog.phone_file(path.removeprefix("js/")) if path.startswith("js/") else None


async def game_data(request: web.Request) -> web.Response:
    """Data a game's phones fetch (``GameDescriptor.phone_data``: a clue deck in another language, ...)."""
    try:
        data = catalog.get(request.match_info["game"]).load_phone_data(request.match_info["name"])
    except catalog.UnknownGame:
        raise web.HTTPNotFound() from None
    if data is None:
        raise web.HTTPNotFound()
    return web.json_response(data, headers={"Cache-Control": "no-cache"})


async def healthz(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    return web.json_response({"ok": True, "version": session.version, "phase": session.phase.value})


def served_file(web_dir: Path, path: str) -> Path | None:
    """The file the table answers ``GET /<path>`` with: a file inside ``web_dir``, else a game's phone
    module (from its package's ``phone/``); None for neither, or for a path that leaves ``web_dir``.
    The phone-types test reads the phone's imports through it, so it judges them by what the browser gets."""
    root_dir = web_dir.resolve()
    try:
        found = (root_dir / path).resolve()
        found.relative_to(root_dir)
    except (ValueError, OSError):
        return None
    if not found.is_file():
        found = game_phone_module(path) or found
    return found if found.is_file() else None


async def static_file(request: web.Request) -> web.StreamResponse:
    path = served_file(request.app[SETTINGS].web_dir, request.match_info["path"])
    if path is None:
        raise web.HTTPNotFound()
    content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return web.FileResponse(path, headers={"Content-Type": content_type, "Cache-Control": "no-cache"})


@web.middleware
async def safety_headers(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
    """Seat links carry their secret in the path: never send it on as a referrer."""
    response = await handler(request)
    if not response.prepared:
        response.headers.setdefault("Referrer-Policy", "no-referrer")
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
    return response


# -------------------------------------------------------------------------------- websocket
async def websocket(request: web.Request) -> web.StreamResponse:
    settings = request.app[SETTINGS]
    hub = request.app[HUB]
    address = settings.address_of(request)
    refusal = hub.admit(address)
    if refusal is not None:  # answered before any upgrade: a few bytes, and the phone backs off
        raise web.HTTPServiceUnavailable(text=f"Not now: {refusal}.", headers={"Retry-After": "1"})
    # no permessage-deflate: messages are small, the LAN is fast, and compressing every state for
    # every socket would cost more than it saves
    ws = web.WebSocketResponse(heartbeat=settings.heartbeat_s, max_msg_size=HARD_MAX_MESSAGE_BYTES, compress=False)
    try:
        await ws.prepare(request)
    except ConnectionResetError:  # it went away (or a cap closed it) before the upgrade was written: noise
        hub.noise.count(NoiseKind.DROPPED, address)
        return web.Response(status=503)  # never written (the connection is gone): aiohttp lets it go quietly
    linger_after_too_big(ws, request.transport)  # a huge frame still closes with 1009, not a reset
    client = hub.add(ws, address, request.transport, request.protocol)
    try:
        async for msg in ws:
            if msg.type is WSMsgType.TEXT:
                hub.handle_text(client, msg.data)
            elif msg.type is WSMsgType.BINARY:
                hub.handle_binary(client)
            elif msg.type is WSMsgType.ERROR:
                log.info("socket error: %s", ws.exception())
                break
    finally:
        await hub.remove(client)
    return ws


# ---------------------------------------------------------------------------- background
async def housekeeping(app: web.Application) -> AsyncIterator[None]:
    """The session's periodic chores (journal checkpoint, kiosk idle reset), in the cleanup context."""
    session = app[SESSION]
    interval = app[SETTINGS].housekeeping_s

    async def loop() -> None:
        while True:
            await asyncio.sleep(interval)
            session.housekeeping()

    task = asyncio.create_task(loop())
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def watchdog(app: web.Application) -> AsyncIterator[None]:
    """Every second: close HTTP connections that never sent their headers and sockets that never
    said hello (their deadlines are read on the server's clock)."""

    async def loop() -> None:
        while True:
            await asyncio.sleep(WATCHDOG_S)
            app[GUARD].reap()
            app[HUB].reap()
            app[NOISE].flush()
            app[HEAP].seen(len(app[HUB].clients), app[HUB].opened)

    task = asyncio.create_task(loop())
    yield
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def quiet_noise(app: web.Application) -> AsyncIterator[None]:
    """aiohttp's records of network noise are counted on ``app[NOISE]``, not logged one by one."""
    undo = quiet_aiohttp_noise(app[NOISE])
    yield
    app[NOISE].flush(force=True)
    undo()


def garbage_collection(app: web.Application) -> AsyncIterator[None]:
    """The cycle collector runs between actions, not inside them (``game/server/heap.py``)."""
    session = app[SESSION]
    return collecting(Collector(lambda: session.version, heap=app[HEAP]))


def guard_server(app: web.Application, server: web.Server) -> None:
    """Put the app's connection guard on the runner's server (after ``runner.setup()``)."""
    app[GUARD].install(server)


async def close_sockets(app: web.Application) -> None:
    await app[HUB].close_all(1001, "server shutting down")


def _fd_limit(settings: ServerSettings) -> int:
    return current_fd_limit() if settings.fd_limit is None else settings.fd_limit


def socket_limits(settings: ServerSettings) -> SocketLimits:
    """The caps per role: seats' reserve always, the gallery as the open-file limit allows."""
    fd_limit = _fd_limit(settings)
    sized = size_sockets(fd_limit, spectators=settings.max_spectators)
    if settings.max_sockets is not None:
        sized = replace(sized, total=settings.max_sockets)
    log.info("sockets: %d seats and host links reserved, %d spectators at most, %d in all (open-file limit %d)",
             sized.seat_reserve, sized.gallery(), sized.total, fd_limit)
    return replace(sized, per_address=settings.per_address_sockets, hello_s=settings.hello_s, exempt=settings.uncapped)


def make_app(session: Session, settings: ServerSettings | None = None) -> web.Application:
    settings = settings or ServerSettings()
    clock = settings.clock or asyncio.get_running_loop().time
    noise = NetworkNoise()
    hub = Hub(session, settings.rate, clock, PinGuard(clock), socket_limits(settings), noise)
    guard = ConnectionGuard(clock, header_s=settings.header_s, per_address=settings.per_address_connections,
                            exempt=settings.uncapped, room=connection_room(_fd_limit(settings)), noise=noise)
    hub.prove = guard.prove  # a seated phone's or the host's socket leaves its address's budgets
    # keep-alive connections idle between requests close sooner than aiohttp's 75 s
    app = web.Application(client_max_size=64 * 1024, middlewares=[guard_middleware(guard), safety_headers],
                          handler_args={"keepalive_timeout": KEEPALIVE_S})
    app[SESSION] = session
    app[SETTINGS] = settings
    app[GUARD] = guard
    app[NOISE] = noise
    app[HEAP] = HeapTrim()
    app[FRAMES] = FrameClock()
    app[HUB] = hub
    app[JOINS] = Backoff(clock, free=JOIN_FAILURES_PER_MINUTE)
    app.add_routes([
        web.get("/", root),
        web.get("/s/{token}", app_page),
        web.get("/join", join),
        web.get("/watch", app_page),
        web.get("/host", app_page),
        web.get("/api/join/{code}", api_join),
        web.get("/api/away", api_away),
        web.get("/static/{path:.+}", static_file),
        web.get("/fonts/{name}", font),
        web.get("/i18n/{lang}.json", i18n),
        web.get("/games/{game}/{name}.json", game_data),
        web.get("/healthz", healthz),
        web.get("/ws", websocket),
    ])
    app.cleanup_ctx.append(housekeeping)
    app.cleanup_ctx.append(watchdog)
    app.cleanup_ctx.append(garbage_collection)
    app.cleanup_ctx.append(quiet_noise)
    app.on_shutdown.append(close_sockets)
    return app
