"""The café operator's config file (TOML, read with :mod:`tomllib`).

``tabletop --mode kiosk --config FILE`` reads it once at start. Every key is checked before the
table starts: a bad file raises :class:`ConfigError` naming the file, the line and the key, and
nothing is started half-configured. Paths in the file are relative to the file's folder.
"""
from __future__ import annotations

import ipaddress
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from game import catalog
from game.catalog import get_engine
from game.config import LANGUAGES
from game.rules.base import BadSettings

PIN_PATTERN = re.compile(r"[0-9]{6,8}")  # six digits at least: the same floor as a generated PIN
PORT_RANGE = (1, 65_535)
HOST_NAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
IDLE_MINUTES_RANGE = (1, 240)
AWAY_SECONDS_RANGE = (15, 900)
SECTIONS: dict[str, tuple[str, ...]] = {
    "venue": ("name", "logo"),
    "table": ("languages", "game", "preset", "volume", "idle_minutes", "away_s", "how_to_play"),
    "timers": ("attract_after_s", "results_s", "attract_game_s"),
    "house_rules": (),  # one table per installed table game: :func:`_section_keys`
    "server": ("host", "port", "data_dir"),
    "admin": ("pin",),
    "disk": ("keep_days", "keep_mb", "log_mb", "log_files"),
    "monitoring": ("metrics_from",),
}
MAX_METRICS_FROM = 64
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _section_keys(section: str) -> tuple[str, ...]:
    """The keys a section takes; ``[house_rules]`` takes the installed table games (plug-ins too)."""
    return catalog.ids(catalog.PlayMode.TABLE) if section == "house_rules" else SECTIONS[section]


class ConfigError(Exception):
    """The config file cannot be used; the message names the file, line and key."""


@dataclass(frozen=True, slots=True)
class Venue:
    name: str = ""
    logo: Path | None = None  # an image shown in the lobby and the attract loop


@dataclass(frozen=True, slots=True)
class Timers:
    attract_after_s: int = 60  # an empty lobby this long: the attract loop starts
    results_s: int = 60  # the final screen stays this long, then the table is handed over
    attract_game_s: int = 40  # each game's turn in the attract loop


@dataclass(frozen=True, slots=True)
class DiskLimits:
    keep_days: int = 30  # archived games older than this are deleted
    keep_mb: int = 200  # and the oldest go first while the archive is bigger than this
    log_mb: int = 5  # one log file's size before it rotates
    log_files: int = 5  # rotated log files kept


@dataclass(frozen=True, slots=True)
class KioskConfig:
    path: Path | None = None
    venue: Venue = field(default_factory=Venue)
    languages: tuple[str, ...] = LANGUAGES  # offered, the first is the table's language at start
    game: str = field(default_factory=catalog.default_game)
    preset: str | None = None  # None: the game's default for the language
    volume: int = 70  # percent
    idle_minutes: int = 10
    away_s: int = 60  # a seated phone away this long during a game: the other players may free its seat
    how_to_play: bool = True
    timers: Timers = field(default_factory=Timers)
    house_rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # game -> wire settings
    host: str | None = None  # the address phones are given (QR codes, links); None: the LAN address, re-checked
    port: int = 8765
    data_dir: Path | None = None
    admin_pin: str = ""
    disk: DiskLimits = field(default_factory=DiskLimits)
    metrics_from: tuple[Network, ...] = ()  # addresses that read /metrics without the PIN (a Prometheus server)

    @property
    def language(self) -> str:
        return self.languages[0]


