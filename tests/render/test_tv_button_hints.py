"""The TV never names a phone button that does not exist: every TV hint that names one gets its label
from that button's own phone string (``Frame.button(key)``), so "Undo" on the TV cannot face "My card
doesn't fit" on the phone, nor "Next round" a "See the final standings" button."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from game.server.app import phone_strings

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "game" / "i18n"
BUTTON_CALL = re.compile(r"\.button\(([^)]*)\)")
KEY_IN_CALL = re.compile(r'"([\w.]+)"')
# A TV sentence naming a button by itself: "tap Done", "taps Continue", "tap UNDO", "tap “Undo”",
# or a quoted label in Persian or Thai guillemets that is not the phone's own label.
NAMED_BY_HAND = {
    "en": re.compile(r'\btaps? (?!\{|“\{)(?:[A-Z]|“|")'),
    "fa": re.compile(r"«(?!\{\w+\}»)[^»]*»"),  # a quoted placeholder ({button}, a quoted {who}) is not by hand
    "th": re.compile(r"«(?!\{\w+\}»)[^»]*»"),
}


def tv_button_keys() -> set[str]:
    """Every phone string key the TV's code names a button with (``frame.button("key")``, or each
    key in a ``frame.button("a" if ... else "b")`` choice)."""
    keys: set[str] = set()
    for path in (*(ROOT / "game" / "render").rglob("*.py"), *(ROOT / "game" / "games").rglob("*.py")):
        for call in BUTTON_CALL.findall(path.read_text("utf-8")):
            keys.update(KEY_IN_CALL.findall(call))
    return keys


def phone_button_labels() -> set[str]:
    """Keys the phone app puts on a button: a key in t("key") (or in t(cond ? "a" : "b")) that is the
    text of a button made just before it (h("button", …), bigButton(…), a module's button(…))."""
    labels: set[str] = set()
    for path in (*(ROOT / "game" / "web" / "js").rglob("*.js"), *(ROOT / "game" / "games").glob("*/phone/*.js")):
        source = path.read_text("utf-8")
        for call in re.finditer(r"\bt\(([^()]*)", source):
            before = source[max(0, call.start() - 400):call.start()]
            opened = max(before.rfind('h("button"'), before.rfind("bigButton("), before.rfind("button({"))
            if opened >= 0 and before.count("\n", opened) <= 3:
                labels.update(KEY_IN_CALL.findall(call.group(1)))
    return labels


def test_tv_hints_name_phone_buttons_by_their_own_keys() -> None:
    keys = tv_button_keys()
    assert {"mothc.end_turn", "mothc.wrong_win", "mothc.next_round", "mothc.finish", "speakeasy.continue"} <= keys
    labels = phone_button_labels()
    for lang in ("en", "fa", "th"):
        served = phone_strings(I18N, lang) or {}  # the shared phone words and every game's own
        assert keys <= set(served), f"the phone's {lang} words lack {sorted(keys - set(served))}"
    assert keys <= labels, f"the TV names phone buttons that no phone shows: {sorted(keys - labels)}"


@pytest.mark.parametrize("lang", ["en", "fa", "th"])
def test_no_tv_string_names_a_phone_button_by_hand(lang: str) -> None:
    named = []
    for path in sorted((*I18N.glob(f"screen*_{lang}.json"), *(ROOT / "game" / "games").glob(f"*/strings/screen*_{lang}.json"))):
        for key, text in json.loads(path.read_text("utf-8")).items():
            if NAMED_BY_HAND[lang].search(text):
                named.append(f"{path.name}: {key}: {text}")
    assert named == [], "TV strings that name a phone button instead of taking {button}:\n" + "\n".join(named)


def test_the_check_catches_a_button_named_by_hand() -> None:
    assert NAMED_BY_HAND["en"].search("tap Next round on a phone")
    assert NAMED_BY_HAND["en"].search("They tap UNDO on their phone")
    assert not NAMED_BY_HAND["en"].search("tap “{button}” on a phone")
    assert NAMED_BY_HAND["fa"].search("روی گوشی «دور بعد» را بزنید")
    assert not NAMED_BY_HAND["fa"].search("روی گوشی «{button}» را بزنید")
