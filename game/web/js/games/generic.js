// Fallback for a game whose phone module is not written yet: its phase, the timer and every legal
// action as a button, so the game stays playable from the phone.
import { h } from "../dom.js";
import { has, t } from "../i18n.js";
import { card } from "../ui.js";
import { lobbySeat } from "./common.js";

/** @typedef {import("./common.js").GameContext} GameContext */

/** A readable label for a wire action: "Vote: Sara". @param {GameContext} ctx @param {Record<string, any>} a */
function label(ctx, a) {
  const key = `action.${a.type}`;
  const parts = Object.entries(a).filter(([k]) => k !== "type").map(([k, value]) => {
    if (typeof value === "number" && /seat|target|victim|player/.test(k)) {
      const s = lobbySeat(ctx, value);
      return s.name || t(`colour.${s.colour_name}`);
    }
    return has(`value.${value}`) ? t(`value.${value}`) : String(value);
  });
  const name = has(key) ? t(key) : a.type.replace(/_/g, " ");
  return parts.length ? `${name}: ${parts.join(", ")}` : name;
}

/** @param {GameContext} ctx */
function header(ctx) {
  const phase = ctx.view?.phase;
  return h("div", { class: "status-bar" },
    h("div", { class: "status-text" }, h("h1", { class: "status-title", text: phase ? String(phase).replace(/_/g, " ") : "" })),
    ctx.timer);
}

/** @param {GameContext} ctx */
function renderSeat(ctx) {
  const buttons = ctx.legal.filter((a) => a.type !== "timeout").map((a) =>
    h("button", { class: "btn btn-primary btn-big", type: "button", disabled: ctx.pending, onclick: () => ctx.act(a) }, label(ctx, a)));
  return h("div", { class: "game generic" }, header(ctx),
    card(null, buttons.length ? h("div", { class: "stack" }, ...buttons) : h("p", { class: "muted", text: t("generic.wait") })),
    card(null, h("p", { class: "muted", text: t("generic.look_at_screen") })));
}

/** @param {GameContext} ctx */
function renderPublic(ctx) {
  return h("div", { class: "game generic" }, header(ctx), card(null, h("p", { class: "muted", text: t("generic.look_at_screen") })));
}

/** @type {import("./common.js").GameModule} */
export default { renderSeat, renderPublic };
