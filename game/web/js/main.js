// The phone app: routes by address (/s/<token> seat, /join, /watch, /host), holds the one
// connection, and draws the screen for the latest state from the table.
import { h, replace } from "./dom.js";
import { has, isLang, lang, loadLang, setLang, t } from "./i18n.js";
import { Connection, Status } from "./net.js";
import { banner, countdown, fullMessage, openLanguageSheet, seatName, toast } from "./ui.js";
import { seatToken } from "./symbols.js";
import { keepAwake } from "./wake.js";
import { loadGame } from "./games/index.js";
import { seatLobby, seatList, gameSummary, gameNote } from "./screens/lobby.js";
import { awayCards } from "./screens/away.js";
import { lookCard } from "./screens/look.js";
import { askingHost, codeForm, consentScreen, nameForm, SEAT_KEY } from "./screens/join.js";
import { hostConsole, pinForm, PIN_KEY } from "./screens/host.js";

const LANG_KEY = "tabletop.lang";
const JOIN_LANG_KEY = "tabletop.lang.join";
const FOLLOW_TABLE = "table"; // the player's choice "same as the table"
const OFFLINE_BANNER_DELAY_MS = 1200;
const DEVICE_KEYS = "tabletop.devices";
const DEVICE_KEYS_KEPT = 12; // seats this browser held (one per tab at most): older keys are forgotten
const STAFF_KEY = "tabletop.staff"; // the key a right PIN earned: this console's wrong PINs are its own, never others'

/** @enum {string} */
const Page = Object.freeze({ SEAT: "seat", JOIN: "join", WATCH: "watch", HOST: "host" });

/**
 * @typedef {{ v: number, kind: "state", version: number, phase: string, game: string, phone: string, view: any,
 *   legal: any[], timer: any, events: any[], event_seq: number, look: boolean, lobby: Lobby, table_legal?: any[] }} StateMsg
 * @typedef {import("./ui.js").LobbySeat} LobbySeat
 * @typedef {{ seats: LobbySeat[], seat_count: number, [field: string]: any }} Lobby
 */

const app = {
  page: routePage(),
  token: seatTokenFromPath(),
  /** @type {Connection | null} */ conn: null,
  /** @type {any} */ welcome: null,
  /** @type {StateMsg | null} */ state: null,
  /** @type {number | null} local performance.now() deadline of the table timer */ deadline: null,
  /** @type {string | null} the player's choice: a language, or FOLLOW_TABLE */ chosenLang: storedLang(),
  /** @type {string | null} the table's language when this page first came (its default) */ joinLang: storedJoinLang(),
  pending: false,
  renaming: false,
  /** @type {string | null} */ pin: sessionStorage.getItem(PIN_KEY),
  /** @type {string | null} */ pinError: null,
  /** @type {ReturnType<typeof setTimeout> | null} */ bannerTimer: null,
  /** @type {import("./games/common.js").GameModule | null} */ game: null,
  screenKey: "",
  /** @type {any} a held seat this phone asks the host for ({state, seat}), until welcome */ claim: null,
  /** @type {string | null} the name a bot's seat asked for (sent with hello) */ claimName: null,
  /** @type {any} another phone asks for this seat (the ``claim`` message, state "asked"): the consent screen */ consent: null,
  /** @type {"moved" | "given" | "refused" | null} why the table closed this phone's seat */ farewell: null,
  /** @type {string | null} the table's language, told with a refusal (no welcome came) */ refusedLang: null,
  deferred: false, // a redraw waits for the field being typed in to lose focus
};

function routePage() {
  const p = location.pathname;
  if (p.startsWith("/s/")) return Page.SEAT;
  if (p === "/watch" || p === "/watch/") return Page.WATCH;
  if (p === "/host" || p === "/host/") return Page.HOST;
  return Page.JOIN;
}

function seatTokenFromPath() {
  const m = /^\/s\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  return m ? m[1] : null;
}

