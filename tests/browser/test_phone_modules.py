"""The phone loads a game's screens from the module the table names (the catalog's ``phone`` path,
one per game), not from a list of game names in the app: a variant added by one catalog line plays on
the phones with the module its descriptor names."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from game import catalog

from .conftest import Phones, Table
from .phone import join
from .test_collusion_phones import start_short_game

pytestmark = pytest.mark.browser


@pytest.fixture
def variant() -> Iterator[str]:
    """A Collusion variant that no phone file names: only its catalog line points at the module."""
    desc = dataclasses.replace(catalog.get("collusion"), id="collusion_phone_variant")
    catalog.register(desc)
    yield desc.id
    catalog.unregister(desc.id)


def test_a_catalog_variant_gets_the_module_its_descriptor_names(variant: str, table: Table, phones: Phones) -> None:
    table.host("set_game", game=variant)
    pages = [phones.open(table.seat_url(i)) for i in range(3)]
    for page, name in zip(pages, ("Sara", "Ali", "Nok")):
        join(page, name)
    start_short_game(table)
    for page in pages:
        page.wait_for_selector(".game.collusion .vote-grid")  # Collusion's own screens, not the generic list
        assert page.locator(".game.generic").count() == 0
