// What every game module gets from the app, and small helpers the game screens share.
import { h } from "../dom.js";
import { num, t } from "../i18n.js";
import { seatNameNode } from "../ui.js";

/**
 * @typedef {import("../ui.js").LobbySeat} LobbySeat
 * @typedef {{ type: string, [field: string]: any }} WireAction
 */

/**
 * What the app hands a game module each time it draws.
 * @typedef {object} GameContext
 * @property {any} view the engine's view for this phone (own seat) or the public view
 * @property {WireAction[]} legal this seat's legal actions (wire form); [] for spectators
 * @property {number | null} seat own seat, null for spectators
 * @property {LobbySeat[]} seats the lobby's seats (names, colours, symbols)
 * @property {any[]} events the engine events of the change that made this state
 * @property {Node | null} timer a live countdown for the table's timer, or null
 * @property {string | null} timerLabel the timer's label key ("conspiracy", ...)
 * @property {{ unplugged?: boolean } | null} arcade the table's arcade board (lobby.arcade), if any
 * @property {(action: WireAction) => void} act
 * @property {(kind: string, fields?: Record<string, any>) => boolean} send any other message on the
 *   page's connection (a race press); false when offline
 * @property {boolean} pending an action was sent and its new state has not arrived yet
 * @property {() => void} rerender draw again (after a local choice such as a draft pick)
 */

/**
 * The contract every game's phone module meets (its default export).
 * @typedef {object} GameModule
 * @property {(ctx: GameContext) => Node} renderSeat
 * @property {(ctx: GameContext) => Node} renderPublic
 * @property {(ctx: GameContext) => Node} [renderHost] the host console's view of the game: ctx.legal
 *   holds what the table itself may do, ctx.act does it as the table
 * @property {(msg: { kind: string, [field: string]: any }) => void} [onMessage] server messages the
 *   app does not handle itself (e.g. press_result)
 * @property {readonly string[]} [buzzOn] engine event types after which the phone buzzes briefly (a reveal)
 * @property {(lobby: any) => Array<Node | string> | null} [lobbyNote] a note under the lobby's seats
 *   (the sentence's parts, as tn() gives them), or null
 */

/** @param {WireAction} a @param {WireAction} b */
export function sameAction(a, b) {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** Is `action` among the legal ones? @param {WireAction[]} legal @param {WireAction} action */
export function isLegal(legal, action) {
  return legal.some((a) => sameAction(a, action));
}

/** Any legal action of this type? @param {WireAction[]} legal @param {string} type */
export function hasType(legal, type) {
  return legal.some((a) => a.type === type);
}

/** @param {GameContext} ctx @param {number} seat @returns {LobbySeat} */
export function lobbySeat(ctx, seat) {
  return ctx.seats.find((s) => s.seat === seat) ?? { seat, colour: "#888888", colour_name: "grey", symbol: "circle", name: `#${seat + 1}` };
}

/** A big primary/secondary button. @param {string} label @param {() => void} onclick @param {{tone?: string, disabled?: boolean, testid?: string}} [opts] */
export function bigButton(label, onclick, opts = {}) {
  return h("button", {
    class: `btn btn-${opts.tone ?? "primary"} btn-big`, type: "button", disabled: opts.disabled,
    "data-testid": opts.testid, onclick,
  }, label);
}

/** Seats' names as one phrase ("Sara, Ali and Nok"), each name a direction-isolated node. @param {GameContext} ctx @param {number[]} seats */
export function nameList(ctx, seats) {
  /** @type {Array<Node | string>} */
  const out = [];
  seats.forEach((s, i) => {
    if (i > 0) out.push(i === seats.length - 1 ? t("common.and") : t("common.comma"));
    out.push(seatNameNode(lobbySeat(ctx, s)));
  });
  return h("span", { class: "names" }, ...out);
}

/** The table's arcade buttons were unplugged: races go on with the phones, so say it on every phone
 * of a game with races (the TV says it too). @param {GameContext} ctx */
export function boardNotice(ctx) {
  return ctx.arcade?.unplugged ? h("p", { class: "notice", role: "alert", "data-testid": "board-unplugged", text: t("race.board_unplugged") }) : null;
}

/**
 * A score-pad row's cells, first round first in the page's reading order (round 1 at the right on a
 * Persian phone, as its header says): each number isolated for direction in a cell of its own, so
 * a Persian "صفر" sits in its round's place like a digit does and every row lines up the same way.
 * @param {(number | null)[]} cells @param {string} [testid]
 */
export function padCells(cells, testid) {
  return h("span", { class: "row-state pad-cells", "data-testid": testid },
    ...cells.map((p) => h("bdi", { class: "pad-cell", text: p === null ? "–" : num(p) })));
}

/**
 * The pad's header row: a heading per round over its column ("R1", "د۱", "ร1") and one over the
 * totals (if any), so the rounds read in order in every language.
 * @param {number} rounds @param {string | null} [total] the totals column's heading (null: none)
 */
export function padHead(rounds, total = null) {
  return h("li", { class: "table-row pad-head", "data-testid": "pad-head" }, h("span", { class: "chip", "aria-hidden": "true" }),
    h("span", { class: "row-state pad-cells" }, ...Array.from({ length: rounds }, (_, i) =>
      h("bdi", { class: "pad-cell", text: t("pad.round_short", { n: num(i + 1) }) }))),
    total === null ? null : h("strong", { class: "row-bars", text: total }));
}
