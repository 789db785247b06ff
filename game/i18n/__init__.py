"""Strings for the big screen and the phones, in English, Persian and Thai.

Each language has one JSON file per domain, ``<domain>_<lang>.json`` beside this module (``screen``
for the TV, ``web`` for the phone app). :func:`load` reads and caches one file; :func:`text`
looks a key up with English as the fallback and fills ``{placeholders}``.

Plurals: a string that counts ``{n}`` is stored once per CLDR plural category, ``key.one`` and
``key.other`` (every language file has the same keys; a language whose rules never pick ``one``,
like Thai, repeats ``other``). ``text(lang, domain, "key", n=...)`` picks the form with Babel's
plural rules for ``lang``, so English says "1 bar" and "2 bars". A counting string may also have
``key.zero``, said for exactly ``n == 0`` in every language (ICU's ``=0``, not CLDR's "zero"
category): "Nobody has locked in yet" reads better than "0 of 3 locked in".
"""
from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from babel import Locale

from game.package_files import package_path

LANGUAGES: tuple[str, ...] = ("en", "fa", "th")
FALLBACK = "en"
RTL_LANGUAGES: frozenset[str] = frozenset({"fa"})
_HERE = package_path("i18n")  # package data: the strings ship in the wheel
_PERSIAN_DIGITS = str.maketrans("0123456789.", "۰۱۲۳۴۵۶۷۸۹٫")  # and the Persian decimal separator


class UnknownLanguage(ValueError):
    """A language code the table has no strings for."""


class MissingString(KeyError):
    """A key that is in no language file of the domain (not even English)."""


def _check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise UnknownLanguage(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")


def load(lang: str, domain: str) -> Mapping[str, str]:
    """All strings of one language and domain (read once, read-only): the file beside this module,
    else in a game's own ``strings/`` folder (``GameDescriptor.strings_folder``). A missing file is empty."""
    found = _loaded.get((lang, domain))
    if found is not None:
        return found
    _check_language(lang)
    if not domain.isidentifier():
        raise ValueError(f"bad string domain {domain!r}")
    name = f"{domain}_{lang}.json"
    from game import catalog  # the catalog imports no game: no cycle

    path = next((folder / name for folder in (_HERE, *catalog.string_folders()) if (folder / name).exists()), None)
    if path is None:
        return MappingProxyType({})  # not kept: a plug-in registered later may bring it
    _loaded[(lang, domain)] = strings = _read(path)
    return strings


_loaded: dict[tuple[str, str], Mapping[str, str]] = {}


def _read(path: Path) -> Mapping[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()):
        raise ValueError(f"{path.name}: expected an object of strings")
    return MappingProxyType(data)


def _lookup(lang: str, domain: str, key: str) -> str | None:
    template = load(lang, domain).get(key)
    return template if template is not None else load(FALLBACK, domain).get(key)


@cache
def _plural_rule(lang: str) -> Any:
    return Locale.parse(lang).plural_form


def plural_category(lang: str, n: int) -> str:
    """The CLDR plural category of ``n`` in ``lang`` ("one", "other", ...)."""
    _check_language(lang)
    category: str = _plural_rule(lang)(abs(n))
    return category


def _plural_template(lang: str, domain: str, key: str, n: int) -> str | None:
    if _lookup(lang, domain, f"{key}.other") is None:
        return None
    forms = ([f"{key}.zero"] if n == 0 else []) + [f"{key}.{plural_category(lang, n)}", f"{key}.other"]
    return next((t for t in (_lookup(lang, domain, form) for form in forms) if t is not None), None)


def _template(lang: str, domain: str, key: str, values: dict[str, Any]) -> str:
    template = _lookup(lang, domain, key)
    n = values.get("n")
    if template is None and isinstance(n, int) and not isinstance(n, bool):
        template = _plural_template(lang, domain, key, n)
    if template is None:
        raise MissingString(f"no string {key!r} in domain {domain!r}")
    return template


def text(lang: str, domain: str, key: str, /, **values: Any) -> str:
    """The string ``key`` in ``lang`` (else English), with ``{name}`` placeholders filled; a plural
    string (``key.one``/``key.other``) in the form ``n`` calls for.

    In Persian, numbers given as ``values`` are written with Persian digits."""
    template = _template(lang, domain, key, values)
    if not values:
        return template
    return template.format(**{k: number(lang, v) if isinstance(v, int) else isolate(lang, v) for k, v in values.items()})


FSI = "\u2068"  # FIRST STRONG ISOLATE: what follows, up to PDI, is laid out on its own
PDI = "\u2069"  # POP DIRECTIONAL ISOLATE
_STRONG_RTL = frozenset({"R", "AL"})
_A_NUMBER = re.compile(r"[±+\-\u2212]?\d+(?:[.,٫٬:/]\d+)*")


def isolate(lang: str, value: Any) -> Any:
    """A value placed inside a sentence, bidi-isolated (FSI ... PDI) when its own direction could
    run into the sentence's. On a right-to-left screen, a value with no right-to-left letter: a
    player named "+1+1" or "Sara" keeps its own order ("+1+1", not "1+1+"). On a left-to-right
    screen, a value holding a right-to-left letter: "سارا 2" reads as its player typed it, the "2"
    at its end (on its left), as the phones show it (their names are ``<bdi>``), not after it on the
    right. Persian words in a Persian sentence (a list of names joined with "و") and a lone number
    are left as they are; the TV's text layout honours the isolates."""
    if not isinstance(value, str) or not value or value.startswith(FSI):
        return value
    holds_rtl = any(unicodedata.bidirectional(ch) in _STRONG_RTL for ch in value)
    if is_rtl(lang):
        if holds_rtl or _A_NUMBER.fullmatch(value):
            return value  # one number ("۰", "±۲٫۵", "۱۲:۳۰") already reads as one piece
    elif not holds_rtl:
        return value
    return f"{FSI}{value}{PDI}"


def has(lang: str, domain: str, key: str) -> bool:
    return any(k in load(lang, domain) or k in load(FALLBACK, domain) for k in (key, f"{key}.other"))


PERSIAN_ZERO_WORD = "صفر"


def number(lang: str, value: int | str) -> str:
    """A count written the way the language writes it (Persian digits in Persian). A lone Persian
    zero "۰" is a small dot that reads as punctuation, so a count of zero is spelled out. A measure
    (a number with a unit or a sign: "±۰ ms", "+۰ ms") keeps its digit: pass ``digits()`` for it."""
    if lang == "fa" and isinstance(value, int) and not isinstance(value, bool) and value == 0:
        return PERSIAN_ZERO_WORD
    return digits(lang, value)


def digits(lang: str, value: int | float | str) -> str:
    """A measure (milliseconds, a margin, an error bound) in the language's digits, zero as a digit."""
    out = str(value)
    return out.translate(_PERSIAN_DIGITS) if lang == "fa" else out


def is_rtl(lang: str) -> bool:
    return lang in RTL_LANGUAGES
