// A seated phone away during a kiosk's game: the other seated players may free its seat themselves
// (nobody at a café holds the host's PIN). Format: docs/protocol.md, "away" and "free_away".
import { h } from "../dom.js";
import { t, tn } from "../i18n.js";
import { seatChip } from "../ui.js";

/** @typedef {{seat: number, since_ms: number, agreed: number[], needed: number}} AwaySeat */

/**
 * One card per seat away long enough, shown above the game on the other seated phones: whose phone
 * left, what freeing the seat does, how many agree, and the button to agree (once).
 * @param {any} lobby the state's ``lobby`` @param {number} me this phone's seat
 * @param {(seat: number) => void} agree @returns {Node[]}
 */
export function awayCards(lobby, me, agree) {
  const away = /** @type {AwaySeat[]} */ (lobby?.away ?? []);
  return away.filter((q) => q.seat !== me).map((q) => {
    const seat = (lobby.seats ?? []).find((/** @type {any} */ s) => s.seat === q.seat);
    const mine = q.agreed.includes(me);
    return h("section", { class: "card away-card", role: "status", "data-testid": `away-${q.seat}` },
      h("p", { class: "lead" }, ...tn("away.title", { name: seatChip(seat) })),
      h("p", { class: "muted small", text: t(lobby.has_bots ? "away.body_bot" : "away.body_wait") }),
      h("button", {
        class: `btn ${mine ? "btn-ghost" : "btn-primary"}`, type: "button", disabled: mine,
        "data-testid": `free-away-${q.seat}`, onclick: () => agree(q.seat),
      }, mine ? t("away.agreed") : t("away.agree")),
      h("p", { class: "muted small", text: t("away.count", { n: q.agreed.length, needed: q.needed }) }));
  });
}
