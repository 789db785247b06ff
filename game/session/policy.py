"""How a table is run, in one place: a host's own table (table and companion modes) or a café's
kiosk. The session asks its :class:`TablePolicy` every question whose answer differs between them —
the house rules on top of a game's settings, the languages offered, the fresh table, whether and
when the table is handed to the next group (idle reset, results shown) — and never tests its mode.

:class:`RetiredLinks` keeps the links of the groups a table was handed over from, so their phones
hear "this table has a new game" instead of "not valid here".
"""
from __future__ import annotations

import collections
import hashlib
import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from game.config import LANGUAGES, TableConfig
from game.rules.base import GameEngine

from .journal import Journal, JournalError, SavedTimer
from .scheduler import Handle, Scheduler, wall_ms
from .snapshot import RunMode, TablePhase
from .table import TableRecord

if TYPE_CHECKING:
    from game.kiosk.config import KioskConfig

__all__ = ["HAND_OVER_KEY", "RESULTS_MS", "RESULTS_WAIT_MS", "RETIRED_TOKENS", "HandOverClock", "KioskPolicy", "RetiredLinks", "TablePolicy", "policy_for"]

log = logging.getLogger(__name__)

RESULTS_MS = 60_000  # the final scores' time on a kiosk without an operator's file
RESULTS_WAIT_MS = 45_000  # the longest a TV plays a game's last reveal before its final scores: the
# results time counts from the TV's word that they are shown, or from the game's end plus this
RETIRED_TOKENS = 256  # links of earlier groups recognised (to tell them kindly), newest kept
AWAY_FREE_MS = 60_000  # kiosk without an operator's file: a seated phone away this long, the others may free its seat (away.py)
HAND_OVER_KEY = "table:hand_over"  # the journaled timer of the results before a hand-over (never a game's key)


class TablePolicy:
    """A host's own table (table and companion modes): the host decides everything, nothing is
    reset or handed over on its own, every language is offered, each game's own rules apply."""

    def hands_over(self) -> bool:
        """Whether the table goes to the next group on its own (idle, or after the results)."""
        return False

    def results_ms(self) -> int:
        """How long the final scores stay before a hand-over (:meth:`hands_over` tables only)."""
        return RESULTS_MS

    def away_free_ms(self) -> int | None:
        """How long a seated phone is away during a game before the other players may free its
        seat themselves (``away.py``); None: never, the host frees seats at a host's table."""
        return None

    def house_rules(self, game: str) -> Mapping[str, Any]:
        """Wire settings laid over ``game``'s preset: none at a host's table."""
        return {}

    def offered_language(self, language: str) -> str:
        """The table language the host gets when asking for ``language`` (one of ``LANGUAGES``)."""
        return language

    def start_preset(self, engine: GameEngine, language: str) -> str | None:
        """The preset a fresh table starts with: the game's edition for the language."""
        return engine.default_preset(language)

    def fresh_table(self, table: TableRecord) -> TableRecord:
        """A brand-new table record, adjusted (the kiosk sets its idle time and how-to-play)."""
        return table

    def hand_over_due(self, table: TableRecord, now: int, last_input_ms: int, finished_ms: int | None) -> bool:
        """Whether the table must go to the next group now (:meth:`hands_over` tables only)."""
        return False

    def next_group(self, table: TableRecord, opening: TableRecord) -> TableRecord:
        """The table the next group finds after a hand-over, given the last group's ``table`` and the
        table as it ``opening`` would be: a host's table keeps its game, language and rules (new
        seats come from ``opening``)."""
        return replace(table, seats=opening.seats)

    def game_settings(self, engine: GameEngine, game: str, preset: str | None) -> dict[str, Any]:
        """A game's wire settings for ``preset`` with the house rules on top."""
        return {**engine.settings_to_wire(engine.default_settings(preset)), **self.house_rules(game)}


