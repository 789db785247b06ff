"""The phone's strings (game/i18n/web_{en,fa,th}.json): every key the app uses exists in every
language, placeholders match English, and each language is written in its own script."""
from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from game import catalog
from game.catalog import get_engine
from game.seating import SEAT_LOOKS
from game.server.app import phone_strings
from game.session.table import TableSettings

GAMES = catalog.ids(catalog.PlayMode.TABLE)

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "game" / "web"
I18N = ROOT / "game" / "i18n"
LANGS = ("en", "fa", "th")
ERROR_CODES = ("malformed", "unknown_kind", "illegal_action", "not_your_turn", "stale_state", "unknown_seat",
               "game_over", "bad_settings", "rate_limited", "too_large", "taken_over", "forbidden", "bad_pin")
STATUSES = ("connecting", "online", "offline", "taken_over", "kicked", "rejected")
DEATH_KINDS = ("targeted", "not_in_majority", "no_vote", "ambush_suicide", "ambushed")
CHOICES = ("split", "steal", "take_one")
TIMER_LABELS = ("conspiracy", "ambush_choice", "showdown", "speakeasy_host_choice", "speakeasy_pointing",
                "speakeasy_reveal", "race", "next_round", "turn", "give")
SPEAKEASY = ("title.choosing", "title.pointing", "title.reveal", "identity.informant",
             "identity.citizen", "identity_hint.informant", "identity_hint.citizen", "outcome.informant_caught",
             "outcome.citizen_found", "bonus.informant", "bonus.citizen")


def strings(lang: str) -> dict[str, str]:
    """The phone's strings as the table serves them: the shared words and every game's own."""
    served = phone_strings(I18N, lang)
    assert served is not None
    return served


def game_files(lang: str) -> dict[str, dict[str, str]]:
    """Each catalog game's phone string files in ``lang`` (in game/i18n/ or a plug-in's folder), by domain."""
    out = {}
    for domain in catalog.phone_domains():
        paths = [folder / f"{domain}_{lang}.json" for folder in (I18N, *catalog.string_folders())]
        path = next((p for p in paths if p.is_file()), None)
        assert path is not None, f"no {domain}_{lang}.json"
        out[domain] = json.loads(path.read_text(encoding="utf-8"))
    return out