/** This phone's device keys, by the seat link they belong to ({link: key}); newest last. */
function deviceKeys() {
  try {
    const keys = JSON.parse(localStorage.getItem(DEVICE_KEYS) ?? "{}");
    return keys && typeof keys === "object" && !Array.isArray(keys) ? /** @type {Record<string, string>} */ (keys) : {};
  } catch {
    return {};
  }
}

/** The device key this phone keeps for the seat link ``link``, if any. @param {string} link */
function deviceKey(link) {
  const key = deviceKeys()[link];
  return typeof key === "string" && key ? key : null;
}

/** Remember ``key`` for ``link`` (the key never goes in the address bar). @param {string} link @param {string} key */
function keepDeviceKey(link, key) {
  const keys = Object.entries(deviceKeys()).filter(([l, k]) => l !== link && k !== key);
  keys.push([link, key]);
  localStorage.setItem(DEVICE_KEYS, JSON.stringify(Object.fromEntries(keys.slice(-DEVICE_KEYS_KEPT))));
}

function storedLang() {
  const v = localStorage.getItem(LANG_KEY);
  return v && (isLang(v) || v === FOLLOW_TABLE) ? v : null;
}

function storedJoinLang() {
  const v = sessionStorage.getItem(JOIN_LANG_KEY);
  return v && isLang(v) ? v : null;
}

function lastVersionKey() {
  return `tabletop.version.${app.token ?? app.page}`;
}

// ------------------------------------------------------------------------------ language
/* Each phone keeps its own language: the player's choice (remembered on the phone), else the
 * browser's own language when the table has it, else the language the table had when this phone
 * first came (the TV's L key then changes the TV and the default for new phones only). The choice
 * "same as the table" (FOLLOW_TABLE) follows the TV's language as it changes. */

/** The first of the browser's languages the table has (navigator.languages: "fa-IR" -> "fa"). */
function browserLang() {
  const tags = navigator.languages?.length ? navigator.languages : [navigator.language];
  for (const tag of tags) {
    const base = String(tag ?? "").toLowerCase().split("-")[0];
    if (isLang(base)) return base;
  }
  return null;
}

/** The table's language as this page last heard it (null before any message). */
function tableLang() {
  return app.state?.lobby?.language ?? app.welcome?.table_lang ?? app.refusedLang ?? null;
}

/** The language this phone shows. */
function wantedLang() {
  if (app.chosenLang === FOLLOW_TABLE) return tableLang() ?? browserLang() ?? "en";
  return app.chosenLang ?? browserLang() ?? app.joinLang ?? tableLang() ?? "en";
}

/** The language the phone tells the table it shows (null: nothing of its own yet). */
function ownLang() {
  return app.chosenLang && app.chosenLang !== FOLLOW_TABLE ? app.chosenLang : browserLang();
}

/* Loading a language's strings is a fetch, and the wanted language can change while it runs (a
 * state naming the table's new language): a load no longer wanted is not shown, so the language
 * last wanted wins whatever order the fetches end in (on a slow network the page stayed in the
 * one wanted before). */
async function applyLang() {
  let want = wantedLang();
  while (want !== lang()) {
    let loaded;
    try {
      loaded = await loadLang(want);
    } catch {
      toast(t("error.strings"));
      return;
    }
    const now = wantedLang();
    if (now === want) {
      setLang(loaded);
      return;
    }
    want = now;
  }
}

/** @param {string | null} code a language, or null: follow the table */
async function chooseLang(code) {
  app.chosenLang = code ?? FOLLOW_TABLE;
  localStorage.setItem(LANG_KEY, app.chosenLang);
  if (app.page === Page.SEAT) app.conn?.send("set_lang", { lang: wantedLang() });
  await applyLang();
  render();
}

