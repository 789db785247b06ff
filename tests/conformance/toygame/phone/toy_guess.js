// Toy Guess on the phone (a plug-in's module, served from its own folder at the path its catalog
// line names): pick 1, 2 or 3 (T1), buzz when the race runs (T3: the press names the view's text
// race key), see your pick and the scores (T2–T4).
import { h } from "../dom.js";
import { num, t } from "../i18n.js";
import { phoneNow } from "../net.js";
import { card, seatName } from "../ui.js";
import { bigButton, lobbySeat } from "./common.js";

/** @typedef {import("./common.js").GameContext} GameContext */

/** @param {GameContext} ctx */
function scores(ctx) {
  const list = /** @type {number[]} */ (ctx.view?.scores ?? []);
  return card(null, h("ul", { class: "plain-list", "data-testid": "toy-scores" }, ...list.map((n, seat) =>
    h("li", null, h("bdi", { text: seatName(lobbySeat(ctx, seat)) }), " ", t("toy_guess.score", { n })))));
}

/** The race this phone last buzzed in (one press a race). @type {string | null} */
let buzzed = null;

/** The buzz button while the race runs (T3): stamped on pointer-down, before anything else. @param {GameContext} ctx */
function buzzButton(ctx) {
  const race = /** @type {{id: string} | undefined} */ (ctx.view?.race);
  if (!race || ctx.seat === null) return null;
  const sent = buzzed === race.id;
  return h("button", {
    class: "btn btn-primary race-button", type: "button", "data-testid": "toy-buzz", disabled: sent,
    onpointerdown: (/** @type {PointerEvent} */ e) => {
      const stamp = phoneNow();
      e.preventDefault();
      if (buzzed !== race.id && ctx.send("press", { race: race.id, t: stamp })) {
        buzzed = race.id;
        ctx.rerender();
      }
    },
  }, sent ? t("toy_guess.buzzed") : t("toy_guess.buzz"));
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  const picks = ctx.legal.filter((a) => a.type === "pick");
  const mine = ctx.view?.me?.pick;
  const body = picks.length
    ? h("div", { class: "stack" }, h("p", { class: "lead", text: t("toy_guess.pick") }), ...picks.map((a) =>
      bigButton(num(a.number), () => ctx.act(a), { disabled: ctx.pending, testid: `toy-pick-${a.number}` })))
    : h("p", { class: "lead", "data-testid": "toy-waiting", text: mine ? t("toy_guess.picked", { n: mine }) : t("toy_guess.wait") });
  return h("div", { class: "game toy-guess" }, ctx.timer, buzzButton(ctx) ?? card(null, body), scores(ctx));
}

/** @param {GameContext} ctx */
function renderPublic(ctx) {
  return h("div", { class: "game toy-guess" }, card(null, h("p", { class: "muted", text: t("toy_guess.wait") })), scores(ctx));
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic };
