"""Characters the table's fonts cannot draw: emoji and pictographs (a name typed on a phone before
the server refused them, or an old journal). Pure functions, no pygame: the models use them too.

An emoji is dropped with everything that dresses it (variation selectors, skin tones, joiners,
flag tags), so "Ali 😀" shows as "Ali", never "Ali ?"."""
from __future__ import annotations

import re
import unicodedata

ZWJ = "\u200d"
MISSING = "\ufffd"  # a letter of a script no font here has: the standard replacement character
_DROPPED = "\x00"


def is_pictograph(ch: str) -> bool:
    """An emoji, a pictographic symbol or one of the marks that only dress them."""
    cp = ord(ch)
    if 0xFE00 <= cp <= 0xFE0F or 0xE0020 <= cp <= 0xE007F or 0x1F000 <= cp <= 0x1FAFF:
        return True  # variation selectors, flag tags, the emoji planes (incl. skin tones, flags)
    return cp >= 0x2190 and unicodedata.category(ch) in ("So", "Sk")


def strip_pictographs(text: str) -> str:
    """``text`` without its emoji (and the spaces they leave doubled)."""
    return tidy("".join(_DROPPED if is_pictograph(ch) else ch for ch in text))


def tidy(marked: str) -> str:
    """Remove drop marks (and joiners beside them); one space where two met, none at either end."""
    if _DROPPED not in marked:
        return marked
    marked = re.sub(f"{ZWJ}?{_DROPPED}+(?:{ZWJ}{_DROPPED}+)*{ZWJ}?", _DROPPED, marked)

    def join(m: re.Match[str]) -> str:
        at_edge = m.start() == 0 or m.end() == len(marked)
        return "" if at_edge else (" " if m.group(1) and m.group(2) else m.group(1) or m.group(2))

    return re.sub(f"( *){_DROPPED}( *)", join, marked)


def dropped_mark() -> str:
    return _DROPPED