// ------------------------------------------------------------------------------ connection
function helloFields() {
  const last = Number(localStorage.getItem(lastVersionKey()));
  const fields = /** @type {Record<string, any>} */ ({});
  if (Number.isInteger(last) && last > 0) fields.last_version = last;
  if (app.page === Page.SEAT) {
    fields.token = (app.token && deviceKey(app.token)) ?? app.token;
    const own = ownLang();
    if (own) fields.lang = own;
    if (app.claimName) fields.name = app.claimName;
  } else if (app.page === Page.WATCH) {
    fields.role = "spectator";
  } else {
    fields.role = "host";
    fields.pin = app.pin;
    const staff = localStorage.getItem(STAFF_KEY);
    if (staff) fields.token = staff;
  }
  return fields;
}

function connect() {
  const conn = new Connection(helloFields);
  conn.addEventListener("message", (ev) => onMessage(/** @type {CustomEvent} */ (ev).detail));
  conn.addEventListener("status", (ev) => onStatus(/** @type {CustomEvent} */ (ev).detail.status));
  app.conn = conn;
  conn.start();
}

/** @param {string} status */
function onStatus(status) {
  if (app.bannerTimer) clearTimeout(app.bannerTimer);
  app.bannerTimer = null;
  if (status === Status.OFFLINE) {
    app.pending = false;
    app.bannerTimer = setTimeout(() => banner(t("status.offline")), OFFLINE_BANNER_DELAY_MS);
  } else {
    banner(null);
  }
  if (status === Status.NEW_GROUP) app.state = null; // the last group's hand and names leave the phone too
  if (status === Status.TAKEN_OVER || status === Status.KICKED || status === Status.REJECTED || status === Status.NEW_GROUP) keepAwake(false);
  document.body.dataset.status = status;
  render();
}

/** @param {any} msg */
async function onMessage(msg) {
  switch (msg.kind) {
    case "welcome": return onWelcome(msg);
    case "state": return onState(msg);
    case "error": return onError(msg);
    case "notice": return onNotice(msg);
    case "claim": return onClaim(msg);
    default: return app.game?.onMessage?.(msg); // e.g. a race's press_result, for the game's screen
  }
}

/** @param {any} msg */
async function onWelcome(msg) {
  app.welcome = msg;
  app.claim = null;
  app.claimName = null;
  app.consent = null; // a request from before the reconnect may be gone; the table asks again for those still waiting
  if (app.page === Page.SEAT && typeof msg.token === "string") {
    // The seat's own key stays on this phone (storage), never in the address bar: the address
    // shows the seat's link, which on any other phone only asks the host.
    if (typeof msg.link === "string" && msg.link) app.token = msg.link;
    if (app.token) keepDeviceKey(app.token, msg.token);
    history.replaceState(null, "", `/s/${app.token}`);
    localStorage.setItem(SEAT_KEY, `/s/${app.token}`);
  }
  let pin = msg.lang !== wantedLang();
  if (!app.joinLang && isLang(msg.lang)) {
    app.joinLang = msg.lang; // this phone's default from now on, whatever the TV switches to later
    sessionStorage.setItem(JOIN_LANG_KEY, msg.lang);
    pin = !ownLang();
  }
  // The table keeps each seat's language (by default the table's when the seat was taken), so the
  // TV switching language later changes neither this phone nor what the table sends it.
  if (app.page === Page.SEAT && pin) app.conn?.send("set_lang", { lang: wantedLang() });
  if (app.page === Page.HOST) {
    app.pinError = null;
    if (app.pin) sessionStorage.setItem(PIN_KEY, app.pin);
    if (typeof msg.staff_key === "string" && msg.staff_key) localStorage.setItem(STAFF_KEY, msg.staff_key);
  }
  await applyLang();
}

/** A held seat: this phone waits for the host, or (seated) another phone asks for this seat. @param {any} msg */
function onClaim(msg) {
  if (!app.welcome) {
    app.claim = msg;
    render();
  } else if (msg.state === "asked") {
    if (app.consent?.claim !== msg.claim) buzz(200);
    app.consent = msg;
    render();
  } else if (msg.state === "closed" && app.consent?.claim === msg.claim) {
    app.consent = null;
    render();
  }
}