def literal_keys() -> set[str]:
    """Keys written out in the app's JavaScript ("collusion.lock", wherever they appear)."""
    namespaces = sorted({key.split(".")[0] for key in strings("en")})
    pattern = re.compile(r"[\"'`]((?:{})(?:\.[a-z_]+)+)[\"'`]".format("|".join(namespaces)))
    keys: set[str] = set()
    for path in WEB.rglob("*.js"):
        keys |= set(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def family_keys() -> set[str]:
    """Keys the app builds from data: colours, symbols, games, presets, settings, codes."""
    keys = {f"colour.{look.colour_name}" for look in SEAT_LOOKS} | {f"symbol.{look.symbol}" for look in SEAT_LOOKS}
    keys |= {f"error.{c}" for c in ERROR_CODES} | {f"status.{s}" for s in STATUSES}
    keys |= {f"collusion.death.{k}" for k in DEATH_KINDS} | {f"timer.{x}" for x in TIMER_LABELS}
    keys |= {f"collusion.choice.{c}" for c in CHOICES} | {f"collusion.choice_hint.{c}" for c in CHOICES}
    keys |= {f"lang.{code}" for code in LANGS} | {f"lang.short.{code}" for code in LANGS}
    keys |= {f"speakeasy.{k}" for k in SPEAKEASY}
    keys |= {f"moth.kind.{k}" for k in ("number", "ant", "spider", "mosquito", "beetle", "moth")}
    keys |= {f"moth.phase.{p}" for p in ("play", "spider_give", "mosquito_race", "mosquito_give", "beetle_race",
                                         "penalty_give", "round_over", "game_over")}
    keys |= {"moth.tell.sleeve", "moth.race.mosquito", "moth.race.beetle"}
    for game in GAMES:
        engine = get_engine(game)
        keys |= {f"game.{game}", f"game_blurb.{game}"} | {f"preset.{p}" for p in engine.presets()}
    for game in catalog.ids():  # the companion games' settings show on the host console too
        engine = catalog.get(game).load_engine()
        wire = engine.settings_to_wire(engine.default_settings())
        keys |= {f"settings.{name}" for name, value in wire.items() if not isinstance(value, list)}
    keys |= {f"settings.{name}" for name in TableSettings().to_json()}  # the table's own, on the host console
    return keys


def test_every_key_the_app_uses_exists_in_every_language() -> None:
    used = literal_keys() | family_keys()
    assert len(used) > 150
    for lang in LANGS:
        have = strings(lang)
        missing = sorted(k for k in used if k not in have and f"{k}.other" not in have)  # or its plural forms
        assert missing == [], f"web_{lang}.json lacks {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_each_game_brings_its_own_phone_words(lang: str) -> None:
    """The shared web_<lang>.json keeps only shared words; each game's are in its own files (its
    catalog phone_strings), in every language, and no key is in two files."""
    shared = json.loads((I18N / f"web_{lang}.json").read_text(encoding="utf-8"))
    files = {"web": shared, **game_files(lang)}
    owners: dict[str, list[str]] = {}
    for domain, words in files.items():
        for key in words:
            owners.setdefault(key, []).append(domain)
    assert {k: v for k, v in owners.items() if len(v) > 1} == {}
    assert sorted(k for k in shared if any(game in k.split(".") for game in catalog.ids())) == []
    for desc in catalog.games():
        own = set(files[desc.phone_strings[-1]])
        assert desc.title_key in own, f"{desc.id}: its name is not in its own phone strings"
        engine = desc.load_engine()
        assert {f"preset.{p}" for p in engine.presets()} <= set(strings(lang)) - set(shared), desc.id


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_translations_match_english(lang: str) -> None:
    en, other = strings("en"), strings(lang)
    assert sorted(other) == sorted(en)
    for key, text in en.items():
        assert other[key].strip(), key
        assert sorted(re.findall(r"\{(\w+)\}", other[key])) == sorted(re.findall(r"\{(\w+)\}", text)), key


SCRIPT = {"fa": "ARABIC", "th": "THAI"}


@pytest.mark.parametrize("lang", ["fa", "th"])
def test_each_language_is_written_in_its_script(lang: str) -> None:
    """Persian and Thai sentences are in their own script (not English left behind), and Persian
    uses the zero-width non-joiner (نیم‌فاصله) where words are joined, never a placeholder mark."""
    own_names = {"lang.en", "lang.fa", "lang.th", "lang.short.en", "lang.short.fa", "lang.short.th"}
    for key, text in strings(lang).items():
        letters = [c for c in re.sub(r"\{\w+\}", "", text) if c.isalpha()]
        if key in own_names or not letters:
            continue
        own = sum(1 for c in letters if unicodedata.name(c, "").startswith(SCRIPT[lang]))
        assert own / len(letters) > 0.6, f"{key}: {text!r}"
    if lang == "fa":
        joined = "".join(strings("fa").values())
        assert "\u200c" in joined and "~" not in joined
        assert "ي" not in joined and "ك" not in joined  # Persian yeh and keheh, not the Arabic letters


# Every phone string rendered through tn() with each placeholder as a name node (as the games pass
# names): how often each name shows against how often its placeholder is in the template.
RENDER_EVERY_TEMPLATE = """async (lang) => {
  const i18n = await import('/static/js/i18n.js');
  i18n.setLang(await i18n.loadLang(lang));
  const dict = await (await fetch(`/i18n/${lang}.json`)).json();
  const wrong = [];
  for (const [key, text] of Object.entries(dict)) {
    const names = [...new Set([...text.matchAll(/\\{(\\w+)\\}/g)].map((m) => m[1]))];
    if (!names.length) continue;
    const params = Object.fromEntries(names.map((n) => {
      const el = document.createElement('span');
      el.textContent = `<${n}>`;
      return [n, el];
    }));
    const box = document.createElement('div');
    box.append(...i18n.tn(key, params));
    for (const n of names) {
      const want = text.split(`{${n}}`).length - 1;
      const got = box.textContent.split(`<${n}>`).length - 1;
      if (want !== got) wrong.push(`${key}: {${n}} ${want}x in the template, shown ${got}x`);
    }
  }
  return wrong;
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_name_used_twice_in_a_sentence_shows_twice(lang: str, table: Any, phones: Any) -> None:
    """Speakeasy's "citizen found" and Cheating Moth's "caught" name a player twice: both show."""
    page = phones.open(f"{table.url}/join")
    page.wait_for_selector("[data-testid=code-input]")
    assert page.evaluate(RENDER_EVERY_TEMPLATE, lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_counted_sentences_have_their_plural_forms(lang: str) -> None:
    """A sentence with a count has one key per plural form (Intl.PluralRules categories): English
    "one" and "other"; every language at least "other" beside each English form."""
    have = strings(lang)
    stems = {k.rsplit(".", 1)[0] for k in strings("en") if k.endswith((".one", ".other"))}
    assert len(stems) >= 8
    for stem in stems:
        assert f"{stem}.other" in have and f"{stem}.one" in have, stem
        assert "{n}" in have[f"{stem}.other"], f"{stem}: the count is {{n}}"


def test_persian_strings_use_no_middle_dot() -> None:
    """Persian separators are " | " (the middle dot "·" is not Persian punctuation)."""
    assert [k for k, v in strings("fa").items() if "·" in v] == []


def test_persian_strings_spell_a_lone_zero() -> None:
    """A count of zero written into a Persian sentence is spelled "صفر" (a lone ۰ reads as a dot),
    as num() does for counts; "۰ = خودکار" names the value the host types, beside its sign."""
    lone = re.compile(r"(?<![۰-۹])۰(?![۰-۹])(?! =)")
    assert [k for k, v in strings("fa").items() if lone.search(v)] == []


def test_the_app_joins_nothing_with_a_middle_dot() -> None:
    """Text the app builds itself (a bot's label on the host console, a score pad's blank, the
    no-JavaScript line) shows in Persian too: it takes the language's separator, never " · "."""
    dotted = [f"{path.relative_to(WEB)}:{n}" for path in sorted([*WEB.rglob("*.js"), *WEB.rglob("*.html")])
              for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
              if re.search(r"\s·\s|[\"'`]·[\"'`]", line)]
    assert dotted == []


# The phone's own formatting of counts and numbers, as the games call it.
COUNTS = """async (lang) => {
  const i18n = await import('/static/js/i18n.js');
  i18n.setLang(await i18n.loadLang(lang));
  return [0, 1, 2, 5].map((n) => i18n.t('moth.cards', { n })).concat(
    [1, 3].map((n) => i18n.t('collusion.bars_count', { n })), [i18n.num(0), i18n.num(10), i18n.clock(5000)],
    [i18n.measure(0), i18n.t('moth.race_margin', { ms: i18n.measure(0) }), i18n.t('moth.race_error', { ms: i18n.measure(0) })]);
}"""


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["0 cards", "1 card", "2 cards", "5 cards", "1 bar", "3 bars", "0", "10", "0:05",
            "0", "+0 ms", "Times are good to ±0 ms."]),
    ("fa", ["صفر کارت", "۱ کارت", "۲ کارت", "۵ کارت", "۱ شمش", "۳ شمش", "صفر", "۱۰", "۰:۰۵",
            "۰", "+۰ میلی‌ثانیه", "زمان‌ها تا ±۰ میلی‌ثانیه دقیق‌اند."]),
    ("th", ["0 ใบ", "1 ใบ", "2 ใบ", "5 ใบ", "1 แท่ง", "3 แท่ง", "0", "10", "0:05",
            "0", "+0 มิลลิวินาที", "เวลาคลาดเคลื่อนได้ ±0 มิลลิวินาที"]),
])
def test_counts_follow_each_languages_plural_rules(lang: str, expected: list[str], table: Any, phones: Any) -> None:
    """ "1 card", not "1 cards" (Intl.PluralRules). Persian zero, one rule:
    a count of zero is spelled "صفر", since the digit ۰ alone reads as a dot; a measure (a clock, a
    race margin "+۰ ms", an error bound "±۰ ms") keeps the digit beside its unit or sign."""
    page = phones.open(f"{table.url}/join")
    page.wait_for_selector("[data-testid=code-input]")
    assert page.evaluate(COUNTS, lang) == expected


