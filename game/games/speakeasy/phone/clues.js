// The built-in clue decks (en, fa, th) are line-aligned: a clue id names the same clue in every
// language. A phone shows the clue on the table in its own language (the big screen in the table's),
// fetched once per language from /games/speakeasy/clues_<lang>.json; a table's own deck is shown as it is.
import { isLang, lang } from "../i18n.js";

/** @type {Map<string, string[] | null>} null: being fetched (or failed) */
const decks = new Map();

/** @param {string} code @param {() => void} onLoad */
function fetchDeck(code, onLoad) {
  decks.set(code, null);
  fetch(`/games/speakeasy/clues_${code}.json`, { cache: "no-cache" })
    .then((res) => (res.ok ? res.json() : null))
    .then((list) => { if (Array.isArray(list)) { decks.set(code, list); onLoad(); } })
    .catch(() => {});
}

/**
 * The clue's text in this phone's language when the table plays a built-in deck in another one
 * (the table's text until that deck has arrived; `rerender` runs when it does).
 * @param {{deck?: string}} settings the view's deck label @param {{id?: number | null, text?: string | null}} clue
 * @param {() => void} rerender
 * @returns {string | null}
 */
export function clueText(settings, clue, rerender) {
  const text = clue.text ?? null;
  const deck = settings.deck;
  const mine = lang();
  if (text === null || typeof clue.id !== "number" || !isLang(deck) || deck === mine) return text;
  if (!decks.has(mine)) fetchDeck(mine, rerender);
  return decks.get(mine)?.[clue.id] ?? text;
}
