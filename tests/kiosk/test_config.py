"""The café operator's TOML file: a good file configures the table; a bad one stops the program
with the file, line and key, before anything starts."""
from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

import pytest

from game.__main__ import main
from game.config import TableConfig
from game.kiosk.config import ConfigError, KioskConfig, load_config
from game.session.policy import KioskPolicy
from game.session.session import Session
from game.session.snapshot import RunMode

NOBODY = 65534  # the unprivileged user and group

SAMPLE = Path(__file__).resolve().parents[2] / "tools" / "systemd" / "kiosk.toml"

GOOD = """\
[venue]
name = "Café Nakhl"

[table]
languages = ["th", "en"]
game = "speakeasy"
preset = "th"
idle_minutes = 15
away_s = 90

[house_rules.speakeasy]
pointing_ms = 60000

[server]
port = 9001
data_dir = "state"

[admin]
pin = "482193"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "kiosk.toml"
    path.write_text(text, encoding="utf-8")
    return path


def error_of(tmp_path: Path, text: str) -> str:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    return str(info.value)


def test_the_shipped_sample_is_a_valid_file() -> None:
    config = load_config(SAMPLE)
    assert config.venue.name == "Café Nakhl"
    assert config.languages[0] == "fa" and config.admin_pin == "482193"
    assert config.house_rules["collusion"]["conspiracy_ms"] == 120_000


def test_a_good_file_sets_every_value(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, GOOD))
    assert config.language == "th" and config.languages == ("th", "en")
    assert (config.game, config.preset, config.port, config.idle_minutes) == ("speakeasy", "th", 9001, 15)
    assert config.away_s == 90 and KioskPolicy(config).away_free_ms() == 90_000
    assert config.data_dir == tmp_path / "state"  # relative to the file
    assert config.house_rules == {"speakeasy": {"pointing_ms": 60_000}}
    assert config.volume == 70 and config.timers.attract_after_s == 60  # defaults


@pytest.mark.parametrize(("text", "expected"), [
    ('[table]\nlanguages = ["fa", "en"\n', "not valid TOML"),
    ('[admin]\npin = "482193"\n[table]\nvolume = "loud"\n', "line 4: table.volume: must be a whole number from 0 to 100"),
    ('[admin]\npin = "482193"\n\n[table]\ngame = "poker"\n', "line 5: table.game: unknown game 'poker'"),
    ('[admin]\npin = "482193"\n[table]\nlanguages = ["fa", "de"]\n', "line 4: table.languages: 'de' is not offered"),
    ('[admin]\npin = "482193"\n[table]\ngame = "collusion"\npreset = "th"\n', "line 5: table.preset: collusion has no preset 'th'"),
    ('[admin]\npin = "482193"\n[table]\nidle = 3\n', "line 4: table.idle: unknown key"),
    ('[admin]\npin = "482193"\n[tabel]\n', "line 3: [tabel]: unknown section"),
    ('[admin]\npin = "12"\n', "line 2: admin.pin: must be 6 to 8 digits"),
    ('[admin]\npin = 482193\n', "line 2: admin.pin: must be text in quotes"),
    ('[admin]\npin = "4821"\n', "line 2: admin.pin: must be 6 to 8 digits"),
    ('[venue]\nname = "x"\n', "admin.pin: is required in kiosk mode"),
    ('[admin]\npin = "482193"\n[venue]\nlogo = "missing.png"\n', "line 4: venue.logo: no image file"),
    ('[admin]\npin = "482193"\n[house_rules.collusion]\nconspiracy = 5\n', "line 4: house_rules.collusion.conspiracy: collusion has no setting"),
    ('[admin]\npin = "482193"\n[house_rules.collusion]\ntarget_score = -3\n', "line 4: house_rules.collusion.target_score:"),
    ('[admin]\npin = "482193"\n[server]\nport = 70000\n', "line 4: server.port: must be a whole number from 1 to 65535"),
    ('[admin]\npin = "482193"\n[table]\naway_s = 5\n', "line 4: table.away_s: must be a whole number from 15 to 900"),
    ('[admin]\npin = "482193"\n[disk]\nkeep_days = 0\n', "line 4: disk.keep_days"),
])
def test_a_bad_file_names_the_line_and_key(tmp_path: Path, text: str, expected: str) -> None:
    message = error_of(tmp_path, text)
    assert str(tmp_path / "kiosk.toml") in message
    assert expected in message


@pytest.mark.parametrize(("text", "expected"), [
    ('[admin]\npin = "482193"\nname = = 3\n', "line 3: admin.name: not valid TOML: Invalid value (column 8)"),
    ('[admin]\npin = "482193"\n[server]\nport = 8765\ndata_dir = "/srv/x\n',
     "line 5: server.data_dir: not valid TOML: Illegal character"),
    ('[admin]\npin = "482193"\n[table]\ngame = collusion\n', "line 4: table.game: not valid TOML: Invalid value"),
    ('[admin]\npin = "482193"\n[server\nport = 1\n', "line 3: [server]: not valid TOML: Expected ']'"),
    ('[admin]\npin = "482193"\npin = "111111"\n', "line 3: admin.pin: not valid TOML: Cannot overwrite a value"),
    ('[table]\nlanguages = ["fa", "en"\n', "line 2: table.languages: not valid TOML"),
])
def test_a_syntax_error_names_the_line_and_the_key_being_written(tmp_path: Path, text: str, expected: str) -> None:
    message = error_of(tmp_path, text)
    assert message.startswith(f"{tmp_path / 'kiosk.toml'}, ") and expected in message
    assert "111111" not in message and "482193" not in message  # the error names the key, never its value


def test_a_data_dir_that_is_a_file_names_the_file_line_and_key(tmp_path: Path) -> None:
    (tmp_path / "state").write_text("not a folder")
    message = error_of(tmp_path, '[admin]\npin = "482193"\n[server]\ndata_dir = "state"\n')
    assert message == f"{tmp_path / 'kiosk.toml'}, line 4: server.data_dir: {tmp_path / 'state'} is a file, not a folder"
    message = error_of(tmp_path, '[admin]\npin = "482193"\n[server]\ndata_dir = "state/inside"\n')
    assert f"line 4: server.data_dir: {tmp_path / 'state' / 'inside'} cannot be made: {tmp_path / 'state'} is a file" \
        in message


def _load_as_nobody(config: Path) -> str:
    """``load_config(config)``'s error, checked by an unprivileged user (root writes anywhere): a
    forked child drops to nobody (the code it runs is already loaded) and writes the message back."""
    read, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 0
        try:
            if os.geteuid() == 0:
                os.setgid(NOBODY)
                os.setuid(NOBODY)
            load_config(config)
        except ConfigError as exc:
            os.write(write_end, str(exc).encode())
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read, encoding="utf-8") as answer:
        message = answer.read()
    os.waitpid(pid, 0)
    return message


def test_a_data_dir_this_user_cannot_write_names_the_file_line_and_key() -> None:
    folder = Path(tempfile.mkdtemp(prefix="kiosk-config-"))  # readable by nobody (pytest's tmp_path is not)
    try:
        folder.chmod(0o755)
        locked = folder / "locked"
        locked.mkdir(mode=0o555)
        config = write(folder, f'[admin]\npin = "482193"\n[server]\ndata_dir = "{locked}"\n')
        config.chmod(0o644)
        message = _load_as_nobody(config)
    finally:
        shutil.rmtree(folder)
    assert message.startswith(f"{config}, line 4: server.data_dir: {locked} cannot be written by this user ("), message


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "nope.toml")


def test_a_bad_file_stops_the_program_before_anything_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, GOOD.replace('port = 9001', 'port = "x"').replace('"state"', '"never-made"'))
    with pytest.raises(SystemExit) as info:
        main(["--headless", "--mode", "kiosk", "--config", str(path)])
    assert info.value.code == 2  # the systemd unit does not restart on 2: a broken file is not a crash
    err = capsys.readouterr().err
    assert "server.port" in err and "line 15" in err
    assert not (tmp_path / "never-made").exists()  # no journal, no server: nothing half-configured


def test_config_needs_kiosk_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--headless", "--config", str(write(tmp_path, GOOD))])
    assert "--config is for kiosk mode" in capsys.readouterr().err


async def test_a_fresh_kiosk_table_uses_the_file(tmp_path: Path) -> None:
    kiosk = load_config(write(tmp_path, GOOD))
    assert isinstance(kiosk, KioskConfig)
    config = TableConfig(mode=RunMode.KIOSK, language=kiosk.language, game=kiosk.game, data_dir=tmp_path,
                         admin_pin=kiosk.admin_pin, kiosk=kiosk)
    session = Session.boot(config, None, None)
    assert (session.table.game, session.table.preset, session.table.language) == ("speakeasy", "th", "th")
    assert session.table.settings["pointing_ms"] == 60_000  # the house rule
    assert session.table.table_settings.idle_reset_minutes == 15
    session.host_command({"command": "set_game", "game": "collusion"})
    assert session.table.preset == "rod_ruang"  # a Thai table plays the Thai edition (docs/rules/collusion.md)
    assert session.table.settings["conspiracy_ms"] == 90_000  # no house rule for collusion: the edition's default
    session.host_command({"command": "set_game", "game": "speakeasy"})
    assert session.table.settings["pointing_ms"] == 60_000
    session.close()
    await asyncio.sleep(0)
