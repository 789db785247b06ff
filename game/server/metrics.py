"""The table's figures in the Prometheus text format, for an owner with several
tables who already runs Prometheus and Grafana: ``GET /metrics`` (kiosk mode; who may read it is
decided by :func:`game.kiosk.web.install_kiosk`: the admin PIN, or an address in the config's
``[monitoring] metrics_from``).

:class:`TableCollector` reads everything when scraped (nothing is kept twice): the connected
sockets from the :class:`~game.server.hub.Hub`, network noise from
:class:`~game.server.noise.NetworkNoise`, the program's errors from :class:`ErrorCount`, the age
of the TV's last frame from :class:`~game.server.frames.FrameClock`, and the owner's report (games, players, crashes,
restarts) from a callable the kiosk gives.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector, CollectorRegistry

from game.session.snapshot import SeatStatus

from .frames import FrameClock
from .hub import Hub
from .noise import NetworkNoise, NoiseKind
from .protocol import Role

CONTENT_TYPE = CONTENT_TYPE_LATEST
Report = Callable[[], Mapping[str, Any]]  # game.kiosk.owner.owner_report's shape


class ErrorCount(logging.Handler):
    """Counts the program's ERROR records since start (network noise never reaches it: its
    records are dropped at their loggers, :func:`game.server.noise.quiet_aiohttp_noise`)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


class TableCollector(Collector):
    """See module docs; ``report``: the owner's report (None: no archive, those figures are left out)."""

    def __init__(self, hub: Hub, noise: NetworkNoise, frames: FrameClock, errors: ErrorCount,
                 report: Report | None = None, started_at: float | None = None) -> None:
        self._hub, self._noise, self._frames, self._errors, self._report = hub, noise, frames, errors, report
        self._started_at = time.time() if started_at is None else started_at

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily("tabletop_start_time_seconds", "When this run of the table started (Unix time).",
                                value=self._started_at)
        yield from self._connections()
        noise = CounterMetricFamily("tabletop_network_noise", "Network noise from other devices since start, by kind "
                                    "(bad requests, connections over a cap, handshake timeouts).", labels=["kind"])
        for kind, count in self._noise.totals().items():
            noise.add_metric([kind.value], count)
        yield noise
        yield CounterMetricFamily("tabletop_bad_requests", "Requests the server could not parse, since start.",
                                  value=self._noise.total(NoiseKind.BAD_REQUEST))
        yield CounterMetricFamily("tabletop_errors", "The program's own errors since start (never network noise).",
                                  value=self._errors.count)
        age = self._frames.age_s()
        if age is not None:
            yield GaugeMetricFamily("tabletop_frame_age_seconds", "Seconds since the TV drew its last frame.", value=age)
        if self._frames.watchdog_misses is not None:
            yield CounterMetricFamily("tabletop_watchdog_misses", "Watchdog pings held back since start because the "
                                      "TV's render loop or the table's loop stalled.", value=self._frames.watchdog_misses)
        if self._report is not None:
            yield from self._archive(self._report())

    def _connections(self) -> Iterator[Metric]:
        live = [c for c in self._hub.clients if not c.closing]
        yield GaugeMetricFamily("tabletop_connected_phones", "Seated phones connected now.", value=len(self._hub.by_seat))
        sockets = GaugeMetricFamily("tabletop_sockets", "WebSockets open now, by role.", labels=["role"])
        for role, name in ((Role.SEAT, "seat"), (Role.HOST, "host"), (Role.SPECTATOR, "spectator"), (None, "silent")):
            sockets.add_metric([name], sum(1 for c in live if c.role is role))
        yield sockets
        seated = self._hub.session.table.offered
        yield GaugeMetricFamily("tabletop_players", "Seats taken by a person now (bots not counted).",
                                value=sum(1 for r in seated if r.status is SeatStatus.JOINED))

    def _archive(self, report: Mapping[str, Any]) -> Iterator[Metric]:
        for period in ("today", "week"):
            figures = report[period]
            games = GaugeMetricFamily(f"tabletop_games_{period}", f"Games played {period} (this week: since "
                                      "Monday), by game.", labels=["game"])
            finished = GaugeMetricFamily(f"tabletop_games_finished_{period}", f"Games played to the end {period}, "
                                         "by game.", labels=["game"])
            people = GaugeMetricFamily(f"tabletop_game_players_{period}", f"People (not bots) in the games {period}, "
                                       "by game.", labels=["game"])
            for row in figures["games"]:
                games.add_metric([row["game"]], row["played"])
                finished.add_metric([row["game"]], row["finished"])
                people.add_metric([row["game"]], row["players"])
            yield from (games, finished, people)
            yield GaugeMetricFamily(f"tabletop_crashes_{period}", f"Runs that ended without a clean stop {period}.",
                                    value=figures["crashes"])
        yield GaugeMetricFamily("tabletop_restarts_week", "Starts of the table this week after the first.",
                                value=report["week"]["restarts"])
        yield GaugeMetricFamily("tabletop_bad_requests_today", "Requests the server could not parse today.",
                                value=report.get("bad_requests_today", 0))
        yield from self._kept(report)

    def _kept(self, report: Mapping[str, Any]) -> Iterator[Metric]:
        """Counts the archive keeps for good (pruning never lowers them): rates and alerts over days."""
        kept = report.get("counters")
        if kept is not None:
            yield CounterMetricFamily("tabletop_crashes", "Runs that ended without a clean stop (a killed TV or table, "
                                      "a lost window, the watchdog, a power cut), ever.", value=kept["crashes"])
            yield CounterMetricFamily("tabletop_starts", "Starts of the table, ever.", value=kept["starts"])
            games = CounterMetricFamily("tabletop_games_started", "Games started, ever, by game.", labels=["game"])
            people = CounterMetricFamily("tabletop_game_players", "People (not bots) at the start of games, ever, "
                                         "by game.", labels=["game"])
            for game, count in kept["games"].items():
                games.add_metric([game], count)
                people.add_metric([game], kept["players"].get(game, 0))
            yield from (games, people)
        disk = report.get("disk")
        if disk is not None:
            yield GaugeMetricFamily("tabletop_archive_bytes", "Bytes the archive of finished games uses.",
                                    value=disk["archive_bytes"])
            yield GaugeMetricFamily("tabletop_archive_limit_bytes", "The archive's budget ([disk] keep_mb).",
                                    value=disk["limit_bytes"])


def exposition(collector: TableCollector) -> bytes:
    """The collector's figures as one Prometheus text exposition."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(collector)
    return generate_latest(registry)
