// Tiny DOM helpers: build elements without innerHTML (no markup injection from names or views).

/** @typedef {Record<string, any>} Attrs */
/** @typedef {Node | string | null | undefined | false} Child what h() appends: nothing for null, undefined, false */

/**
 * Create an element. `attrs` keys: `class`, `text`, `on<Event>` handlers, `dataset`, `style`,
 * `hidden`, `disabled`, ARIA and any other attribute.
 * @param {string} tag
 * @param {Attrs | null} [attrs]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  if (attrs) applyAttrs(el, attrs);
  appendAll(el, children);
  return el;
}

/** @param {HTMLElement} el @param {Attrs} attrs */
function applyAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = String(value);
    else if (key === "text") el.textContent = String(value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "style" && typeof value === "object") setStyles(el, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
}

/** Inline styles; custom properties ("--seat") need setProperty. @param {HTMLElement} el @param {Record<string, string>} styles */
function setStyles(el, styles) {
  for (const [name, value] of Object.entries(styles)) {
    if (name.startsWith("--")) el.style.setProperty(name, value);
    else el.style[/** @type {any} */ (name)] = value;
  }
}

/** @param {Node} el @param {any[]} children */
function appendAll(el, children) {
  for (const child of children.flat(3)) {
    if (child === null || child === undefined || child === false) continue;
    el.appendChild(typeof child === "string" || typeof child === "number" ? document.createTextNode(String(child)) : child);
  }
}

/** Replace all children of `el`. @param {HTMLElement} el @param {...any} children */
export function replace(el, ...children) {
  el.replaceChildren();
  appendAll(el, children);
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** Create an SVG element with attributes. @param {string} tag @param {Record<string, string | number>} [attrs] @param {...SVGElement} children */
export function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  for (const child of children) el.appendChild(child);
  return el;
}

/** Wrap text so its direction is isolated (a Latin name inside Persian text, or the reverse). @param {string} text */
export function bidi(text) {
  return h("bdi", null, text);
}

const LONG_WORD = 8; // graphemes: a longer word in a name does not fit half a 320-390 px phone beside its token

/**
 * A grid of cards to tap: two columns, or one when a name on a card holds a word too long for half
 * the phone, so the name wraps between its words and is read whole ("Maximiliana Worthingtons",
 * never "Maximilia… / Worthing…"); a word is never broken or cut.
 * @param {...(Child | Child[])} cards
 * @returns {HTMLElement}
 */
export function voteGrid(...cards) {
  const grid = h("div", { class: "vote-grid" }, ...cards);
  const names = [...grid.querySelectorAll("bdi")];
  const key = `${innerWidth}|${names.map((n) => n.textContent).join("|")}`;
  const words = new Intl.Segmenter(undefined, { granularity: "word" });
  const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const long = names.some((name) => [...words.segment(name.textContent ?? "")]
    .some((w) => w.isWordLike && [...graphemes.segment(w.segment)].length > LONG_WORD));
  grid.dataset.names = key;
  if (long || WIDE.has(key)) grid.classList.add("vote-grid-wide");
  else requestAnimationFrame(() => fitGrid(grid));
  return grid;
}

/** Name sets (at a window width) whose two-column grid cut a name. @type {Set<string>} */
const WIDE = new Set();

/**
 * Counting letters misses a short word in a wide script (Persian "محمدرضا" is 7 letters): once laid
 * out, a grid whose card cuts a name becomes one card a row, remembered for these names at this width.
 * @param {HTMLElement} grid
 */
function fitGrid(grid) {
  if (!grid.isConnected || grid.classList.contains("vote-grid-wide")) return;
  const cut = [...grid.querySelectorAll("bdi")].some((n) => n.scrollWidth > n.clientWidth + 1);
  if (!cut) return;
  WIDE.add(`${innerWidth}|${grid.dataset.names?.split("|").slice(1).join("|")}`);
  grid.classList.add("vote-grid-wide");
}

// a phone turned, a window narrowed: the grids on screen are measured again
if (typeof window !== "undefined") {
  window.addEventListener("resize", () => document.querySelectorAll(".vote-grid").forEach((g) => fitGrid(/** @type {HTMLElement} */ (g))));
}
