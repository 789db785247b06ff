// Phone strings: the shared game/i18n/web_<lang>.json and every catalog game's own phone strings
// (its GameDescriptor.phone_strings files), served as one object by the table at /i18n/<lang>.json
// (docs/protocol.md). Keys are flat ("lobby.players"); "{name}" placeholders are filled by t() / tn().
// A sentence that counts something has one key per plural form ("lobby.players.one",
// "lobby.players.other"): t("lobby.players", {n: 1}) picks the form the language's rules
// (Intl.PluralRules) give for {n} — "1 player", "2 players".
// A "key.zero" form, when there is one, is said for exactly n = 0 in every language (ICU's "=0", not
// CLDR's "zero" category): "Nobody has locked in yet" rather than "0 of 3 locked in".
import { h } from "./dom.js";

export const LANGS = Object.freeze(["en", "fa", "th"]);
const RTL = new Set(["fa"]);
/** @type {Readonly<Record<string, string>>} */
const LOCALES = Object.freeze({ en: "en", fa: "fa-IR", th: "th-TH" });

/** @type {Map<string, Record<string, string>>} */
const dicts = new Map();
let current = "en";

/** @param {unknown} lang @returns {lang is string} */
export function isLang(lang) {
  return typeof lang === "string" && LANGS.includes(lang);
}

/** Fetch (once) the strings of `lang` and of English, the fallback. @param {string} lang */
export async function loadLang(lang) {
  const wanted = isLang(lang) ? lang : "en";
  await Promise.all([fetchDict("en"), fetchDict(wanted)]);
  return wanted;
}

/** @param {string} lang */
async function fetchDict(lang) {
  if (dicts.has(lang)) return;
  const res = await fetch(`/i18n/${lang}.json`, { cache: "no-cache" });
  if (!res.ok) throw new Error(`strings for ${lang}: HTTP ${res.status}`);
  dicts.set(lang, await res.json());
}

/** Switch the page language (strings must be loaded): sets <html lang dir>. @param {string} lang */
export function setLang(lang) {
  current = dicts.has(lang) ? lang : "en";
  const root = document.documentElement;
  root.lang = current;
  root.dir = RTL.has(current) ? "rtl" : "ltr";
  document.title = t("app.title");
}

export function lang() {
  return current;
}

/** @param {string} key */
function raw(key) {
  return dicts.get(current)?.[key] ?? dicts.get("en")?.[key];
}

/** The key's plural form for the count `n`, in the current language (else English); null for a
 *  key without plural forms. @param {string} key @param {unknown} n */
function pluralKey(key, n) {
  if (typeof n !== "number") return null;
  for (const code of [current, "en"]) {
    const dict = dicts.get(code) ?? {};
    const category = new Intl.PluralRules(LOCALES[/** @type {keyof typeof LOCALES} */ (code)] ?? "en").select(n);
    const forms = n === 0 ? [`${key}.zero`, `${key}.${category}`, `${key}.other`] : [`${key}.${category}`, `${key}.other`];
    for (const form of forms) if (form in dict) return form;
  }
  return null;
}

/** The template of `key` for these parameters (its plural form for `n` when it has forms). @param {string} key @param {Record<string, unknown>} params */
function template(key, params) {
  return raw(key) ?? raw(pluralKey(key, params.n) ?? key);
}

/** @param {string} key */
export function has(key) {
  return raw(key) !== undefined || raw(`${key}.other`) !== undefined;
}

/**
 * Translated text with "{param}" placeholders filled (numbers in the language's digits).
 * @param {string} key @param {Record<string, string | number>} [params]
 */
export function t(key, params = {}) {
  const text = template(key, params);
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (m, name) => {
    const value = params[name];
    return value === undefined ? m : fmt(value); // as tn(): a parameter not given leaves its "{name}"
  });
}

