"""The owner's page: how the day and the week went, from the archive.

Per game: games played (and finished), average length, players (people, not bots); the table's
crashes and restarts; the last errors in plain words (the program's own: bad requests from other
devices are a count of their own); every game as CSV.
"""
from __future__ import annotations

import csv
import io
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from .archive import CRASHES, DAY_S, GAMES, PLAYERS, STARTS, Archive, ArchivedGame, Outcome, Run

WEEK_DAYS = 7


def day_start(now: float, localtime: Callable[[float], time.struct_time] = time.localtime) -> float:
    t = localtime(now)
    return float(int(now) - (t.tm_hour * 3600 + t.tm_min * 60 + t.tm_sec))


def week_start(now: float, localtime: Callable[[float], time.struct_time] = time.localtime) -> float:
    """Local midnight of this week's Monday."""
    return day_start(now, localtime) - localtime(now).tm_wday * DAY_S


@dataclass(frozen=True, slots=True)
class GameTotals:
    game: str
    played: int
    finished: int
    players: int
    average_s: int | None  # average length of the finished games

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "played": self.played, "finished": self.finished,
                "players": self.players, "average_s": self.average_s}


def totals(games: Iterable[ArchivedGame]) -> list[GameTotals]:
    by_game: dict[str, list[ArchivedGame]] = {}
    for g in games:
        by_game.setdefault(g.game, []).append(g)
    out = []
    for name in sorted(by_game):
        group = by_game[name]
        lengths = [g.length_s for g in group if g.outcome == Outcome.FINISHED and g.length_s is not None]
        out.append(GameTotals(name, len(group), len(lengths), sum(g.people for g in group),
                              round(sum(lengths) / len(lengths)) if lengths else None))
    return out


def crashes(runs: list[Run], current_started: float | None = None) -> list[dict[str, Any]]:
    """Runs that ended without a clean stop (crash, hang killed by the watchdog, power cut), each
    with when it was last seen alive, when the table came back and its cause when known."""
    out = []
    for i, run in enumerate(runs):
        if run.stopped_at is not None or run.started_at == current_started:
            continue
        back = runs[i + 1].started_at if i + 1 < len(runs) else None
        out.append({"last_seen": run.last_seen, **({"restarted": back} if back is not None else {}),
                    **({"cause": run.cause} if run.cause else {})})
    return out


def owner_report(archive: Archive, now: float | None = None,
                 localtime: Callable[[float], time.struct_time] = time.localtime, *,
                 bad_requests_today: int = 0) -> dict[str, Any]:
    """What the owner's page shows (times are Unix seconds; the page formats them).
    ``bad_requests_today``: network noise from other devices since midnight
    (:class:`game.server.noise.NetworkNoise`), on its own line: never among the errors."""
    now = archive.clock() if now is None else now
    today, week = day_start(now, localtime), week_start(now, localtime)
    games = archive.games(since=week)
    runs = archive.runs(since=week)
    current = runs[-1].started_at if runs and runs[-1].stopped_at is None else None
    lost = crashes(runs, current)
    return {
        "now": now,
        "today": {"since": today, "games": [t.to_json() for t in totals(g for g in games if g.started_at >= today)],
                  "crashes": sum(1 for c in lost if c["last_seen"] >= today)},
        "week": {"since": week, "games": [t.to_json() for t in totals(games)], "crashes": len(lost),
                 "restarts": max(0, len(runs) - 1)},
        "crashes": lost[-10:],
        "errors": [{"at": at, "kind": kind, "text": text} for at, kind, text in archive.errors(10)],
        "bad_requests_today": bad_requests_today,
        "running_since": current,
        "counters": {"crashes": archive.counter(CRASHES), "starts": archive.counter(STARTS),
                     "games": archive.counters(GAMES), "players": archive.counters(PLAYERS)},
    }


CSV_FIELDS = ("game_no", "game", "preset", "started", "ended", "length_s", "outcome", "seats", "people")


def report_csv(archive: Archive, since: float = 0.0,
               localtime: Callable[[float], time.struct_time] = time.localtime) -> str:
    """Every archived game since ``since``, one row each (local times, ISO 8601)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_FIELDS)

    def stamp(t: float | None) -> str:
        return "" if t is None else time.strftime("%Y-%m-%d %H:%M:%S", localtime(t))

    for g in archive.games(since):
        length = g.length_s
        writer.writerow([g.game_no, g.game, g.preset or "", stamp(g.started_at), stamp(g.ended_at),
                         "" if length is None else round(length), g.outcome or "", g.seats, g.people])
    return out.getvalue()