class _Reader:
    """Checks values and builds errors that point at the line of the key in the file."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.lines = text.splitlines()

    def line_of(self, section: str, key: str | None = None) -> int | None:
        current = ""
        header = re.compile(r"\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$")
        for number, line in enumerate(self.lines, 1):
            match = header.match(line)
            if match:
                current = match.group(1).replace(" ", "").replace('"', "")
                if key is None and current == section:
                    return number
                continue
            if key is not None and current == section and re.match(rf"\s*\"?{re.escape(key)}\"?\s*=", line):
                return number
        return None

    def error(self, section: str, key: str | None, problem: str) -> ConfigError:
        name = f"{section}.{key}" if key else f"[{section}]"
        line = self.line_of(section, key)
        where = f"{self.path}, line {line}" if line else str(self.path)
        return ConfigError(f"{where}: {name}: {problem}")

    def syntax_error(self, message: str) -> ConfigError:
        """A TOML syntax error, with the line, and the key being written there (or the section)."""
        at = re.search(r"\s*\(at line (\d+), column (\d+)\)$", message)
        if at is None:  # "at end of document": the last line
            line = len(self.lines)
            problem = message.replace(" (at end of document)", "") + " (at the end of the file)"
        else:
            line, problem = int(at.group(1)), f"{message[:at.start()]} (column {at.group(2)})"
        return ConfigError(f"{self.path}, line {line}: {self._written_at(line)}: not valid TOML: {problem}")

    def _written_at(self, line: int) -> str:
        """What line ``line`` writes: ``section.key``, ``[section]``, or the section it is in."""
        section = ""
        header = re.compile(r"\s*\[+\s*([^\]]*?)\s*\]*\s*(#.*)?$")
        for text in self.lines[: line - 1]:
            match = header.match(text)
            if match and text.lstrip().startswith("["):
                section = match.group(1).replace(" ", "").replace('"', "")
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if text.lstrip().startswith("["):
            return f"[{text.strip().strip('[]').strip() or '?'}]"
        key = re.match(r"\s*\"?([A-Za-z0-9_.-]+)\"?\s*=", text)
        if key is None:
            return f"[{section}]" if section else "the top of the file"
        return f"{section}.{key.group(1)}" if section else key.group(1)

    def data_dir(self, values: Mapping[str, Any]) -> Path | None:
        """``[server] data_dir``: a folder this user can write (made at start when missing)."""
        path = self.path_value(values, "server", "data_dir")
        if path is None:
            return None
        existing = next((p for p in (path, *path.parents) if p.exists()), None)
        if existing is not None and not existing.is_dir():
            what = "is a file" if existing == path else f"cannot be made: {existing} is a file"
            raise self.error("server", "data_dir", f"{path} {what}, not a folder")
        if existing == path and not os.access(path, os.W_OK | os.X_OK):
            raise self.error("server", "data_dir", f"{path} cannot be written by this user "
                             f"({_user()}): give it to the user the table runs as")
        return path

    def section(self, data: Mapping[str, Any], section: str) -> Mapping[str, Any]:
        value = data.get(section, {})
        if not isinstance(value, dict):
            raise self.error(section, None, "must be a table, e.g. [" + section + "]")
        keys = _section_keys(section)
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise self.error(section, unknown[0], f"unknown key; {section} takes {', '.join(keys)}")
        return value

    def text(self, values: Mapping[str, Any], section: str, key: str, default: str) -> str:
        value = values.get(key, default)
        if not isinstance(value, str):
            raise self.error(section, key, f"must be text in quotes, not {value!r}")
        return value

    def number(self, values: Mapping[str, Any], section: str, key: str, default: int, low: int, high: int) -> int:
        value = values.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.error(section, key, f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    def flag(self, values: Mapping[str, Any], section: str, key: str, default: bool) -> bool:
        value = values.get(key, default)
        if not isinstance(value, bool):
            raise self.error(section, key, f"must be true or false, not {value!r}")
        return value

    def path_value(self, values: Mapping[str, Any], section: str, key: str) -> Path | None:
        if key not in values:
            return None
        raw = self.text(values, section, key, "")
        if not raw:
            raise self.error(section, key, "must name a file or folder")
        path = Path(raw).expanduser()
        return path if path.is_absolute() else (self.path.parent / path)


def load_config(path: Path) -> KioskConfig:
    """Read and check the operator's file; raises :class:`ConfigError` on any problem."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: the config file must be UTF-8 ({exc.reason} at byte {exc.start})") from None
    reader = _Reader(path, text)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise reader.syntax_error(str(exc)) from None
    return parse_config(data, reader)


