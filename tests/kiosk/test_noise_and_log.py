"""On a real kiosk in a subprocess: guests' network noise is counted apart
from the program's own errors (500 malformed requests leave the owner's "last errors" as they
were, the page counts them on their own line, the log grows by at most 64 KB), and the rotating
log ``logs/tabletop.log`` receives the program's lines (start, resume, the noise's one line)."""
from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

RELIABILITY_TESTS = Path(__file__).resolve().parent.parent / "reliability"
if str(RELIABILITY_TESTS) not in sys.path:
    sys.path.insert(0, str(RELIABILITY_TESTS))

from flood_kit import BAD_REQUEST, PIN, bad_requests, table, tracebacks  # noqa: E402

import game.__main__ as tabletop  # noqa: E402
from game.config import TableConfig  # noqa: E402
from game.session.snapshot import RunMode  # noqa: E402

KIOSK = ("--mode", "kiosk")
MALFORMED = 500
LOG_GROWTH = 64 * 1024
BAD = (BAD_REQUEST, b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",
       b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n", b"POST /ws HTTP/1.1\r\nContent-Length: x\r\n\r\n")


async def owner(port: int) -> dict[str, Any]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET /api/owner HTTP/1.1\r\nHost: table\r\nX-Admin-Pin: {PIN}\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), head
    report: dict[str, Any] = json.loads(body)
    return report


@pytest.mark.timeout(120)
async def test_500_malformed_requests_leave_the_owners_errors_and_fill_no_log(tmp_path: Path) -> None:
    log = tmp_path / "data" / "logs" / "tabletop.log"
    with table(tmp_path, options=("--new", *KIOSK)) as t:
        before = await owner(t.port)
        size = log.stat().st_size
        answered = await bad_requests(t.port, MALFORMED, payloads=BAD)
        after = await owner(t.port)
    assert answered == MALFORMED  # each answered 400 and closed
    assert after["errors"] == before["errors"]
    assert before["bad_requests_today"] == 0 and after["bad_requests_today"] == MALFORMED
    text = log.read_text(encoding="utf-8")
    assert log.stat().st_size - size <= LOG_GROWTH
    assert tracebacks(text) == 0 and "Error handling request" not in text
    assert "network noise:" in text and "bad requests" in text  # one line per kind per minute


@pytest.mark.timeout(120)
async def test_the_kiosk_log_receives_start_and_resume(tmp_path: Path) -> None:
    log = tmp_path / "data" / "logs" / "tabletop.log"
    with table(tmp_path, options=("--new", *KIOSK)):
        pass
    with table(tmp_path, options=KIOSK):  # the unit restarted: the saved table resumes
        pass
    text = log.read_text(encoding="utf-8")
    assert text.count("table started:") == 2
    assert "resumed the saved table" in text
    assert "Traceback" not in (tmp_path / "server.log").read_text(encoding="utf-8")  # the terminal kept quiet too


@pytest.fixture
def root_logging() -> Iterator[logging.Logger]:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield root
    for handler in root.handlers[len(handlers):]:
        handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)


def test_the_log_file_takes_info_and_errors_while_the_terminal_keeps_warnings(tmp_path: Path,
                                                                               root_logging: logging.Logger) -> None:
    console = logging.StreamHandler(open(tmp_path / "terminal.txt", "w", encoding="utf-8"))  # noqa: SIM115
    root_logging.handlers[:] = [console]
    root_logging.setLevel(logging.WARNING)  # what basicConfig sets without -v
    tabletop._kiosk_log_file(TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, admin_pin="246813"))
    session_log = logging.getLogger("game.session.session")
    session_log.info("kiosk: the final scores were shown for %d s; the table is handed to the next group", 30)
    session_log.error("timer %s: not applied: %s", "vote", "illegal")
    logging.getLogger("game.server.hub").debug("not for the file")
    for handler in root_logging.handlers:
        handler.flush()
    text = (tmp_path / "logs" / "tabletop.log").read_text(encoding="utf-8")
    assert "handed to the next group" in text and "timer vote: not applied" in text
    assert "not for the file" not in text
    terminal = (tmp_path / "terminal.txt").read_text(encoding="utf-8")
    assert "timer vote" in terminal and "handed to the next group" not in terminal
    console.close()


def test_each_start_logs_which_config_file_it_read_and_its_digest_never_a_value(tmp_path: Path,
                                                                                 root_logging: logging.Logger) -> None:
    """kiosk.toml is read at start only: the audit line says when a change took effect (a restart)
    and the digest whether the file changed; the PIN inside never reaches the log."""
    from game.kiosk.config import load_config

    path = tmp_path / "kiosk.toml"
    texts = ('[admin]\npin = "482193"\n', '[admin]\npin = "482193"\n[table]\naway_s = 90\n')
    digests = []
    for text in texts:
        path.write_text(text, encoding="utf-8")
        tabletop._kiosk_log_file(TableConfig(mode=RunMode.KIOSK, data_dir=tmp_path, kiosk=load_config(path)))
        for handler in root_logging.handlers:
            handler.flush()
        line = (tmp_path / "logs" / "tabletop.log").read_text(encoding="utf-8").splitlines()[-1]
        assert f"kiosk config read from {path} (sha256 " in line
        digests.append(line.rsplit("sha256 ", 1)[1])
    log = (tmp_path / "logs" / "tabletop.log").read_text(encoding="utf-8")
    assert digests[0] != digests[1] and "482193" not in log
