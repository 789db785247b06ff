// Joining: the short typed code (/join), and picking a name (remembered on this phone).
import { h } from "../dom.js";
import { t } from "../i18n.js";
import { seatToken } from "../symbols.js";

export const NAME_KEY = "tabletop.name";
export const SEAT_KEY = "tabletop.seat";
const CODE_ALPHABET = /[^ACDEFHJKMNPRTWXY]/g;
const CODE_LENGTH = 4;
const NAME_MAX = 24;

/** The code form. @param {string | null} initialError i18n key */
export function codeForm(initialError) {
  const message = h("p", { class: "form-error", role: "alert", text: initialError ? t(initialError) : "" });
  const input = /** @type {HTMLInputElement} */ (h("input", {
    class: "code-input", id: "code", name: "code", inputmode: "text", autocomplete: "off", autocapitalize: "characters",
    spellcheck: "false", maxlength: String(CODE_LENGTH), placeholder: "····", "aria-describedby": "code-hint", dir: "ltr",
    "data-testid": "code-input",
  }));
  input.addEventListener("input", () => {
    input.value = input.value.toUpperCase().replace(CODE_ALPHABET, "").slice(0, CODE_LENGTH);
    message.textContent = "";
  });
  const button = /** @type {HTMLButtonElement} */ (h("button", { class: "btn btn-primary btn-big", type: "submit", "data-testid": "code-go", text: t("join.go") }));
  const form = h("form", {
    class: "join-form", onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      const code = input.value;
      if (code.length !== CODE_LENGTH) {
        message.textContent = t("join.code_short");
        input.focus();
        return;
      }
      button.disabled = true;
      message.textContent = await lookUp(code);
      button.disabled = false;
    },
  },
  h("label", { for: "code", class: "label", text: t("join.code_label") }),
  input,
  h("p", { id: "code-hint", class: "muted", text: t("join.code_hint") }),
  message,
  button);
  const previous = localStorage.getItem(SEAT_KEY);
  return h("div", { class: "join" },
    h("div", { class: "brand" }, h("span", { class: "brand-bar", "aria-hidden": "true" }), h("h1", { text: t("join.title") })),
    form,
    previous ? h("a", { class: "btn btn-ghost btn-big", href: previous, "data-testid": "back-to-seat", text: t("join.back_to_seat") }) : null,
    h("a", { class: "link center", href: "/watch", text: t("join.watch") }));
}

/** Ask the table for the seat link of a code; navigates there, or returns a message. @param {string} code */
async function lookUp(code) {
  try {
    const res = await fetch(`/api/join/${encodeURIComponent(code)}`, { cache: "no-store" });
    if (res.status === 429) return t("join.rate_limited");
    if (!res.ok) return t("join.unknown_code");
    const body = await res.json();
    if (typeof body?.url !== "string" || !body.url.startsWith("/s/")) return t("join.unknown_code");
    location.assign(body.url);
    return "";
  } catch {
    return t("join.network");
  }
}

/**
 * Pick a name. @param {import("../ui.js").LobbySeat} seat @param {string} current
 * @param {(name: string) => void} onName @param {(() => void) | null} onCancel
 */
export function nameForm(seat, current, onName, onCancel) {
  const input = /** @type {HTMLInputElement} */ (h("input", {
    class: "name-input", id: "name", name: "name", autocomplete: "nickname", maxlength: String(NAME_MAX), dir: "auto",
    enterkeyhint: "done", placeholder: t("name.placeholder"), "data-testid": "name-input",
  }));
  input.value = current || localStorage.getItem(NAME_KEY) || "";
  const message = h("p", { class: "form-error", role: "alert" });
  const form = h("form", {
    class: "join-form", onsubmit: (/** @type {Event} */ e) => {
      e.preventDefault();
      const name = cleanName(input.value);
      if (!name) {
        message.textContent = t("name.empty");
        input.focus();
        return;
      }
      localStorage.setItem(NAME_KEY, name);
      onName(name);
    },
  },
  h("label", { for: "name", class: "label", text: t("name.title") }),
  input,
  message,
  h("button", { class: "btn btn-primary btn-big", type: "submit", "data-testid": "name-go", text: t("name.go") }),
  onCancel ? h("button", { class: "btn btn-ghost", type: "button", onclick: onCancel, text: t("common.cancel") }) : null);
  const el = h("div", { class: "join" },
    h("div", { class: "me-card small", style: { "--seat": seat.colour } }, seatToken(seat.symbol, seat.colour, 64),
      h("div", { class: "me-text" }, h("div", { class: "muted", text: t("lobby.you_are") }),
        h("div", { class: "me-colour", text: t("lobby.seat_colour", { colour: t(`colour.${seat.colour_name}`), symbol: t(`symbol.${seat.symbol}`) }) }))),
    form);
  queueMicrotask(() => input.focus());
  return el;
}

/** Trim, collapse spaces, drop control characters, at most 24 characters. @param {string} raw */
export function cleanName(raw) {
  return Array.from(raw.replace(/[\u0000-\u001f\u007f-\u009f]/g, "").replace(/\s+/g, " ").trim()).slice(0, NAME_MAX).join("");
}