def parse_config(data: Mapping[str, Any], reader: _Reader) -> KioskConfig:
    unknown = sorted(set(data) - set(SECTIONS))
    if unknown:
        raise reader.error(unknown[0], None, f"unknown section; the file takes {', '.join(SECTIONS)}")
    venue = _venue(reader, reader.section(data, "venue"))
    table = reader.section(data, "table")
    languages = _languages(reader, table)
    game, preset = _game(reader, table, languages[0])
    server, admin = reader.section(data, "server"), reader.section(data, "admin")
    return KioskConfig(
        path=reader.path, venue=venue, languages=languages, game=game, preset=preset,
        volume=reader.number(table, "table", "volume", 70, 0, 100),
        idle_minutes=reader.number(table, "table", "idle_minutes", 10, *IDLE_MINUTES_RANGE),
        away_s=reader.number(table, "table", "away_s", 60, *AWAY_SECONDS_RANGE),
        how_to_play=reader.flag(table, "table", "how_to_play", True),
        timers=_timers(reader, reader.section(data, "timers")),
        house_rules=_house_rules(reader, reader.section(data, "house_rules"), game, preset),
        host=_host(reader, server),
        port=reader.number(server, "server", "port", 8765, *PORT_RANGE),
        data_dir=reader.data_dir(server),
        admin_pin=_pin(reader, admin),
        disk=_disk(reader, reader.section(data, "disk")),
        metrics_from=_metrics_from(reader, reader.section(data, "monitoring")),
    )


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return f"uid {os.geteuid()}"