/** The seated phone gives its seat to the phone asking (a deliberate hold on the consent screen). @param {number} claim */
function giveSeat(claim) {
  if (!app.conn?.send("give_seat", { claim })) toast(t("status.offline"));
}

/** The game's page, with a card above it for each seated phone gone long enough for this one to free. @param {Node} page @param {number} seat */
function withAway(page, seat) {
  const cards = awayCards(app.state?.lobby, seat, freeAway);
  return cards.length ? h("div", { class: "with-away" }, ...cards, page) : page;
}

/** This phone agrees to free a seat whose phone left (``free_away``). @param {number} seat */
function freeAway(seat) {
  if (!app.conn?.send("free_away", { seat })) toast(t("status.offline"));
}

function keepSeat() {
  app.consent = null;
  render();
}

/** @param {StateMsg} msg */
async function onState(msg) {
  const previous = app.state;
  app.state = msg;
  app.pending = false;
  localStorage.setItem(lastVersionKey(), String(msg.version));
  app.deadline = localDeadline(msg.timer);
  const game = await loadGame(msg.phone); // the game's module as the table names it; cached
  if (app.state !== msg) return; // a newer state arrived while the game module loaded
  app.game = game;
  keepAwake(app.page === Page.SEAT && msg.phase === "playing");
  if (previous && previous.phase !== msg.phase && msg.phase === "playing") buzz(120);
  if (msg.event_seq !== previous?.event_seq && msg.events?.some((e) => game.buzzOn?.includes(e.type))) buzz(60);
  await applyLang();
  render();
}

/** The table timer's deadline on this phone's clock. @param {any} timer */
function localDeadline(timer) {
  if (!timer) return null;
  const serverNow = app.conn?.serverNow();
  if (serverNow != null && typeof timer.deadline_ms === "number") {
    return performance.now() + Math.min(timer.duration_ms ?? Infinity, timer.deadline_ms - serverNow);
  }
  return performance.now() + Number(timer.remaining_ms ?? 0);
}

/** @param {{code: string, message?: string, table_lang?: string}} msg */
function onError(msg) {
  app.pending = false;
  if (msg.code === "bad_pin") {
    app.pinError = "host.bad_pin";
    app.pin = null;
    sessionStorage.removeItem(PIN_KEY);
    render();
    return;
  }
  // A takeover, a dead seat link or a full gallery is shown from the close code that follows.
  if (msg.code === "gallery_full" && typeof msg.table_lang === "string") {
    app.refusedLang = msg.table_lang;
    applyLang().then(render);
  }
  if (msg.code === "claim_refused") app.farewell = "refused";
  // An old link of the last group (new_group) is shown from its close code too, with no toast under it.
  if (msg.code === "taken_over" || msg.code === "claim_refused" || msg.code === "gallery_full" || msg.code === "new_group" || (msg.code === "unknown_seat" && !app.welcome)) return;
  if (msg.code === "stale_state") {
    toast(t("error.stale_state"), "info");
    return;
  }
  toast(errorText(msg));
  render();
}

/** A refusal in the page's language: exactly what was refused and why when the error says
 *  ("The score pad refused 1200: points go from 0 to 999"), else what kind of error it was.
 *  @param {{code: string, reason?: string} & Record<string, any>} msg */
function errorText(msg) {
  const exact = msg.reason ? `error.${msg.code}.${msg.reason}` : "";
  if (exact && has(exact)) return t(exact, msg);
  return has(`error.${msg.code}`) ? t(`error.${msg.code}`) : t("error.unknown");
}