@dataclass(frozen=True)
class KioskPolicy(TablePolicy):
    """A café's kiosk: the operator's file (``kiosk``; ``None``: its defaults) offers languages,
    house rules, a preset and timers; an idle table, or one whose results were shown, goes to the
    next group by itself."""

    kiosk: KioskConfig | None = None

    def hands_over(self) -> bool:
        return True

    def results_ms(self) -> int:
        return self.kiosk.timers.results_s * 1000 if self.kiosk is not None else RESULTS_MS

    def away_free_ms(self) -> int | None:
        # nobody at a café holds the PIN, and the idle reset would end the whole game instead
        return self.kiosk.away_s * 1000 if self.kiosk is not None else AWAY_FREE_MS

    def house_rules(self, game: str) -> Mapping[str, Any]:
        return self.kiosk.house_rules.get(game, {}) if self.kiosk is not None else {}

    def offered_language(self, language: str) -> str:
        """The café offers some languages; asked for another (the TV's L key steps through all),
        the next offered one after it."""
        offered = self.kiosk.languages if self.kiosk is not None else LANGUAGES
        start = LANGUAGES.index(language)
        ring = LANGUAGES[start:] + LANGUAGES[:start]
        return next((lang for lang in ring if lang in offered), language)

    def start_preset(self, engine: GameEngine, language: str) -> str | None:
        if self.kiosk is not None and self.kiosk.preset:
            return self.kiosk.preset
        return engine.default_preset(language)

    def fresh_table(self, table: TableRecord) -> TableRecord:
        if self.kiosk is None:
            return table
        return replace(table, table_settings=replace(table.table_settings, idle_reset_minutes=self.kiosk.idle_minutes,
                                                     how_to_play=self.kiosk.how_to_play))

    def next_group(self, table: TableRecord, opening: TableRecord) -> TableRecord:
        """The café's table as it opens (its default language, game, edition and house rules),
        whatever the last group chose; what the staff set up stays: the PIN, the arcade buttons'
        map, the table settings and the number of seats (while the game is the same)."""
        seats = table.seat_count if table.game == opening.game else opening.seat_count
        return replace(opening, admin_pin=table.admin_pin, arcade_map=table.arcade_map, seat_count=seats,
                       table_settings=table.table_settings)

    def hand_over_due(self, table: TableRecord, now: int, last_input_ms: int, finished_ms: int | None) -> bool:
        """After ``results_s`` on the final scores, or ``idle_reset_minutes`` without input (an
        empty lobby nobody joined is left alone)."""
        if table.phase is TablePhase.FINISHED and finished_ms is not None and now - finished_ms >= self.results_ms():
            return True
        if now - last_input_ms < table.table_settings.idle_reset_minutes * 60_000:
            return False
        return not (table.phase is TablePhase.LOBBY and not any(r.joined or r.name for r in table.offered))


def policy_for(config: TableConfig) -> TablePolicy:
    """The policy of a table started with ``config``."""
    if config.mode is RunMode.KIOSK:
        return KioskPolicy(config.kiosk)
    return TablePolicy()


def token_digest(token: str) -> bytes:
    """What is kept of a retired link (never the link itself)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()[:16]


class RetiredLinks:
    """Digests of the seat links and device keys of groups the table was handed over from."""

    def __init__(self, digests: Iterable[bytes] = ()) -> None:
        self._digests: collections.deque[bytes] = collections.deque(digests, maxlen=RETIRED_TOKENS)

    def retire(self, table: TableRecord) -> None:
        """Every seat's link, and the device key of every phone that held one."""
        for record in table.seats:
            self._digests.append(token_digest(record.token))
            if record.device:  # the phone's own key: its reconnects are told kindly too
                self._digests.append(token_digest(record.device))

    def __contains__(self, token: object) -> bool:
        return isinstance(token, str) and token_digest(token) in self._digests

    def digests(self) -> tuple[bytes, ...]:
        return tuple(self._digests)

    def save(self, journal: Journal | None) -> None:
        """Journal the digests before the new links replace the old, so that after a restart an
        old group's phone still hears "this table has a new game"."""
        if journal is None:
            return
        try:
            journal.save_retired(self.digests())
        except JournalError as exc:
            log.warning("retired links not journaled (after a restart they get the generic page): %s", exc)