def _metrics_from(reader: _Reader, values: Mapping[str, Any]) -> tuple[Network, ...]:
    """``[monitoring] metrics_from``: addresses or networks, e.g. ``["192.168.1.20", "10.0.0.0/24"]``."""
    value = values.get("metrics_from", [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value) or len(value) > MAX_METRICS_FROM:
        raise reader.error("monitoring", "metrics_from", f"must be a list of at most {MAX_METRICS_FROM} addresses "
                           'in quotes, e.g. ["192.168.1.20", "10.0.0.0/24"]')
    networks = []
    for text in value:
        try:
            networks.append(ipaddress.ip_network(text.strip(), strict=False))
        except ValueError:
            raise reader.error("monitoring", "metrics_from", f"{text!r} is not an address or a network "
                               "(e.g. 192.168.1.20 or 10.0.0.0/24)") from None
        if networks[-1].prefixlen == 0:
            raise reader.error("monitoring", "metrics_from", f"{text!r} is every address: name the monitoring "
                               "server's address (or use the PIN)")
    return tuple(networks)


def _disk(reader: _Reader, values: Mapping[str, Any]) -> DiskLimits:
    return DiskLimits(
        keep_days=reader.number(values, "disk", "keep_days", 30, 1, 3650),
        keep_mb=reader.number(values, "disk", "keep_mb", 200, 1, 100_000),
        log_mb=reader.number(values, "disk", "log_mb", 5, 1, 1000),
        log_files=reader.number(values, "disk", "log_files", 5, 1, 100),
    )


def _venue(reader: _Reader, values: Mapping[str, Any]) -> Venue:
    name = reader.text(values, "venue", "name", "").strip()
    if len(name) > 40:
        raise reader.error("venue", "name", "must be at most 40 characters (it is drawn large on the TV)")
    logo = reader.path_value(values, "venue", "logo")
    if logo is not None and not logo.is_file():
        raise reader.error("venue", "logo", f"no image file at {logo}")
    return Venue(name, logo)


def _languages(reader: _Reader, table: Mapping[str, Any]) -> tuple[str, ...]:
    value = table.get("languages", list(LANGUAGES))
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise reader.error("table", "languages", f"must be a list like {list(LANGUAGES)}")
    bad = [v for v in value if v not in LANGUAGES]
    if bad:
        raise reader.error("table", "languages", f"{bad[0]!r} is not offered; choose from {', '.join(LANGUAGES)}")
    if len(set(value)) != len(value):
        raise reader.error("table", "languages", "names a language twice")
    return tuple(value)


def _game(reader: _Reader, table: Mapping[str, Any], language: str) -> tuple[str, str | None]:
    game = reader.text(table, "table", "game", catalog.default_game())
    games = catalog.ids(catalog.PlayMode.TABLE)
    if game not in games:
        raise reader.error("table", "game", f"unknown game {game!r}; choose from {', '.join(games)}")
    if "preset" not in table:
        return game, None
    preset = reader.text(table, "table", "preset", "")
    presets = list(get_engine(game).presets())
    if preset not in presets:
        raise reader.error("table", "preset", f"{game} has no preset {preset!r}; choose from {', '.join(presets)}")
    return game, preset


def _timers(reader: _Reader, values: Mapping[str, Any]) -> Timers:
    return Timers(
        attract_after_s=reader.number(values, "timers", "attract_after_s", 60, 5, 3600),
        results_s=reader.number(values, "timers", "results_s", 60, 5, 3600),
        attract_game_s=reader.number(values, "timers", "attract_game_s", 40, 10, 600),
    )


def _house_rules(reader: _Reader, values: Mapping[str, Any], game: str, preset: str | None) -> dict[str, dict[str, Any]]:
    """Each ``[house_rules.<game>]`` table, checked by the game's engine against its preset."""
    out: dict[str, dict[str, Any]] = {}
    for name, rules in values.items():
        section = f"house_rules.{name}"
        if not isinstance(rules, dict):
            raise reader.error("house_rules", name, f"must be a table, e.g. [{section}]")
        engine = get_engine(name)
        base = preset if name == game and preset is not None else next(iter(engine.presets()), None)
        defaults = engine.settings_to_wire(engine.default_settings(base))
        for key, value in rules.items():
            if key not in defaults:
                raise reader.error(section, key, f"{name} has no setting {key!r}")
            _check_rules(reader, engine, section, key, {**defaults, key: value}, base)
        _check_rules(reader, engine, section, None, {**defaults, **rules}, base)  # together
        out[name] = dict(rules)
    return out


def _check_rules(reader: _Reader, engine: Any, section: str, key: str | None, settings: dict[str, Any],
                 preset: str | None) -> None:
    try:
        engine.settings_from_wire(settings, preset)
    except BadSettings as exc:
        raise reader.error(section, key, str(exc)) from None


def _host(reader: _Reader, server: Mapping[str, Any]) -> str | None:
    """The address phones are given: this computer's address on the café's network, or a name for it."""
    if "host" not in server:
        return None
    host = reader.text(server, "server", "host", "").strip()
    example = 'e.g. host = "192.168.1.50"'
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        if not HOST_NAME.fullmatch(host) or host.lower() == "localhost" or host.replace(".", "").isdigit():
            raise reader.error("server", "host", f"must be this computer's address on the café's network, "
                                                 f"{example}, or its name, not {host!r}") from None
        return host
    if address.is_loopback or address.is_unspecified or address.is_multicast:
        raise reader.error("server", "host", f"{host} cannot be reached from a phone: give this computer's "
                                             f"address on the café's network, {example}, or leave host out")
    return host


def _pin(reader: _Reader, admin: Mapping[str, Any]) -> str:
    if "pin" not in admin:
        raise reader.error("admin", "pin", "is required in kiosk mode: [admin] pin = \"6 to 8 digits\"")
    pin = reader.text(admin, "admin", "pin", "")
    if not PIN_PATTERN.fullmatch(pin):
        raise reader.error("admin", "pin", "must be 6 to 8 digits in quotes, e.g. pin = \"482193\"")
    return pin