/** @param {{code: string}} msg */
function onNotice(msg) {
  if (msg.code === "new_table") localStorage.removeItem(lastVersionKey());
  if (msg.code === "seat_moved") app.farewell = "moved";
  if (msg.code === "seat_given") app.farewell = "given";
  if (msg.code === "table_reset") toast(t("notice.table_reset"), "info");
  if (msg.code === "game_finished") buzz(200);
}

/** @param {number} ms */
function buzz(ms) {
  // Browsers allow vibration only after the player has touched the page.
  if (app.page === Page.SEAT && "vibrate" in navigator && navigator.userActivation?.hasBeenActive) navigator.vibrate(ms);
}

// ------------------------------------------------------------------------------ actions
/** @param {Record<string, any>} action */
function act(action) {
  if (!app.state || !app.conn) return;
  if (!app.conn.send("action", { action, version: app.state.version })) {
    toast(t("status.offline"));
    return;
  }
  app.pending = true;
  render();
}

/** Any other message for the table (a game's race press). @param {string} kind @param {Record<string, any>} [fields] */
function send(kind, fields = {}) {
  return app.conn?.send(kind, fields) ?? false;
}

/** @param {string} name */
function sendName(name) {
  app.renaming = false;
  if (!app.conn?.send("set_name", { name })) toast(t("status.offline"));
  render();
}

/** A host command; its fields travel in "args" (docs/protocol.md). @param {string} command @param {Record<string, any>} [args] */
function host(command, args = {}) {
  if (!app.conn?.send("host", { command, args })) toast(t("status.offline"));
}

// ------------------------------------------------------------------------------ drawing
function mySeat() {
  const seat = app.welcome?.seat;
  return app.state?.lobby?.seats?.find((s) => s.seat === seat) ?? null;
}

/** The top bar; its name (the seat's, else the page's) is the page's heading when the screen below has none.
 * @param {boolean} heading */
function topbar(heading) {
  const me = app.page === Page.SEAT ? mySeat() : null;
  const status = app.conn?.status ?? Status.CONNECTING;
  const tag = heading ? "h1" : "span";
  const left = me
    ? h("div", { class: "who" }, seatToken(me.symbol, me.colour, 32), h(tag, { class: "who-name", dir: "auto" }, h("bdi", { text: seatName(me) })))
    : h("div", { class: "who" }, h("span", { class: "brand-bar small", "aria-hidden": "true" }),
      h(tag, { class: "who-name", text: app.page === Page.WATCH ? t("watch.title") : app.page === Page.HOST ? t("host.title") : t("app.title") }));
  const connected = app.conn !== null;
  return [left,
    connected && h("span", { class: `dot dot-${status}`, title: t(`status.${status}`), "aria-label": t(`status.${status}`), role: "img" }),
    h("button", {
      class: "lang-btn", type: "button", "aria-label": t("lang.title"), "data-testid": "lang-btn",
      onclick: () => openLanguageSheet(app.chosenLang === FOLLOW_TABLE ? null : app.chosenLang ?? lang(), chooseLang),
    }, t(`lang.short.${lang()}`))];
}

function render() {
  const main = /** @type {HTMLElement} */ (document.getElementById("main"));
  const bar = /** @type {HTMLElement} */ (document.getElementById("topbar"));
  const { key, draw } = screen();
  // A field being typed in is not redrawn by a state from the table (it would lose the text):
  // forms wait for good, other screens (the host's settings) until the field loses focus.
  const heading = () => topbar(main.querySelector("h1") === null);
  if (key === app.screenKey && (key.startsWith("form:") || typingIn(main))) {
    replace(bar, ...heading());
    if (!key.startsWith("form:") && !app.deferred) {
      app.deferred = true;
      main.addEventListener("focusout", () => { app.deferred = false; setTimeout(render, 0); }, { once: true });
    }
    return;
  }
  app.screenKey = key;
  const scroll = window.scrollY;
  replace(main, draw());
  replace(bar, ...heading());
  main.dataset.screen = key.split(":")[0];
  window.scrollTo(0, scroll);
}

