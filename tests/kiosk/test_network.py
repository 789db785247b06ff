"""A table started without a network says plainly on the TV that phones cannot
reach it yet, re-checks the address, and the QR codes and links follow when a network appears.
The kiosk file may fix the address instead ([server] host)."""
from __future__ import annotations

import asyncio
from pathlib import Path

import pygame
import pytest
from tv_kit import Clock, display  # noqa: F401 (display: the autouse fixture)

from game import i18n
from game.config import TableConfig
from game.kiosk.config import ConfigError, KioskConfig, load_config
from game.kiosk.screen import KioskLayer, codes_area, draw_no_network
from game.render.kit.qr import QrCache
from game.render.kit.scene import RenderContext
from game.render.kit.sound import SoundBank
from game.render.kit.text import TextRenderer
from game.server.netaddr import AddressWatch, phones_cannot_reach
from game.server.runtime import join_links, start_table, stop_table
from game.session.snapshot import RunMode, TablePhase, TableSnapshot

PIN = "482193"
LAN = "192.168.1.7"


class Network:
    """The address source the table asks: none at first (127.0.0.1, as lan_address() without a route)."""

    def __init__(self) -> None:
        self.address = "127.0.0.1"
        self.asked = 0

    def __call__(self) -> str:
        self.asked += 1
        return self.address


def kiosk_config(tmp_path: Path, host: str | None = None) -> TableConfig:
    kiosk = KioskConfig(languages=("en",), admin_pin=PIN, host=host)
    return TableConfig(mode=RunMode.KIOSK, port=0, data_dir=tmp_path / "data", admin_pin=PIN, kiosk=kiosk)


def tv_texts(layer: KioskLayer, snap: TableSnapshot) -> list[str]:
    drawn: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: drawn.append(text)), QrCache(), SoundBank(enabled=False))
    layer.draw(pygame.Surface((1280, 720)), snap, ctx)
    return drawn


def test_loopback_links_are_the_ones_phones_cannot_open() -> None:
    assert phones_cannot_reach("http://127.0.0.1:8765/join") and phones_cannot_reach("http://localhost:8765")
    assert phones_cannot_reach("http://[::1]:8765/join")
    assert not phones_cannot_reach(f"http://{LAN}:8765/join") and not phones_cannot_reach("http://table.local:8765")


def test_the_watch_calls_back_only_when_the_address_moved() -> None:
    network, urls = Network(), []
    watch = AddressWatch(8765, urls.append, network)
    assert watch.offline and watch.url == "http://127.0.0.1:8765"
    assert not watch.check() and urls == []
    network.address = LAN
    assert watch.check() and urls == [f"http://{LAN}:8765"] and not watch.offline
    assert not watch.check() and len(urls) == 1
    network.address = "127.0.0.1"  # the cable pulled: the codes say so again
    assert watch.check() and watch.offline and urls[-1] == "http://127.0.0.1:8765"


async def test_a_table_started_without_a_network_follows_the_network_when_it_appears(tmp_path: Path) -> None:
    network = Network()
    started = await start_table(kiosk_config(tmp_path), arcade=False, address_source=network)
    session, layer = started.session, KioskLayer(kiosk_config(tmp_path), Clock())
    try:
        port = started.port
        snap = session.snapshot
        assert phones_cannot_reach(snap.join_url) and all(phones_cannot_reach(s.url) for s in snap.seats)
        no_network = i18n.text("en", "screen", "kiosk.no_network")
        assert no_network in tv_texts(layer, snap)  # the TV says so, over the codes
        assert started.address is not None and started.address_task is not None
        network.address = LAN  # the café's Wi-Fi comes up
        started.address.wake()  # as a netlink message would (else the next periodic check)
        for _ in range(1000):
            if not phones_cannot_reach(session.base_url):
                break
            await asyncio.sleep(0.01)
        snap = session.snapshot
        assert snap.join_url == f"http://{LAN}:{port}/join"
        assert all(s.url.startswith(f"http://{LAN}:{port}/s/") for s in snap.seats)  # the QR codes follow
        assert no_network not in tv_texts(layer, snap)
        assert f"http://{LAN}:{port}/host" in join_links(started)
    finally:
        await stop_table(started)
    assert started.address_task.done()


