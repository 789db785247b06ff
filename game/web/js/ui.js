// Shared widgets: toasts, the connection banner, countdowns, seat chips, the language sheet.
import { h } from "./dom.js";
import { clock, t, LANGS } from "./i18n.js";
import { seatToken } from "./symbols.js";
import { icon } from "./icons.js";

const TOAST_MS = 4200;

/** Show a short message at the bottom; errors in clear words, never a crash. @param {string} text @param {"error"|"info"|"ok"} [tone] */
export function toast(text, tone = "error") {
  const box = document.getElementById("toasts");
  if (!box) return;
  const item = h("div", { class: `toast toast-${tone}`, text });
  box.appendChild(item);
  while (box.children.length > 3) box.firstElementChild?.remove();
  setTimeout(() => {
    item.classList.add("toast-out");
    setTimeout(() => item.remove(), 300);
  }, TOAST_MS);
}

/** The top banner ("offline — reconnecting…"); null hides it. @param {string | null} text */
export function banner(text) {
  const el = document.getElementById("banner");
  if (!el) return;
  el.hidden = text === null;
  el.textContent = text ?? "";
}

// ------------------------------------------------------------------------------ countdowns
/**
 * A countdown that updates by itself: `deadline` is on performance.now()'s clock.
 * @param {number} deadline @param {number} durationMs @param {string} label
 */
export function countdown(deadline, durationMs, label) {
  const text = h("span", { class: "countdown-text", dataset: { deadline: String(deadline) } });
  const bar = h("span", { class: "countdown-fill", dataset: { deadline: String(deadline), duration: String(durationMs) } });
  const el = h("div", { class: "countdown", role: "timer", "aria-label": label },
    h("span", { class: "countdown-label", text: label }), text, h("span", { class: "countdown-bar" }, bar));
  paint(el);
  return el;
}

/** @param {ParentNode} [root] */
function paint(root = document) {
  const now = performance.now();
  for (const el of root.querySelectorAll(".countdown-text")) {
    const left = Number(/** @type {HTMLElement} */ (el).dataset.deadline) - now;
    el.textContent = clock(left);
    el.closest(".countdown")?.classList.toggle("urgent", left < 10500 && left > 0);
  }
  for (const el of root.querySelectorAll(".countdown-fill")) {
    const d = /** @type {HTMLElement} */ (el).dataset;
    const left = Number(d.deadline) - now;
    const frac = Math.max(0, Math.min(1, left / Math.max(1, Number(d.duration))));
    /** @type {HTMLElement} */ (el).style.transform = `scaleX(${frac})`;
  }
}

setInterval(() => paint(), 250);

// ------------------------------------------------------------------------------ seats
/**
 * @typedef {{seat: number, status?: string, name?: string, colour: string, colour_name: string,
 *   symbol: string, connected?: boolean, lang?: string, bot?: string | null, named?: boolean}} LobbySeat
 */

/** The name to show for a seat: a player's own name, else its colour in this phone's language
 *  ("Orange" on an English phone at a Persian table, not "نارنجی"): a bot is named after its colour
 *  (the table sends ``named: false`` for a name that is only that). @param {LobbySeat | undefined} s */
export function seatName(s) {
  if (!s) return "?";
  if (s.name && s.name.trim() && s.named !== false) return s.name;
  return t(`colour.${s.colour_name}`);
}

/** A small robot beside a bot's name (its name alone could be anyone's). @param {LobbySeat | undefined} s */
export function botMark(s) {
  return s?.bot ? h("span", { class: "bot-mark", role: "img", "aria-label": t("lobby.bot"), title: t("lobby.bot") }, icon("bot", 16)) : null;
}

/** A seat chip: token + name, direction-isolated. @param {LobbySeat | undefined} s @param {{size?: number, you?: boolean}} [opts] */
export function seatChip(s, opts = {}) {
  if (!s) return h("span", { class: "chip", text: "?" });
  return h("span", { class: "chip", style: { "--seat": s.colour } },
    seatToken(s.symbol, s.colour, opts.size ?? 22),
    h("bdi", { class: "chip-name", text: seatName(s) }), botMark(s),
    opts.you ? h("span", { class: "chip-you", text: t("common.you") }) : null);
}

/** Just the name, isolated, in the seat's colour. @param {LobbySeat | undefined} s */
export function seatNameNode(s) {
  return h("bdi", { class: "seat-name", style: { "--seat": s?.colour ?? "#ccc" } }, seatName(s), botMark(s));
}

// ------------------------------------------------------------------------------ language sheet
/**
 * A bottom sheet to pick this phone's language (null: follow the table's).
 * @param {string | null} chosen @param {(lang: string | null) => void} onPick
 */
export function openLanguageSheet(chosen, onPick) {
  const close = () => sheet.remove();
  const option = (/** @type {string | null} */ code, /** @type {string} */ label) =>
    h("button", {
      class: `sheet-option${code === chosen ? " selected" : ""}`, type: "button", lang: code ?? undefined,
      onclick: () => { close(); onPick(code); },
    }, label);
  const sheet = h("div", { class: "sheet-backdrop", onclick: (/** @type {Event} */ e) => { if (e.target === sheet) close(); } },
    h("div", { class: "sheet", role: "dialog", "aria-modal": "true", "aria-label": t("lang.title") },
      h("h2", { text: t("lang.title") }),
      ...LANGS.map((code) => option(code, t(`lang.${code}`))),
      option(null, t("lang.follow_table")),
      h("button", { class: "btn btn-ghost", type: "button", onclick: close, text: t("common.close") })));
  document.body.appendChild(sheet);
  /** @type {HTMLElement | null} */ (sheet.querySelector(".sheet-option.selected") ?? sheet.querySelector(".sheet-option"))?.focus();
}

/**
 * A field for a whole number (points, a total): numeric keypad, always left-to-right and without the
 * code field's letter spacing, so "-3" reads as one number inside a Persian page, never "3 -".
 * @param {string} testid @param {Record<string, any>} [attrs]
 */
export function numberInput(testid, attrs = {}) {
  return /** @type {HTMLInputElement} */ (h("input", {
    class: "code-input number-input", type: "text", inputmode: "numeric", autocomplete: "off", dir: "ltr", "data-testid": testid, ...attrs,
  }));
}

/** A titled card section. @param {string | null} title @param {...any} children */
export function card(title, ...children) {
  return h("section", { class: "card" }, title ? h("h2", { class: "card-title", text: title }) : null, ...children);
}

/** A centred full-screen message. @param {string} title @param {string} body @param {...any} actions */
export function fullMessage(title, body, ...actions) {
  return h("div", { class: "full-message" },
    h("h1", { text: title }), body ? h("p", { text: body }) : null, h("div", { class: "actions" }, ...actions));
}