/** @param {HTMLElement} main */
function typingIn(main) {
  const el = document.activeElement;
  return el instanceof HTMLInputElement && el.type !== "checkbox" && main.contains(el);
}

/** @returns {{key: string, draw: () => Node}} */
function screen() {
  const status = app.conn?.status;
  if (app.page === Page.JOIN) {
    const err = new URLSearchParams(location.search).get("error");
    return { key: `form:code:${lang()}`, draw: () => codeForm(err === "unknown_code" ? "join.unknown_code" : err ? "join.network" : null) };
  }
  if (app.farewell && (status === Status.TAKEN_OVER || status === Status.REJECTED)) {
    const word = app.farewell;
    return { key: word, draw: () => fullMessage(t(`${word}.title`), t(`${word}.body`), joinLink()) };
  }
  if (status === Status.TAKEN_OVER) return { key: "taken", draw: takenOver };
  if (status === Status.GALLERY_FULL) return { key: "gallery_full", draw: galleryFull };
  if (status === Status.KICKED) {
    // mid-game the big screen shows no codes: the seat's new code is on the host's console
    const body = app.state?.lobby?.phase === "lobby" ? "kicked.body" : "kicked.body_playing";
    return { key: `kicked:${body}`, draw: () => fullMessage(t("kicked.title"), t(body), joinLink()) };
  }
  if (status === Status.NEW_GROUP) return { key: "new_group", draw: () => fullMessage(t("new_group.title"), t("new_group.body"), joinLink()) };
  if (status === Status.REJECTED && app.page === Page.SEAT) return { key: "rejected", draw: () => fullMessage(t("rejected.title"), t("rejected.body"), joinLink()) };
  if (app.page === Page.HOST && (!app.pin || status === Status.REJECTED)) {
    return { key: `form:pin:${lang()}:${app.pinError}`, draw: () => pinForm(app.pinError, submitPin) };
  }
  if (app.claim && !app.welcome) return claimScreen(app.claim);
  if (!app.welcome || !app.state) return { key: "boot", draw: () => h("div", { class: "boot" }, h("div", { class: "spinner", "aria-hidden": "true" }), h("p", { class: "muted", text: t("status.connecting") })) };
  if (app.page === Page.HOST) return { key: "host", draw: () => hostConsole(app.state, host, hostTable(), app.game) };
  if (app.page === Page.WATCH) return { key: "watch", draw: drawWatch };
  const me = mySeat();
  if (!me) return { key: "boot", draw: () => h("div", { class: "boot" }, h("div", { class: "spinner", "aria-hidden": "true" })) };
  const consent = app.consent;
  if (consent) return { key: `form:consent:${consent.claim}:${lang()}`, draw: () => consentScreen(consent, giveSeat, keepSeat) };
  if (app.renaming || !me.name?.trim()) {
    const others = (app.state.lobby?.seats ?? []).filter((s) => s.seat !== me.seat).map((s) => s.name ?? "");
    return { key: `form:name:${lang()}`, draw: () => nameForm(me, me.name ?? "", sendName, me.name?.trim() ? () => { app.renaming = false; render(); } : null, null, others) };
  }
  if (app.state.phase === "lobby" || !app.state.view) {
    return { key: "lobby", draw: () => seatLobby(app.state?.lobby, me, () => { app.renaming = true; render(); }, () => host("skip_intro"), app.game) };
  }
  const seat = app.welcome.seat;
  if (app.state.look) { // the TV is telling what just happened: this phone waits rather than spoil it
    const next = (app.state.legal ?? []).length > 0;
    return { key: `look:${next}`, draw: () => withAway(lookCard(next), seat) };
  }
  return { key: `game:${app.state.game}`, draw: () => (app.game ? withAway(app.game.renderSeat(gameContext(seat)), seat) : h("div")) };
}

