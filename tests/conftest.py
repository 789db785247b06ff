"""Suite-wide test order: the real-browser tests run last.

Playwright's sync API keeps an event loop running on the main thread while its browser is open;
pytest-asyncio and aiohttp tests cannot start their own loops beside it. Running the browser
package last (its browser fixture is package-scoped) keeps the two apart."""
from __future__ import annotations

from pathlib import Path

import pytest

BROWSER_DIR = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: Path(str(item.fspath)).resolve().is_relative_to(BROWSER_DIR))
