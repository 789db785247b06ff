"""A name in another script stays beside its seat's token in every seat list: the row keeps the
page's direction and only the name is isolated (a Persian name on an English page used to be
pushed to the far end of the row, next to "here")."""
from __future__ import annotations

import pytest

from .conftest import Phones, Table
from .phone import host_console, join

pytestmark = pytest.mark.browser


def _gap_after_token(page, selector: str, name: str) -> float:
    """Pixels between the row's token and the name's own text, in the page's reading direction."""
    return page.eval_on_selector_all(selector, """(rows, name) => {
        const row = rows.find(r => r.textContent.includes(name));
        const token = row.firstElementChild.getBoundingClientRect();
        const range = document.createRange();  // the words themselves, not the box they sit in
        range.selectNodeContents(row.querySelector('.seat-row-name'));
        const text = range.getBoundingClientRect();
        return getComputedStyle(row).direction === 'rtl' ? token.left - text.right : text.left - token.right;
    }""", name)


@pytest.mark.parametrize(("lang", "other"), [("en", "سارا"), ("fa", "Tom")])
def test_a_name_in_another_script_stays_beside_its_token(lang: str, other: str, table: Table, phones: Phones) -> None:
    table.host("set_language", language=lang)
    join(phones.open(table.seat_url(0)), other)
    me = phones.open(table.seat_url(1))
    join(me, "Mina" if lang == "en" else "مینا")
    me.wait_for_selector(f"[data-testid=seat-list] >> text={other}")
    assert _gap_after_token(me, "[data-testid=seat-list] .seat-row", other) < 24
    host = host_console(table, phones, lang)
    host.wait_for_selector(f".host .seat-list >> text={other}")
    assert _gap_after_token(host, ".host .seat-list .seat-row", other) < 24