/** @param {number | null} seat */
function gameContext(seat) {
  const st = /** @type {StateMsg} */ (app.state);
  const timer = st.timer && app.deadline !== null
    ? countdown(app.deadline, st.timer.duration_ms ?? 0, has(`timer.${st.timer.label}`) ? t(`timer.${st.timer.label}`) : "")
    : null;
  return {
    view: st.view, legal: st.legal ?? [], seat, seats: st.lobby?.seats ?? [], events: st.events ?? [], arcade: st.lobby?.arcade ?? null,
    timer, timerLabel: st.timer?.label ?? null, act, send, pending: app.pending, rerender: () => render(),
  };
}

/** The game on the host console: the module's referee panel (the table's own actions), else the public view. */
function hostTable() {
  const st = app.state;
  if (!st?.view || !app.game) return null;
  if (st.look) return lookCard(false);
  if (!app.game.renderHost) return app.game.renderPublic(gameContext(null));
  const act = (/** @type {any} */ action) => host("table_action", { action });
  return app.game.renderHost({ ...gameContext(null), legal: st.table_legal ?? [], act });
}

function drawWatch() {
  const st = /** @type {StateMsg} */ (app.state);
  if (st.phase === "lobby" || !st.view || !app.game) {
    return h("div", { class: "lobby" },
      h("div", { class: "waiting" }, h("span", { class: "pulse", "aria-hidden": "true" }), t("watch.lobby")),
      h("p", { class: "muted center" }, t("watch.join_hint"), " ", h("a", { class: "link", href: "/join", text: t("join.title") })),
      h("section", { class: "card" }, h("h2", { class: "card-title", text: t("lobby.players", { n: st.lobby.seats.filter((s) => s.status !== "free").length, total: st.lobby.seat_count }) }), seatList(st.lobby.seats, null)),
      gameNote(st.lobby, app.game),
      gameSummary(st.lobby));
  }
  if (st.look) return lookCard(false);
  return app.game.renderPublic(gameContext(null));
}

/** A held seat (waiting for the host) or a bot's seat (a name first). @param {any} claim @returns {{key: string, draw: () => Node}} */
function claimScreen(claim) {
  if (claim.state === "waiting") return { key: `claim:${lang()}`, draw: () => askingHost(claim.seat) };
  const takeOver = (/** @type {string} */ name) => { app.claimName = name; app.claim = null; app.conn?.restart(); render(); };
  return { key: `form:claim:${lang()}`, draw: () => nameForm(claim.seat, "", takeOver, null, t("claim.bot_body")) };
}

function takenOver() {
  return fullMessage(t("taken.title"), t("taken.body"),
    h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "use-here", onclick: () => app.conn?.restart(), text: t("taken.use_here") }));
}

function galleryFull() {
  return fullMessage(t("gallery.title"), t("gallery.body"),
    h("button", { class: "btn btn-primary btn-big", type: "button", "data-testid": "gallery-retry", onclick: () => app.conn?.restart(), text: t("gallery.retry") }));
}

function joinLink() {
  return h("a", { class: "btn btn-ghost btn-big", href: "/join", text: t("join.title") });
}

/** @param {string} pin */
function submitPin(pin) {
  app.pin = pin;
  app.pinError = null;
  if (app.conn) app.conn.restart();
  else connect();
  render();
}

// ------------------------------------------------------------------------------ start
async function boot() {
  try {
    setLang(await loadLang(wantedLang()));
  } catch {
    replace(/** @type {HTMLElement} */ (document.getElementById("main")), fullMessage("Tabletop", "The table could not be reached. Reload to try again."));
    return;
  }
  if (app.page === Page.SEAT && !app.token) app.page = Page.JOIN;
  if (app.page === Page.JOIN || (app.page === Page.HOST && !app.pin)) {
    render();
    return;
  }
  connect();
  render();
}

window.addEventListener("error", (e) => { console.error(e.error ?? e.message); });
window.addEventListener("unhandledrejection", (e) => { console.error(e.reason); });
boot();