NOBODY_YET = """async (lang) => {
  const i18n = await import('/static/js/i18n.js');
  i18n.setLang(await i18n.loadLang(lang));
  return [0, 1, 2].map((n) => i18n.t('collusion.locked_count', { n, total: 3 })).concat(
    [i18n.t('speakeasy.pointed_count', { n: 0, total: 4 }), i18n.t('collc.check_count', { n: 0, m: 4 })]);
}"""


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Nobody has locked in yet", "1 of 3 locked in", "2 of 3 locked in", "Nobody has pointed yet", "Nobody has answered yet"]),
    ("fa", ["هنوز کسی قفل نکرده است", "۱ نفر از ۳ نفر قفل کرده‌اند", "۲ نفر از ۳ نفر قفل کرده‌اند",
            "هنوز کسی اشاره نکرده است", "هنوز کسی جواب نداده است"]),
    ("th", ["ยังไม่มีใครล็อก", "ล็อกแล้ว 1 จาก 3 คน", "ล็อกแล้ว 2 จาก 3 คน", "ยังไม่มีใครชี้", "ยังไม่มีใครตอบ"]),
])
def test_nobody_yet_is_said_in_words(lang: str, expected: list[str], table: Any, phones: Any) -> None:
    """ "صفر نفر از ۳ نفر قفل کرده‌اند" reads badly: a count of nobody takes the sentence's zero form
    (an explicit n = 0 form beside the Intl.PluralRules ones); one and more keep counting."""
    page = phones.open(f"{table.url}/join")
    page.wait_for_selector("[data-testid=code-input]")
    assert page.evaluate(NOBODY_YET, lang) == expected


TYPED = """async () => {
  const i18n = await import('/static/js/i18n.js');
  return ['-3', '\\u2212\\u06f3', '\\u200e\\u2212\\u06f3', '-\\u0e53', ' \\u06f1\\u06f2 ', '\\u0664\\u0662', '+7', 'seven']
    .map((text) => i18n.typedNumber(text));
}"""


def test_a_typed_number_reads_in_every_script(table: Any, phones: Any) -> None:
    """Number fields read Persian (۳), Arabic-Indic (٤) and Thai (๓) digits, the Unicode minus "−"
    Intl and Persian keyboards write, and drop a pasted direction mark: "−۳" is -3, not an error."""
    page = phones.open(f"{table.url}/join")
    page.wait_for_selector("[data-testid=code-input]")
    assert page.evaluate(TYPED) == ["-3", "-3", "-3", "-3", "12", "42", "+7", "seven"]
