// A secret face down: what only this player may see (an identity, the values of one's gold,
// a hand of cards) stays covered until they look, like the boxed games' "look at your card and
// put it face down". Tap the cover to look (touch, mouse, or Enter/Space: it is a real button); tap
// "Put face down" to cover it again. It also turns face down by itself when the phone is put away
// (the page is hidden) or left untouched for IDLE_MS, so a phone lying on the table shows nothing.
// What the player acts on stays usable: the secret's own buttons (a hand's cards) work while it is
// shown, and a redraw from the table keeps it shown.
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { icon } from "./icons.js";

const IDLE_MS = 20_000;

/** Ids of the secrets being looked at now (kept across redraws). @type {Set<string>} */
const shown = new Set();
/** @type {ReturnType<typeof setTimeout> | null} */
let idleTimer = null;

/** @typedef {import("./dom.js").Child} Child */
/**
 * @typedef {{
 *   title: string,                // the card's title, always shown ("Your hand")
 *   body: () => Child | Child[],  // the secret itself, built only while shown
 *   hint?: string | null,         // a line on the cover ("Your turn: look at your hand to play")
 *   testid: string,               // the section's data-testid; the cover is `${testid}-peek`, the hide button `${testid}-hide`
 *   className?: string,
 * }} SecretSpec
 */

/** A secret card, face down unless its player is looking. @param {string} id @param {SecretSpec} spec */
export function secret(id, spec) {
  const el = h("section", { class: `card secret ${spec.className ?? ""}`, "data-testid": spec.testid, "data-secret": id });
  fill(el, id, spec);
  return el;
}

/** @param {HTMLElement} el @param {string} id @param {SecretSpec} spec */
function fill(el, id, spec) {
  const open = shown.has(id);
  const bodyId = `secret-${id}`;
  el.classList.toggle("secret-open", open);
  el.dataset.shown = String(open);
  const flip = (/** @type {boolean} */ show) => {
    if (show) shown.add(id);
    else shown.delete(id);
    armIdle();
    fill(el, id, spec);
    /** @type {HTMLElement | null} */ (el.querySelector(show ? ".secret-hide" : ".secret-cover"))?.focus();
  };
  // Redrawn by hideAll() without the game's help, so it remembers how to draw itself.
  /** @type {any} */ (el).secretRefill = () => fill(el, id, spec);
  if (!open) {
    el.replaceChildren(
      h("h2", { class: "card-title", text: spec.title }),
      h("button", {
        class: "secret-cover", type: "button", "aria-expanded": "false", "aria-controls": bodyId,
        "data-testid": `${spec.testid}-peek`, onclick: () => flip(true),
      }, icon("eye", 28), h("span", { class: "secret-cover-text", text: t("secret.look") }),
      spec.hint ? h("small", { class: "secret-cover-hint", text: spec.hint }) : null));
    return;
  }
  el.replaceChildren(
    h("div", { class: "secret-head" },
      h("h2", { class: "card-title", text: spec.title }),
      h("button", {
        class: "btn btn-ghost btn-small secret-hide", type: "button", "aria-expanded": "true", "aria-controls": bodyId,
        "data-testid": `${spec.testid}-hide`, onclick: () => flip(false),
      }, icon("eyeOff", 18), t("secret.hide"))),
    h("div", { class: "secret-body", id: bodyId }, spec.body()));
}

/** Cover every secret on the page. */
export function hideAll() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (shown.size === 0) return;
  shown.clear();
  for (const el of document.querySelectorAll("[data-secret]")) /** @type {any} */ (el).secretRefill?.();
}

function armIdle() {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = shown.size ? setTimeout(hideAll, IDLE_MS) : null;
}

// Any touch or key keeps a shown secret shown; putting the phone away covers it.
for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, () => { if (shown.size) armIdle(); }, { capture: true, passive: true });
document.addEventListener("visibilitychange", () => { if (document.hidden) hideAll(); });
window.addEventListener("pagehide", hideAll);