async def test_the_kiosk_files_host_is_given_to_phones_and_not_rechecked(tmp_path: Path) -> None:
    network = Network()
    started = await start_table(kiosk_config(tmp_path, host="192.168.1.50"), arcade=False, address_source=network)
    try:
        assert started.address is None and network.asked == 0
        assert started.session.snapshot.join_url == f"http://192.168.1.50:{started.port}/join"
    finally:
        await stop_table(started)


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
@pytest.mark.parametrize("where", ["lobby", "attract", "game"])
def test_the_no_network_notice_fits(lang: str, size: tuple[int, int], where: str) -> None:
    problems: list[str] = []
    u = min(size[0] / 1280, size[1] / 720)

    def probe(text: str, _lang: str, box: pygame.Rect, fitted: object) -> None:
        if getattr(fitted, "overflow", False) or getattr(fitted, "px", 99) < 14 * u:
            problems.append(f"{text!r} cut or small in {box}")

    ctx = RenderContext(TextRenderer(probe), QrCache(), SoundBank(enabled=False))
    area = codes_area(size, lang, where == "attract", TablePhase.LOBBY if where == "lobby" else TablePhase.PLAYING)
    assert (area is None) is (where == "game")
    draw_no_network(pygame.Surface(size), lang, ctx, area)
    assert problems == []


def write(tmp_path: Path, server: str) -> Path:
    path = tmp_path / "kiosk.toml"
    path.write_text(f'[admin]\npin = "{PIN}"\n\n[server]\n{server}\n', encoding="utf-8")
    return path


def test_the_kiosk_file_takes_a_host(tmp_path: Path) -> None:
    assert load_config(write(tmp_path, 'host = "192.168.1.50"\nport = 9000')).host == "192.168.1.50"
    assert load_config(write(tmp_path, 'host = "tabletop-1.local"')).host == "tabletop-1.local"
    assert load_config(write(tmp_path, "port = 9000")).host is None  # the LAN address, re-checked


@pytest.mark.parametrize(("line", "expected"), [
    ('host = "127.0.0.1"', "line 5: server.host: 127.0.0.1 cannot be reached from a phone"),
    ('host = "0.0.0.0"', "line 5: server.host: 0.0.0.0 cannot be reached from a phone"),
    ('host = "localhost"', "line 5: server.host: must be this computer's address on the café's network"),
    ('host = "192.168.1.300"', "line 5: server.host: must be this computer's address"),
    ('host = "my table"', "line 5: server.host: must be this computer's address"),
    ("host = 192", "line 5: server.host: must be text in quotes"),
    ('port = 0', "line 5: server.port: must be a whole number from 1 to 65535"),
])
def test_a_bad_host_or_port_names_the_line_and_key(tmp_path: Path, line: str, expected: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, line))
    assert str(tmp_path / "kiosk.toml") in str(info.value) and expected in str(info.value)


def test_the_attract_column_shows_the_join_address_and_no_network_covers_it_with_the_codes() -> None:
    from game.kiosk.screen import draw_attract
    from game.tapes import lobby_snapshot

    drawn: list[str] = []
    ctx = RenderContext(TextRenderer(lambda text, *_: drawn.append(text)), QrCache(), SoundBank(enabled=False))
    shown = lobby_snapshot(4, "fa", joined=1, bots=0)
    covered = draw_attract(pygame.Surface((1280, 720)), shown, "", ctx)
    address = shown.join_url.split("://", 1)[-1]
    assert address in drawn  # a phone that cannot scan learns where to type its code
    codes_top = covered.y
    assert codes_top < 720 * 0.35 and covered.height > 720 * 0.5  # the address and the codes: what the notice covers