/**
 * Like t() but returns nodes: parameters given as Nodes (names, seat chips) are inserted as they
 * are, each isolated for direction so a Latin name reads right inside Persian and vice versa.
 * @param {string} key @param {Record<string, string | number | Node>} [params]
 * @returns {Array<Node | string>}
 */
export function tn(key, params = {}) {
  const text = template(key, params) ?? key;
  const out = [];
  const used = new Set();
  let last = 0;
  for (const m of text.matchAll(/\{(\w+)\}/g)) {
    out.push(text.slice(last, m.index));
    const [, name = ""] = m;
    const value = params[name];
    // A node can stand in one place only: a name the sentence says twice is copied the second time.
    if (value instanceof Node) out.push(used.has(value) ? value.cloneNode(true) : (used.add(value), value));
    else if (value === undefined) out.push(m[0]);
    else out.push(h("bdi", null, fmt(value)));
    last = (m.index ?? 0) + m[0].length;
  }
  out.push(text.slice(last));
  return out.filter((part) => part !== "");
}

/** @param {string | number} value */
function fmt(value) {
  return typeof value === "number" ? num(value) : value;
}

/* Persian zero, one rule: a COUNT (how many: cards, bars, points, a total, a score) of zero is spelled
 * "صفر", since the digit ۰ is a small dot that reads as punctuation ("Total ۰"); a MEASURE (a number
 * with a unit or a sign: milliseconds, margins "+۰ ms", error bounds "±۰ ms", clocks) keeps the digit
 * ۰, which reads as a number beside its unit or sign. num() is for counts, measure() for measures. */

/** A count in the current language's digits (Persian ۰–۹; Persian zero spelled "صفر"). @param {number} n */
export function num(n) {
  if (n === 0 && current === "fa") return "صفر";
  return measure(n);
}

/** A measure (ms, a margin, an error bound) in the current language's digits, zero as a digit, to a
 *  tenth at most as the TV and the replay write it (game/rules/race.py shown_ms: "100", "100.2", never
 *  "100.237"). @param {number} n */
export function measure(n) {
  return new Intl.NumberFormat(LOCALES[current] ?? "en", { maximumFractionDigits: 1 }).format(n);
}

/** A number as one types it into a field: the current language's digits, no grouping. @param {number} n */
export function plainNumber(n) {
  return new Intl.NumberFormat(LOCALES[current] ?? "en", { useGrouping: false, maximumFractionDigits: 3 }).format(n);
}

/** Seconds as m:ss in the current language's digits. @param {number} ms */
export function clock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  const locale = LOCALES[current] ?? "en";
  const nf = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2 });
  return `${new Intl.NumberFormat(locale).format(m)}:${nf.format(s)}`;
}

/* A number typed on a Persian or Thai keyboard: its digits may be Persian (۰–۹), Arabic-Indic (٠–٩)
 * or Thai (๐–๙), its minus a Unicode minus (−, as Intl writes it), and a paste may carry invisible
 * direction marks. */
const TYPED_DIGITS = [[/[۰-۹]/g, 0x6f0], [/[٠-٩]/g, 0x660], [/[๐-๙]/g, 0xe50]];
const TYPED_MINUS = /[\u2212\u2012\u2013\ufe63\uff0d\u2796]/g;
const DIRECTION_MARKS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

/** What was typed into a number field, in Latin digits with an ASCII sign ("−۳" -> "-3"). @param {string} text */
export function typedNumber(text) {
  let out = text.replace(DIRECTION_MARKS, "").trim().replace(TYPED_MINUS, "-");
  for (const [digits, zero] of TYPED_DIGITS) out = out.replace(/** @type {RegExp} */ (digits), (d) => String(d.charCodeAt(0) - /** @type {number} */ (zero)));
  return out;
}

/** A list joined the language's way ("A, B and C"). @param {string[]} items */
export function list(items) {
  return new Intl.ListFormat(LOCALES[current] ?? "en", { style: "long", type: "conjunction" }).format(items);
}
