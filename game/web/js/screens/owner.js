// The owner's page on the host console (kiosk mode): today's and this week's games per game,
// average length, players, crashes and restarts, the last errors; the games as a CSV file.
// Data: GET /api/owner and /api/owner.csv with the admin PIN in X-Admin-Pin (docs/protocol.md).
import { h, replace } from "../dom.js";
import { has, lang, num, t } from "../i18n.js";
import { card } from "../ui.js";
import { PIN_KEY } from "./host.js";

/** @type {HTMLElement | null} */ let root = null;
/** @type {any} */ let report = null;
let failed = false;

function pin() {
  return sessionStorage.getItem(PIN_KEY) ?? "";
}

const LOCALES = Object.freeze({ en: "en-GB", fa: "fa-IR", th: "th-TH" });

/** A time of day (and the day when not today) in the page's language. @param {number} seconds */
function when(seconds) {
  const date = new Date(seconds * 1000);
  const sameDay = new Date().toDateString() === date.toDateString();
  /** @type {Intl.DateTimeFormatOptions} */
  const options = sameDay ? { hour: "2-digit", minute: "2-digit" } : { weekday: "short", hour: "2-digit", minute: "2-digit" };
  return new Intl.DateTimeFormat(LOCALES[/** @type {"en"} */ (lang())] ?? "en", options).format(date);
}

/** @param {number | null} seconds */
function minutes(seconds) {
  return seconds === null ? "—" : t("owner.minutes", { n: Math.max(1, Math.round(seconds / 60)) });
}

/** @param {string} title @param {any} period */
function periodTable(title, period) {
  const games = period.games ?? [];
  const rows = games.map((/** @type {any} */ g) => h("tr", null,
    h("th", { scope: "row", text: t(`game.${g.game}`) }),
    h("td", { text: num(g.played) }), h("td", { text: num(g.players) }), h("td", { text: minutes(g.average_s) })));
  const total = games.reduce((/** @type {number} */ n, /** @type {any} */ g) => n + g.played, 0);
  return h("div", { class: "owner-period" },
    h("h3", { text: title }),
    total === 0 ? h("p", { class: "muted", text: t("owner.no_games") }) : h("table", { class: "owner-table" },
      h("thead", null, h("tr", null, h("th", { text: t("owner.game") }), h("th", { text: t("owner.played") }),
        h("th", { text: t("owner.players") }), h("th", { text: t("owner.average") }))),
      h("tbody", null, ...rows)));
}

function crashList() {
  const crashes = report.crashes ?? [];
  if (!crashes.length) return h("p", { class: "muted", text: t("owner.no_crashes") });
  return h("ul", { class: "plain-list owner-list" }, ...crashes.slice().reverse().map((/** @type {any} */ c) =>
    h("li", { text: c.restarted === undefined
      ? t("owner.crash_open", { time: when(c.last_seen) })
      : t("owner.crash", { time: when(c.last_seen), back: when(c.restarted) }) })));
}

/** What happened, in plain words (a kind this page does not know reads as a program error). @param {any} e */
function errorSentence(e) {
  const key = `owner.kind.${e.kind}`;
  return t(has(key) ? key : "owner.kind.program");
}

function errorList() {
  const errors = report.errors ?? [];
  if (!errors.length) return h("p", { class: "muted", text: t("owner.no_errors") });
  return h("ul", { class: "plain-list owner-list" }, ...errors.map((/** @type {any} */ e) =>
    h("li", { "data-testid": "owner-error" },
      h("div", null, h("span", { class: "muted small", text: when(e.at) + " | " }), h("span", { text: errorSentence(e) })),
      // the program's own words (English), for whoever supports the café
      h("div", { class: "muted small owner-detail" },
        h("span", { dir: "ltr", lang: "en", "data-testid": "owner-error-detail", text: e.text })))));
}

async function downloadCsv() {
  const res = await fetch("/api/owner.csv", { headers: { "X-Admin-Pin": pin() }, cache: "no-store" });
  if (!res.ok) return;
  const url = URL.createObjectURL(await res.blob());
  const a = h("a", { href: url, download: "tabletop-games.csv" });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function draw() {
  if (!root) return;
  const refresh = h("button", { class: "btn btn-ghost", type: "button", "data-testid": "owner-refresh", onclick: load, text: t("owner.refresh") });
  if (!report) {
    replace(root, h("p", { class: "muted", text: t(failed ? "owner.failed" : "owner.loading") }), refresh);
    return;
  }
  const week = report.week;
  replace(root,
    periodTable(t("owner.today"), report.today),
    periodTable(t("owner.week"), week),
    h("h3", { text: t("owner.health") }),
    h("p", { text: t("owner.restarts", { crashes: num(week.crashes), restarts: num(week.restarts) }) }),
    // guests' network noise: counted apart, never among the errors below
    h("p", { "data-testid": "owner-bad-requests", text: t("owner.bad_requests", { n: report.bad_requests_today ?? 0 }) }),
    crashList(),
    h("h3", { text: t("owner.errors") }),
    errorList(),
    h("div", { class: "stack" },
      h("button", { class: "btn btn-primary", type: "button", "data-testid": "owner-csv", onclick: downloadCsv, text: t("owner.csv") }),
      refresh));
}

async function load() {
  try {
    const res = await fetch("/api/owner", { headers: { "X-Admin-Pin": pin() }, cache: "no-store" });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    report = await res.json();
    failed = false;
  } catch {
    failed = true;
  }
  draw();
}

/** The owner's card (one element kept across host console redraws; loads once, then on Refresh). */
export function ownerCard() {
  if (!root) {
    root = h("div", { class: "owner", "data-testid": "owner" });
    load();
  }
  draw();
  return card(t("owner.title"), root);
}