class HandOverClock:
    """A finished game's final scores stay :meth:`TablePolicy.results_ms` from the moment the TV
    shows them (:meth:`results_shown`; a TV that never says so: from the game's end plus
    ``RESULTS_WAIT_MS``), then, while the game is still ``finished``, ``due`` is called (on the
    scheduler, to the millisecond; the session's periodic idle check is only the backstop). Only
    on tables whose policy :meth:`~TablePolicy.hands_over`.

    The deadline is journaled like the game's timer (its wall-clock deadline under
    :data:`HAND_OVER_KEY`), so a table restarted at the results (a crash, a power cut) hands over
    with what was left of ``results_s``, not after the idle time."""

    def __init__(self, policy: TablePolicy, scheduler: Scheduler, due: Callable[[], None],
                 finished: Callable[[], bool], *, clock: Callable[[], int] = lambda: 0,
                 wall: Callable[[], int] = wall_ms, journal: Journal | None = None) -> None:
        self._policy = policy
        self._scheduler = scheduler
        self._due = due
        self._finished = finished  # whether the game is still over (its scores still showing)
        self._clock = clock
        self._wall = wall
        self._journal = journal
        self._handle: Handle | None = None
        self.finished_ms: int | None = None  # when the game ended, on the session clock
        self._shown_ms: int | None = None  # when the TV said it shows the final scores
        self._resumed_ms: int | None = None  # when a restarted table took the results up again
        self._game_no: int | None = None

    @property
    def results_since_ms(self) -> int | None:
        """When the results time began: the TV's word, else the game's end plus ``RESULTS_WAIT_MS``."""
        if self.finished_ms is None:
            return None
        return self._shown_ms if self._shown_ms is not None else self.finished_ms + RESULTS_WAIT_MS

    def game_finished(self, game_no: int | None = None) -> None:
        """Game ``game_no`` just ended: its results begin once the TV shows them (journaled with
        their deadline)."""
        self.finished_ms, self._shown_ms, self._resumed_ms, self._game_no = self._clock(), None, None, game_no
        if not self._policy.hands_over():
            return
        self._start(RESULTS_WAIT_MS + self._policy.results_ms())
        self._journal_deadline(RESULTS_WAIT_MS + self._policy.results_ms())

    def results_shown(self) -> bool:
        """The TV now shows the final scores: they stay the full results time from now (once per
        game). Whether this started the count."""
        if self._handle is None or self._shown_ms is not None:
            return False
        self._shown_ms = self._clock()
        self._start(self._policy.results_ms())
        self._journal_deadline(self._policy.results_ms())
        return True

    def _journal_deadline(self, delay_ms: int) -> None:
        if self._journal is None or self._game_no is None:
            return
        try:
            self._journal.save_timer(SavedTimer(self._game_no, HAND_OVER_KEY, self._wall() + delay_ms))
        except JournalError as exc:
            log.warning("hand-over deadline not journaled (a restart would give the results afresh): %s", exc)

    def resume(self, saved: SavedTimer | None, table: TableRecord) -> None:
        """A restarted ``table``: if its game's results were showing, the journaled deadline's time
        left (none journaled: the whole ``results_s``)."""
        if table.phase is not TablePhase.FINISHED:
            return
        full = self._policy.results_ms()
        left = full
        if saved is not None and (saved.game_no, saved.key) == (table.game_no, HAND_OVER_KEY):
            left = min(full, max(0, saved.deadline_wall_ms - self._wall()))
        self.finished_ms = self._shown_ms = self._clock() - (full - left)  # the scores were on screen
        self._resumed_ms = self._clock()
        self._game_no = table.game_no
        if self._policy.hands_over():
            log.info("kiosk: restarted at the results; the table is handed over in %d s", left // 1000)
            self._start(left)

    def _start(self, delay_ms: int) -> None:
        self.cancel()
        self._handle = self._scheduler.call_later(delay_ms, self._fire)

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _fire(self) -> None:
        self._handle = None
        if self._finished():
            log.info("kiosk: %s; the table is handed to the next group", self._results_told())
            self._due()

    def _results_told(self) -> str:
        """How long the final scores were up, as it was: a restart's downtime is not screen time."""
        now, results_s = self._clock(), self._policy.results_ms() // 1000
        if self._resumed_ms is not None:
            return (f"the results time ({results_s} s) is up: {(now - self._resumed_ms) / 1000:.1f} s on screen "
                    "since the restart, the rest before it")
        if self._shown_ms is None:
            return f"the results time ({results_s} s) is up; no screen said it showed the final scores"
        return f"the final scores were shown for {(now - self._shown_ms) / 1000:.1f} s"
